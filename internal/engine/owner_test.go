package engine_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

// gmOfSam is a GM whose campaign's player Sam owns the hero.
var gmOfSam = engine.Viewer{GM: true, Players: map[string]string{"hero": "Sam"}}

// TestPlayersDecisionsAreTheirs: a decision for a player's character is
// not among the GM's one-click answers: the GM sees it as waiting on Sam,
// a plain answer and accept-defaults are refused and change nothing, the
// player is asked for it; the GM takes it over only with override, and the
// log says so.
func TestPlayersDecisionsAreTheirs(t *testing.T) {
	g := newGame(t, withOptions(map[string]string{"ripostes": "on", "hp": "5"}))
	g.do(gm, "start", "", nil)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6)
	riposte := g.st.Core().Pending[0]
	// The orc is the GM's: answered with one click, as before.
	g.do(gmOfSam, "answer", "", map[string]any{"decision": riposte.ID, "choice": "yes"}, 5)
	counter := g.st.Core().Pending
	if len(counter) != 1 || counter[0].For != "hero" || counter[0].Default == "" {
		t.Fatalf("no counter for the hero: %+v", counter)
	}
	id := counter[0].ID

	gv := engine.Project(enginetest.Toy{}, g.st, gmOfSam)
	if len(gv.Pending) != 1 || len(gv.Awaiting) != 1 || gv.Awaiting[0].Player != "Sam" || gv.Awaiting[0].Decision.ID != id {
		t.Fatalf("GM view: pending %+v awaiting %+v", gv.Pending, gv.Awaiting)
	}
	if want := "Sam (Strike back at orc?)"; !slices.Contains(gv.Waiting, want) {
		t.Fatalf("GM waiting %q, want %q", gv.Waiting, want)
	}
	if slices.Contains(actionKinds(gv), engine.KindAcceptDefaults) {
		t.Fatalf("accept-defaults offered for a player's decision: %v", actionKinds(gv))
	}
	if gv.Attention != nil {
		t.Fatalf("the GM's attention while a player decides: %+v", gv.Attention)
	}
	pv := engine.Project(enginetest.Toy{}, g.st, heroPl)
	if len(pv.Pending) != 1 || pv.Attention == nil || !slices.Equal(pv.Attention.Decisions, []string{id}) || len(pv.Awaiting) != 0 {
		t.Fatalf("player view: pending %+v attention %+v awaiting %+v", pv.Pending, pv.Attention, pv.Awaiting)
	}

	before := snap(t, g.st)
	for _, c := range []struct {
		name string
		v    engine.Viewer
		kind string
		args map[string]any
		code string
	}{
		{"GM's plain answer", gmOfSam, "answer", map[string]any{"decision": id, "choice": "yes"}, fray.EFORBIDDEN},
		{"GM's accept-defaults", gmOfSam, engine.KindAcceptDefaults, nil, fray.EILLEGAL},
		{"player's override", heroPl, "answer", map[string]any{"decision": id, "choice": "yes", "override": true}, fray.EFORBIDDEN},
		{"other player's override", orcPl, "answer", map[string]any{"decision": id, "choice": "yes", "override": true}, fray.EFORBIDDEN},
	} {
		if _, err := g.try(c.v, c.kind, "", c.args); fray.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
		if snap(t, g.st) != before {
			t.Fatalf("%s changed the state", c.name)
		}
	}

	evs := g.do(gmOfSam, "answer", "", map[string]any{"decision": id, "choice": "no", "override": true})
	if evs[0].Kind != engine.KindDecisionResolved || evs[0].Text != "The GM decided for Sam: Hero: Strike back at orc?: Let it go" {
		t.Fatalf("override logged as %q", evs[0].Text)
	}
	var data engine.DecisionResolved
	if err := json.Unmarshal(evs[0].Data, &data); err != nil || data.DecidedFor != "Sam" || data.By != engine.GM {
		t.Fatalf("override data %+v %v", data, err)
	}
	if g.st.Core().Waiting() {
		t.Fatal("still waiting after the override")
	}
	if pv := engine.Project(enginetest.Toy{}, g.st, heroPl); pv.Attention == nil || !slices.Equal(pv.Attention.Turn, []string{"hero"}) {
		t.Fatalf("the hero's turn goes unnoticed: %+v", pv.Attention)
	}
	g.replayMatches()
}

