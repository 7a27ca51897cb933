package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/say"
	"github.com/fray-vtt/fray/internal/testdb"
)

// wordsFight is an example encounter over the real server, a GM and a
// player who owns its first player character, every command said in
// words through POST …/say.
type wordsFight struct {
	t          *testing.T
	srv        *testServer
	id         string
	gm, player *apiUser
	pc         string
	rng        *rand.Rand
	step       int
}

func newWordsFight(t *testing.T, srv *testServer, tag string, setup []byte, pc string, seed uint64) *wordsFight {
	t.Helper()
	return newWordsFightAs(t, srv, srv.signup(tag+"-gm"), srv.signup(tag+"-player"), setup, pc, seed)
}

// newWordsFightAs is newWordsFight between accounts already made.
func newWordsFightAs(t *testing.T, srv *testServer, gm, player *apiUser, setup []byte, pc string, seed uint64) *wordsFight {
	t.Helper()
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", setup, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	srv.join(gm, created.Campaign, player, pc)
	return &wordsFight{t: t, srv: srv, id: created.ID, gm: gm, player: player, pc: pc, rng: rand.New(rand.NewPCG(seed, 46))}
}

// say sends text as u and fails the test on a server error.
func (f *wordsFight) say(u *apiUser, text string) sayReply {
	f.t.Helper()
	var reply sayReply
	f.step++
	code := f.srv.call(u, "POST", "/api/encounters/"+f.id+"/say", map[string]any{"id": fmt.Sprint("b", f.step), "text": text}, &reply)
	if code >= 500 || (code != http.StatusOK && reply.Message == "") {
		f.t.Fatalf("%s said %q: %d %+v", u.Name, text, code, reply)
	}
	return reply
}

// sentence is a command view offers, in words; "" when none.
func (f *wordsFight) sentence(v engine.View) string {
	f.t.Helper()
	v.Actions = slices.DeleteFunc(v.Actions, func(a engine.Action) bool {
		return a.Kind == engine.KindReveal || a.Kind == engine.KindRevealTimeout || a.Kind == engine.KindRevealHandout
	})
	v.Pending = slices.DeleteFunc(v.Pending, func(d engine.Decision) bool { return v.Viewer.PlayerOwned(d.For) })
	cmd := contractPick(f.rng, v, nil)
	if cmd == nil {
		return ""
	}
	raw, _ := json.Marshal(cmd)
	c, err := engine.DecodeCommand(raw)
	if err != nil {
		f.t.Fatal(err)
	}
	text, err := say.Sentence(v, c)
	if err != nil {
		f.t.Fatalf("%s has no words: %v", raw, err)
	}
	return text
}

// waitsOnPlayer reports whether the player's view has their turn or a
// question for them.
func waitsOnPlayer(v engine.View) bool {
	return len(v.Pending) > 0 || (v.Attention != nil && len(v.Attention.Turn) > 0)
}

// gmPlays has the GM say commands until the table waits on the player,
// the fight ends, or limit commands were said; it reports whether the
// table waits on the player.
func (f *wordsFight) gmPlays(limit int) bool {
	f.t.Helper()
	for range limit {
		gv := f.srv.viewAs(f.gm, f.id)
		if gv.Status == engine.StatusFinished {
			return false
		}
		pv := f.srv.viewAs(f.player, f.id)
		if slices.ContainsFunc(pv.Committed, func(c engine.Committed) bool { return c.Reveal }) {
			patience.Until(f.t, "the held answers to be revealed", func() bool { return f.srv.viewAs(f.gm, f.id).Seq != gv.Seq })
			continue
		}
		if waitsOnPlayer(pv) {
			return true
		}
		text := f.sentence(gv)
		if text == "" {
			patience.Until(f.t, "the table to move", func() bool { return f.srv.viewAs(f.gm, f.id).Seq != gv.Seq })
			continue
		}
		f.say(f.gm, text)
	}
	return waitsOnPlayer(f.srv.viewAs(f.player, f.id))
}

// axTree is the page's accessibility tree as Chromium exposes it to
// screen readers (DevTools' Accessibility.getFullAXTree).
type axTree struct {
	nodes []*accessibility.Node
	byID  map[accessibility.NodeID]*accessibility.Node
}

func readAXTree(t *testing.T, ctx context.Context) axTree {
	t.Helper()
	var nodes []*accessibility.Node
	steps(t, ctx, chromedp.ActionFunc(func(c context.Context) error {
		var err error
		nodes, err = accessibility.GetFullAXTree().Do(c)
		return err
	}))
	tr := axTree{nodes: nodes, byID: map[accessibility.NodeID]*accessibility.Node{}}
	for _, n := range nodes {
		tr.byID[n.NodeID] = n
	}
	return tr
}

func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) != nil {
		return strings.Trim(string(v.Value), `"`)
	}
	return s
}

