package board

import (
	"strings"
	"testing"
)

// house is a 4 × 4 grid (columns A–D, rows 1–4) drawn by hand:
//
//	  A   B   C   D
//	1 .   .   .   .
//	2 .   .  |.   .      a wall between B2 and C2
//	3 .   .   .   .
//	  ===                a closed door between A3 and A4
//	4 .   .   .  ¦.      a window between C4 and D4
func house(t *testing.T) *Walls {
	t.Helper()
	w, err := NewWalls(4, 4, []Edge{
		{X: 1, Y: 1, Side: East},
		{X: 0, Y: 3, Side: North, Kind: EdgeDoor},
		{X: 3, Y: 3, Side: West, Kind: EdgeWindow},
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWallsStep(t *testing.T) {
	for _, tc := range []struct {
		name           string
		ax, ay, bx, by int
		corner         int
		want           bool
	}{
		{"through the wall eastwards", 1, 1, 2, 1, Strict, false},
		{"through the wall westwards", 2, 1, 1, 1, Loose, false},
		{"beside the wall", 1, 0, 2, 0, Strict, true},
		{"along the wall", 1, 1, 1, 2, Strict, true},
		{"diagonal past the wall's foot, strict", 1, 1, 2, 2, Strict, false},
		{"diagonal past the wall's foot, loose (round by B3)", 1, 1, 2, 2, Loose, true},
		{"diagonal past the wall's head, strict", 1, 0, 2, 1, Strict, false},
		{"diagonal past the wall's head, loose (round by C1)", 1, 0, 2, 1, Loose, true},
		{"diagonal round the wall's foot, loose (by C3)", 2, 1, 1, 2, Loose, true},
		{"diagonal away from walls", 1, 2, 2, 3, Strict, true},
		{"through the closed door", 0, 2, 0, 3, Strict, false},
		{"diagonal by the closed door's end, loose (round by B3)", 0, 2, 1, 3, Loose, true},
		{"diagonal by the closed door's end, strict", 0, 2, 1, 3, Strict, false},
		{"through the window", 2, 3, 3, 3, Strict, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := house(t).Step(tc.ax, tc.ay, tc.bx, tc.by, tc.corner); got != tc.want {
				t.Errorf("Step %s→%s = %v, want %v", SquareName(tc.ax, tc.ay), SquareName(tc.bx, tc.by), got, tc.want)
			}
		})
	}
}

func TestWallsClear(t *testing.T) {
	for _, tc := range []struct {
		name           string
		ax, ay, cx, cy int
		want           bool
	}{
		{"along row 2 across the wall", 0, 1, 3, 1, false},
		{"along row 1", 0, 0, 3, 0, true},
		{"steep line across the wall", 1, 0, 2, 2, false},
		{"shallow line across the wall", 0, 2, 3, 0, false},
		{"shallow line through the corner at the wall's head", 0, 0, 3, 1, true},
		{"shallow line by the wall's foot", 0, 1, 3, 2, true},
		{"through the corner at the wall's head", 1, 0, 2, 1, true},
		{"through the corner at the wall's foot", 1, 1, 2, 2, true},
		{"down column A through the closed door", 0, 0, 0, 3, false},
		{"down column B beside the door", 1, 0, 1, 3, true},
		{"through the window", 0, 3, 3, 3, true},
		{"the same square", 2, 2, 2, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := house(t)
			if got := w.Clear(tc.ax, tc.ay, tc.cx, tc.cy); got != tc.want {
				t.Errorf("Clear %s→%s = %v, want %v", SquareName(tc.ax, tc.ay), SquareName(tc.cx, tc.cy), got, tc.want)
			}
			if got := w.Clear(tc.cx, tc.cy, tc.ax, tc.ay); got != tc.want {
				t.Errorf("Clear %s→%s (backwards) = %v, want %v", SquareName(tc.cx, tc.cy), SquareName(tc.ax, tc.ay), got, tc.want)
			}
		})
	}
}

func TestWallsDoor(t *testing.T) {
	w := house(t)
	before := w
	door := Edge{X: 0, Y: 3, Side: North}.ID()
	if w.Door(door) == nil || w.Door(Edge{X: 2, Y: 1, Side: West}.ID()) != nil {
		t.Fatalf("Door finds the door %s and no wall", door)
	}
	if w.Step(0, 2, 0, 3, Strict) || w.Clear(0, 0, 0, 3) {
		t.Fatal("a closed door lets through")
	}
	w, ok := w.With(door, true)
	if !ok {
		t.Fatal("With found no door")
	}
	if !w.Step(0, 2, 0, 3, Strict) || !w.Step(0, 3, 0, 2, Strict) || !w.Clear(0, 0, 0, 3) {
		t.Error("an open door blocks")
	}
	if before.Step(0, 2, 0, 3, Strict) {
		t.Error("opening the door changed a copy made before")
	}
	w, _ = w.With(door, false)
	if w.Step(0, 2, 0, 3, Strict) || w.Clear(0, 3, 0, 0) {
		t.Error("a door closed again lets through")
	}
	if _, ok := w.With(Edge{X: 2, Y: 1, Side: West}.ID(), true); ok {
		t.Error("a wall opened")
	}
	var none *Walls
	if !none.Step(0, 0, 1, 1, Strict) || !none.Clear(0, 0, 3, 3) || none.Door(door) != nil {
		t.Error("no walls block")
	}
}

func TestNewWallsRefuses(t *testing.T) {
	for _, tc := range []struct {
		edges []Edge
		want  string
	}{
		{[]Edge{{X: 4, Y: 0, Side: East}}, "off the 4 × 4 grid"},
		{[]Edge{{X: 0, Y: 4, Side: West}}, "off the 4 × 4 grid"},
		{[]Edge{{X: -1, Y: 0, Side: North}}, "off the 4 × 4 grid"},
		{[]Edge{{X: 1, Y: 1, Side: East}, {X: 2, Y: 1, Side: West}}, "listed twice"},
		{[]Edge{{X: 1, Y: 1, Side: "up"}}, "side is n, e, s or w"},
		{[]Edge{{X: 1, Y: 1, Side: North, Kind: "portcullis"}}, "kind is wall, door or window"},
		{[]Edge{{X: 1, Y: 1, Side: North, Kind: EdgeWindow, Open: true}}, "only a door opens"},
		{make([]Edge, MaxEdges+1), "at most"},
	} {
		if _, err := NewWalls(4, 4, tc.edges); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewWalls(%v…) = %v, want an error saying %q", tc.edges[0], err, tc.want)
		}
	}
	w, err := NewWalls(4, 4, []Edge{{X: 3, Y: 3, Side: South}, {X: 3, Y: 3, Side: East, Kind: "wall"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Edges; got[0] != (Edge{X: 3, Y: 4, Side: North}) || got[1] != (Edge{X: 4, Y: 3, Side: West}) {
		t.Errorf("south and east sides read as %v, want the neighbours' north and west", got)
	}
}

// BenchmarkWalls: a 60 × 60 grid with a wall every fourth column, a door
// in each every fourth row: a clear line of sight down the grid, one
// stopped by a wall, every step out of every square (what a route search
// asks), and the first question of a copy (whose index is built anew:
// every command is decided on a copy of the state).
func BenchmarkWalls(b *testing.B) {
	var edges []Edge
	for x := 4; x < 60; x += 4 {
		for y := range 60 {
			e := Edge{X: x, Y: y, Side: West}
			if y%4 == 2 {
				e.Kind = EdgeDoor
			}
			edges = append(edges, e)
		}
	}
	w, err := NewWalls(60, 60, edges)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("clear", func(b *testing.B) {
		for b.Loop() {
			w.Clear(0, 0, 3, 59)
		}
	})
	b.Run("blocked", func(b *testing.B) {
		for b.Loop() {
			w.Clear(0, 0, 59, 57)
		}
	})
	b.Run("steps", func(b *testing.B) {
		for b.Loop() {
			for y := 1; y < 59; y++ {
				for x := 1; x < 59; x++ {
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							w.Step(x, y, x+dx, y+dy, Strict)
						}
					}
				}
			}
		}
	})
	b.Run("copy's first use", func(b *testing.B) {
		for b.Loop() {
			fresh := &Walls{Width: w.Width, Height: w.Height, Edges: w.Edges}
			fresh.Clear(0, 0, 59, 57)
		}
	})
}

// TestCheckBattlefieldEdges: the limits a battlefield enters with hold
// its edges too, and a refusal quotes no more of a bad value than a few
// characters.
func TestCheckBattlefieldEdges(t *testing.T) {
	long := strings.Repeat("x", 10000)
	for _, tc := range []struct {
		edges []Edge
		want  string
	}{
		{[]Edge{{X: 9, Y: 0, Side: West}}, "battlefield: the edge at 9,0 w is off the 4 × 4 grid"},
		{[]Edge{{X: 1, Y: 0, Side: long}}, "battlefield: the edge at 1,0 xxxxxxxx: side is n, e, s or w"},
		{[]Edge{{X: 1, Y: 0, Side: North, Kind: long}}, `battlefield: the edge at 1,0 n: kind is wall, door or window, not "xxxxxxxxxxxxxxxx"`},
	} {
		err := CheckBattlefield(Editor{Model: Grid}, Battlefield{Width: 4, Height: 4, Edges: tc.edges}, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("CheckBattlefield = %v, want %q", err, tc.want)
		}
	}
	if err := CheckBattlefield(Editor{Model: Grid}, Battlefield{Width: 4, Height: 4, Edges: []Edge{{X: 1, Y: 0, Side: East, Kind: EdgeDoor}}}, nil); err != nil {
		t.Error(err)
	}
}

func TestCountEdges(t *testing.T) {
	edges := []Edge{{Kind: EdgeWall}, {Kind: EdgeDoor}, {Kind: EdgeWall}, {Kind: EdgeWindow}, {Kind: EdgeDoor, Open: true}}
	if w, d, n := CountEdges(edges); w != 2 || d != 2 || n != 1 {
		t.Fatalf("CountEdges = %d walls, %d doors, %d windows; want 2, 2, 1", w, d, n)
	}
}

// TestEdgeName: an edge reads as the squares it separates, or the one
// square on the grid for its border — words a screen reader says well.
func TestEdgeName(t *testing.T) {
	for _, tc := range []struct {
		e    Edge
		want string
	}{
		{Edge{X: 3, Y: 3, Side: West}, "between C4 and D4"},
		{Edge{X: 1, Y: 2, Side: North}, "between B2 and B3"},
		{Edge{X: 0, Y: 0, Side: West}, "by A1"},
		{Edge{X: 2, Y: 0, Side: North}, "by C1"},
	} {
		if got := tc.e.Name(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}
