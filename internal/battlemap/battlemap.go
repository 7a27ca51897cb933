// Package battlemap turns a battlemap (uvtt.Map: walls, doors, a size in
// squares) into a theater-of-the-mind board: the rooms its walls enclose
// become zones, the doors and open gaps between rooms become the links
// between zones, and the length of the shortest path through those links
// gives the ranges between zones.
//
// How: the walls are rasterised onto the edges between the map's squares
// (a wall separates two squares when it crosses the line between their
// centres); doors mark the edges they cross as passages; two loose wall
// ends close to each other (an archway, a gap in a wall) are joined by an
// opening, a passage too. A flood fill over the open edges finds the
// rooms. Then:
//   - a room on the map's border that no passage leads to is the outside
//     of a dungeon (rock, void) and is left out;
//   - a room smaller than Options.MinCells squares (a pillar's inside, a
//     sliver between two wall lines) merges into the neighbour it shares
//     the longest border with;
//   - a room wider or taller than Options.ZoneSpan squares is split into
//     equal tiles of at most that side, each a zone ("Room 2, part 1");
//   - two zones are linked when a passage or an open edge joins them: a
//     closed door is still a link, noted in both zones' descriptions;
//     windows are walls (they do not join for movement), but two zones
//     a window looks between (and no passage joins) are kept in
//     Board.Windows and noted in their descriptions, for sight.
//
// Nothing here knows a ruleset: ZoneSpan comes from the ruleset's
// board.Editor (how many squares of a map one zone stands for).
package battlemap

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/uvtt"
)

// Defaults of Options.
const (
	// DefaultZoneSpan is the side of the largest zone, in squares, when
	// the ruleset does not say.
	DefaultZoneSpan = 8
	// DefaultMinCells: rooms of fewer squares merge into a neighbour.
	DefaultMinCells = 4
	// DefaultGap is the widest gap between two loose wall ends that is
	// read as an opening between two rooms, in squares.
	DefaultGap = 2.5
	// MaxZones bounds the zones a map makes (a board's own limit).
	MaxZones = 64
)

// Options tune Plan. Zero fields take the defaults.
type Options struct {
	// ZoneSpan is the largest side of a zone, in squares: larger rooms
	// are split.
	ZoneSpan int
	// MinCells: rooms of fewer squares merge into their neighbour.
	MinCells int
	// Gap is the widest opening between two loose wall ends, in squares.
	Gap float64
}

func (o Options) withDefaults() Options {
	if o.ZoneSpan <= 0 {
		o.ZoneSpan = DefaultZoneSpan
	}
	if o.MinCells <= 0 {
		o.MinCells = DefaultMinCells
	}
	if o.Gap <= 0 {
		o.Gap = DefaultGap
	}
	return o
}

// Board is what a map becomes: zones, links and ranges.
type Board struct {
	// Width and Height are the map's size in squares.
	Width, Height int
	Zones         []Zone
	Links         []Link
	// Windows are the zones a window (a wall that blocks movement but
	// not sight: uvtt.Wall.Sight false) looks between, where no link
	// joins them; Kind is Window. No path crosses them.
	Windows []Link
	// Ranges are the shortest paths between every two zones that are
	// joined, nearest first.
	Ranges []Range
	// Notes say what the reading did that the GM may want to check
	// ("2 small rooms merged into their neighbours").
	Notes []string
	// Solid marks the squares (row by row, Width × Height) no one can
	// stand in: outside the walls, or inside a small walled-in room with
	// no way in (a pillar). A grid makes them walls.
	Solid []bool
}

// Zone is one zone: the box of squares it covers (X, Y its top-left
// square, W × H squares) and how many squares it holds.
type Zone struct {
	ID          string
	Name        string
	Description string
	X, Y, W, H  int
	Cells       int
	// CX, CY is the centre of its squares, in squares.
	CX, CY float64
}

// Link kinds, from the freest passage to the most closed.
const (
	Open       = "open"        // no wall between the two zones (a split room)
	Opening    = "opening"     // a gap in a wall, an archway
	Door       = "door"        // an open door
	ClosedDoor = "closed door" // a closed door: still a way through
	// Window is no link: a wall one sees through (Board.Windows).
	Window = "window"
)