// text is everything n's subtree reads as static text.
func (tr axTree) text(n *accessibility.Node) string {
	if axString(n.Role) == "StaticText" {
		return axString(n.Name)
	}
	var parts []string
	for _, id := range n.ChildIDs {
		if c := tr.byID[id]; c != nil {
			if s := tr.text(c); s != "" {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "")
}

// interactive are the roles a person operates: each must have a name.
var interactive = map[string]bool{"button": true, "link": true, "textbox": true, "combobox": true, "checkbox": true,
	"radio": true, "menuitem": true, "tab": true, "slider": true, "spinbutton": true, "listbox": true, "option": true,
	"switch": true, "searchbox": true, "menuitemcheckbox": true, "menuitemradio": true, "treeitem": true,
	"DisclosureTriangle": true, "DisclosureTriangleGrouped": true} // a <summary>

// unnamed lists the interactive nodes of the tree without a name.
func (tr axTree) unnamed() []string {
	var out []string
	for _, n := range tr.nodes {
		role := axString(n.Role)
		if n.Ignored || !interactive[role] || strings.TrimSpace(axString(n.Name)) != "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s (DOM node %d)", role, n.BackendDOMNodeID))
	}
	return out
}

// listener keeps what a screen reader heard from the page's live region:
// each line once, in order, by the DOM node that holds it (the region
// keeps its latest lines only, so it is read as the fight goes).
type listener struct {
	seen  map[int64]bool
	heard []string
	seqs  []int64 // the event each line reads out (its data-seq), 0 for another line
}

func (l *listener) listen(t *testing.T, ctx context.Context) axTree {
	t.Helper()
	tr := readAXTree(t, ctx)
	for _, line := range tr.announcements(t) {
		if l.seen[line.node] {
			continue
		}
		l.seen[line.node] = true
		l.heard = append(l.heard, line.text)
		var seq int64
		steps(t, ctx, chromedp.ActionFunc(func(c context.Context) error {
			n, err := dom.DescribeNode().WithBackendNodeID(cdp.BackendNodeID(line.node)).Do(c)
			if err != nil {
				return err
			}
			for i := 0; i+1 < len(n.Attributes); i += 2 {
				if n.Attributes[i] == "data-seq" {
					seq, _ = strconv.ParseInt(n.Attributes[i+1], 10, 64)
				}
			}
			return nil
		}))
		l.seqs = append(l.seqs, seq)
	}
	return tr
}

type announcement struct {
	node int64
	text string
}

// announcements are the lines the page's live region holds, in order.
func (tr axTree) announcements(t *testing.T) []announcement {
	t.Helper()
	var regions []*accessibility.Node
	for _, n := range tr.nodes {
		if axString(n.Name) == "Announcements" && axString(n.Role) == "log" {
			regions = append(regions, n)
		}
	}
	if len(regions) != 1 {
		t.Fatalf("%d live regions named Announcements, want one", len(regions))
	}
	var out []announcement
	for _, id := range regions[0].ChildIDs {
		if c := tr.byID[id]; c != nil {
			out = append(out, announcement{int64(c.BackendDOMNodeID), tr.text(c)})
		}
	}
	return out
}

