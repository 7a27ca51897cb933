package board

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// Walls between squares: a grid's walls, doors and windows that run along
// the sides of its squares rather than filling them. A battlemap's walls are
// mostly of this kind (a room's wall is a line, not a row of squares), so
// every grid ruleset asks the same two questions of them — may one step
// from a square to its neighbour, and is the line from one square's centre
// to another's clear — and Walls answers both, whatever the ruleset.

// Kinds of an edge.
const (
	// EdgeWall (the zero value) blocks movement and sight.
	EdgeWall = ""
	// EdgeDoor blocks movement and sight while closed, neither while open.
	EdgeDoor = "door"
	// EdgeWindow blocks movement but not sight.
	EdgeWindow = "window"
)

// Sides of a square an edge runs along. Walls keep every edge as the
// north or west side of a square; east and south are read as the west and
// north sides of the neighbour.
const (
	North = "n"
	West  = "w"
	East  = "e"
	South = "s"
)

// MaxEdges bounds the edges of one grid: every side of the largest grid
// (MaxGridSide across and down), so that no map imported whole is refused.
const MaxEdges = 2 * MaxGridSide * (MaxGridSide + 1)

// Edge is a wall, a door or a window along one side of square X, Y.
type Edge struct {
	X    int    `json:"x"`
	Y    int    `json:"y"`
	Side string `json:"side"`
	Kind string `json:"kind,omitempty"`
	// Open is a door's state.
	Open bool `json:"open,omitempty"`
}

// ID names the edge in commands: "x,y,side" with side n or w.
func (e Edge) ID() string { return strconv.Itoa(e.X) + "," + strconv.Itoa(e.Y) + "," + e.Side }

// Squares are the two squares the edge separates (one may lie off the grid).
func (e Edge) Squares() (ax, ay, bx, by int) {
	if e.Side == West {
		return e.X - 1, e.Y, e.X, e.Y
	}
	return e.X, e.Y - 1, e.X, e.Y
}

// Name is how people read the edge, aloud too: the two squares it
// separates ("between C4 and D4"), or the one on the grid for its border
// ("by A1").
func (e Edge) Name() string {
	ax, ay, bx, by := e.Squares()
	if ax < 0 || ay < 0 {
		return "by " + SquareName(bx, by)
	}
	return "between " + SquareName(ax, ay) + " and " + SquareName(bx, by)
}

// CountEdges counts edges by kind: what the import's notes and the draft
// editor's help say a grid has between its squares.
func CountEdges(edges []Edge) (walls, doors, windows int) {
	for _, e := range edges {
		switch e.Kind {
		case EdgeDoor:
			doors++
		case EdgeWindow:
			windows++
		default:
			walls++
		}
	}
	return walls, doors, windows
}

func (e Edge) blocksMove() bool { return e.Kind != EdgeDoor || !e.Open }

func (e Edge) blocksSight() bool { return e.Kind == EdgeWall || e.Kind == EdgeDoor && !e.Open }

// Walls are the edges of a Width × Height grid. The zero value and nil
// have none: every step and every line is clear.
type Walls struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Edges  []Edge `json:"edges"`

	// index holds, for the north and the west side of each square
	// (including the row and column past the last), whether it blocks
	// movement (bit 0) and sight (bit 1). Built on first use, atomically:
	// states are read by several goroutines at once. Edges are never
	// changed in place (With makes new walls), so it never goes stale.
	index atomic.Pointer[[]uint8]
}

const (
	blockMove  = 1
	blockSight = 2
)

// NewWalls reads a setup's edges for a width × height grid: each on the
// grid, listed once, of a known kind; east and south sides become the
// neighbour's west and north. A door's Open is its starting state.
func NewWalls(width, height int, edges []Edge) (*Walls, error) {
	if len(edges) > MaxEdges {
		return nil, fmt.Errorf("a grid has at most %d walls, doors and windows between squares, not %d", MaxEdges, len(edges))
	}
	w := &Walls{Width: width, Height: height, Edges: make([]Edge, 0, len(edges))}
	seen := make(map[string]bool, len(edges))
	for _, e := range edges {
		where := fmt.Sprintf("the edge at %d,%d %.8s", e.X, e.Y, e.Side)
		switch strings.ToLower(e.Side) {
		case North, "north":
			e.Side = North
		case West, "west":
			e.Side = West
		case East, "east":
			e.X, e.Side = e.X+1, West
		case South, "south":
			e.Y, e.Side = e.Y+1, North
		default:
			return nil, fmt.Errorf("%s: side is n, e, s or w", where)
		}
		if e.X < 0 || e.Y < 0 || e.Side == West && (e.X > width || e.Y >= height) || e.Side == North && (e.X >= width || e.Y > height) {
			return nil, fmt.Errorf("%s is off the %d × %d grid", where, width, height)
		}
		switch e.Kind {
		case EdgeWall, "wall":
			e.Kind = EdgeWall
		case EdgeDoor, EdgeWindow:
		default:
			return nil, fmt.Errorf("%s: kind is wall, door or window, not %.16q", where, e.Kind)
		}
		if e.Open && e.Kind != EdgeDoor {
			return nil, fmt.Errorf("%s: only a door opens", where)
		}
		if seen[e.ID()] {
			return nil, fmt.Errorf("%s is listed twice", where)
		}
		seen[e.ID()] = true
		w.Edges = append(w.Edges, e)
	}
	return w, nil
}

