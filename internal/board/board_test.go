package board

import (
	"encoding/json"
	"strings"
	"testing"
)

var fields = []Field{
	{Name: "cover", Label: "Cover", Type: FieldSelect, Options: []Option{{Value: "light", Label: "Light"}, {Value: "heavy", Label: "Heavy"}}},
	{Name: "armour", Label: "Armour", Type: FieldInt, Min: 0, Max: 10},
	{Name: "wet", Label: "Wet", Type: FieldBool},
	{Name: "note", Label: "Note", Type: FieldText},
}

func TestCheckProps(t *testing.T) {
	var p Props
	if err := json.Unmarshal([]byte(`{"cover":"light","armour":4,"wet":true,"note":"x"}`), &p); err != nil {
		t.Fatal(err)
	}
	if err := CheckProps(fields, p, "zone z"); err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]string{
		`{"mud":1}`:         `zone z: unknown property "mud" (known: cover, armour, wet, note)`,
		`{"cover":"thick"}`: `zone z: cover cannot be "thick": one of "light", "heavy"`,
		`{"cover":3}`:       "cover must be one of",
		`{"armour":11}`:     "armour must be between 0 and 10",
		`{"armour":1.5}`:    "armour must be a whole number",
		`{"armour":"4"}`:    "armour must be a whole number",
		`{"wet":"yes"}`:     "wet must be true or false",
		`{"note":5}`:        "note must be a text",
	} {
		var q Props
		_ = json.Unmarshal([]byte(raw), &q)
		if err := CheckProps(fields, q, "zone z"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	if err := CheckProps(nil, Props{"x": 1.0}, "start of ana"); err == nil || !strings.Contains(err.Error(), "no properties here") {
		t.Errorf("props where none are declared: %v", err)
	}
	if p.Int("armour") != 4 || p.String("cover") != "light" || !p.Bool("wet") || p.String("armour") != "4" {
		t.Errorf("accessors %v", p)
	}
}

func TestPreview(t *testing.T) {
	two := 2
	bf := Battlefield{
		Zones:  []ZoneSetup{{ID: "a", Name: "A", Adjacent: []string{"b"}, Props: Props{"cover": "heavy", "wet": true}}, {ID: "b", Name: "B", Adjacent: []string{"a"}}},
		Melees: []GroupSetup{{ID: "m1", Zone: "a", Members: []string{"x", "y"}}},
	}
	tokens := []Token{{ID: "x"}, {ID: "y"}, {ID: "z"}}
	b := Preview(Editor{Model: Zones, Area: fields}, bf, tokens, map[string]Start{"x": {Zone: "a"}, "y": {Zone: "a"}, "z": {Zone: "b"}})
	if len(b.Zones.Links) != 1 || len(b.Zones.Groups) != 1 || len(b.Zones.Places) != 3 || b.Zones.Places[0].Group != "m1" {
		t.Fatalf("zones preview %+v", b.Zones)
	}
	if got := strings.Join(b.Zones.Areas[0].Features, ", "); got != "Cover: Heavy, Wet" || b.Zones.Areas[0].Shade != 2 {
		t.Errorf("features %q", got)
	}
	down := &Pose{ID: "down", Label: "Down", Icon: Icon{Glyph: "v", Legend: "Down"}, Shape: Flat}
	poses := []Field{{Name: "pose", Type: FieldSelect, Default: "up", Options: []Option{{Value: "up"}, {Value: "down", Pose: down}}}}
	g := Preview(Editor{Model: Grid, Scale: "2 m", Start: poses}, Battlefield{Width: 4, Height: 3, Cells: []CellSetup{{X: 1, Y: 1}}}, tokens,
		map[string]Start{"x": {X: &two, Y: &two, Group: "g", Props: Props{"pose": "down"}}, "y": {Props: Props{"pose": "up"}}})
	if g.Grid.Scale != "2 m" || len(g.Grid.Places) != 1 || g.Grid.Cells[0].Shade != 1 {
		t.Errorf("grid preview %+v", g.Grid)
	}
	if g.Tokens[0].Pose == nil || *g.Tokens[0].Pose != *down || g.Tokens[1].Pose != nil || g.Tokens[2].Pose != nil {
		t.Errorf("poses %+v", g.Tokens)
	}
	if len(g.Legend) != 1 || g.Legend[0] != down.Icon {
		t.Errorf("legend %+v", g.Legend)
	}
	p := Preview(Editor{Model: Pairs, Distances: []string{"Striking"}}, Battlefield{Pairs: []PairSetup{{A: "x", B: "y"}}}, tokens, nil)
	if p.Pairs.Engagements[0].Distance != "Striking" || len(p.Pairs.Apart) != 1 || p.Pairs.Apart[0] != "z" {
		t.Errorf("pairs preview %+v", p.Pairs)
	}
}

func TestLegendListsEachIconOnce(t *testing.T) {
	star, skull := Icon{Glyph: "*", Legend: "Dazed"}, Icon{Glyph: "x", Legend: "Dying", Tone: Bad}
	b := &Board{Tokens: []Token{
		{ID: "a", Conditions: []Condition{{ID: "dazed", Icon: star}, {ID: "odd", Label: "Odd"}}},
		{ID: "b", Pose: &Pose{ID: "s", Icon: skull}, Conditions: []Condition{{ID: "dazed", Icon: star}, {ID: "dying", Icon: skull}}},
	}}
	b.Finish()
	if len(b.Legend) != 2 || b.Legend[0] != star || b.Legend[1] != skull {
		t.Errorf("legend %+v", b.Legend)
	}
}

func TestReadIsStrict(t *testing.T) {
	if _, err := Read(json.RawMessage(`{"zones":[],"terrain":"mud"}`)); err == nil {
		t.Error("an unknown battlefield field was accepted")
	}
	if _, err := ReadStart(json.RawMessage(`{"zone":"a","facing":"north"}`)); err == nil {
		t.Error("an unknown start field was accepted")
	}
	if b, err := Read(nil); err != nil || b.Model != "" {
		t.Errorf("no battlefield: %+v %v", b, err)
	}
}

func TestSquareName(t *testing.T) {
	for _, c := range []struct {
		x, y int
		want string
	}{{0, 0, "A1"}, {10, 8, "K9"}, {25, 0, "Z1"}, {26, 3, "AA4"}, {27, 11, "AB12"}} {
		if got := SquareName(c.x, c.y); got != c.want {
			t.Errorf("SquareName(%d, %d) = %q, want %q", c.x, c.y, got, c.want)
		}
		if x, y, ok := ParseSquareName(c.want); !ok || x != c.x || y != c.y {
			t.Errorf("ParseSquareName(%q) = %d, %d, %v", c.want, x, y, ok)
		}
	}
	if x, y, ok := ParseSquareName(" k9 "); !ok || x != 10 || y != 8 {
		t.Errorf("ParseSquareName(\" k9 \") = %d, %d, %v", x, y, ok)
	}
	for _, bad := range []string{"", "9", "K", "K0", "K-1", "K+1", "1K", "ABCD1", "K 9x", "Ä1", "K99999999"} {
		if x, y, ok := ParseSquareName(bad); ok {
			t.Errorf("ParseSquareName(%q) = %d, %d, accepted", bad, x, y)
		}
	}
}
