package prep

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// Editors of the four position models, as rulesets describe them.
var (
	zonesEditor = board.Editor{Model: board.Zones, Area: []board.Field{
		{Name: "cover", Label: "Cover", Type: board.FieldSelect, Options: []board.Option{{Value: ""}, {Value: "light", Label: "Light"}}},
		{Name: "armour", Label: "Armour", Type: board.FieldInt, Min: 0, Max: 20},
	}}
	gridEditor = board.Editor{Model: board.Grid, Scale: "5 ft", MaxWidth: 30, MaxHeight: 30,
		Area: []board.Field{{Name: "difficult", Label: "Difficult terrain", Type: board.FieldBool}, {Name: "label", Label: "Label", Type: board.FieldText}},
		Start: []board.Field{{Name: "posture", Label: "Posture", Type: board.FieldSelect,
			Options: []board.Option{{Value: "standing"}, {Value: "prone"}, {Value: "crouched"}}}}}
	pairsEditor  = board.Editor{Model: board.Pairs, Distances: []string{"Striking", "Grappling"}}
	ladderEditor = board.Editor{Model: board.Grid, Models: []board.Option{{Value: board.Grid, Label: "2 m grid"}, {Value: board.Ladder, Label: "Distances"}},
		MaxWidth: 20, MaxHeight: 20, Distances: []string{"Close", "Short", "Medium", "Long", "Extreme"}}
)

func draft(e board.Editor) *engine.Setup {
	s := engine.Setup{Name: "T", Ruleset: "x", Sides: []engine.Side{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}},
		Combatants: []engine.CombatantSetup{
			{Combatant: engine.Combatant{ID: "ana", Name: "Ana", Side: "a"}},
			{Combatant: engine.Combatant{ID: "orc", Name: "Orc", Side: "b"}},
			{Combatant: engine.Combatant{ID: "gob", Name: "Gob", Side: "b"}},
		}}
	b := board.Battlefield{}
	if e.Model == board.Grid {
		b.Width, b.Height = 10, 8
	}
	WriteBattlefield(&s, b)
	return &s
}

func edit(t *testing.T, s *engine.Setup, e board.Editor, op string, kv ...string) error {
	t.Helper()
	f := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Add(kv[i], kv[i+1])
	}
	if !battlefieldOps[op] {
		t.Fatalf("%s is not a battlefield edit", op)
	}
	return DraftEditor{Board: e, Boarded: true}.Apply(s, op, f)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func refused(t *testing.T, err error, want string) {
	t.Helper()
	if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(fray.ErrorMessage(err), want) {
		t.Errorf("got %v, want an invalid edit saying %q", err, want)
	}
}

func TestEditZones(t *testing.T) {
	s := draft(zonesEditor)
	must(t, edit(t, s, zonesEditor, "zone-add", "name", "Ford", "prop.cover", "light", "prop.armour", "4"))
	must(t, edit(t, s, zonesEditor, "zone-add", "name", "Road"))
	must(t, edit(t, s, zonesEditor, "connect", "a", "ford", "b", "road"))
	refused(t, edit(t, s, zonesEditor, "zone-add", "name", "Hill", "prop.cover", "thick"), `cannot be "thick"`)
	refused(t, edit(t, s, zonesEditor, "zone-add", "name", "Hill", "prop.armour", "99"), "between 0 and 20")
	refused(t, edit(t, s, zonesEditor, "connect", "a", "ford", "b", "ford"), "itself")
	for _, id := range []string{"ana", "orc"} {
		for i := range s.Combatants {
			if s.Combatants[i].ID == id {
				SetStart(&s.Combatants[i], board.Start{Zone: "ford"})
			}
		}
	}
	refused(t, edit(t, s, zonesEditor, "melee-add", "members", "ana", "members", "gob"), "same zone")
	must(t, edit(t, s, zonesEditor, "melee-add", "members", "ana", "members", "orc"))
	b, _ := ReadBattlefield(*s)
	if len(b.Zones) != 2 || b.Zones[0].Props.String("cover") != "light" || b.Zones[0].Props.Int("armour") != 4 ||
		len(b.Zones[0].Adjacent) != 1 || len(b.Melees) != 1 {
		t.Fatalf("battlefield %+v", b)
	}
	must(t, edit(t, s, zonesEditor, "zone-update", "zone", "ford", "name", "The ford", "x", "2", "y", "1"))
	refused(t, edit(t, s, zonesEditor, "zone-update", "zone", "ford", "name", "The ford", "x", "2"), "map row")
	b, _ = ReadBattlefield(*s)
	if b.Zones[0].Name != "The ford" || len(b.Zones[0].Props) != 0 || *b.Zones[0].X != 2 || *b.Zones[0].Y != 1 {
		t.Errorf("update: %+v", b.Zones[0])
	}
	// A drawn rectangle's size is kept; it must fit the map's frame.
	must(t, edit(t, s, zonesEditor, "zone-update", "zone", "ford", "name", "The ford", "x", "9", "y", "1", "w", "3", "h", "4"))
	refused(t, edit(t, s, zonesEditor, "zone-update", "zone", "ford", "name", "The ford", "x", "10", "y", "1", "w", "3", "h", "4"), "does not fit")
	refused(t, edit(t, s, zonesEditor, "zone-update", "zone", "ford", "name", "The ford", "w", "3", "h", "4"), "needs its place")
	b, _ = ReadBattlefield(*s)
	if z := b.Zones[0]; *z.X != 9 || z.W != 3 || z.H != 4 {
		t.Errorf("drawn: %+v", z)
	}
	must(t, edit(t, s, zonesEditor, "zone-remove", "zone", "ford"))
	b, _ = ReadBattlefield(*s)
	if len(b.Zones) != 1 || len(b.Zones[0].Adjacent) != 0 || len(b.Melees) != 0 || StartOf(s.Combatants[0]).Zone != "" {
		t.Errorf("after removing the ford: %+v, ana starts %+v", b, StartOf(s.Combatants[0]))
	}
}