// Door returns the door of id (as Edge.ID writes it), or nil.
func (w *Walls) Door(id string) *Edge {
	if w == nil {
		return nil
	}
	for i := range w.Edges {
		if w.Edges[i].Kind == EdgeDoor && w.Edges[i].ID() == id {
			return &w.Edges[i]
		}
	}
	return nil
}

// With returns the walls with the door of id opened or closed, and
// whether there is such a door; w itself is left as it was.
func (w *Walls) With(id string, open bool) (*Walls, bool) {
	if w.Door(id) == nil {
		return w, false
	}
	edges := make([]Edge, len(w.Edges))
	copy(edges, w.Edges)
	for i := range edges {
		if edges[i].Kind == EdgeDoor && edges[i].ID() == id {
			edges[i].Open = open
		}
	}
	return &Walls{Width: w.Width, Height: w.Height, Edges: edges}, true
}

func (w *Walls) slot(x, y int, side string) int {
	i := (y*(w.Width+1) + x) * 2
	if side == West {
		i++
	}
	return i
}

// flags returns what blocks the side of square x, y (North or West).
func (w *Walls) flags(x, y int, side string) uint8 {
	if w == nil || len(w.Edges) == 0 || x < 0 || y < 0 || x > w.Width || y > w.Height {
		return 0
	}
	index := w.index.Load()
	if index == nil {
		idx := make([]uint8, (w.Width+1)*(w.Height+1)*2)
		for _, e := range w.Edges {
			var f uint8
			if e.blocksMove() {
				f |= blockMove
			}
			if e.blocksSight() {
				f |= blockSight
			}
			idx[w.slot(e.X, e.Y, e.Side)] |= f
		}
		w.index.Store(&idx)
		index = &idx
	}
	return (*index)[w.slot(x, y, side)]
}

// between returns what blocks the side shared by two orthogonal
// neighbours (0 when they are not).
func (w *Walls) between(ax, ay, bx, by int) uint8 {
	switch {
	case ay == by && bx == ax+1:
		return w.flags(bx, by, West)
	case ay == by && ax == bx+1:
		return w.flags(ax, ay, West)
	case ax == bx && by == ay+1:
		return w.flags(bx, by, North)
	case ax == bx && ay == by+1:
		return w.flags(ax, ay, North)
	}
	return 0
}

// Corner rules: how a diagonal step past the corner where walls meet is
// judged. Each ruleset names its own.
const (
	// Strict: no diagonal step touches a blocking edge's end — d20's
	// "no squeezing past a wall's corner".
	Strict = iota
	// Loose: a diagonal step is refused only when neither way round (by
	// either of the two squares beside it) is open.
	Loose
)

// Step reports whether one step from square a to its neighbour b (eight
// directions) crosses no edge that blocks movement, judging a diagonal by
// the corner rule. It says nothing of the squares themselves.
func (w *Walls) Step(ax, ay, bx, by int, corner int) bool {
	return w.pass(ax, ay, bx, by, blockMove, corner)
}

func (w *Walls) pass(ax, ay, bx, by int, bit uint8, corner int) bool {
	if w == nil || len(w.Edges) == 0 {
		return true
	}
	if ax == bx || ay == by {
		return w.between(ax, ay, bx, by)&bit == 0
	}
	if corner == Strict {
		// The four sides meeting at the corner the step passes.
		px, py := max(ax, bx), max(ay, by)
		return (w.flags(px-1, py, North)|w.flags(px, py, North)|w.flags(px, py-1, West)|w.flags(px, py, West))&bit == 0
	}
	viaB := w.between(ax, ay, bx, ay)&bit == 0 && w.between(bx, ay, bx, by)&bit == 0
	viaA := w.between(ax, ay, ax, by)&bit == 0 && w.between(ax, by, bx, by)&bit == 0
	return viaB || viaA
}

// Clear reports whether the straight line from the centre of square a to
// the centre of square c crosses no edge that blocks sight. A line through
// the very corner of four squares passes unless both ways round it are
// blocked (the Loose rule). It says nothing of the squares themselves.
func (w *Walls) Clear(ax, ay, cx, cy int) bool {
	if w == nil || len(w.Edges) == 0 {
		return true
	}
	// In half squares the centres are odd numbers; the side between
	// columns k-1 and k lies at 2k. Walk the squares the line enters, in
	// order, comparing where it next crosses a column's and a row's side.
	dx, dy := abs2(cx-ax), abs2(cy-ay)
	sx, sy := sign(cx-ax), sign(cy-ay)
	x, y := ax, ay
	for x != cx || y != cy {
		// Half squares from the start to the next side crossed, scaled by
		// the other axis's length so that they compare: the line crosses
		// the column side after |2kx − (2ax+1)| / 2dx of its length.
		tx, ty := -1, -1
		if sx != 0 {
			kx := x
			if sx > 0 {
				kx = x + 1
			}
			tx = abs2(2*kx-(2*ax+1)) * dy
		}
		if sy != 0 {
			ky := y
			if sy > 0 {
				ky = y + 1
			}
			ty = abs2(2*ky-(2*ay+1)) * dx
		}
		switch {
		case sy == 0 || sx != 0 && tx < ty:
			if w.between(x, y, x+sx, y)&blockSight != 0 {
				return false
			}
			x += sx
		case sx == 0 || ty < tx:
			if w.between(x, y, x, y+sy)&blockSight != 0 {
				return false
			}
			y += sy
		default: // through a corner
			if !w.pass(x, y, x+sx, y+sy, blockSight, Loose) {
				return false
			}
			x, y = x+sx, y+sy
		}
	}
	return true
}

func abs2(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}