// TestDecideForKeepsSealedChoicesSealed: the GM deciding for a player in a
// sealed choice announces that it did, never what; the choice reaches no
// other player until the reveal.
func TestDecideForKeepsSealedChoicesSealed(t *testing.T) {
	g := newGame(t, withOptions(nil))
	g.do(gm, "start", "", nil)
	g.do(heroPl, "duel", "hero", map[string]any{"target": "orc"})
	var heroDecision string
	for _, d := range g.st.Core().Pending {
		if d.For == "hero" {
			heroDecision = d.ID
		}
	}
	if _, err := g.try(gmOfSam, "answer", "", map[string]any{"decision": heroDecision, "choice": "bold"}); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("GM's plain answer to a sealed player choice: %v", err)
	}
	evs := g.do(gmOfSam, "answer", "", map[string]any{"decision": heroDecision, "choice": "bold", "override": true})
	if len(evs) != 2 || evs[0].Text != "The GM decided for Sam: Hero has answered." {
		t.Fatalf("sealed override: %v %q", kinds(evs), evs[0].Text)
	}
	for _, ev := range engine.FilterEvents(g.st, orcPl, evs) {
		if strings.Contains(strings.ToLower(ev.Text), "bold") || strings.Contains(string(ev.Data), "bold") {
			t.Fatalf("the orc's player sees the sealed choice: %+v", ev)
		}
	}
	if gv := engine.Project(enginetest.Toy{}, g.st, gmOfSam); len(gv.Awaiting) != 0 {
		t.Fatalf("an answered sealed choice still awaits: %+v", gv.Awaiting)
	}
}

// TestGMWithoutPlayersAnswersAsBefore: a GM viewer that knows of no
// player owning a character answers every decision with one click.
func TestGMWithoutPlayersAnswersAsBefore(t *testing.T) {
	g := newGame(t, withOptions(map[string]string{"ripostes": "on", "hp": "5"}))
	g.do(gm, "start", "", nil)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6)
	g.do(gm, "answer", "", map[string]any{"decision": g.st.Core().Pending[0].ID, "choice": "yes"}, 5)
	evs := g.do(gm, engine.KindAcceptDefaults, "", nil)
	if evs[0].Kind != engine.KindDecisionResolved || strings.Contains(evs[0].Text, "decided for") {
		t.Fatalf("accept-defaults without players: %v %q", kinds(evs), evs[0].Text)
	}
	if gm.Key() == gmOfSam.Key() {
		t.Fatal("GM viewers that differ in their players share a key")
	}
}

// TestAcceptDefaultsOverride: accept-defaults with override (a deadline's
// fallback) answers the players' decisions too, each logged as decided for
// its player.
func TestAcceptDefaultsOverride(t *testing.T) {
	g := newGame(t, withOptions(map[string]string{"ripostes": "on", "hp": "5"}))
	g.do(gm, "start", "", nil)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6)
	g.do(gmOfSam, "answer", "", map[string]any{"decision": g.st.Core().Pending[0].ID, "choice": "yes"}, 5)
	evs := g.do(gmOfSam, engine.KindAcceptDefaults, "", map[string]any{"override": true})
	if evs[0].Text != "The GM decided for Sam: Hero: Strike back at orc?: Let it go" || g.st.Core().Waiting() {
		t.Fatalf("accept-defaults with override: %v %q", kinds(evs), evs[0].Text)
	}
	g.replayMatches()
}