func TestEditGrid(t *testing.T) {
	s := draft(gridEditor)
	must(t, edit(t, s, gridEditor, "cell-set", "x", "2", "y", "3", "prop.difficult", "on", "prop.label", "Rubble"))
	refused(t, edit(t, s, gridEditor, "cell-set", "x", "10", "y", "0"), "column")
	// The page's form names the square as the board labels it: J8 is (9, 7).
	must(t, edit(t, s, gridEditor, "cell-set", "square", "j8", "prop.difficult", "on"))
	refused(t, edit(t, s, gridEditor, "cell-set", "square", "K1"), "from A1 to J8")
	refused(t, edit(t, s, gridEditor, "cell-set", "square", "0,0"), "not a square")
	b, _ := ReadBattlefield(*s)
	if len(b.Cells) != 2 || !b.Cells[0].Props.Bool("difficult") || b.Cells[0].Props.String("label") != "Rubble" {
		t.Fatalf("cells %+v", b.Cells)
	}
	// Walls between squares: B2's east side a wall, then a door (the same
	// side, named from C2), opened; C3's north side a window; cleared.
	must(t, edit(t, s, gridEditor, "edge-set", "square", "B2", "side", "e", "kind", "wall"))
	must(t, edit(t, s, gridEditor, "edge-set", "square", "C2", "side", "w", "kind", "door", "open", "on"))
	must(t, edit(t, s, gridEditor, "edge-set", "square", "C3", "side", "n", "kind", "window"))
	refused(t, edit(t, s, gridEditor, "edge-set", "square", "C3", "side", "up", "kind", "wall"), "side is n, e, s or w")
	refused(t, edit(t, s, gridEditor, "edge-set", "square", "C3", "side", "n", "kind", "portcullis"), "a wall, a door, a window or none")
	refused(t, edit(t, s, gridEditor, "edge-set", "square", "K1", "side", "n", "kind", "wall"), "from A1 to J8")
	b, _ = ReadBattlefield(*s)
	want := []board.Edge{{X: 2, Y: 1, Side: board.West, Kind: board.EdgeDoor, Open: true}, {X: 2, Y: 2, Side: board.North, Kind: board.EdgeWindow}}
	if !slices.Equal(b.Edges, want) {
		t.Fatalf("edges %+v, want %+v", b.Edges, want)
	}
	must(t, edit(t, s, gridEditor, "edge-set", "square", "C2", "side", "w", "kind", "none"))
	must(t, edit(t, s, gridEditor, "edge-set", "square", "C2", "side", "s", "kind", "none"))
	b, _ = ReadBattlefield(*s)
	if len(b.Edges) != 0 {
		t.Fatalf("edges left %+v", b.Edges)
	}
	// A start: a cell, a contact group, a posture.
	f := url.Values{"start.x": {"9"}, "start.y": {"7"}, "start.group": {"g1"}, "start.prop.posture": {"prone"}}
	st, err := StartFromForm(gridEditor, b, f, "start.", "Ana")
	if err != nil || *st.X != 9 || *st.Y != 7 || st.Group != "g1" || st.Props.String("posture") != "prone" {
		t.Fatalf("start %+v %v", st, err)
	}
	if named, err := StartFromForm(gridEditor, b, url.Values{"start.square": {"J8"}}, "start.", "Ana"); err != nil || *named.X != 9 || *named.Y != 7 {
		t.Fatalf("a start named J8: %+v %v", named, err)
	}
	if _, err := StartFromForm(gridEditor, b, url.Values{"start.square": {"A9"}}, "start.", "Ana"); err == nil || !strings.Contains(err.Error(), "Ana") {
		t.Errorf("a start named off the grid: %v", err)
	}
	SetStart(&s.Combatants[0], st)
	if _, err := StartFromForm(gridEditor, b, url.Values{"start.x": {"12"}, "start.y": {"0"}}, "start.", "Ana"); err == nil {
		t.Error("a start off the grid was accepted")
	}
	if _, err := StartFromForm(gridEditor, b, url.Values{"start.prop.posture": {"flying"}}, "start.", "Ana"); err == nil {
		t.Error("an unknown posture was accepted")
	}
	// Shrinking the grid drops what falls outside.
	refused(t, edit(t, s, gridEditor, "grid-size", "width", "31", "height", "5"), "width")
	must(t, edit(t, s, gridEditor, "grid-size", "width", "5", "height", "5"))
	b, _ = ReadBattlefield(*s)
	if len(b.Cells) != 1 || StartOf(s.Combatants[0]).X != nil || StartOf(s.Combatants[0]).Props.String("posture") != "prone" {
		t.Errorf("after shrinking: %+v, ana %+v", b.Cells, StartOf(s.Combatants[0]))
	}
	// Setting a cell with no properties makes it open ground again.
	must(t, edit(t, s, gridEditor, "cell-set", "x", "2", "y", "3"))
	if b, _ = ReadBattlefield(*s); len(b.Cells) != 0 {
		t.Errorf("cells %+v", b.Cells)
	}
	refused(t, edit(t, s, gridEditor, "zone-add", "name", "Ford"), "no zones")
}

