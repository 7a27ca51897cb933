package d20under

import (
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// The GM's commands as a client sends them: the advertised action's
// fields filled in, in one JSON object with the envelope's kind (issue:
// place-trap's "kind" field collided with the envelope's).

// advertised is the GM's action of kind in st.
func advertised(t *testing.T, st *State, kind string) engine.Action {
	t.Helper()
	for _, a := range engine.Project(New(), st, gm).Actions {
		if a.Kind == kind {
			return a
		}
	}
	t.Fatalf("%s is not offered", kind)
	return engine.Action{}
}

// onTheWire is the command a client sends for action a with values: the
// fields' defaults (or first options) overridden by values, encoded as
// one object and decoded as the server does.
func onTheWire(t *testing.T, a engine.Action, values map[string]any) engine.Command {
	t.Helper()
	obj := map[string]any{}
	for _, f := range a.Fields {
		if f.Name == "kind" || f.Name == "actor" {
			t.Fatalf("%s offers a field named like the envelope's %q", a.Kind, f.Name)
		}
		switch {
		case f.Default != "":
			obj[f.Name] = f.Default
			if f.Type == engine.FieldNumber {
				var n int
				_ = json.Unmarshal([]byte(f.Default), &n)
				obj[f.Name] = n
			}
		case len(f.Options) > 0:
			obj[f.Name] = f.Options[0].Value
		}
	}
	for k, v := range values {
		obj[k] = v
	}
	obj["kind"] = a.Kind
	if a.Actor != "" {
		obj["actor"] = a.Actor
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.DecodeCommand(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func offers(a engine.Action, field, value string) bool {
	for _, f := range a.Fields {
		if f.Name == field {
			for _, o := range f.Options {
				if o.Value == value {
					return true
				}
			}
		}
	}
	return false
}

// Seed (Traps): a trapper readies mechanical traps and alchemical mines
// and crafts improvised traps; a trap's damage is its die [B: mechanical
// 1d10 and holds, mine 1d12, improvised 1d6]. Each kind, placed through
// the advertised command, springs on a mover who does not spot it.
func TestGMHidesEveryTrapKindThroughTheAPI(t *testing.T) {
	for _, tc := range []struct {
		trap      string
		faces     []int // ana's [Vigilant 10 ← Discreet 10]: 11 misses it; then the trap's damage
		toughness int
		caught    bool
	}{
		{TrapMechanical, []int{11, 3}, 7, true},
		{TrapMine, []int{11, 12}, 0, false},
		{TrapImprovised, []int{11, 6}, 4, true},
	} {
		t.Run(tc.trap, func(t *testing.T) {
			st := corridorWithoutTrap(t)
			a := advertised(t, st, GMPlaceTrap)
			if !offers(a, "square", "3,1") || offers(a, "square", "3,0") || offers(a, "square", "1,1") {
				t.Fatalf("offered squares: open and empty only: %+v", a.Fields[0].Options)
			}
			_, st = do(t, st, gm, onTheWire(t, a, map[string]any{"square": "3,1", "trap": tc.trap, "holds": tc.caught}))
			eq(t, "placed", st.Traps[0].Kind, tc.trap)
			eq(t, "its die", st.Traps[0].Die, trapKinds[tc.trap].Die)
			_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), tc.faces...)
			eq(t, "damage", st.Fighters["ana"].Toughness, tc.toughness)
			eq(t, "held", st.Fighters["ana"].Caught != "", tc.caught)
		})
	}
}

// corridorWithoutTrap is the corridor before the GM hides its trap.
func corridorWithoutTrap(t *testing.T) *State {
	t.Helper()
	var cells []map[string]any
	for x := 0; x < 12; x++ {
		for _, y := range []int{0, 2} {
			cells = append(cells, map[string]any{"x": x, "y": y, "props": map[string]any{"terrain": "wall"}})
		}
	}
	return begin(t, newState(t, gridSetup(noCrit, 12, 3, cells,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12, Vigilant: 10, Accurate: 12},
			Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 0, Y: 1, Attr: map[string]int{Quick: 11, Cunning: 10}},
		spec{ID: "orc", Side: "foes", X: 11, Y: 1, Attr: map[string]int{Quick: 10}},
	)))
}

