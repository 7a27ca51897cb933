package d6bands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

func TestInterfaces(t *testing.T) {
	rs := New()
	for name, ok := range map[string]bool{"Boarder": isBoarder(rs), "Stepper": isStepper(rs), "Settler": isSettler(rs),
		"Schemaer": isSchemaer(rs), "Deriver": isDeriver(rs)} {
		if !ok {
			t.Errorf("not an engine.%s", name)
		}
	}
}

func isBoarder(rs engine.Ruleset) bool  { _, ok := rs.(engine.Boarder); return ok }
func isStepper(rs engine.Ruleset) bool  { _, ok := rs.(engine.Stepper); return ok }
func isSettler(rs engine.Ruleset) bool  { _, ok := rs.(engine.Settler); return ok }
func isSchemaer(rs engine.Ruleset) bool { _, ok := rs.(sheet.Schemaer); return ok }
func isDeriver(rs engine.Ruleset) bool  { _, ok := rs.(sheet.Deriver); return ok }

// Every option is valid as declared, with its default among its choices
// or bounds.
func TestOptions(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range New().Options() {
		if seen[o.Name] {
			t.Errorf("option %s twice", o.Name)
		}
		seen[o.Name] = true
		if err := o.Check(o.Default); err != nil {
			t.Errorf("option %s: default %q: %v", o.Name, o.Default, err)
		}
		if o.Label == "" || o.Help == "" {
			t.Errorf("option %s needs a label and help", o.Name)
		}
		if o.Type == engine.OptionInt && o.Min >= o.Max {
			t.Errorf("option %s: bounds %d–%d", o.Name, o.Min, o.Max)
		}
	}
}

