package d20tactical

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// TestSetupErrors: bad setups are refused with clear messages.
func TestSetupErrors(t *testing.T) {
	good := func() engine.Setup { return newSetup(nil, field(20, 10), skirmishSetup(nil, nil)...) }
	cases := []struct {
		name   string
		change func(*engine.Setup)
		want   string
	}{
		{"no battlefield", func(s *engine.Setup) { s.Battlefield = nil }, "the grid must be"},
		{"zones", func(s *engine.Setup) { s.Battlefield = json.RawMessage(`{"zones":[{"id":"a","name":"A"}]}`) }, "grid of 5-ft squares"},
		{"too wide", func(s *engine.Setup) { s.Battlefield = field(61, 10) }, "the grid must be"},
		{"unknown cell property", func(s *engine.Setup) { s.Battlefield = field(20, 10, sq(1, 1, "lava", true)) }, `no property "lava"`},
		{"bad obstacle", func(s *engine.Setup) { s.Battlefield = field(20, 10, sq(1, 1, "obstacle", "huge")) }, "obstacle cannot be"},
		{"material out of bounds", func(s *engine.Setup) { s.Battlefield = field(20, 10, sq(1, 1, "obstacle", "half", "material", 3)) }, "material must be"},
		{"cell off the grid", func(s *engine.Setup) { s.Battlefield = field(20, 10, sq(20, 1, "wall", true)) }, "off the grid"},
		{"start in a wall", func(s *engine.Setup) { s.Battlefield = field(20, 10, sq(2, 2, "wall", true)) }, "starts in a wall"},
		{"same square", func(s *engine.Setup) { s.Combatants[1].Start = mustJSON(map[string]int{"x": 2, "y": 2}) }, "start in the same square"},
		{"no start", func(s *engine.Setup) { s.Combatants[1].Start = nil }, "needs a start square"},
		{"a zone start", func(s *engine.Setup) { s.Combatants[1].Start = json.RawMessage(`{"zone":"a"}`) }, "needs a start square"},
		{"bad posture", func(s *engine.Setup) {
			s.Combatants[1].Start = json.RawMessage(`{"x":5,"y":5,"props":{"posture":"kneeling"}}`)
		}, "posture cannot be"},
		{"no stats", func(s *engine.Setup) { s.Combatants[1].Stats = nil }, "stats are missing"},
		{"unknown stat", func(s *engine.Setup) { s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"mana":3}`) }, "unknown field"},
		{"no hit points", func(s *engine.Setup) { s.Combatants[1].Stats = json.RawMessage(`{"hp":0}`) }, "hp must be"},
		{"bad damage", func(s *engine.Setup) {
			s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"weapons":[{"name":"Gun","damage":"lots"}]}`)
		}, "is not like 2d6+1"},
		{"burst on a knife", func(s *engine.Setup) {
			s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"weapons":[{"name":"Knife","damage":"1d4","burst":true}]}`)
		}, "need a ranged weapon"},
		{"a weapon twice", func(s *engine.Setup) {
			s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"weapons":[{"id":"a","name":"A","damage":"1d4"},{"id":"a","name":"B","damage":"1d4"}]}`)
		}, "used twice"},
		{"armour DC for a tail", func(s *engine.Setup) {
			s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"armor":{"defense":2,"points":5,"dc":{"tail":10}}}`)
		}, "no location"},
		{"speed 32", func(s *engine.Setup) { s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"speed":32}`) }, "multiple of 5"},
		{"one side", func(s *engine.Setup) { s.Combatants[1].Side, s.Combatants[2].Side = "heroes", "heroes" }, "two sides"},
		{"bad option", func(s *engine.Setup) { s.Options[OptCritFloor] = "-12" }, "must be between"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := good()
			c.change(&s)
			_, err := engine.NewEncounter(New(), "e", s)
			if err == nil {
				t.Fatal("accepted")
			}
			if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an invalid error mentioning %q", err, c.want)
			}
		})
	}
	// Weapon ids are made from names.
	s := good()
	s.Combatants[1].Stats = json.RawMessage(`{"hp":5,"weapons":[{"name":"Heavy Pistol","damage":"2d8","range":30}]}`)
	st, err := engine.NewEncounter(New(), "e", s)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "id", st.(*State).Fighters["bo"].Weapons[0].ID, "heavy-pistol")
}

// TestSchemaAndDerive: the stat block editor's schema round-trips, and
// Derive gives the numbers.
func TestSchemaAndDerive(t *testing.T) {
	raw := json.RawMessage(`{"abilities":{"str":14,"dex":16,"con":12},"bab":3,"hp":24,"speed":30,"classDefense":2,
		"saves":{"fort":2,"ref":1},"lifePoints":4,"armor":{"name":"Vest","defense":4,"points":10,"current":4,"dc":{"torso":14}},
		"weapons":[{"name":"Rifle","damage":"2d8","range":80,"burst":true,"clip":30}]}`)
	got, err := New().(sheet.Deriver).Derive(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Defense": "18", "Melee": "+5", "Ranged": "+6", "Initiative": "+3", "Saves": "Fort +3, Ref +4, Will +0",
		"Speed": "30 ft (run 90 ft)", "Armour Points": "4 of 10", "Life Points": "4", "HP": "24 of 24"}
	for k, v := range want {
		eq(t, k, got[k], v)
	}
	schema := New().(sheet.Schemaer).Schema()
	form, _, err := schema.FormValues(raw)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "form", form["armor.dc.torso"], "14")
	eq(t, "weapon", form["weapons.0.name"], "Rifle")
	if _, err := New().(sheet.Deriver).Derive(json.RawMessage(`{"hp":-3}`)); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("bad stats: %v", err)
	}
}

// TestEditor: the battlefield editor is a 5-ft grid with the cell and
// start properties the setup reads.
func TestEditor(t *testing.T) {
	e := New().(engine.Boarder).Editor()
	eq(t, "model", e.Model, "grid")
	eq(t, "scale", e.Scale, "5 ft")
	var names []string
	for _, f := range e.Area {
		names = append(names, f.Name)
	}
	eq(t, "cell props", strings.Join(names, " "), "label wall obstacle material difficult pit jumpDC")
	eq(t, "start props", e.Start[0].Name+" "+e.Start[1].Name, "posture surprised")
}