// Link joins two zones.
type Link struct {
	A, B string
	Kind string
	// At is the middle of the passage, in squares.
	At uvtt.Point
}

// Range is the shortest path from zone A to zone B through the links:
// Hops links crossed and Squares of walking from centre to centre.
type Range struct {
	A, B    string
	Hops    int
	Squares int
}

// edge kinds, in the order a crossing takes precedence.
const (
	edgeOpen = iota
	edgeGap
	edgeWall
	edgeDoor
	edgeClosed
)

// raster is the map's squares and what lies between them: h[y*w+x]
// between (x, y) and (x+1, y), v[y*w+x] between (x, y) and (x, y+1).
type raster struct {
	w, ht int
	h, v  []uint8
	// seeH and seeV mark the wall edges only windows make (nil when the
	// map has no window), laid out as h and v.
	seeH, seeV []bool
	// gapsCut is set when the walls were too many to look for every
	// opening.
	gapsCut bool
}

func (r *raster) idx(x, y int) int { return y*r.w + x }

// Plan reads the zones of m (see the package comment).
func Plan(m *uvtt.Map, o Options) (*Board, error) {
	o = o.withDefaults()
	r := rasterise(m, o)
	label, n := r.fill()
	b := &Board{Width: m.Width, Height: m.Height}
	if r.gapsCut {
		b.Notes = append(b.Notes, "The walls are too many to look for every gap between them: some openings may be walls; connect those zones by hand")
	}
	label, n = r.dropOutside(label, n, b)
	b.Solid = make([]bool, m.Width*m.Height)
	r.solid(label, o.MinCells, b.Solid)
	label = r.mergeSmall(label, n, o.MinCells, b)
	if k := rooms(label, n); k > MaxZones {
		return nil, fmt.Errorf("the map has %d rooms, more than the %d zones a board holds: merge some in the program that drew it, or raise the smallest room", k, MaxZones)
	}
	parts := r.split(label, n, o)
	zones := r.renumber(parts)
	if len(zones) > MaxZones {
		return nil, fmt.Errorf("the map makes %d zones, more than the %d a board holds: use a larger zone size", len(zones), MaxZones)
	}
	b.build(r, zones, parts)
	if n := len(b.Windows); n > 0 {
		b.Notes = append(b.Notes, fmt.Sprintf("%s between zones no passage joins: walls for movement, said in the zones' descriptions", pick(n, "A window looks", strconv.Itoa(n)+" windows look")))
	}
	return b, nil
}

// rasterise marks every edge a wall, a door or an opening crosses.
func rasterise(m *uvtt.Map, o Options) *raster {
	// A ring of one square round the map: the outside is what it joins.
	w, h := m.Width+2, m.Height+2
	r := &raster{w: w, ht: h, h: make([]uint8, w*h), v: make([]uint8, w*h)}
	windows := false
	for _, w := range m.Walls {
		windows = windows || !w.Sight
		for i := 1; i < len(w.Points); i++ {
			r.mark(w.Points[i-1], w.Points[i], edgeWall)
		}
	}
	if windows {
		// The walls that block sight, alone: a wall edge they leave
		// open is a window.
		seen := &raster{w: w, ht: h, h: make([]uint8, w*h), v: make([]uint8, w*h)}
		for _, w := range m.Walls {
			for i := 1; w.Sight && i < len(w.Points); i++ {
				seen.mark(w.Points[i-1], w.Points[i], edgeWall)
			}
		}
		r.seeH, r.seeV = make([]bool, w*h), make([]bool, w*h)
		for i := range r.h {
			r.seeH[i] = r.h[i] == edgeWall && seen.h[i] != edgeWall
			r.seeV[i] = r.v[i] == edgeWall && seen.v[i] != edgeWall
		}
	}
	for _, p := range m.Portals {
		kind := uint8(edgeDoor)
		if p.Closed {
			kind = edgeClosed
		}
		r.mark(p.A, p.B, kind)
	}
	gs, done := gaps(m, o.Gap)
	for _, g := range gs {
		r.mark(g.a, g.b, edgeGap)
	}
	r.gapsCut = !done
	return r
}