func TestEditPairsAndLadder(t *testing.T) {
	s := draft(pairsEditor)
	must(t, edit(t, s, pairsEditor, "pair-add", "a", "ana", "b", "orc", "distance", "Grappling"))
	refused(t, edit(t, s, pairsEditor, "pair-add", "a", "orc", "b", "ana"), "already engaged")
	refused(t, edit(t, s, pairsEditor, "pair-add", "a", "ana", "b", "ana"), "two different")
	refused(t, edit(t, s, pairsEditor, "pair-add", "a", "ana", "b", "gob", "distance", "Far"), `no distance "Far"`)
	RemoveCombatant(s, "orc")
	if b, _ := ReadBattlefield(*s); len(b.Pairs) != 0 {
		t.Errorf("a removed combatant's engagement stays: %+v", b.Pairs)
	}

	s = draft(ladderEditor)
	must(t, edit(t, s, ladderEditor, "model", "model", board.Ladder))
	must(t, edit(t, s, ladderEditor, "distance-set", "a", "a", "b", "b", "rung", "Long"))
	must(t, edit(t, s, ladderEditor, "distance-set", "a", "b", "b", "a", "rung", "Short"))
	refused(t, edit(t, s, ladderEditor, "distance-set", "a", "a", "b", "a", "rung", "Short"), "two different sides")
	refused(t, edit(t, s, ladderEditor, "model", "model", board.Pairs), "no \"pairs\"")
	b, _ := ReadBattlefield(*s)
	if b.Model != board.Ladder || len(b.Distances) != 1 || b.Distances[0].Rung != "Short" {
		t.Fatalf("ladder %+v", b)
	}
	p := board.Preview(ladderEditor, b, nil, nil)
	if p.Model != board.Ladder || len(p.Ladder.Rungs) != 5 || p.Ladder.Gaps[0].Rung != 1 {
		t.Errorf("preview %+v", p.Ladder)
	}
}

