package battlemap

import (
	"context"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// TestEdges: the walls and doors between squares a grid gets from a map,
// written by hand from the drawings.
func TestEdges(t *testing.T) {
	house, err := uvtt.Parse(context.Background(), uvtttest.House().JSON())
	if err != nil {
		t.Fatal(err)
	}
	pt := func(x, y float64) uvtt.Point { return uvtt.Point{X: x, Y: y} }
	wall := func(sight bool, ps ...uvtt.Point) uvtt.Wall { return uvtt.Wall{Points: ps, Sight: sight} }
	// An 8 × 4 map walled round, split at x = 4 by a wall with a closed
	// door from (4, 1) to (4, 2), and a window (a wall that lets sight
	// through) along y = 2 from x = 0 to 2.
	split := &uvtt.Map{Width: 8, Height: 4,
		Walls: []uvtt.Wall{wall(true, pt(0, 0), pt(8, 0), pt(8, 4), pt(0, 4), pt(0, 0)),
			wall(true, pt(4, 0), pt(4, 1)), wall(true, pt(4, 2), pt(4, 4)), wall(false, pt(0, 2), pt(2, 2))},
		Portals: []uvtt.Portal{{A: pt(4, 1), B: pt(4, 2), Closed: true}}}
	e := func(x, y int, side, kind string, open bool) board.Edge {
		return board.Edge{X: x, Y: y, Side: side, Kind: kind, Open: open}
	}
	for _, tc := range []struct {
		name string
		m    *uvtt.Map
		per  int
		want []board.Edge
	}{{
		// The house: the wall at x = 5 with the closed door at y 1–2; the
		// wall at y = 3 from x = 5 with the open door at x 7–8.
		name: "house", m: house, per: 1,
		want: []board.Edge{
			e(5, 0, board.West, "", false), e(5, 1, board.West, board.EdgeDoor, false), e(5, 2, board.West, "", false),
			e(5, 3, board.North, "", false), e(6, 3, board.North, "", false), e(7, 3, board.North, board.EdgeDoor, true),
			e(8, 3, board.North, "", false), e(9, 3, board.North, "", false),
			e(5, 3, board.West, "", false), e(5, 4, board.West, "", false), e(5, 5, board.West, "", false),
		},
	}, {
		// Squares of 2 × 2: the walls at odd lines (x = 5, y = 3) lie
		// inside the grid's squares and are dropped.
		name: "house folded", m: house, per: 2, want: nil,
	}, {
		name: "split, one map square a square", m: split, per: 1,
		want: []board.Edge{
			e(4, 0, board.West, "", false), e(4, 1, board.West, board.EdgeDoor, false),
			e(0, 2, board.North, board.EdgeWindow, false), e(1, 2, board.North, board.EdgeWindow, false),
			e(4, 2, board.West, "", false), e(4, 3, board.West, "", false),
		},
	}, {
		// Squares of 2 × 2: the grid's side between columns 1 and 2 in
		// row 0 holds a wall and the door: a door; in row 1, walls; the
		// window's side holds the window twice.
		name: "split folded", m: split, per: 2,
		want: []board.Edge{
			e(2, 0, board.West, board.EdgeDoor, false), e(0, 1, board.North, board.EdgeWindow, false), e(2, 1, board.West, "", false),
		},
	}, {
		// Squares of 4 × 4: the side between the two holds the door and
		// walls; the window's line lies inside the squares.
		name: "split folded by 4", m: split, per: 4,
		want: []board.Edge{e(1, 0, board.West, board.EdgeDoor, false)},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := Edges(tc.m, Options{}, tc.per)
			key := func(a, b board.Edge) int {
				if a.Y != b.Y {
					return a.Y - b.Y
				}
				if a.X != b.X {
					return a.X - b.X
				}
				if a.Side < b.Side {
					return -1
				}
				return 1
			}
			slices.SortFunc(got, key)
			slices.SortFunc(tc.want, key)
			if !slices.Equal(got, tc.want) {
				t.Errorf("edges\n got %v\nwant %v", got, tc.want)
			}
			if _, err := board.NewWalls(ceilDiv(tc.m.Width, tc.per), ceilDiv(tc.m.Height, tc.per), got); err != nil {
				t.Errorf("the grid refuses them: %v", err)
			}
		})
	}
}