// mark sets kind on every edge the segment a–b (in the map's squares)
// crosses, unless a kind that takes precedence is there already.
func (r *raster) mark(a, b uvtt.Point, kind uint8) {
	a, b = uvtt.Point{X: a.X + 1, Y: a.Y + 1}, uvtt.Point{X: b.X + 1, Y: b.Y + 1}
	// A long segment is looked at a square's length at a time: only the
	// edges near it are tested.
	n := max(1, int(math.Ceil(dist(a, b))))
	for k := range n {
		p := uvtt.Point{X: a.X + (b.X-a.X)*float64(k)/float64(n), Y: a.Y + (b.Y-a.Y)*float64(k)/float64(n)}
		q := uvtt.Point{X: a.X + (b.X-a.X)*float64(k+1)/float64(n), Y: a.Y + (b.Y-a.Y)*float64(k+1)/float64(n)}
		r.markNear(a, b, p, q, kind)
	}
}

// markNear marks the edges near the piece p–q of the segment a–b that
// a–b crosses.
func (r *raster) markNear(a, b, p, q uvtt.Point, kind uint8) {
	x0 := max(0, int(math.Floor(min(p.X, q.X)-1)))
	x1 := min(r.w-1, int(math.Ceil(max(p.X, q.X)+1)))
	y0 := max(0, int(math.Floor(min(p.Y, q.Y)-1)))
	y1 := min(r.ht-1, int(math.Ceil(max(p.Y, q.Y)+1)))
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := uvtt.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
			i := r.idx(x, y)
			if x+1 < r.w && r.h[i] < kind && crosses(a, b, c, uvtt.Point{X: c.X + 1, Y: c.Y}) {
				r.h[i] = kind
			}
			if y+1 < r.ht && r.v[i] < kind && crosses(a, b, c, uvtt.Point{X: c.X, Y: c.Y + 1}) {
				r.v[i] = kind
			}
		}
	}
}

const eps = 1e-9

func orient(a, b, c uvtt.Point) float64 { return (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X) }

// crosses reports whether segments a–b and c–d meet (touching counts; a
// wall lying along the line between two centres does not separate them).
func crosses(a, b, c, d uvtt.Point) bool {
	d1, d2 := orient(a, b, c), orient(a, b, d)
	d3, d4 := orient(c, d, a), orient(c, d, b)
	if math.Abs(d1) < eps && math.Abs(d2) < eps {
		return false
	}
	return (d1 <= eps && d2 >= -eps || d1 >= -eps && d2 <= eps) && (d3 <= eps && d4 >= -eps || d3 >= -eps && d4 <= eps)
}

type seg struct{ a, b uvtt.Point }

// gapBudget bounds the segments gaps looks at in all (walls piled on
// one spot would otherwise make every look at them cost them all).
const gapBudget = 20_000_000

