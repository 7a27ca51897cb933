package d20duel

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestSetupValidation: bad sheets, battlefields, starts and options are
// refused with a clear message.
func TestSetupValidation(t *testing.T) {
	ok := func() engine.Setup {
		return newSetup(nil, []pair{{"ana", "bront", "Grappling"}},
			spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
			spec{ID: "bront", Side: "foes", Stats: brontStats})
	}
	st := newState(t, ok())
	eq(t, "setup distance", st.Engagements[0].Distance, Grappling)
	eq(t, "fists added", st.Fighters["bront"].weapon("fists").Grapple, 10)
	for _, tc := range []struct {
		name string
		edit func(s *engine.Setup)
		want string
	}{
		{"attribute out of range", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "attributes", map[string]int{"agility": 21}))
		}, "between 1 and 20"},
		{"unknown attribute", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "attributes", map[string]int{"luck": 3}))
		}, "unknown attribute"},
		{"unknown stat", func(s *engine.Setup) { s.Combatants[0].Stats = mustJSON(with(anaStats, "parry", 3)) }, "unknown field"},
		{"coverage above 20", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "armor", map[string]int{"coverage": 21, "protection": 2}))
		}, "coverage"},
		{"weapon without a name", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "weapons", []map[string]any{{"strike": 3}}))
		}, "needs a name"},
		{"three hands", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "weapons", []map[string]any{{"name": "Pike", "hands": 3}}))
		}, "hands"},
		{"a wound location", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "wounds", map[string]any{"tail": map[string]int{"light": 1}}))
		}, "unknown field"},
		{"a wound count", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "wounds", map[string]any{"arm": map[string]int{"grave": 11}}))
		}, "between 0 and 10"},
		{"mortally wounded", func(s *engine.Setup) { s.Combatants[0].Stats = mustJSON(with(anaStats, "mortal", true)) }, "would kill"},
		{"wounds enough to collapse", func(s *engine.Setup) {
			s.Combatants[0].Stats = mustJSON(with(anaStats, "wounds", map[string]any{"body": map[string]int{"grave": 2}}))
		}, "enough to collapse"},
		{"distance", func(s *engine.Setup) {
			s.Battlefield = mustJSON(map[string]any{"pairs": []map[string]string{{"a": "ana", "b": "bront", "distance": "far"}}})
		}, "Striking or Grappling"},
		{"same side", func(s *engine.Setup) {
			s.Combatants[1].Side = "heroes"
			s.Combatants = append(s.Combatants, spec{ID: "dane", Side: "foes", Stats: brontStats}.combatant())
		}, "same side"},
		{"unknown fighter in a pair", func(s *engine.Setup) {
			s.Battlefield = mustJSON(map[string]any{"pairs": []map[string]string{{"a": "ana", "b": "zed"}}})
		}, "no combatant"},
		{"paired twice", func(s *engine.Setup) {
			s.Battlefield = mustJSON(map[string]any{"pairs": []map[string]string{{"a": "ana", "b": "bront"}, {"a": "bront", "b": "ana"}}})
		}, "already engaged"},
		{"a hidden fighter engaged", func(s *engine.Setup) { s.Combatants[1].Hidden = true }, "hidden"},
		{"zones", func(s *engine.Setup) {
			s.Battlefield = mustJSON(map[string]any{"zones": []map[string]any{{"id": "z", "name": "Z", "adjacent": []string{}}}})
		}, "only pairs"},
		{"another model", func(s *engine.Setup) { s.Battlefield = mustJSON(map[string]any{"model": "grid"}) }, "pairs"},
		{"a start with a zone", func(s *engine.Setup) { s.Combatants[0].Start = json.RawMessage(`{"zone":"z1"}`) }, "start is empty"},
		{"wound table falling", func(s *engine.Setup) { s.Options[OptWoundGrave] = "3" }, "must rise"},
		{"option out of range", func(s *engine.Setup) { s.Options[OptCollapseAt] = "99" }, "between"},
		{"option choice", func(s *engine.Setup) { s.Options[OptCinematic] = "maybe" }, "cannot be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ok()
			tc.edit(&s)
			_, err := engine.NewEncounter(New(), "e", s)
			if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want invalid mentioning %q", err, tc.want)
			}
		})
	}
}

// TestCarriedWoundsAndTraits: a sheet's wounds and traits from earlier
// fights count from the start: a −3 leg wound keeps the fighter on the
// ground, penalties lower Strike.
func TestCarriedWoundsAndTraits(t *testing.T) {
	st := newState(t, newSetup(nil, nil,
		spec{ID: "ana", Side: "heroes", PC: true, Stats: with(anaStats,
			"wounds", map[string]any{"leg": map[string]int{"grave": 1}, "body": map[string]int{"light": 1}}, "traits", "Crippled arm; Scarred")},
		spec{ID: "bront", Side: "foes", Stats: brontStats}))
	f := st.Fighters["ana"]
	if !f.Fallen() || f.penalty(&st.Base, 0) != 4 || len(f.Traits) != 2 || f.Wounds[0].Location != LocBody {
		t.Fatalf("ana %+v", f)
	}
	derived, err := ruleset.Derive(mustJSON(with(anaStats, "wounds", map[string]any{"arm": map[string]int{"serious": 1}})))
	if err != nil || derived["Wound penalty"] != "−2" {
		t.Fatalf("derived %v %v", derived, err)
	}
	if _, err := ruleset.Derive(json.RawMessage(`{"closeCombat":"x"}`)); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("bad stats derive: %v", err)
	}
}

// TestSchemaCoversTheSheet: every stat the sheet reads has a schema field,
// so the prep editor keeps it.
func TestSchemaCoversTheSheet(t *testing.T) {
	names := map[string]bool{}
	for _, f := range ruleset.Schema().Fields {
		names[f.Name] = true
	}
	for _, want := range []string{"attributes.agility", "closeCombat", "ranged", "damageMod", "armor.coverage", "armor.protection", "weapons",
		"wounds.body.light", "wounds.arm.grave", "wounds.leg.serious", "mortal", "traits"} {
		if !names[want] {
			t.Errorf("schema lacks %s", want)
		}
	}
	ed := ruleset.Editor()
	if ed.Model != "pairs" || len(ed.Distances) != 2 || ed.Distances[0] != "Striking" {
		t.Fatalf("editor %+v", ed)
	}
	// The options the engine validates are all documented with a label.
	for _, o := range ruleset.Options() {
		if o.Label == "" || o.Default == "" {
			t.Errorf("option %s lacks a label or default", o.Name)
		}
	}
}
