package swzones

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

func TestCarryDeclaration(t *testing.T) {
	fs := New().(sheet.Carrier).CarryFields()
	if err := sheet.CheckCarryFields(fs); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	// Bennies refill every session and everything else is per fight.
	if want := []string{"wounds", "incapacitated", "dead"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("carried %v, want %v", names, want)
	}
	// The stat editor offers every carried value, so saving a sheet keeps them.
	schema := New().(sheet.Schemaer).Schema()
	for _, f := range fs {
		found := false
		for _, sf := range schema.Fields {
			found = found || (sf.Name == f.Name && sf.Type == f.Type)
		}
		if !found {
			t.Errorf("the schema lacks carried %q", f.Name)
		}
	}
}

// TestCarryOutOfAFight: what gob1's sword does to brak in a fight is what
// the ruleset carries out, and what the next fight starts with.
func TestCarryOutOfAFight(t *testing.T) {
	tests := []struct {
		name                string
		wounds              int   // brak's wounds before gob1's attack
		faces               []int // gob1's attack, then any Vigor roll
		wounds2             int
		incapacitated, dead bool
	}{
		// gob1: 5 +1 gang-up = 6 vs Parry 6: hit; damage 6+4+1 = 11 vs
		// Toughness 6: one raise, a wound.
		{"a wound", 0, []int{5, 6, 4, 1}, 1, false, false},
		{"a third wound", 2, []int{5, 6, 4, 1}, 3, false, false},
		// The fourth wound incapacitates; Vigor 7 −3 = 4: stable.
		{"incapacitated", 3, []int{5, 6, 4, 1, 7, 2}, 3, true, false},
		// Vigor 1 and Wild Die 1: a Critical Failure, dead.
		{"dead", 3, []int{5, 6, 4, 1, 1, 1}, 3, true, true},
		// 2 +1 = 3 vs Parry 6: a miss, brak keeps his wounds.
		{"a miss", 2, []int{2}, 2, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := endTurns(t, skirmish(t, nil), "gob1")
			st.Fighters["brak"].Wounds = tc.wounds
			_, st = do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), tc.faces...)
			_, st = do(t, st, gm, engine.NewCommand(engine.KindEnd, "", map[string]any{"winner": ""}))
			eq(t, "status", st.Status, engine.StatusFinished)
			stats := skirmishSetup(nil).Combatants[0].Stats
			got, err := sheet.CarryOutOf(New().(sheet.Carrier), st, "brak", stats)
			if err != nil {
				t.Fatal(err)
			}
			want := sheet.CarryValues{"wounds": tc.wounds2, "incapacitated": tc.incapacitated, "dead": tc.dead}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("carried %v, want %v", got, want)
			}
			// Written back into brak's stats, the next fight starts with it
			// (or refuses him while he is down).
			next, err := sheet.WriteCarried(carryFields(), stats, got)
			if err != nil {
				t.Fatal(err)
			}
			setup := skirmishSetup(nil)
			setup.Combatants[0].Stats = next
			st2, err := engine.NewEncounter(New(), "enc-2", setup)
			if tc.incapacitated {
				if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), "Brak") {
					t.Fatalf("an encounter with brak down: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := st2.(*State).Fighters["brak"]
			eq(t, "wounds next fight", b.Wounds, tc.wounds2)
			eq(t, "wound penalty next fight", b.WoundPenalty(), -tc.wounds2)
			again, _ := sheet.CarryOutOf(New().(sheet.Carrier), st2, "brak", next)
			if !reflect.DeepEqual(again, got) {
				t.Fatalf("a fight that changed nothing carries %v, want %v", again, got)
			}
		})
	}
}

// TestCarriedStats: the carried values are part of a stat block, validated
// like the rest; a sheet may record a fallen character even though no
// encounter may start with them.
func TestCarriedStats(t *testing.T) {
	base := func(extra string) json.RawMessage {
		return json.RawMessage(`{"wildCard":true,"attributes":{"agility":"d6","smarts":"d6","spirit":"d6","strength":"d6","vigor":"d6"}` + extra + `}`)
	}
	r := New().(Ruleset)
	for _, extra := range []string{``, `,"wounds":2`, `,"wounds":3,"incapacitated":true`, `,"wounds":3,"dead":true`} {
		if _, err := r.Derive(base(extra)); err != nil {
			t.Errorf("sheet %s: %v", extra, err)
		}
	}
	for _, extra := range []string{`,"wounds":4`, `,"wounds":-1`, `,"wounds":"two"`, `,"dead":"yes"`} {
		if _, err := r.Derive(base(extra)); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("sheet %s accepted: %v", extra, err)
		}
	}
	// Bennies are not carried: a sheet's Bennies start every fight.
	st := newState(t, skirmishSetup(nil))
	eq(t, "brak's Bennies", st.Fighters["brak"].Bennies, 3)
	// The editor's form keeps the carried values through a save.
	schema := r.Schema()
	values, _, err := schema.FormValues(base(`,"wounds":2,"incapacitated":true`))
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{}
	for k, v := range values {
		form.Set(k, v)
	}
	saved, err := schema.ParseForm(form)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := sheet.ReadCarried(carryFields(), saved)
	if !reflect.DeepEqual(got, sheet.CarryValues{"wounds": 2, "incapacitated": true, "dead": false}) {
		t.Fatalf("after a save through the form: %v (%s)", got, saved)
	}
}
