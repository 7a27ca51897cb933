package prep

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// TestPlacesFromMaps: on d20-under's distance categories and d20-duel's
// engagements a map's rooms are places, and the starting distances follow
// from the walk between the rooms two sides (or fighters) are put in.
// The walks, by hand from the drawings (a square is 1.524 m):
//   - house (battlemap's TestPlan): Room 2–Room 3 3 squares (4.6 m),
//     Room 1–Room 2 5 (7.6 m), Room 1–Room 3 8 (12.2 m);
//   - L-room tiled at 6: Room 1-1–Room 1-2 and Room 1-2–Room 1-3 4
//     squares (6.1 m), Room 1-1–Room 1-3 8 (12.2 m).
//
// d20-under: up to 2 m Close, 10 m Short, 40 m Medium (a move is 10 m);
// d20-duel: up to 2 m Striking, farther not engaged.
func TestPlacesFromMaps(t *testing.T) {
	reg := rules.Registry()
	for _, tc := range []struct {
		name, ruleset, model string
		m                    uvtttest.Map
		zone                 int
		places               [][2]string // who, room
		want                 []string    // the battlefield's distances or pairs: "a b distance"
		table                []string    // the range table's lines, in part
	}{{
		name: "house, sides two rooms apart", ruleset: "d20-under", model: board.Ladder, m: uvtttest.House(),
		places: [][2]string{{"heroes", "Room 1"}, {"cult", "Room 3"}},
		want:   []string{"heroes cult Medium"},
		table:  []string{"Queen's rangers (Room 1) — Cult of the Black Sun (Room 3): 12.2 m, Medium"},
	}, {
		name: "house, through one door", ruleset: "d20-under", model: board.Ladder, m: uvtttest.House(),
		places: [][2]string{{"heroes", "room 2"}, {"cult of the black sun", "Room 3"}},
		want:   []string{"heroes cult Short"},
		table:  []string{"(Room 2) — Cult of the Black Sun (Room 3): 4.6 m, Short"},
	}, {
		name: "house, same room", ruleset: "d20-under", model: board.Ladder, m: uvtttest.House(),
		places: [][2]string{{"heroes", "Room 3"}, {"cult", "Room 3"}},
		want:   []string{"heroes cult Close"},
	}, {
		name: "L-room, the two ends", ruleset: "d20-under", model: board.Ladder, m: uvtttest.LRoom(), zone: 6,
		places: [][2]string{{"heroes", "room-1-1"}, {"cult", "Room 1, part 3"}},
		want:   []string{"heroes cult Medium"},
		table:  []string{"12.2 m, Medium"},
	}, {
		name: "L-room, next tiles", ruleset: "d20-under", model: board.Ladder, m: uvtttest.LRoom(), zone: 6,
		places: [][2]string{{"heroes", "room-1-2"}, {"cult", "room-1-3"}},
		want:   []string{"heroes cult Short"},
		table:  []string{"6.1 m, Short"},
	}, {
		name: "house duel, same room", ruleset: "d20-duel", m: uvtttest.House(),
		places: [][2]string{{"jesper", "Room 2"}, {"krall", "Room 2"}},
		want:   []string{"jesper krall Striking"},
		table:  []string{"Jesper the Eel (Room 2) — Bosun Krall (Room 2): 0.0 m, Striking"},
	}, {
		name: "house duel, through a door", ruleset: "d20-duel", m: uvtttest.House(),
		places: [][2]string{{"jesper", "Room 2"}, {"krall", "Room 3"}},
		want:   nil,
		table:  []string{"4.6 m, not engaged"},
	}, {
		name: "L-room duel, next tiles", ruleset: "d20-duel", m: uvtttest.LRoom(), zone: 6,
		places: [][2]string{{"Jesper the Eel", "room-1-1"}, {"krall", "room-1-2"}},
		want:   nil,
		table:  []string{"6.1 m, not engaged"},
	}, {
		name: "L-room duel, same tile", ruleset: "d20-duel", m: uvtttest.LRoom(), zone: 6,
		places: [][2]string{{"jesper", "room-1-3"}, {"krall", "room-1-3"}},
		want:   []string{"jesper krall Striking"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := reg.Get(tc.ruleset)
			if err != nil {
				t.Fatal(err)
			}
			m, err := uvtt.Parse(context.Background(), tc.m.JSON())
			if err != nil {
				t.Fatal(err)
			}
			s, _, err := MapSetup(rs, m, "", tc.model, battlemap.Options{ZoneSpan: tc.zone})
			if err != nil {
				t.Fatal(err)
			}
			e, _ := EditorOf(rs)
			var rows []PlaceRange
			for _, p := range tc.places {
				if rows, err = Place(e, &s, p[0], p[1]); err != nil {
					t.Fatal(err)
				}
			}
			bf, _ := ReadBattlefield(s)
			var got []string
			for _, d := range bf.Distances {
				got = append(got, d.A+" "+d.B+" "+d.Rung)
			}
			for _, p := range bf.Pairs {
				got = append(got, p.A+" "+p.B+" "+p.Distance)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("derived %q, want %q", got, tc.want)
			}
			var lines []string
			for _, r := range rows {
				lines = append(lines, r.String())
			}
			for _, w := range tc.table {
				if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, w) }) {
					t.Errorf("table %q lacks %q", lines, w)
				}
			}
			// What the ruleset reads: the encounter is created from it.
			if err := Check(reg, s); err != nil {
				t.Errorf("the setup is refused: %v", err)
			}
		})
	}
}

