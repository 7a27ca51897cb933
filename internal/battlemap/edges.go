package battlemap

import (
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// Edges are the walls, windows and doors of m along the sides of a grid's
// squares, each square per × per of the map's (per 1: the map's own): what
// a grid board keeps between squares (board.Walls). A wall that blocks
// movement but not sight (a Foundry window) is a window; a door is open or
// closed as the file left it; an archway (a gap in a wall) is no edge.
//
// When a square holds several of the map's, the walls inside it are
// dropped, and one side of it stands for per sides of the map's: open if
// any of them is, else a door if any is one (open if any is open), else a
// window if any is one, else a wall. The map's outline is the grid's
// border and makes no edge.
func Edges(m *uvtt.Map, o Options, per int) []board.Edge {
	o = o.withDefaults()
	per = max(1, per)
	r := rasterise(m, o)
	// The walls that block sight, alone: a wall edge they leave unmarked
	// is a window.
	seen := &raster{w: r.w, ht: r.ht, h: make([]uint8, len(r.h)), v: make([]uint8, len(r.v))}
	for _, w := range m.Walls {
		if w.Sight {
			for i := 1; i < len(w.Points); i++ {
				seen.mark(w.Points[i-1], w.Points[i], edgeWall)
			}
		}
	}
	// What each side of the map's squares is, as an edge kind: 0 open,
	// then by precedence when sides fold into one.
	const (
		open = iota
		wall
		window
		closedDoor
		openDoor
	)
	kindOf := func(k, s uint8) int {
		switch k {
		case edgeWall:
			if s == edgeWall {
				return wall
			}
			return window
		case edgeDoor:
			return openDoor
		case edgeClosed:
			return closedDoor
		}
		return open
	}
	w, h := ceilDiv(m.Width, per), ceilDiv(m.Height, per)
	// For each side of the grid: whether one of the map's sides in it is
	// open (it is then none), and the strongest kind among the others.
	type fold struct {
		open bool
		kind int
	}
	west := make([]fold, (w+1)*h)  // the west side of square (x, y) at y*(w+1)+x
	north := make([]fold, w*(h+1)) // the north side of square (x, y) at y*w+x
	add := func(f *fold, k int) {
		if k == open {
			f.open = true
		}
		f.kind = max(f.kind, k)
	}
	for my := range m.Height {
		for mx := range m.Width {
			i := r.idx(mx+1, my+1) // the ring's offset
			// The side east of map square (mx, my), then the one south.
			if ex := mx + 1; ex < m.Width && ex%per == 0 {
				add(&west[(my/per)*(w+1)+ex/per], kindOf(r.h[i], seen.h[i]))
			}
			if sy := my + 1; sy < m.Height && sy%per == 0 {
				add(&north[(sy/per)*w+mx/per], kindOf(r.v[i], seen.v[i]))
			}
		}
	}
	var out []board.Edge
	emit := func(f fold, x, y int, side string) {
		if f.open || f.kind == open {
			return
		}
		e := board.Edge{X: x, Y: y, Side: side}
		switch f.kind {
		case window:
			e.Kind = board.EdgeWindow
		case closedDoor:
			e.Kind = board.EdgeDoor
		case openDoor:
			e.Kind, e.Open = board.EdgeDoor, true
		}
		out = append(out, e)
	}
	for y := range h {
		for x := range w {
			if x > 0 {
				emit(west[y*(w+1)+x], x, y, board.West)
			}
			if y > 0 {
				emit(north[y*w+x], x, y, board.North)
			}
		}
	}
	return out
}