// The editor's other ops — settings, sides, combatants — go through the
// same Apply, stat blocks found through the editor's Block.
func TestEditSetup(t *testing.T) {
	s := draft(zonesEditor)
	ed := DraftEditor{Board: zonesEditor, Boarded: true,
		Options: []engine.OptionSpec{{Name: "ripostes", Default: "off", Choices: []engine.Choice{{Value: "off"}, {Value: "on"}}}},
		Block: func(kind, id string) (store.StatBlock, error) {
			if id != "goblin" {
				return store.StatBlock{}, fray.Errorf(fray.ENOTFOUND, "no %s %q", kind, id)
			}
			return store.StatBlock{ID: id, Name: "Goblin", Stats: []byte(`{"hp":3}`)}, nil
		}}
	apply := func(op string, kv ...string) error {
		f := url.Values{"op": {op}}
		for i := 0; i+1 < len(kv); i += 2 {
			f.Add(kv[i], kv[i+1])
		}
		return ed.Apply(s, op, f)
	}
	must(t, apply("settings", "name", "Night raid", "option.ripostes", "on"))
	refused(t, apply("settings", "name", " "), "needs a name")
	must(t, apply("side-add", "name", "Wolves"))
	must(t, apply("side-rename", "side", "a", "name", "Allies"))
	must(t, apply("add-bestiary", "entry", "goblin", "count", "2", "side", "wolves", "hidden", "on"))
	if err := apply("add-bestiary", "entry", "troll"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("an unknown entry: %v", err)
	}
	refused(t, apply("add-bestiary", "entry", "goblin", "count", "many"), "must be a number")
	must(t, apply("combatant-update", "combatant", "orc", "side", "wolves"))
	must(t, apply("combatant-remove", "combatant", "gob"))
	must(t, apply("side-remove", "side", "b"))
	refused(t, apply("combatant-stats", "combatant", "orc", "name", "Orc"), "no stat block editor")
	refused(t, apply("combatant-stats", "combatant", "nobody", "name", "X"), `no combatant "nobody"`)
	refused(t, apply("fly"), `unknown edit "fly"`)
	if s.Name != "Night raid" || s.Options["ripostes"] != "on" || len(s.Sides) != 2 || s.Sides[0].Name != "Allies" || s.Sides[1].ID != "wolves" {
		t.Fatalf("setup %+v", s)
	}
	var names []string
	for _, c := range s.Combatants {
		names = append(names, c.Name+"/"+c.Side)
		if strings.HasPrefix(c.Name, "Goblin") && (!c.Hidden || string(c.Stats) != `{"hp":3}`) {
			t.Errorf("%s is not a hidden copy of the entry: %+v", c.Name, c)
		}
	}
	if got := strings.Join(names, " "); got != "Ana/a Orc/wolves Goblin 1/wolves Goblin 2/wolves" {
		t.Fatalf("combatants %s", got)
	}
	// A ruleset without a board has no battlefield to edit.
	refused(t, DraftEditor{}.Apply(s, "zone-add", url.Values{"name": {"Ford"}}), "no battlefield")
}

// Placing a bestiary entry or a campaign character in a draft carries its
// portrait onto each combatant made from it.
func TestAddCarriesPortrait(t *testing.T) {
	pic := "/assets/" + strings.Repeat("cd", 32)
	blocks := map[string]store.StatBlock{
		"wolf": {ID: "wolf", Name: "Wolf", Stats: []byte(`{}`), Portrait: pic},
		"brak": {ID: "brak", Name: "Brak", Stats: []byte(`{}`), Portrait: pic},
	}
	ed := DraftEditor{Block: func(kind, id string) (store.StatBlock, error) { return blocks[id], nil }}
	s := engine.Setup{Name: "T", Ruleset: "x", Sides: []engine.Side{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}}}
	must(t, ed.Apply(&s, "add-bestiary", url.Values{"entry": {"wolf"}, "count": {"2"}, "side": {"b"}}))
	must(t, ed.Apply(&s, "add-character", url.Values{"character": {"brak"}, "side": {"a"}}))
	if len(s.Combatants) != 3 {
		t.Fatalf("%d combatants", len(s.Combatants))
	}
	for _, c := range s.Combatants {
		if c.Portrait != pic {
			t.Errorf("%s has portrait %q", c.Name, c.Portrait)
		}
	}
}

