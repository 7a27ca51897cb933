package d20duel

import (
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
)

func TestCarryDeclaration(t *testing.T) {
	fs := ruleset.CarryFields()
	if err := sheet.CheckCarryFields(fs); err != nil {
		t.Fatal(err)
	}
	if len(fs) != 11 {
		t.Fatalf("%d carried fields, want 9 wound counts, mortal and traits", len(fs))
	}
	// The stat editor offers every carried value, so saving a sheet keeps
	// them.
	schema := map[string]string{}
	for _, f := range ruleset.Schema().Fields {
		schema[f.Name] = f.Type
	}
	for _, f := range fs {
		if schema[f.Name] != f.Type {
			t.Errorf("the schema lacks carried %q", f.Name)
		}
	}
}

// TestCarryOutOfAFight: the wounds a fight leaves (by location and
// level), a wound that would kill, and a crippled Trait are what the
// ruleset carries out; written back into the sheet, the next fight starts
// with them.
func TestCarryOutOfAFight(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dm     int
		aim    string
		want   map[string]any
		fallen bool
	}{
		// Bront's sheet has a −1 body wound from before (see below).
		{"a −2 wound", 0, AimNormal, map[string]any{"wounds.body.light": 1, "wounds.body.serious": 1}, false},
		{"a −3 leg wound", 3, AimImmobilize, map[string]any{"wounds.body.light": 1, "wounds.leg.grave": 1}, true},
		{"a crippled leg", 6, AimImmobilize, map[string]any{"wounds.body.light": 1, "wounds.leg.grave": 1, carryTraits: "Crippled leg"}, true},
		{"a wound that would kill", 6, AimNormal, map[string]any{"wounds.body.light": 1, carryMortal: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stats := mustJSON(with(brontStats, "wounds", map[string]any{"body": map[string]int{"light": 1}}))
			st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}},
				spec{ID: "ana", Side: "heroes", PC: true, Stats: strongAna(tc.dm)},
				spec{ID: "bront", Side: "foes", PC: true, Stats: with(brontStats, "wounds", map[string]any{"body": map[string]int{"light": 1}})}))
			_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
			_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault, Aim: tc.aim}, "bront": {Stance: StanceDefault}}, 10, 2, missB, missW)
			got, err := sheet.CarryOutOf(ruleset, st, "bront", stats)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ruleset.CarryFields() {
				want, ok := tc.want[f.Name]
				if !ok {
					want = map[string]any{sheet.FieldInt: 0, sheet.FieldBool: false, sheet.FieldText: ""}[f.Type]
				}
				if got[f.Name] != want {
					t.Errorf("%s = %v, want %v", f.Name, got[f.Name], want)
				}
			}
			if tc.want[carryMortal] == true {
				return // a sheet that says so cannot join a fight
			}
			next, err := sheet.WriteCarried(ruleset.CarryFields(), stats, got)
			if err != nil {
				t.Fatal(err)
			}
			st2 := newState(t, newSetup(nil, nil, spec{ID: "bront", Side: "foes", Stats: mustMap(t, next)},
				spec{ID: "ana", Side: "heroes", Stats: anaStats}))
			again, _ := sheet.CarryOutOf(ruleset, st2, "bront", next)
			for k, v := range got {
				if again[k] != v {
					t.Errorf("after the round trip %s = %v, want %v", k, again[k], v)
				}
			}
			if st2.Fighters["bront"].Fallen() != tc.fallen {
				t.Errorf("the next fight starts with Bront on the ground: %v", st2.Fighters["bront"].Fallen())
			}
		})
	}
}

func mustMap(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