// gaps finds the openings: from each loose wall end (one that touches no
// other wall or door), the nearest point within max squares on another
// wall line or door. Segments are found through buckets of squares, so
// a map of many loose ends is read in time proportional to its walls; past
// gapBudget looks, the rest of the ends are left (done is false).
func gaps(m *uvtt.Map, max float64) (out []seg, done bool) {
	type piece struct {
		s    seg
		line int
	}
	var pieces []piece
	for i, w := range m.Walls {
		for j := 1; j < len(w.Points); j++ {
			pieces = append(pieces, piece{seg{w.Points[j-1], w.Points[j]}, i})
		}
	}
	for _, p := range m.Portals {
		pieces = append(pieces, piece{seg{p.A, p.B}, -1})
	}
	const side = 4.0 // squares a bucket
	off := float64(uvtt.Margin + 1)
	nx := int(math.Ceil((float64(m.Width)+2*off)/side)) + 1
	ny := int(math.Ceil((float64(m.Height)+2*off)/side)) + 1
	bucketOf := func(p uvtt.Point) (int, int) {
		return min(nx-1, int(math.Max(0, math.Floor((p.X+off)/side)))), min(ny-1, int(math.Max(0, math.Floor((p.Y+off)/side))))
	}
	buckets := make([][]int32, nx*ny)
	for k, pc := range pieces {
		n := int(math.Ceil(dist(pc.s.a, pc.s.b)/(side/2))) + 1
		last := -1
		for t := 0; t <= n; t++ {
			f := float64(t) / float64(n)
			bx, by := bucketOf(uvtt.Point{X: pc.s.a.X + (pc.s.b.X-pc.s.a.X)*f, Y: pc.s.a.Y + (pc.s.b.Y-pc.s.a.Y)*f})
			if b := by*nx + bx; b != last {
				buckets[b] = append(buckets[b], int32(k))
				last = b
			}
		}
	}
	stamp := make([]int, len(pieces))
	query, looks := 0, 0
	const touch = 0.05
	near := func(p uvtt.Point, skip int, within float64) (uvtt.Point, float64) {
		query++
		best, bd := uvtt.Point{}, math.Inf(1)
		bx, by := bucketOf(p)
		ring := int(math.Ceil(within/side)) + 1
		for y := by - ring; y <= by+ring; y++ {
			for x := bx - ring; x <= bx+ring; x++ {
				if x < 0 || y < 0 || x >= nx || y >= ny {
					continue
				}
				for _, k := range buckets[y*nx+x] {
					if stamp[k] == query || pieces[k].line == skip && skip >= 0 {
						continue
					}
					stamp[k] = query
					looks++
					if q, d := nearest(p, pieces[k].s); d < bd && d <= within {
						best, bd = q, d
					}
				}
			}
		}
		return best, bd
	}
	seen := map[[4]float64]bool{}
	for i, w := range m.Walls {
		if looks > gapBudget {
			return out, false
		}
		pts := w.Points
		if len(pts) < 2 || dist(pts[0], pts[len(pts)-1]) < touch {
			continue // closed: a pillar, a room drawn in one line
		}
		for _, p := range []uvtt.Point{pts[0], pts[len(pts)-1]} {
			if _, d := near(p, i, touch); d <= touch {
				continue // joined to another wall or a door
			}
			q, d := near(p, i, max)
			if math.IsInf(d, 1) {
				continue
			}
			k := [4]float64{math.Round(p.X * 100), math.Round(p.Y * 100), math.Round(q.X * 100), math.Round(q.Y * 100)}
			if seen[k] || seen[[4]float64{k[2], k[3], k[0], k[1]}] {
				continue
			}
			seen[k] = true
			out = append(out, seg{p, q})
		}
	}
	return out, true
}

// nearest returns the point of s nearest p and its distance.
func nearest(p uvtt.Point, s seg) (uvtt.Point, float64) {
	dx, dy := s.b.X-s.a.X, s.b.Y-s.a.Y
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((p.X-s.a.X)*dx+(p.Y-s.a.Y)*dy)/l2))
	}
	q := uvtt.Point{X: s.a.X + t*dx, Y: s.a.Y + t*dy}
	return q, dist(p, q)
}

func dist(a, b uvtt.Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

// neighbours calls f for each square next to i with the edge between.
func (r *raster) neighbours(i int, f func(j int, kind uint8)) {
	x, y := i%r.w, i/r.w
	if x+1 < r.w {
		f(i+1, r.h[i])
	}
	if x > 0 {
		f(i-1, r.h[i-1])
	}
	if y+1 < r.ht {
		f(i+r.w, r.v[i])
	}
	if y > 0 {
		f(i-r.w, r.v[i-r.w])
	}
}

// fill labels the squares by room: squares joined by open edges.
func (r *raster) fill() ([]int, int) {
	label := make([]int, r.w*r.ht)
	for i := range label {
		label[i] = -1
	}
	n := 0
	var stack []int
	for s := range label {
		if label[s] >= 0 {
			continue
		}
		label[s] = n
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.neighbours(i, func(j int, k uint8) {
				if k == edgeOpen && label[j] < 0 {
					label[j] = n
					stack = append(stack, j)
				}
			})
		}
		n++
	}
	return label, n
}

