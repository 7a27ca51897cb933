package web

import (
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fray-vtt/fray/internal/engine"
)

func testLinks() HistoryLinks {
	return HistoryLinks{
		Encounter: "/encounters/enc-1", Log: "/encounters/enc-1/log", Replay: "/encounters/enc-1/replay",
		ExportJSON: "/api/encounters/enc-1/export.json", ExportMD: "/encounters/enc-1/export.md", Timeline: "/campaigns/c-1/timeline",
	}
}

func rewindEvent(seq int64, undone ...int64) engine.Event {
	ev := engine.NewEvent(engine.KindRewound, "", "The GM undoes the last action.", engine.Rewound{To: undone[0] - 1, Undone: undone})
	ev.Seq, ev.Round = seq, 2
	return ev
}

func TestLogMarksUndoneEntries(t *testing.T) {
	events := append(testLog(), rewindEvent(8, 7))
	s := renderString(t, logEntries(events, namesOf(testView().Combatants), true))
	doc := parseHTML(t, s)
	undone := byID(doc, "ev-7")
	if !hasClass(undone, "undone") || !strings.Contains(text(undone), "undone") {
		t.Fatalf("the undone entry is not marked: %s", s)
	}
	if hasClass(byID(doc, "ev-5"), "undone") {
		t.Fatal("an entry not undone is marked")
	}
	if got := mustAttr(byID(doc, "ev-8"), "data-undone"); got != "7" {
		t.Fatalf("the rewind's data-undone is %q", got)
	}
	// A live batch with only the rewind marks nothing itself: the script
	// marks the entries already on the page from data-undone.
	one := renderString(t, logEntries(events[len(events)-1:], nil, false))
	if strings.Contains(one, `class="entry kind-fight`) || !strings.Contains(one, `data-undone="7"`) {
		t.Fatalf("live rewind entry: %s", one)
	}
}

func TestEncounterLogPage(t *testing.T) {
	v := testView()
	v.Viewer = engine.GMViewer()
	decision := engine.NewEvent(engine.KindDecisionOpened, "", "Waiting for the GM: Allow it?",
		engine.DecisionOpened{Decision: engine.Decision{ID: "d9", For: engine.GM, Prompt: "Allow it?", Data: json.RawMessage(`{"note":1}`)}})
	decision.Seq, decision.Round = 9, 2
	p := LogProps{
		View: v, Links: testLinks(), Entries: append(append(testLog(), rewindEvent(8, 7)), decision), Undone: map[int64]bool{7: true},
		CanReveal: true, Revealed: map[int64]bool{9: true}, RevealURL: "/encounters/enc-1/log/reveal",
		Characters: []engine.Choice{{Value: "ana", Label: "Ana Vega"}}, Rounds: 2, Round: 2,
		Next: "/encounters/enc-1/log?after=9&round=2", Notice: "Event 7 is now visible to the players.",
	}
	s, doc := checkedPage(t, "gm", EncounterLog(p), p.Links.Log)
	// The secret, unrevealed fight can be revealed; the revealed decision says so.
	reveal := forms(doc, p.RevealURL)
	if len(reveal) != 1 || mustAttr(byID(doc, "reveal-7"), "type") != "submit" {
		t.Fatalf("%d reveal forms", len(reveal))
	}
	contains(t, "the revealed event", text(byID(doc, "ev-9")), "revealed to players")
	contains(t, "log page", s, `href="/encounters/enc-1/replay?seq=5"`, `id="log-more"`, `id="filter-clear"`, `id="flash-notice"`, `<option value="2" selected>`)
	// A player gets no reveal control.
	p.CanReveal, p.View.Viewer = false, engine.PlayerViewer("ana")
	_, doc = checkedPage(t, "ana", EncounterLog(p), p.Links.Log)
	if len(forms(doc, p.RevealURL)) != 0 {
		t.Fatal("a player may reveal")
	}
}

func TestReplayPage(t *testing.T) {
	v := testView()
	ev := testLog()[2]
	p := ReplayProps{View: v, Links: testLinks(), As: "ana", Seq: 5, Latest: 7, Event: &ev, Log: testLog()[:3], Prev: 4, Next: -1}
	s, doc := checkedPage(t, "ana", Replay(p), p.Links.Replay)
	if len(findAll(doc, func(n *html.Node) bool {
		return n.Data == "form" && mustAttr(n, "method") == "post" && mustAttr(n, "action") != "/logout"
	})) != 0 {
		t.Fatal("the replay offers actions or answers")
	}
	if mustAttr(byID(doc, "replay-prev"), "href") != "/encounters/enc-1/replay?seq=4" || byID(doc, "replay-next").Data != "span" {
		t.Fatalf("step links: %s", s)
	}
	if byID(doc, "replay-first").Data != "a" || mustAttr(byID(doc, "replay-last"), "href") != "/encounters/enc-1/replay?seq=7" {
		t.Fatal("first and last links")
	}
	if !strings.Contains(text(byID(doc, "step")), "Bruno shoots the Thug.") || byID(doc, "battlefield") == nil {
		t.Fatal("the step or the battlefield is missing")
	}
	p.Event, p.Hidden = nil, true
	_, doc = page(t, "ana", Replay(p))
	contains(t, "a hidden step", text(byID(doc, "step")), "may not see")
}

func TestTimelinePage(t *testing.T) {
	p := TimelineProps{CampaignID: "c-1", Name: "Westward", Entries: []TimelineEntry{{
		ID: "e-1", Name: "Dusty Gulch", Ruleset: "sw-zones", Status: "finished", Date: "1 Mar 2026, 20:00 UTC", DateISO: "2026-03-01T20:00:00Z",
		Events: 42, Sides: []TimelineSide{{Name: "The posse", Class: "side-0", Members: []string{"Ana", "Bruno"}}},
		Outcome: "The posse win", Fell: []Fallen{{Name: "Jed", Side: "The gang", Reason: "incapacitated"}}, Links: testLinks(),
	}, {ID: "e-2", Name: "Second", Status: "setup", Links: testLinks()}}}
	_, doc := checkedPage(t, "gm", Timeline(p))
	first := byID(doc, "tl-e-1")
	contains(t, "timeline entry", text(first), "Dusty Gulch", "Ana, Bruno", "The posse win", "Jed (The gang): incapacitated", "42 events")
	contains(t, "unfinished entry", text(byID(doc, "tl-e-2")), "Not decided yet", "Nobody")
}
