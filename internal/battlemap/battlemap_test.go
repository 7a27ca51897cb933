package battlemap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// box is a zone as the tests expect it: id, box of squares, squares held.
type box struct {
	ID         string
	X, Y, W, H int
	Cells      int
}

// TestPlan reads each test map (drawn in uvtttest) and checks the zones,
// links and ranges against what the drawing says, worked out by hand.
// Ranges are "a b hops squares", squares from centre to centre through
// the middle of each passage, rounded.
func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m      uvtttest.Map
		o      Options
		zones  []box
		links  []string // "a b kind"
		ranges []string // "a b hops squares"
		notes  []string // words each note holds, in order
		descs  map[string]string
	}{{
		// West room 5×6, north-east and south-east rooms 5×3: a closed
		// door west–north at x=5 (crossed at y 1.5), an open door
		// north–south at y=3 (crossed at x 7.5). Centres (2.5, 3),
		// (7.5, 1.5), (7.5, 4.5): 2.92 + 2.5 = 5.4; 1.5 + 1.5 = 3.
		name: "house of three rooms and two doors", m: uvtttest.House(), o: Options{ZoneSpan: 6},
		zones:  []box{{"room-1", 0, 0, 5, 6, 30}, {"room-2", 5, 0, 5, 3, 15}, {"room-3", 5, 3, 5, 3, 15}},
		links:  []string{"room-1 room-2 closed door", "room-2 room-3 door"},
		ranges: []string{"room-2 room-3 1 3", "room-1 room-2 1 5", "room-1 room-3 2 8"},
		descs: map[string]string{"room-1": "A closed door leads to Room 2.",
			"room-2": "An open door leads to Room 3. A closed door leads to Room 1.", "room-3": "An open door leads to Room 2."},
	}, {
		// The L is 8×8 less its north-east quarter (outside: left out);
		// at a span of 6 it is tiled 4×4: three tiles hold squares.
		name: "L-shaped room, split", m: uvtttest.LRoom(), o: Options{ZoneSpan: 6},
		zones:  []box{{"room-1-1", 0, 0, 4, 4, 16}, {"room-1-2", 0, 4, 4, 4, 16}, {"room-1-3", 4, 4, 4, 4, 16}},
		links:  []string{"room-1-1 room-1-2 open", "room-1-2 room-1-3 open"},
		ranges: []string{"room-1-1 room-1-2 1 4", "room-1-2 room-1-3 1 4", "room-1-1 room-1-3 2 8"},
		notes:  []string{"16 squares outside the walls"},
	}, {
		name: "L-shaped room, whole", m: uvtttest.LRoom(), o: Options{ZoneSpan: 8},
		zones: []box{{"room-1", 0, 0, 8, 8, 48}},
		notes: []string{"16 squares outside the walls"},
	}, {
		// The pillars' insides (one square each) merge into the hall,
		// which a span of 6 cuts in two 6×6 halves.
		name: "hall with pillars", m: uvtttest.Hall(), o: Options{ZoneSpan: 6},
		zones:  []box{{"room-1-1", 0, 0, 6, 6, 36}, {"room-1-2", 6, 0, 6, 6, 36}},
		links:  []string{"room-1-1 room-1-2 open"},
		ranges: []string{"room-1-1 room-1-2 1 6"},
		notes:  []string{"2 small rooms (under 4 squares"},
	}, {
		name: "hall with pillars, whole", m: uvtttest.Hall(), o: Options{ZoneSpan: 12},
		zones: []box{{"room-1", 0, 0, 12, 6, 72}},
		notes: []string{"2 small rooms"},
	}, {
		// 25 + 25 squares of chamber and 2 of passage; the four squares
		// above and below the passage are outside. Cut at x=6, mid
		// passage: centres (2.62, 2.5) and (9.38, 2.5).
		name: "cave of many short segments", m: uvtttest.Cave(), o: Options{ZoneSpan: 6},
		zones:  []box{{"room-1-1", 0, 0, 6, 5, 26}, {"room-1-2", 6, 0, 6, 5, 26}},
		links:  []string{"room-1-1 room-1-2 open"},
		ranges: []string{"room-1-1 room-1-2 1 7"},
		notes:  []string{"8 squares outside the walls"},
	}, {
		name: "archway instead of a portal", m: uvtttest.Archway(), o: Options{ZoneSpan: 6},
		zones:  []box{{"room-1", 0, 0, 5, 5, 25}, {"room-2", 5, 0, 5, 5, 25}},
		links:  []string{"room-1 room-2 opening"},
		ranges: []string{"room-1 room-2 1 5"},
	}, {
		// Too narrow a gap setting: the archway is a wall's end, and the
		// two rooms are one.
		name: "archway, gaps off", m: uvtttest.Archway(), o: Options{ZoneSpan: 10, Gap: 0.5},
		zones: []box{{"room-1", 0, 0, 10, 5, 50}},
	}, {
		name: "no walls", m: uvtttest.Open(), o: Options{ZoneSpan: 6},
		zones: []box{{"room-1-1", 0, 0, 6, 6, 36}, {"room-1-2", 6, 0, 6, 6, 36}, {"room-1-3", 0, 6, 6, 6, 36}, {"room-1-4", 6, 6, 6, 6, 36}},
		links: []string{"room-1-1 room-1-2 open", "room-1-1 room-1-3 open", "room-1-2 room-1-4 open", "room-1-3 room-1-4 open"},
		ranges: []string{"room-1-1 room-1-2 1 6", "room-1-1 room-1-3 1 6", "room-1-2 room-1-4 1 6", "room-1-3 room-1-4 1 6",
			"room-1-1 room-1-4 2 12", "room-1-2 room-1-3 2 12"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := uvtt.Parse(context.Background(), tc.m.JSON())
			if err != nil {
				t.Fatal(err)
			}
			b, err := Plan(m, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var got []box
			for _, z := range b.Zones {
				got = append(got, box{z.ID, z.X, z.Y, z.W, z.H, z.Cells})
			}
			if !slices.Equal(got, tc.zones) {
				t.Errorf("zones:\n got %v\nwant %v", got, tc.zones)
			}
			var links []string
			for _, l := range b.Links {
				links = append(links, l.A+" "+l.B+" "+l.Kind)
			}
			if !slices.Equal(links, tc.links) {
				t.Errorf("links:\n got %q\nwant %q", links, tc.links)
			}
			var ranges []string
			for _, r := range b.Ranges {
				ranges = append(ranges, fmt.Sprintf("%s %s %d %d", r.A, r.B, r.Hops, r.Squares))
			}
			if !slices.Equal(ranges, tc.ranges) {
				t.Errorf("ranges:\n got %q\nwant %q", ranges, tc.ranges)
			}
			if len(b.Notes) != len(tc.notes) {
				t.Errorf("notes %q, want %d like %q", b.Notes, len(tc.notes), tc.notes)
			}
			for i, n := range tc.notes {
				if i < len(b.Notes) && !strings.Contains(b.Notes[i], n) {
					t.Errorf("note %d %q, want it to say %q", i, b.Notes[i], n)
				}
			}
			for id, d := range tc.descs {
				for _, z := range b.Zones {
					if z.ID == id && z.Description != d {
						t.Errorf("%s: description %q, want %q", id, z.Description, d)
					}
				}
			}
		})
	}
}

