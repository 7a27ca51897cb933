package d20tactical

import (
	"encoding/json"
	"testing"
)

// The skirmish most scenario tests use, on an open 20 × 10 grid:
//   - ana (hero, a player character) at 2,2;
//   - bo (foe) at 3,2, next to ana;
//   - cy (foe) at 10,2, 40 ft from ana.
//
// Every ability is 10 (no modifiers), base attack +2, Defense 10, 20 hit
// points. Initiative faces 20, 10, 5 give the order ana, bo, cy.
func skirmishSetup(opts map[string]string, bf json.RawMessage, mods ...func(*[]spec)) []spec {
	specs := []spec{
		{ID: "ana", Side: "heroes", X: 2, Y: 2, PC: true},
		{ID: "bo", Side: "foes", X: 3, Y: 2},
		{ID: "cy", Side: "foes", X: 10, Y: 2},
	}
	for _, m := range mods {
		m(&specs)
	}
	return specs
}

// skirmish returns the skirmish started, on ana's turn. with changes the
// specs first.
func skirmish(t *testing.T, opts map[string]string, with ...func([]spec)) *State {
	t.Helper()
	return skirmishOn(t, opts, field(20, 10), with...)
}

func skirmishOn(t *testing.T, opts map[string]string, bf json.RawMessage, with ...func([]spec)) *State {
	t.Helper()
	specs := skirmishSetup(opts, bf)
	for _, w := range with {
		w(specs)
	}
	_, st := start(t, newState(t, newSetup(opts, bf, specs...)), 20, 10, 5)
	if st.Current() != "ana" {
		t.Fatalf("want ana's turn, got %q", st.Current())
	}
	return st
}

// stat sets a stat of combatant i.
func stat(i int, key string, v any) func([]spec) {
	return func(s []spec) {
		if s[i].Stats == nil {
			s[i].Stats = map[string]any{}
		}
		s[i].Stats[key] = v
	}
}

// at moves combatant i's start.
func at(i, x, y int) func([]spec) {
	return func(s []spec) { s[i].X, s[i].Y = x, y }
}

// posture sets combatant i's starting posture.
func posture(i int, p string) func([]spec) {
	return func(s []spec) { s[i].Posture = p }
}
