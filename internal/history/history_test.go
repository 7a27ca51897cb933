package history_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// fought is a toy encounter played to its end: the hero and the orc pass,
// the hidden spy hits the hero (a secret event), the GM ends it.
type fought struct {
	svc       *history.Service
	campaign  string
	id        string
	secretSeq int64
}

func fight(t *testing.T) fought {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	rules := engine.NewRegistry(enginetest.Toy{})
	c, err := db.CreateCampaign(ctx, "Campaign")
	if err != nil {
		t.Fatal(err)
	}
	setup, _ := json.Marshal(enginetest.Setup())
	e, err := prep.Import(ctx, db, rules, c.ID, setup)
	if err != nil {
		t.Fatal(err)
	}
	table := play.New(play.Config{Store: db, Rulesets: rules, Publisher: play.PublisherFunc(func(play.Update) {}),
		NewSource: func() dice.Source { return dice.NewSeeded(1) }})
	defer table.Close()
	f := fought{svc: history.New(db, rules), campaign: c.ID, id: e.ID}
	gm := play.Sender{Viewer: engine.GMViewer()}
	for i, cmd := range []engine.Command{
		engine.NewCommand(engine.KindStart, "", nil),
		engine.NewCommand("end-turn", "hero", nil),
		engine.NewCommand("end-turn", "orc", nil),
		engine.NewCommand("hit", "spy", map[string]any{"target": "hero"}),
		engine.NewCommand(engine.KindEnd, "", nil),
	} {
		seq, err := table.Submit(ctx, e.ID, gm, "c"+string(rune('0'+i)), cmd)
		if err != nil {
			t.Fatalf("%s: %v", cmd.Kind, err)
		}
		if cmd.Kind == "hit" {
			f.secretSeq = seq
		}
	}
	return f
}

// reading is the encounter now for viewer.
func (f fought) reading(t *testing.T, viewer engine.Viewer) history.Reading {
	t.Helper()
	rs, st, err := f.svc.Latest(context.Background(), f.id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Core().Status != engine.StatusFinished {
		t.Fatalf("the stored state is %s, not finished", st.Core().Status)
	}
	return history.Reading{ID: f.id, Campaign: f.campaign, Ruleset: rs, State: st, Viewer: viewer}
}

// Every history read shows the player what their live page could: not
// the hidden spy, not its secret hit; the GM sees both.
func TestHistoryKeepsSecrets(t *testing.T) {
	f := fight(t)
	ctx := context.Background()
	gm, hero := f.reading(t, engine.GMViewer()), f.reading(t, engine.PlayerViewer("hero"))

	tl, err := f.svc.Timeline(ctx, f.campaign, history.Member{Characters: []string{"hero"}})
	if err != nil || len(tl) != 1 {
		t.Fatalf("the player's timeline: %v, %v", tl, err)
	}
	if e := tl[0]; e.ID != f.id || e.Status != engine.StatusFinished || e.Outcome == "" || strings.Contains(names(e.Sides), "Spy") {
		t.Fatalf("the player's timeline entry: %+v", e)
	}
	tl, _ = f.svc.Timeline(ctx, f.campaign, history.Member{GM: true})
	if !strings.Contains(names(tl[0].Sides), "Spy") {
		t.Fatalf("the GM's timeline lacks the spy: %+v", tl[0].Sides)
	}

	mine, err := f.svc.Log(ctx, hero, history.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := f.svc.Log(ctx, gm, history.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if has(mine.Entries, f.secretSeq) || !has(all.Entries, f.secretSeq) || len(mine.Entries) >= len(all.Entries) {
		t.Fatalf("the secret hit at %d: player's log %d entries, GM's %d", f.secretSeq, len(mine.Entries), len(all.Entries))
	}
	if _, err := f.svc.Log(ctx, hero, history.LogFilter{Who: "spy"}); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("a player filtering by the hidden spy: %v", err)
	}
	if byHero, _ := f.svc.Log(ctx, gm, history.LogFilter{Who: "hero"}); !has(byHero.Entries, f.secretSeq) {
		t.Fatal("the GM's log of the hero lacks the hit on him")
	}

	step, err := f.svc.Replay(ctx, hero, f.secretSeq)
	if err != nil || !step.Hidden || step.Event != nil || step.Next < 0 {
		t.Fatalf("the player's replay of the secret hit: %+v, %v", step, err)
	}
	step, err = f.svc.Replay(ctx, gm, f.secretSeq)
	if err != nil || step.Event == nil || step.Event.Seq != f.secretSeq || len(step.View.Actions) != 0 {
		t.Fatalf("the GM's replay of the secret hit: %+v, %v", step, err)
	}
	if last, _ := f.svc.Replay(ctx, gm, -1); last.Seq != last.Latest || last.Next != -1 {
		t.Fatalf("the last step: %+v", last)
	}

	doc, err := f.svc.Export(ctx, hero)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Setup != nil || doc.Initial != nil || has(doc.Events, f.secretSeq) {
		t.Fatal("the player's export holds the setup, the initial state or the secret hit")
	}
	for _, c := range doc.Combatants {
		if c.ID == "spy" {
			t.Fatal("the player's export names the hidden spy")
		}
	}
	md := history.Markdown(doc)
	if !strings.Contains(md, "**Report for:** Hero") || strings.Contains(md, "spy") || strings.Contains(md, "Spy") {
		t.Fatalf("the player's report:\n%s", md)
	}
	doc, _ = f.svc.Export(ctx, gm)
	if doc.Setup == nil || !has(doc.Events, f.secretSeq) || !strings.Contains(history.Markdown(doc), "*(secret)*") {
		t.Fatal("the GM's export lacks the setup or the secret hit")
	}
}

func names(sides []history.TimelineSide) string {
	var out []string
	for _, s := range sides {
		out = append(out, s.Members...)
	}
	return strings.Join(out, ",")
}

func has(events []engine.Event, seq int64) bool {
	for _, ev := range events {
		if ev.Seq == seq {
			return true
		}
	}
	return false
}

func TestExportFilename(t *testing.T) {
	for name, want := range map[string]string{
		"Goblin Ambush at the Ford!": "fray-goblin-ambush-at-the-ford-12345678.md",
		"***":                        "fray-encounter-12345678.md",
		strings.Repeat("ab ", 40):    "fray-" + strings.TrimSuffix(strings.Repeat("ab-", 20), "-") + "-12345678.md",
	} {
		doc := history.Export{Encounter: history.ExportedEncounter{ID: "1234567890", Name: name}}
		if got := doc.Filename("md"); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
}