// TestPlanTooManyZones: a map that would make more zones than a board
// holds is refused with the way out.
func TestPlanTooManyZones(t *testing.T) {
	m, err := uvtt.Parse(context.Background(), uvtttest.Map{W: 100, H: 100}.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Plan(m, Options{ZoneSpan: 5}); err == nil || !strings.Contains(err.Error(), "larger zone size") {
		t.Fatalf("400 zones: %v", err)
	}
	if _, err := Plan(m, Options{ZoneSpan: 20}); err != nil {
		t.Fatalf("25 zones: %v", err)
	}
}

// TestSolid: the squares a grid makes walls — outside the L, the
// pillars' insides — and none where there is floor (a closet with a door
// is floor, however small).
func TestSolid(t *testing.T) {
	closet := uvtttest.House()
	closet.Walls = append(closet.Walls, []uvtttest.P{{X: 0, Y: 1}, {X: 1, Y: 1}, {X: 1, Y: 0}})
	closet.Portals = append(closet.Portals, uvtttest.Portal{A: uvtttest.P{X: 0, Y: 1}, B: uvtttest.P{X: 1, Y: 1}})
	for _, tc := range []struct {
		name string
		m    uvtttest.Map
		want [][2]int
	}{
		{"house", uvtttest.House(), nil},
		{"closet with a door", closet, nil},
		{"hall", uvtttest.Hall(), [][2]int{{3, 2}, {8, 3}}},
		{"open", uvtttest.Open(), nil},
		{"l-room", uvtttest.LRoom(), func() (q [][2]int) {
			for y := range 4 {
				for x := 4; x < 8; x++ {
					q = append(q, [2]int{x, y})
				}
			}
			return q
		}()},
	} {
		m, err := uvtt.Parse(context.Background(), tc.m.JSON())
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]int
		for i, s := range Solid(m, Options{}) {
			if s {
				got = append(got, [2]int{i % m.Width, i / m.Width})
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: solid %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWindows: a Foundry window (a wall that blocks movement, not sight)
// between two rooms keeps them apart for movement — no link, no range —
// but is kept for sight and said in both descriptions. Drawn: an 8 × 4
// house, a window wall down x=4 between Room 1 (west) and Room 2 (east);
// Room 2's south-east corner walled off into a 2 × 2 closet by plain
// walls with a door, and the closet's window-free.
func TestWindows(t *testing.T) {
	p := func(x, y float64) uvtt.Point { return uvtt.Point{X: x, Y: y} }
	m := &uvtt.Map{Width: 8, Height: 4, Walls: []uvtt.Wall{
		{Points: []uvtt.Point{p(0, 0), p(8, 0), p(8, 4), p(0, 4), p(0, 0)}, Sight: true},
		{Points: []uvtt.Point{p(4, 0), p(4, 4)}}, // the window
		{Points: []uvtt.Point{p(6, 4), p(6, 2), p(6.5, 2)}, Sight: true},
		{Points: []uvtt.Point{p(7.5, 2), p(8, 2)}, Sight: true},
	}, Portals: []uvtt.Portal{{A: p(6.5, 2), B: p(7.5, 2)}}}
	b, err := Plan(m, Options{ZoneSpan: 8, Gap: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	var zones, links, windows []string
	desc := map[string]string{}
	for _, z := range b.Zones {
		zones = append(zones, fmt.Sprintf("%s %d", z.ID, z.Cells))
		desc[z.ID] = z.Description
	}
	for _, l := range b.Links {
		links = append(links, l.A+" "+l.B+" "+l.Kind)
	}
	for _, l := range b.Windows {
		windows = append(windows, l.A+" "+l.B+" "+l.Kind)
	}
	if want := []string{"room-1 16", "room-2 12", "room-3 4"}; !slices.Equal(zones, want) {
		t.Errorf("zones %q, want %q", zones, want)
	}
	if want := []string{"room-2 room-3 door"}; !slices.Equal(links, want) {
		t.Errorf("links %q, want %q", links, want)
	}
	if want := []string{"room-1 room-2 window"}; !slices.Equal(windows, want) {
		t.Errorf("windows %q, want %q", windows, want)
	}
	for _, r := range b.Ranges {
		if r.A == "room-1" || r.B == "room-1" {
			t.Errorf("a path through the window: %+v", r)
		}
	}
	if len(b.Notes) != 1 || !strings.HasPrefix(b.Notes[0], "A window looks between zones") {
		t.Errorf("notes %q", b.Notes)
	}
	if desc["room-1"] != "A window looks into Room 2." || desc["room-2"] != "An open door leads to Room 3. A window looks into Room 1." {
		t.Errorf("descriptions %q", desc)
	}
}