func TestSetupErrors(t *testing.T) {
	ok := func() engine.Setup {
		return newSetup(nil, grid(4, 4), spec{ID: "ana", Side: "heroes", X: 0, Y: 0}, spec{ID: "orc", Side: "foes", X: 3, Y: 3})
	}
	tests := []struct {
		name   string
		change func(*engine.Setup)
		msg    string
	}{
		{"no battlefield", func(s *engine.Setup) { s.Battlefield = nil }, "width and height must be 1–12 squares"},
		{"too wide", func(s *engine.Setup) { s.Battlefield = grid(13, 4) }, "width and height must be 1–12 squares"},
		{"zones", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"width":4,"height":4,"zones":[{"id":"a","name":"A","adjacent":[]}]}`)
		}, "d6-bands takes width, height and cells only"},
		{"unknown battlefield field", func(s *engine.Setup) { s.Battlefield = json.RawMessage(`{"width":4,"height":4,"fog":true}`) }, "unknown field"},
		{"a square off the map", func(s *engine.Setup) { s.Battlefield = grid(4, 4, cellAt{4, 0, map[string]any{"cover": 1}}) }, "square (4,0) is outside the map"},
		{"a square twice", func(s *engine.Setup) {
			s.Battlefield = grid(4, 4, cellAt{1, 0, map[string]any{"cover": 1}}, cellAt{1, 0, map[string]any{"dash": 3}})
		}, "square (1,0) is listed twice"},
		{"an unknown prop", func(s *engine.Setup) { s.Battlefield = grid(4, 4, cellAt{1, 0, map[string]any{"mud": 1}}) }, "no property \"mud\""},
		{"a bad dash", func(s *engine.Setup) { s.Battlefield = grid(4, 4, cellAt{1, 0, map[string]any{"dash": 6}}) }, "dash difficulty must be 0, 3, 4 or 5, not 6"},
		{"no start", func(s *engine.Setup) { s.Combatants[0].Start = nil }, "needs a start square"},
		{"start off the map", func(s *engine.Setup) { s.Combatants[0].Start = mustJSON(map[string]int{"x": 9, "y": 0}) }, "starts at (9,0), outside the 4×4 map"},
		{"a zone start", func(s *engine.Setup) { s.Combatants[0].Start = json.RawMessage(`{"zone":"a"}`) }, "start at x and y"},
		{"a lonely group", func(s *engine.Setup) { s.Combatants[0].Start = json.RawMessage(`{"x":0,"y":0,"group":"g"}`) }, "contact group \"g\" has only one member"},
		{"a group across squares", func(s *engine.Setup) {
			s.Combatants[0].Start = json.RawMessage(`{"x":0,"y":0,"group":"g"}`)
			s.Combatants[1].Start = json.RawMessage(`{"x":3,"y":3,"group":"g"}`)
		}, "contact group \"g\" spans two squares"},
		{"off with a square", func(s *engine.Setup) { s.Combatants[0].Start = json.RawMessage(`{"x":0,"y":0,"props":{"off":true}}`) }, "starts off the map: no square or group"},
		{"a bad start prop", func(s *engine.Setup) {
			s.Combatants[0].Start = json.RawMessage(`{"x":0,"y":0,"props":{"kneeling":true}}`)
		}, "start has no property \"kneeling\""},
		{"bad stats", func(s *engine.Setup) { s.Combatants[0].Stats = json.RawMessage(`{"skills":{"melee":"high"}}`) }, "stats:"},
		{"bad damage", func(s *engine.Setup) {
			s.Combatants[0].Stats = json.RawMessage(`{"weapons":[{"name":"Club","damage":"lots"}]}`)
		}, "weapon Club: damage \"lots\" must look like 2D+1"},
		{"bad optimal", func(s *engine.Setup) {
			s.Combatants[0].Stats = json.RawMessage(`{"weapons":[{"name":"Bow","skill":"archery","damage":"2D","optimal":"near"}]}`)
		}, "optimal range \"near\""},
		{"ranged without a skill", func(s *engine.Setup) {
			s.Combatants[0].Stats = json.RawMessage(`{"weapons":[{"name":"Bow","damage":"2D","optimal":"close"}]}`)
		}, "weapon Bow needs a skill"},
		{"a long bow", func(s *engine.Setup) {
			s.Combatants[0].Stats = json.RawMessage(`{"weapons":[{"name":"Bow","skill":"archery","damage":"2D","optimal":"close","long":true}]}`)
		}, "only melee weapons are long"},
		{"area melee", func(s *engine.Setup) {
			s.Combatants[0].Stats = json.RawMessage(`{"weapons":[{"name":"Flail","damage":"2D","area":true}]}`)
		}, "area fire needs an optimal range"},
		{"bad class", func(s *engine.Setup) {
			s.Combatants[0].Stats = json.RawMessage(`{"weapons":[{"name":"Gun","skill":"firearms","damage":"2D","optimal":"close","class":"laser"}]}`)
		}, "class \"laser\" must be one of"},
		{"one side", func(s *engine.Setup) { s.Combatants[1].Side = "heroes" }, "combatants must be on at least two sides"},
		{"a bad option", func(s *engine.Setup) { s.Options[OptActions] = "9" }, "option \"actions-per-round\" must be between 1 and 6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ok()
			tc.change(&s)
			_, err := engine.NewEncounter(New(), "e", s)
			if err == nil {
				t.Fatal("accepted")
			}
			if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(fray.ErrorMessage(err), tc.msg) {
				t.Fatalf("got %v, want invalid %q", err, tc.msg)
			}
		})
	}
	if _, err := engine.NewEncounter(New(), "e", ok()); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaAndDerive(t *testing.T) {
	schema := New().(sheet.Schemaer).Schema()
	names := map[string]bool{}
	for _, f := range schema.Fields {
		names[f.Name] = true
	}
	for _, n := range []string{"toughness", "defense", "skills.stealth", "skills.firearms", "weapons", "mount.name"} {
		if !names[n] {
			t.Errorf("schema lacks %s", n)
		}
	}
	// A stat block written by the schema's form reads back as a sheet.
	form := map[string][]string{"toughness": {"12"}, "skills.firearms": {"15"}, "weapons.0.name": {"Arquebus"},
		"weapons.0.skill": {"firearms"}, "weapons.0.damage": {"3D+2"}, "weapons.0.optimal": {"distant"}, "weapons.0.reload": {"6"}}
	stats, err := schema.ParseForm(form)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSheet(stats)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "toughness", s.Toughness, 12)
	eq(t, "weapon id", s.Weapons[0].ID, "arquebus")
	eq(t, "reload", s.Weapons[0].Reload, 6)
	d, err := New().(sheet.Deriver).Derive(stats)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "wounds", d["Wounds"], "Serious from 12 damage, Lethal from 24 (default thresholds)")
	if _, err := New().(sheet.Deriver).Derive(json.RawMessage(`{"toughness":0}`)); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("derive of a bad block: %v", err)
	}
}