// dropOutside leaves out the ring of squares around the map, and the
// room it belongs to — the outside of the walls — unless a passage leads
// into it (a house's garden) or nothing else would be left (a map with
// no walls).
func (r *raster) dropOutside(label []int, n int, b *Board) ([]int, int) {
	out := label[0]
	ring := func(i int) bool {
		x, y := i%r.w, i/r.w
		return x == 0 || y == 0 || x == r.w-1 || y == r.ht-1
	}
	linked, inside, rest := false, 0, false
	for i, l := range label {
		if l != out {
			rest = true
			continue
		}
		if !ring(i) {
			inside++
		}
		r.neighbours(i, func(j int, k uint8) {
			if (k == edgeGap || k >= edgeDoor) && label[j] != out {
				linked = true
			}
		})
	}
	drop := !linked && rest
	if drop && inside > 0 {
		b.Notes = append(b.Notes, plural(inside, "square")+" outside the walls left out (no door or opening leads there)")
	}
	for i, l := range label {
		if ring(i) || drop && l == out {
			label[i] = -1
		}
	}
	return label, n
}

// mergeSmall merges rooms of fewer than minCells squares into the
// neighbour they share the longest border with (any edge: a pillar's
// inside is walled all round), smallest first.
func (r *raster) mergeSmall(label []int, n, minCells int, b *Board) []int {
	cells := make([][]int, n)
	for i, l := range label {
		if l >= 0 {
			cells[l] = append(cells[l], i)
		}
	}
	kept := 0
	for _, c := range cells {
		if len(c) > 0 {
			kept++
		}
	}
	merged := 0
	for kept > 1 {
		small := -1
		for l, c := range cells {
			if len(c) > 0 && len(c) < minCells && (small < 0 || len(c) < len(cells[small])) {
				small = l
			}
		}
		if small < 0 {
			break
		}
		border := map[int]int{}
		for _, i := range cells[small] {
			r.neighbours(i, func(j int, _ uint8) {
				if o := label[j]; o >= 0 && o != small {
					border[o]++
				}
			})
		}
		into := -1
		for o, c := range border {
			if into < 0 || c > border[into] || c == border[into] && o < into {
				into = o
			}
		}
		for _, i := range cells[small] {
			label[i] = into // -1: a lone speck, left out
		}
		if into >= 0 {
			cells[into] = append(cells[into], cells[small]...)
		}
		cells[small] = nil
		kept--
		merged++
	}
	if merged > 0 {
		b.Notes = append(b.Notes, plural(merged, "small room")+" (under "+strconv.Itoa(minCells)+" squares: pillars, gaps between walls) merged into "+pick(merged, "its neighbour", "their neighbours"))
	}
	return label
}

// Solid marks the squares of m no one can stand in (Board.Solid), for a
// grid: however many rooms the map has.
func Solid(m *uvtt.Map, o Options) []bool {
	o = o.withDefaults()
	r := rasterise(m, o)
	label, n := r.fill()
	label, _ = r.dropOutside(label, n, &Board{})
	out := make([]bool, m.Width*m.Height)
	r.solid(label, o.MinCells, out)
	return out
}

// solid marks in out (the map's squares) those left out and those of
// rooms under minCells squares that no passage leads into.
func (r *raster) solid(label []int, minCells int, out []bool) {
	size := map[int]int{}
	open := map[int]bool{}
	for i, l := range label {
		if l < 0 {
			continue
		}
		size[l]++
		r.neighbours(i, func(j int, k uint8) {
			if k != edgeWall && label[j] != l {
				open[l] = true
			}
		})
	}
	w := r.w - 2
	for i, l := range label {
		x, y := i%r.w-1, i/r.w-1
		if x < 0 || y < 0 || x >= w || y >= r.ht-2 {
			continue // the ring
		}
		if l < 0 || size[l] < minCells && !open[l] {
			out[y*w+x] = true
		}
	}
}

// rooms counts the rooms left.
func rooms(label []int, n int) int {
	seen := make([]bool, n)
	k := 0
	for _, l := range label {
		if l >= 0 && !seen[l] {
			seen[l] = true
			k++
		}
	}
	return k
}