// Every pair of sides the GM's set-distance offers, and every weapon
// set-ammunition offers, is accepted as offered: no side against itself,
// no ammunition for a combatant without that weapon.
func TestGMDistanceAndAmmunitionOfferOnlyLegalValues(t *testing.T) {
	setup := ladderSetup(noCrit, "Medium",
		spec{ID: "ana", Side: "heroes", PC: true, Attr: map[string]int{Quick: 12},
			Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "orc", Side: "foes", Attr: map[string]int{Quick: 10},
			Weapons: []map[string]any{{"id": "knives", "name": "Knives", "type": "thrown", "count": 3}}},
		spec{ID: "wolf", Side: "beasts", Attr: map[string]int{Quick: 9}},
	)
	setup.Sides = append(setup.Sides, engine.Side{ID: "beasts", Name: "Beasts"})
	setup.Battlefield = mustJSON(map[string]any{"model": "ladder", "distances": []map[string]string{
		{"a": "heroes", "b": "foes", "rung": "Medium"}, {"a": "heroes", "b": "beasts", "rung": "Long"}, {"a": "foes", "b": "beasts", "rung": "Long"}}})
	st := begin(t, newState(t, setup))
	dist := advertised(t, st, GMDistance)
	eq(t, "pairs of three sides", len(dist.Fields[0].Options), 3)
	for _, o := range dist.Fields[0].Options {
		_, next := do(t, st, gm, onTheWire(t, dist, map[string]any{"sides": o.Value, "rung": "Long"}))
		_ = next
	}
	ammo := advertised(t, st, GMAmmo)
	eq(t, "only the weapons with ammunition, each with its bearer", len(ammo.Fields[0].Options), 2)
	for _, tc := range []struct {
		weapon string
		value  int
		check  func(*State) int
		want   int
	}{
		{"ana:bow", 1, func(s *State) int { return s.Fighters["ana"].Ammo["bow"] }, 1},
		{"ana:bow", 9, func(s *State) int { return s.Fighters["ana"].Ammo["bow"] }, AmmoCounter},
		{"orc:knives", 1, func(s *State) int { return s.Fighters["orc"].Units["knives"] }, 1},
	} {
		_, next := do(t, st, gm, onTheWire(t, ammo, map[string]any{"weapon": tc.weapon, "value": tc.value}))
		eq(t, tc.weapon, tc.check(next), tc.want)
	}
	adj := advertised(t, st, GMAdjust)
	for _, o := range adj.Fields[1].Options {
		if offers(adj, "what", "ammo:bow") {
			t.Fatalf("adjust offers ammunition for everyone: %s", o.Value)
		}
	}
}

// Forms sent as they are, or with a field left empty, are accepted: the
// GM's Toughness for a hale fighter (any value at or above the maximum) is
// the ruling that it stays, logged; a Prepared feat naming nothing is the
// field's own default.
func TestFormsLeftAsTheyAreAreAccepted(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 8, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Stats: map[string]any{"xp": 1}},
		spec{ID: "orc", Side: "foes", X: 6, Y: 1},
	)))
	tough := st.Fighters["ana"].Toughness
	for _, tc := range []struct {
		value int
		text  string
		want  int
	}{
		{999, "The GM keeps Ana's Toughness at 10.", tough},
		{tough, "The GM keeps Ana's Toughness at 10.", tough},
		{4, "The GM sets Ana's Toughness to 4.", 4},
	} {
		events, next := do(t, st, gm, onTheWire(t, advertised(t, st, GMAdjust), map[string]any{"combatant": "ana", "what": "toughness", "value": tc.value}))
		eq(t, "text", events[0].Text, tc.text)
		eq(t, "toughness", next.Fighters["ana"].Toughness, tc.want)
	}
	_, st = do(t, st, gm, cmd(CmdFeat, "ana", "feat", FeatPrepared, "pay", PayXP, "what", "  "))
	_, st = answer(t, st, gm, DecPrepared, "allow", nil)
	eq(t, "prepared", st.Fighters["ana"].Prepared, preparedDefault)
}