// Drops of one bestiary entry are numbered: alone the first is plain
// "Outlaw"; the second makes it "Outlaw 1" and is "Outlaw 2"; a drop of
// two after them goes on at 3 and 4. Every name differs.
func TestDropsOfOneEntryAreNumbered(t *testing.T) {
	blocks := map[string]store.StatBlock{"outlaw": {ID: "outlaw", Name: "Outlaw", Stats: []byte(`{}`)}}
	ed := DraftEditor{Block: func(kind, id string) (store.StatBlock, error) { return blocks[id], nil }}
	s := engine.Setup{Name: "T", Ruleset: "x", Sides: []engine.Side{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}}}
	names := func() string {
		var out []string
		for _, c := range s.Combatants {
			out = append(out, c.Name)
		}
		return strings.Join(out, ", ")
	}
	drop := func(count, want string) {
		t.Helper()
		must(t, ed.Apply(&s, "add-bestiary", url.Values{"entry": {"outlaw"}, "count": {count}, "side": {"b"}}))
		if got := names(); got != want {
			t.Errorf("after a drop of %s: %s, want %s", count, got, want)
		}
	}
	drop("1", "Outlaw")
	drop("1", "Outlaw 1, Outlaw 2")
	drop("1", "Outlaw 1, Outlaw 2, Outlaw 3")
	drop("2", "Outlaw 1, Outlaw 2, Outlaw 3, Outlaw 4, Outlaw 5")
	ids := map[string]bool{}
	for _, c := range s.Combatants {
		ids[c.ID] = true
	}
	if len(ids) != len(s.Combatants) {
		t.Errorf("ids repeat: %v", ids)
	}
}

// TestMergeAndSplitZones: the fix-ups of an imported map. Merging takes
// the other zone's box, borders and starts; splitting cuts a placed zone
// along a column or a row into two that border each other and keep the
// zone's borders; each refusal says why.
func TestMergeAndSplitZones(t *testing.T) {
	s := draft(zonesEditor)
	for _, z := range [][]string{{"Hall", "0", "0", "6", "4"}, {"Study", "6", "0", "3", "4"}, {"Yard", "0", "4", "9", "2"}} {
		must(t, edit(t, s, zonesEditor, "zone-add", "name", z[0], "x", z[1], "y", z[2], "w", z[3], "h", z[4]))
	}
	must(t, edit(t, s, zonesEditor, "connect", "a", "hall", "b", "study"))
	must(t, edit(t, s, zonesEditor, "connect", "a", "study", "b", "yard"))
	SetStart(&s.Combatants[1], board.Start{Zone: "study"})

	must(t, edit(t, s, zonesEditor, "zone-merge", "a", "hall", "b", "study"))
	b, _ := ReadBattlefield(*s)
	if len(b.Zones) != 2 || b.Zones[0].ID != "hall" || *b.Zones[0].X != 0 || b.Zones[0].W != 9 || b.Zones[0].H != 4 ||
		!slices.Equal(Adjacent(b, "hall"), []string{"yard"}) || StartOf(s.Combatants[1]).Zone != "hall" {
		t.Fatalf("merged: %+v, orc %+v", b.Zones, StartOf(s.Combatants[1]))
	}
	refused(t, edit(t, s, zonesEditor, "zone-merge", "a", "hall", "b", "hall"), "two different zones")

	must(t, edit(t, s, zonesEditor, "zone-split", "zone", "hall", "axis", "col", "at", "4"))
	b, _ = ReadBattlefield(*s)
	if len(b.Zones) != 3 || b.Zones[0].Name != "Hall (west)" || b.Zones[0].W != 4 || b.Zones[1].Name != "Hall (east)" ||
		*b.Zones[1].X != 4 || b.Zones[1].W != 5 || b.Zones[1].H != 4 {
		t.Fatalf("split: %+v", b.Zones)
	}
	east := b.Zones[1].ID
	if !slices.Contains(Adjacent(b, "hall"), east) || !slices.Contains(Adjacent(b, east), "yard") || !slices.Contains(Adjacent(b, "yard"), east) {
		t.Errorf("split borders: hall %v, east %v, yard %v", Adjacent(b, "hall"), Adjacent(b, east), Adjacent(b, "yard"))
	}
	must(t, edit(t, s, zonesEditor, "zone-split", "zone", "yard", "axis", "row", "at", "5"))
	refused(t, edit(t, s, zonesEditor, "zone-split", "zone", "hall", "axis", "col", "at", "7"), "does not cross")
	refused(t, edit(t, s, zonesEditor, "zone-split", "zone", "hall", "axis", "diagonal", "at", "2"), "not \"diagonal\"")
	must(t, edit(t, s, zonesEditor, "zone-add", "name", "Loose"))
	refused(t, edit(t, s, zonesEditor, "zone-split", "zone", "loose", "axis", "col", "at", "1"), "no place on the map")
}

