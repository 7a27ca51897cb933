package d20tactical

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
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
	if want := []string{"wounds", "lifePoints", "armor.current", "dead"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("carried %v, want %v", names, want)
	}
	schema := New().(sheet.Schemaer).Schema()
	for _, f := range fs {
		if !slices.ContainsFunc(schema.Fields, func(sf sheet.Field) bool { return sf.Name == f.Name && sf.Type == f.Type }) {
			t.Errorf("the schema lacks carried %q", f.Name)
		}
	}
}

// TestCarryOutOfAFight: what cy's pistol does to ana is what the ruleset
// carries out, and what the next fight starts with.
func TestCarryOutOfAFight(t *testing.T) {
	armoured := map[string]any{"name": "Vest", "defense": 2, "points": 10}
	cases := []struct {
		name   string
		stats  map[string]any // ana's, besides the defaults
		faces  []int          // cy's attack …
		answer string         // … the critical's choice, if any, and its faces
		after  []int
		want   sheet.CarryValues
	}{
		{"a hit: 9 hit points lost", map[string]any{"armor": armoured}, []int{15, 5, 4}, "", nil,
			sheet.CarryValues{"wounds": 9, "lifePoints": 3, "armor.current": 10, "dead": false}},
		{"a miss carries what she had", map[string]any{"wounds": 4, "lifePoints": 2, "armor": map[string]any{"name": "Vest", "defense": 2, "points": 10, "current": 7}},
			[]int{2}, "", nil, sheet.CarryValues{"wounds": 4, "lifePoints": 2, "armor.current": 7, "dead": false}},
		{"a critical: an Armour Point and a Life Point", map[string]any{"armor": armoured}, []int{20}, critLife, []int{1, 1, 3},
			sheet.CarryValues{"wounds": 2, "lifePoints": 2, "armor.current": 9, "dead": false}},
		{"Life Points from the option", map[string]any{"lifePoints": nil}, []int{20}, critLife, []int{1, 1, 3},
			sheet.CarryValues{"wounds": 2, "lifePoints": 2, "armor.current": 0, "dead": false}},
		{"dying", map[string]any{"wounds": 18}, []int{15, 2, 3}, "", nil,
			sheet.CarryValues{"wounds": 23, "lifePoints": 3, "armor.current": 0, "dead": false}},
		{"dead", map[string]any{"lifePoints": 1}, []int{20}, critLife, []int{1, 1, 3},
			sheet.CarryValues{"wounds": 0, "lifePoints": 0, "armor.current": 0, "dead": true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			specs := skirmishSetup(nil, nil)
			specs[0].Stats = c.stats
			specs[2].X, specs[2].Y = 2, 6
			setup := newSetup(nil, field(20, 10), specs...)
			_, st := start(t, newState(t, setup), 20, 10, 5)
			st = endTurns(t, st, "cy")
			_, st = do(t, st, gm, cmd(CmdAttack, "cy", "target", "ana", "weapon", "pistol"), c.faces...)
			if c.answer != "" {
				_, st = answer(t, st, gm, DecCritical, c.answer, nil, c.after...)
			}
			if st.Status != engine.StatusFinished {
				_, st = do(t, st, gm, engine.NewCommand(engine.KindEnd, "", map[string]any{"winner": ""}))
			}
			stats := setup.Combatants[0].Stats
			got, err := sheet.CarryOutOf(New().(sheet.Carrier), st, "ana", stats)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("carried %v, want %v", got, c.want)
			}
			// Written back into her stats, the next fight starts with it
			// (or refuses her when she is dead).
			next, err := sheet.WriteCarried(carryFields(), stats, got)
			if err != nil {
				t.Fatal(err)
			}
			setup.Combatants[0].Stats = next
			st2, err := engine.NewEncounter(New(), "enc-2", setup)
			if c.want["dead"] == true {
				if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), "dead") {
					t.Fatalf("an encounter with ana dead: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ana := st2.(*State).Fighters["ana"]
			eq(t, "hit points next fight", ana.HP, 20-c.want["wounds"].(int))
			eq(t, "Life Points next fight", ana.LifePoints, c.want["lifePoints"].(int))
			if ana.Sheet.Armor != nil {
				eq(t, "Armour Points next fight", ana.ArmorLeft, c.want["armor.current"].(int))
			}
			_, st2b := start(t, st2.(*State), 20, 10, 5)
			_, st2b = do(t, st2b, gm, engine.NewCommand(engine.KindEnd, "", map[string]any{"winner": ""}))
			again, _ := sheet.CarryOutOf(New().(sheet.Carrier), st2b, "ana", next)
			if !reflect.DeepEqual(again, got) {
				t.Fatalf("a fight that changed nothing carries %v, want %v", again, got)
			}
		})
	}
}

// TestCarriedStats: the carried values are part of the stat block; the
// editor's form keeps them through a save.
func TestCarriedStats(t *testing.T) {
	r := ruleset
	base := `{"hp":20,"armor":{"defense":2,"points":10}`
	for _, extra := range []string{``, `,"wounds":5`, `,"wounds":25`, `,"lifePoints":0,"dead":true`, `,"armor":{"defense":2,"points":10,"current":3}`} {
		if _, err := r.Derive(json.RawMessage(base + extra + `}`)); err != nil {
			t.Errorf("sheet %s: %v", extra, err)
		}
	}
	for _, extra := range []string{`,"wounds":30`, `,"wounds":-1`, `,"lifePoints":-1`, `,"dead":"yes"`, `,"armor":{"defense":2,"points":10,"current":11}`} {
		if _, err := r.Derive(json.RawMessage(base + extra + `}`)); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("sheet %s accepted: %v", extra, err)
		}
	}
	schema := r.Schema()
	values, _, err := schema.FormValues(json.RawMessage(`{"hp":20,"wounds":4,"lifePoints":2,"dead":true,"armor":{"defense":2,"points":10,"current":6}}`))
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
	got, err := sheet.ReadCarried(carryFields(), saved)
	if err != nil {
		t.Fatal(err)
	}
	want := sheet.CarryValues{"wounds": 4, "lifePoints": 2, "armor.current": 6, "dead": true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the form keeps %v, want %v", got, want)
	}
}