// TestBrowserWordsReadOut reads the player's encounter page through
// Chromium's accessibility tree during a fight with a hidden combatant and
// sealed choices: every interactive element has a name, and the one live
// region's announcements hold each event of the player's log since the
// page opened once, in order, read out as say.Spoken words it — and
// nothing of the hidden combatant while it is hidden.
func TestBrowserWordsReadOut(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "5"})
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	// An example with sealed choices (an exchange's stances) and a hidden
	// combatant of its own.
	var ex prep.Example
	for _, e := range exs {
		var setup engine.Setup
		if e.Ruleset != "d20-duel" || json.Unmarshal(e.Data, &setup) != nil {
			continue
		}
		if slices.ContainsFunc(setup.Combatants, func(c engine.CombatantSetup) bool { return c.Hidden }) {
			ex = e
			break
		}
	}
	if ex.Name == "" {
		t.Fatal("no example with sealed choices and a hidden combatant")
	}
	setups, pc := unseenSetup(t, ex.Data)
	f := newWordsFight(t, srv, "readout", setups[0], pc, 5)
	f.say(f.gm, "start encounter")

	page := tab(t, newBrowser(t))
	login(t, page, srv.URL, f.player.Name)
	steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+f.id),
		chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
	from := f.srv.viewAs(f.player, f.id).Seq
	// The events as they reached the player live (a sealed answer of
	// theirs reads "has answered" then, its choice only in the log later).
	live := f.srv.connect(f.player, f.id, "")

	ear := &listener{seen: map[int64]bool{}}
	sealedSaid := 0
	// The page is listened to every few commands: the region keeps its
	// latest lines only, as a screen reader needs no more.
	for range 400 {
		if f.srv.viewAs(f.gm, f.id).Status == engine.StatusFinished {
			break
		}
		ok := f.gmPlays(4)
		ear.listen(t, page)
		if !ok {
			continue
		}
		pv := f.srv.viewAs(f.player, f.id)
		if text := f.sentence(pv); text != "" {
			if r := f.say(f.player, text); strings.Contains(r.Answer, "Sealed until") {
				sealedSaid++
			}
		}
	}
	if sealedSaid == 0 {
		t.Fatal("the player gave no sealed answer: the test would check nothing sealed")
	}

	var log struct{ Events []engine.Event }
	last := f.srv.viewAs(f.player, f.id).Seq
	live.waitSeq(last)
	got := map[int64]bool{}
	for _, raw := range live.all() {
		var fr struct {
			Events []engine.Event `json:"events"`
		}
		if err := json.Unmarshal(raw, &fr); err != nil {
			t.Fatal(err)
		}
		for _, ev := range fr.Events {
			if ev.Seq > from && !got[ev.Seq] {
				got[ev.Seq] = true
				log.Events = append(log.Events, ev)
			}
		}
	}
	slices.SortFunc(log.Events, func(a, b engine.Event) int { return int(a.Seq - b.Seq) })
	if len(log.Events) < 10 {
		t.Fatalf("only %d events for the player to hear", len(log.Events))
	}
	last = log.Events[len(log.Events)-1].Seq
	steps(t, page, chromedp.Poll(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.announced) >= %d`, last), nil,
		chromedp.WithPollingTimeout(patience.Hang())))
	keepScreenshot(page, "words-readout")

	tr := ear.listen(t, page)
	if bad := tr.unnamed(); len(bad) > 0 {
		t.Errorf("interactive elements without a name: %v", bad)
	}
	// Every token the player may see is something to operate, named by
	// its combatant (the roster's buttons: the drawing is aria-hidden).
	for _, c := range f.srv.viewAs(f.player, f.id).Combatants {
		if !slices.ContainsFunc(tr.nodes, func(n *accessibility.Node) bool {
			return !n.Ignored && interactive[axString(n.Role)] && strings.Contains(axString(n.Name), c.Name)
		}) {
			t.Errorf("no control on the page is named for %s", c.Name)
		}
	}
	heard := ear.heard
	names := map[string]string{}
	for _, c := range f.srv.viewAs(f.player, f.id).Combatants {
		names[c.ID] = c.Name
	}
	// The GM's log says when the hidden combatant was revealed, if it was.
	revealed := int64(1<<63 - 1)
	var gmLog struct{ Events []engine.Event }
	f.srv.call(f.gm, "GET", "/api/encounters/"+f.id+"/events?since=0", nil, &gmLog)
	for _, ev := range gmLog.Events {
		var d engine.Revealed
		if ev.Kind == engine.KindRevealed && ev.Decode(&d) == nil && d.Combatant == unseenCombatant {
			revealed = ev.Seq
		}
	}
	// What the page's log shows of each event, as its entry words it for
	// the announcements: say.Spoken of the event as it reached the page. (A
	// sealed answer of the player's own may read "has answered" then, and
	// its choice in a frame projected later: the page's is what they saw.)
	var onPage map[string]string
	steps(t, page, chromedp.Evaluate(`Object.fromEntries([...document.querySelectorAll('li[id^="ev-"]')].map(li => [li.id.slice(3), li.dataset.spoken || '']))`, &onPage))
	// Each event is read out once, in order: the lines that read events
	// out name them in the order of the log, each once, with the page's
	// words for it.
	var order []int64
	for k, seq := range ear.seqs {
		if seq == 0 {
			continue
		}
		order = append(order, seq)
		if want := onPage[fmt.Sprint(seq)]; heard[k] != want {
			t.Errorf("line %d reads event %d as %q, the page's log as %q", k, seq, heard[k], want)
		}
		if seq < revealed {
			if l := leak([]byte(heard[k])); l != "" {
				t.Errorf("before the reveal the page read out the hidden combatant: %s", l)
			}
		}
	}
	for k, line := range heard {
		if ear.seqs[k] == 0 && revealed == int64(1<<63-1) {
			if l := leak([]byte(line)); l != "" {
				t.Errorf("the page read out the hidden combatant: %s", l)
			}
		}
	}
	var want []int64
	for _, ev := range log.Events {
		want = append(want, ev.Seq)
		if _, ok := onPage[fmt.Sprint(ev.Seq)]; !ok {
			t.Errorf("event %d is not in the page's log", ev.Seq)
		} else if alt := say.Spoken(ev, names); onPage[fmt.Sprint(ev.Seq)] != alt && ev.Kind != engine.KindDecisionAnswered {
			t.Errorf("the page words event %d %q, say.Spoken %q", ev.Seq, onPage[fmt.Sprint(ev.Seq)], alt)
		}
	}
	if !slices.Equal(order, want) {
		t.Errorf("events read out in the order %v, the log's is %v", order, want)
	}
	t.Logf("%d events heard in order among %d announcements; %d sealed answers said", len(log.Events), len(heard), sealedSaid)
}

// TestBrowserKeyboardTurnByWords plays, for every ruleset, a whole turn of
// the player's (their actions, or the questions put to them, until the
// table no longer waits on them) with the keyboard alone, on the page's
// command line: "/" to reach it, the sentence typed, Enter.
func TestBrowserKeyboardTurnByWords(t *testing.T) {
	// Two accounts and a log-in for every ruleset: more than a burst of
	// log-ins, refilled at once.
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "8", "FRAY_LOGIN_REFILL": "1ms"})
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	browser := newBrowser(t)
	// One GM and one player for every ruleset: sign-ups are rate-limited.
	gm, player := srv.signup("keys-gm"), srv.signup("keys-player")
	done := map[string]bool{}
	for i, ex := range exs {
		if done[ex.Ruleset] {
			continue
		}
		done[ex.Ruleset] = true
		t.Run(ex.Ruleset, func(t *testing.T) {
			s := *srv
			s.t = t
			pc := setupPC(t, ex.Data)
			f := newWordsFightAs(t, &s, gm, player, ex.Data, pc, uint64(i))
			f.say(f.gm, "start encounter")
			if !f.gmPlays(300) {
				t.Fatal("the table never waited on the player")
			}
			page := tab(t, browser)
			login(t, page, srv.URL, f.player.Name)
			steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+f.id),
				chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
			said, acted := 0, false
			var typed []string
			for said < 8 {
				pv := f.srv.viewAs(f.player, f.id)
				if slices.ContainsFunc(pv.Committed, func(c engine.Committed) bool { return c.Reveal }) {
					patience.Until(t, "the held answers to be revealed", func() bool { return f.srv.viewAs(f.player, f.id).Seq != pv.Seq })
					continue
				}
				if !waitsOnPlayer(pv) {
					break
				}
				text := f.turnSentence(pv, acted)
				if text == "" {
					t.Fatalf("nothing to say, though the table waits on the player: %+v", pv.Attention)
				}
				if answer, refused := typeSentence(t, page, text); refused {
					t.Fatalf("%q typed on the page was refused: %s", text, answer)
				}
				said++
				typed = append(typed, text)
				acted = acted || len(pv.Pending) == 0
				patience.Until(t, "the command to land", func() bool { return f.srv.viewAs(f.player, f.id).Seq != pv.Seq })
			}
			if said == 0 || waitsOnPlayer(f.srv.viewAs(f.player, f.id)) {
				t.Fatalf("after %d sentences typed the table still waits on the player", said)
			}
			t.Logf("%s: a turn in %d typed sentences: %q", ex.Name, said, typed)
		})
	}
	for _, rs := range rules.Registry().All() {
		if !done[rs.ID()] {
			t.Errorf("no turn of %s was played by keyboard", rs.ID())
		}
	}
}

// turnSentence is what the player types next in their turn: the answer to
// a question put to them (its first option), else one action (a main one
// that does not end the turn) and then the action that ends it.
func (f *wordsFight) turnSentence(v engine.View, acted bool) string {
	f.t.Helper()
	var c engine.Command
	switch {
	case len(v.Pending) > 0:
		d := v.Pending[0]
		args := map[string]any{"decision": d.ID, "choice": d.Options[0].Value}
		if len(d.Fields) > 0 {
			args["values"] = enginetest.Values(f.rng, d.Fields)
		}
		c = engine.NewCommand(engine.KindAnswer, "", args)
	default:
		i := slices.IndexFunc(v.Actions, func(a engine.Action) bool { return a.EndsTurn })
		if !acted || i < 0 {
			if j := slices.IndexFunc(v.Actions, func(a engine.Action) bool { return a.Main && !a.EndsTurn && a.Actor != "" }); j >= 0 {
				i = j
			}
		}
		if i < 0 {
			return ""
		}
		a := v.Actions[i]
		c = engine.NewCommand(a.Kind, a.Actor, enginetest.Values(f.rng, a.Fields))
	}
	text, err := say.Sentence(v, c)
	if err != nil {
		f.t.Fatal(err)
	}
	return text
}

// setupPC is the id of the first player character of an example's setup.
func setupPC(t *testing.T, data []byte) string {
	t.Helper()
	var setup engine.Setup
	if err := json.Unmarshal(data, &setup); err != nil {
		t.Fatal(err)
	}
	for _, c := range setup.Combatants {
		if c.PC {
			return c.ID
		}
	}
	return ""
}