// split cuts every room wider or taller than the zone span into equal
// tiles of at most that side; tiles too small merge into a tile of the
// same room. It returns each square's part.
func (r *raster) split(label []int, n int, o Options) []int {
	type box struct{ x0, y0, x1, y1 int }
	boxes := make([]box, n)
	for l := range boxes {
		boxes[l] = box{math.MaxInt, math.MaxInt, -1, -1}
	}
	for i, l := range label {
		if l < 0 {
			continue
		}
		x, y := i%r.w, i/r.w
		bx := &boxes[l]
		bx.x0, bx.y0, bx.x1, bx.y1 = min(bx.x0, x), min(bx.y0, y), max(bx.x1, x), max(bx.y1, y)
	}
	parts := make([]int, len(label))
	var parent []int
	tileOf := map[[3]int]int{}
	for i, l := range label {
		if l < 0 {
			parts[i] = -1
			continue
		}
		bx := boxes[l]
		w, h := bx.x1-bx.x0+1, bx.y1-bx.y0+1
		nx, ny := ceilDiv(w, o.ZoneSpan), ceilDiv(h, o.ZoneSpan)
		tw, th := ceilDiv(w, nx), ceilDiv(h, ny)
		x, y := i%r.w, i/r.w
		k := [3]int{l, (x - bx.x0) / tw, (y - bx.y0) / th}
		p, ok := tileOf[k]
		if !ok {
			p = len(parent)
			tileOf[k] = p
			parent = append(parent, l)
		}
		parts[i] = p
	}
	if len(parent) > 4*MaxZones {
		return parts // far too many: Plan refuses them (no merging needed)
	}
	// Tiles too small (a room's ragged end) join the tile of their room
	// they share the most open edges with; one with none stays.
	for merged := true; merged; {
		merged = false
		size := make([]int, len(parent))
		for _, p := range parts {
			if p >= 0 {
				size[p]++
			}
		}
		for small, s := range size {
			if s == 0 || s >= o.MinCells {
				continue
			}
			border := map[int]int{}
			for i, p := range parts {
				if p == small {
					r.neighbours(i, func(j int, k uint8) {
						if q := parts[j]; q >= 0 && q != small && parent[q] == parent[small] && k == edgeOpen {
							border[q]++
						}
					})
				}
			}
			into := -1
			for q, c := range border {
				if into < 0 || c > border[into] || c == border[into] && q < into {
					into = q
				}
			}
			if into < 0 {
				continue
			}
			for i, p := range parts {
				if p == small {
					parts[i] = into
				}
			}
			merged = true
			break
		}
	}
	return parts
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// renumber orders the parts by their first square in reading order and
// returns, for each part, its zone's index (-1 for a part with no square).
func (r *raster) renumber(parts []int) []int {
	n := 0
	for _, p := range parts {
		n = max(n, p+1)
	}
	zone := make([]int, n)
	for i := range zone {
		zone[i] = -1
	}
	next := 0
	for _, p := range parts {
		if p >= 0 && zone[p] < 0 {
			zone[p] = next
			next++
		}
	}
	for i, p := range parts {
		if p >= 0 {
			parts[i] = zone[p]
		}
	}
	return make([]int, next)
}

// build fills b from the squares' zones: the zones' boxes and names, the
// links and the ranges.
func (b *Board) build(r *raster, zones, parts []int) {
	b.Zones = make([]Zone, len(zones))
	for i, z := range parts {
		if z < 0 {
			continue
		}
		x, y := i%r.w-1, i/r.w-1 // in the map's squares (the ring is no zone)
		zn := &b.Zones[z]
		if zn.Cells == 0 {
			zn.X, zn.Y, zn.W, zn.H = x, y, x, y // W, H hold the far corner for now
		}
		zn.X, zn.Y, zn.W, zn.H = min(zn.X, x), min(zn.Y, y), max(zn.W, x), max(zn.H, y)
		zn.Cells++
		zn.CX += float64(x) + 0.5
		zn.CY += float64(y) + 0.5
	}
	// Room numbers follow the first zone of each room.
	zoneRoom := b.zoneRooms(r, parts)
	roomOf := map[int]int{}
	partsOf := map[int]int{}
	for z := range b.Zones {
		rm := zoneRoom[z]
		if _, ok := roomOf[rm]; !ok {
			roomOf[rm] = len(roomOf) + 1
		}
		partsOf[rm]++
	}
	count := map[int]int{}
	for z := range b.Zones {
		zn := &b.Zones[z]
		zn.W, zn.H = zn.W-zn.X+1, zn.H-zn.Y+1
		zn.CX /= float64(zn.Cells)
		zn.CY /= float64(zn.Cells)
		rm := zoneRoom[z]
		zn.Name = "Room " + strconv.Itoa(roomOf[rm])
		zn.ID = "room-" + strconv.Itoa(roomOf[rm])
		if partsOf[rm] > 1 {
			count[rm]++
			zn.Name += ", part " + strconv.Itoa(count[rm])
			zn.ID += "-" + strconv.Itoa(count[rm])
		}
	}
	b.links(r, parts)
	b.ranges()
}

// zoneRooms returns each zone's room: zones joined by an open edge are
// tiles of one room (rooms are apart by construction: the flood fill
// stops only at walls and passages).
func (b *Board) zoneRooms(r *raster, parts []int) []int {
	up := make([]int, len(b.Zones))
	for i := range up {
		up[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for up[i] != i {
			up[i] = up[up[i]]
			i = up[i]
		}
		return i
	}
	for i, z := range parts {
		if z < 0 {
			continue
		}
		r.neighbours(i, func(j int, k uint8) {
			if o := parts[j]; o >= 0 && o != z && k == edgeOpen {
				a, c := find(z), find(o)
				if a != c {
					up[max(a, c)] = min(a, c)
				}
			}
		})
	}
	zoneRoom := make([]int, len(up))
	for z := range zoneRoom {
		zoneRoom[z] = find(z)
	}
	return zoneRoom
}

// links finds the links between zones: the freest passage between each
// two, and notes the closed doors in both zones' descriptions.
func (b *Board) links(r *raster, parts []int) {
	type pair struct{ a, b int }
	best := map[pair]Link{}
	// At is the middle of every crossing of the link's kind.
	sum := map[pair][3]float64{}
	rank := map[string]int{Open: 0, Opening: 1, Door: 2, ClosedDoor: 3}
	kindOf := map[uint8]string{edgeOpen: Open, edgeGap: Opening, edgeDoor: Door, edgeClosed: ClosedDoor}
	windows := map[pair]bool{}
	see := func(marks []bool, i int) bool { return marks != nil && marks[i] }
	for i, z := range parts {
		if z < 0 {
			continue
		}
		x, y := i%r.w-1, i/r.w-1 // in the map's squares (the ring is no zone)
		for _, d := range []struct {
			j    int
			kind uint8
			at   uvtt.Point
			ok   bool
			see  bool
		}{
			{i + 1, r.h[i], uvtt.Point{X: float64(x + 1), Y: float64(y) + 0.5}, x+1 < r.w, see(r.seeH, i)},
			{i + r.w, r.v[i], uvtt.Point{X: float64(x) + 0.5, Y: float64(y + 1)}, y+1 < r.ht, see(r.seeV, i)},
		} {
			if !d.ok {
				continue
			}
			o := parts[d.j]
			if o < 0 || o == z {
				continue
			}
			k := pair{min(z, o), max(z, o)}
			if d.kind == edgeWall {
				if d.see {
					windows[k] = true
				}
				continue
			}
			l := Link{A: b.Zones[k.a].ID, B: b.Zones[k.b].ID, Kind: kindOf[d.kind], At: d.at}
			cur, ok := best[k]
			switch {
			case !ok || rank[l.Kind] < rank[cur.Kind]:
				best[k] = l
				sum[k] = [3]float64{d.at.X, d.at.Y, 1}
			case l.Kind == cur.Kind:
				s := sum[k]
				sum[k] = [3]float64{s[0] + d.at.X, s[1] + d.at.Y, s[2] + 1}
			}
		}
	}
	keys := make([]pair, 0, len(best))
	for k := range best {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(p, q pair) int { return cmp.Or(cmp.Compare(p.a, q.a), cmp.Compare(p.b, q.b)) })
	closed := make([][]string, len(b.Zones))
	doors := make([][]string, len(b.Zones))
	seen := make([][]string, len(b.Zones))
	var panes []pair
	for k := range windows {
		if _, linked := best[k]; !linked {
			panes = append(panes, k)
		}
	}
	slices.SortFunc(panes, func(p, q pair) int { return cmp.Or(cmp.Compare(p.a, q.a), cmp.Compare(p.b, q.b)) })
	for _, k := range panes {
		b.Windows = append(b.Windows, Link{A: b.Zones[k.a].ID, B: b.Zones[k.b].ID, Kind: Window})
		seen[k.a] = append(seen[k.a], b.Zones[k.b].Name)
		seen[k.b] = append(seen[k.b], b.Zones[k.a].Name)
	}
	for _, k := range keys {
		l := best[k]
		s := sum[k]
		l.At = uvtt.Point{X: s[0] / s[2], Y: s[1] / s[2]}
		b.Links = append(b.Links, l)
		switch l.Kind {
		case ClosedDoor:
			closed[k.a] = append(closed[k.a], b.Zones[k.b].Name)
			closed[k.b] = append(closed[k.b], b.Zones[k.a].Name)
		case Door:
			doors[k.a] = append(doors[k.a], b.Zones[k.b].Name)
			doors[k.b] = append(doors[k.b], b.Zones[k.a].Name)
		}
	}
	for z := range b.Zones {
		var parts []string
		if len(doors[z]) > 0 {
			parts = append(parts, "An open door leads to "+strings.Join(doors[z], ", ")+".")
		}
		if len(closed[z]) > 0 {
			parts = append(parts, "A closed door leads to "+strings.Join(closed[z], ", ")+".")
		}
		if len(seen[z]) > 0 {
			parts = append(parts, "A window looks into "+strings.Join(seen[z], ", ")+".")
		}
		b.Zones[z].Description = strings.Join(parts, " ")
	}
}

// Ranges are the shortest paths between zones already made (a draft's,
// after the GM's fix-ups): each zone's centre is CX, CY, each link's
// passage At.
func Ranges(zones []Zone, links []Link) []Range {
	b := &Board{Zones: zones, Links: links}
	b.ranges()
	return b.Ranges
}

// ranges finds the shortest path between every two zones: from a zone's
// centre to the middle of each passage it crosses to the next zone's
// centre, in squares (Dijkstra from each zone; at most MaxZones).
func (b *Board) ranges() {
	n := len(b.Zones)
	index := map[string]int{}
	for i, z := range b.Zones {
		index[z.ID] = i
	}
	type arc struct {
		to int
		w  float64
	}
	adj := make([][]arc, n)
	for _, l := range b.Links {
		a, c := index[l.A], index[l.B]
		za, zc := b.Zones[a], b.Zones[c]
		w := dist(uvtt.Point{X: za.CX, Y: za.CY}, l.At) + dist(l.At, uvtt.Point{X: zc.CX, Y: zc.CY})
		adj[a] = append(adj[a], arc{c, w})
		adj[c] = append(adj[c], arc{a, w})
	}
	for s := range n {
		d := make([]float64, n)
		hops := make([]int, n)
		for i := range d {
			d[i] = math.Inf(1)
		}
		d[s] = 0
		q := &queue{{s, 0}}
		for q.Len() > 0 {
			it := heap.Pop(q).(item)
			if it.d > d[it.z] {
				continue
			}
			for _, a := range adj[it.z] {
				if nd := it.d + a.w; nd < d[a.to]-eps {
					d[a.to], hops[a.to] = nd, hops[it.z]+1
					heap.Push(q, item{a.to, nd})
				}
			}
		}
		for t := s + 1; t < n; t++ {
			if !math.IsInf(d[t], 1) {
				b.Ranges = append(b.Ranges, Range{A: b.Zones[s].ID, B: b.Zones[t].ID, Hops: hops[t], Squares: int(math.Round(d[t]))})
			}
		}
	}
	slices.SortStableFunc(b.Ranges, func(p, q Range) int { return cmp.Compare(p.Squares, q.Squares) })
}

type item struct {
	z int
	d float64
}

type queue []item

func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