// TestPlaceRefusesAndKeeps: a side, a combatant or a room that is not
// there is refused and nothing changes; a place taken back leaves the
// distance as it was set; battlefields without places refuse.
func TestPlaceRefusesAndKeeps(t *testing.T) {
	reg := rules.Registry()
	rs, _ := reg.Get("d20-under")
	e, _ := EditorOf(rs)
	m, err := uvtt.Parse(context.Background(), uvtttest.House().JSON())
	if err != nil {
		t.Fatal(err)
	}
	s, rep, err := MapSetup(rs, m, "", board.Ladder, battlemap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// By default the first side is in the first room, the others as far
	// from it as the map goes.
	if rep.Places != 3 || len(rep.Ranges) != 1 || !strings.Contains(rep.Ranges[0], "Queen's rangers (Room 1) — Cult of the Black Sun (Room 3)") {
		t.Errorf("report %+v", rep)
	}
	// A hand edit is told apart from what the rooms give, until a side
	// is put in a room again.
	bf, _ := ReadBattlefield(s)
	if !PlacesHold(e, board.Ladder, s, bf) {
		t.Error("the derived distances do not hold")
	}
	bf.Distances[0].Rung = "Long"
	if PlacesHold(e, board.Ladder, s, bf) {
		t.Error("a hand edit is not seen")
	}
	before := string(s.Battlefield)
	for _, p := range [][2]string{{"nobody", "Room 1"}, {"heroes", "Cellar"}} {
		if _, err := Place(e, &s, p[0], p[1]); err == nil || string(s.Battlefield) != before {
			t.Errorf("place %v: %v; changed: %v", p, err, string(s.Battlefield) != before)
		}
	}
	if _, err := Place(e, &s, "cult", ""); err != nil {
		t.Fatal(err)
	}
	bf, _ = ReadBattlefield(s)
	if fmt.Sprint(bf.Distances) != "[{heroes cult Medium}]" || bf.Places.At["cult"] != "" {
		t.Errorf("taken out: %+v, at %v", bf.Distances, bf.Places.At)
	}
	// A hidden fighter engages no one: not put in a room.
	duel, _ := reg.Get("d20-duel")
	de, _ := EditorOf(duel)
	ds, _, err := MapSetup(duel, m, "", "", battlemap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds.Combatants[1].Hidden = true
	if _, err := Place(de, &ds, ds.Combatants[1].ID, "Room 1"); err == nil || !strings.Contains(err.Error(), "is hidden") {
		t.Errorf("a hidden fighter put in a room: %v", err)
	}
	// On the grid a map gives no places.
	grid := NewDraftSetup(rs, "grid")
	if _, err := Place(e, &grid, "heroes", "Room 1"); err == nil {
		t.Error("a grid took a place")
	}
}

// TestRoomPlaceEdit: the editor's room-place edit puts a fighter in a
// room by id and derives the engagements; bad input is refused and
// changes nothing.
func TestRoomPlaceEdit(t *testing.T) {
	s := draft(pairsEditor)
	e := pairsEditor
	e.Reaches = []board.Reach{{Distance: "Striking", Metres: 2}}
	refused(t, edit(t, s, e, "room-place", "who", "ana", "room", "hall"), "no rooms from a map")
	bf, _ := ReadBattlefield(*s)
	bf.Places = &board.Places{Rooms: []board.Place{{ID: "hall", Name: "Hall"}, {ID: "yard", Name: "Yard"}},
		Paths: []board.Path{{A: "hall", B: "yard", Metres: 9}}, At: map[string]string{}}
	WriteBattlefield(s, bf)
	must(t, edit(t, s, e, "room-place", "who", "ana", "room", "hall"))
	must(t, edit(t, s, e, "room-place", "who", "orc", "room", "hall"))
	must(t, edit(t, s, e, "room-place", "who", "gob", "room", "yard"))
	before := string(s.Battlefield)
	refused(t, edit(t, s, e, "room-place", "who", "ana", "room", "cellar"), `no room "cellar"`)
	refused(t, edit(t, s, e, "room-place", "who", "troll", "room", "hall"), `no combatant "troll"`)
	if string(s.Battlefield) != before {
		t.Error("a refused edit changed the battlefield")
	}
	bf, _ = ReadBattlefield(*s)
	if fmt.Sprint(bf.Pairs) != "[{ana orc Striking}]" {
		t.Errorf("pairs %v, want Ana and the orc (one room) at Striking, the goblin (9 m off) not engaged", bf.Pairs)
	}
}