// TestDescriptionsFollowNames: an imported map's descriptions name the
// zones their doors lead to; merging and renaming keep them true.
func TestDescriptionsFollowNames(t *testing.T) {
	s := draft(zonesEditor)
	WriteBattlefield(s, board.Battlefield{Zones: []board.ZoneSetup{
		{ID: "room-1", Name: "Room 1", Description: "A closed door leads to Room 2.", Adjacent: []string{"room-2"}},
		{ID: "room-2", Name: "Room 2", Description: "An open door leads to Room 3, Room 10. A closed door leads to Room 1.", Adjacent: []string{"room-3"}},
		{ID: "room-3", Name: "Room 3", Description: "An open door leads to Room 2.", Adjacent: []string{}},
		{ID: "room-10", Name: "Room 10", Adjacent: []string{}},
	}})
	must(t, edit(t, s, zonesEditor, "zone-merge", "a", "room-2", "b", "room-3"))
	must(t, edit(t, s, zonesEditor, "zone-update", "zone", "room-1", "name", "Kitchen", "description", "A closed door leads to Room 2."))
	b, _ := ReadBattlefield(*s)
	got := map[string]string{}
	for _, z := range b.Zones {
		got[z.ID] = z.Description
	}
	if got["room-1"] != "A closed door leads to Room 2." || got["room-2"] != "An open door leads to Room 10. A closed door leads to Kitchen." {
		t.Errorf("descriptions %q", got)
	}
}

// TestSplitKeepsDoorsOnTheirSide: the house's west room (columns 0–5 of
// the page's map) has a door to Room 2 (east of it, rows 0–3) and, drawn
// here, an archway to a Yard south of its west half (columns 0–2); split
// down column 3, the east half keeps the door to Room 2, the west half
// the archway, and a Porch above the whole room keeps a door to both.
// The other rooms' doors lead to the half on their side.
func TestSplitKeepsDoorsOnTheirSide(t *testing.T) {
	at := func(v int) *int { return &v }
	s := draft(zonesEditor)
	WriteBattlefield(s, board.Battlefield{Zones: []board.ZoneSetup{
		{ID: "room-1", Name: "Room 1", Description: "A closed door leads to Room 2. An opening leads to Yard, Porch. A window looks into Yard.",
			Adjacent: []string{"room-2", "yard", "porch"}, X: at(0), Y: at(1), W: 6, H: 6},
		{ID: "room-2", Name: "Room 2", Description: "A closed door leads to Room 1. An open door leads to Room 3.", Adjacent: []string{"room-3"}, X: at(6), Y: at(1), W: 6, H: 4},
		{ID: "room-3", Name: "Room 3", Description: "An open door leads to Room 2.", Adjacent: []string{}, X: at(6), Y: at(5), W: 6, H: 3},
		{ID: "yard", Name: "Yard", Description: "An opening leads to Room 1.", Adjacent: []string{}, X: at(0), Y: at(7), W: 3, H: 2},
		{ID: "porch", Name: "Porch", Description: "An opening leads to Room 1.", Adjacent: []string{}, X: at(0), Y: at(0), W: 6, H: 1},
		{ID: "cellar", Name: "Cellar", Description: "A closed door leads to Room 1.", Adjacent: []string{"room-1"}},
	}})
	must(t, edit(t, s, zonesEditor, "zone-split", "zone", "room-1", "axis", "col", "at", "3"))
	b, _ := ReadBattlefield(*s)
	got := map[string]string{}
	for _, z := range b.Zones {
		got[z.ID] = z.Description
	}
	want := map[string]string{
		"room-1":      "An opening leads to Yard, Porch. A window looks into Yard.",
		"room-1-east": "A closed door leads to Room 2. An opening leads to Porch.",
		"room-2":      "A closed door leads to Room 1 (east). An open door leads to Room 3.",
		"room-3":      "An open door leads to Room 2.",
		"yard":        "An opening leads to Room 1 (west).",
		"porch":       "An opening leads to Room 1 (west), Room 1 (east).",
		// Placed nowhere: it could be either side.
		"cellar": "A closed door leads to Room 1 (west), Room 1 (east).",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
}
