package d20under

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Movement by scale (seed 11): 2 m squares; a movement action is 5
// squares; creatures in neighbouring squares (diagonals too) are engaged
// in melee; with one or more squares between them only ranged attacks
// reach.

// SquaresPerMove is how many squares one movement action covers.
const SquaresPerMove = 5

// MaxGrid bounds a grid's width and height.
const MaxGrid = 40

// Terrain of a cell that is not open ground.
const (
	TerrainWall      = "wall"      // impassable, blocks line of sight
	TerrainDifficult = "difficult" // each square costs two
)

// Grid is the 2 m grid.
type Grid struct {
	Width  int        `json:"width"`
	Height int        `json:"height"`
	Cells  []GridCell `json:"cells,omitempty"`
}

// GridCell is a square that is not open ground.
type GridCell struct {
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Terrain string `json:"terrain,omitempty"`
	Label   string `json:"label,omitempty"`
}

// Cell is a square.
type Cell struct{ X, Y int }

func (c Cell) String() string { return strconv.Itoa(c.X) + "," + strconv.Itoa(c.Y) }

// parseCell reads "x,y".
func parseCell(s string) (Cell, bool) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return Cell{}, false
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	return Cell{x, y}, err1 == nil && err2 == nil
}

func readGrid(bf board.Battlefield) (*Grid, error) {
	if len(bf.Zones) > 0 || len(bf.Melees) > 0 || len(bf.Pairs) > 0 || len(bf.Distances) > 0 {
		return nil, fray.Errorf(fray.EINVALID, "a grid battlefield takes width, height and cells only")
	}
	g := &Grid{Width: bf.Width, Height: bf.Height}
	if g.Width < 2 || g.Height < 2 || g.Width > MaxGrid || g.Height > MaxGrid {
		return nil, fray.Errorf(fray.EINVALID, "the grid must be 2–%d squares wide and high, not %d×%d", MaxGrid, g.Width, g.Height)
	}
	seen := map[Cell]bool{}
	for _, c := range bf.Cells {
		if !g.inside(c.X, c.Y) {
			return nil, fray.Errorf(fray.EINVALID, "cell %d,%d is outside the %d×%d grid", c.X, c.Y, g.Width, g.Height)
		}
		if seen[Cell{c.X, c.Y}] {
			return nil, fray.Errorf(fray.EINVALID, "cell %d,%d is given twice", c.X, c.Y)
		}
		seen[Cell{c.X, c.Y}] = true
		for k := range c.Props {
			if k != "terrain" && k != "label" {
				return nil, fray.Errorf(fray.EINVALID, "cell %d,%d has no property %q (terrain, label)", c.X, c.Y, k)
			}
		}
		cell := GridCell{X: c.X, Y: c.Y, Terrain: c.Props.String("terrain"), Label: strings.TrimSpace(c.Props.String("label"))}
		if cell.Terrain != "" && cell.Terrain != TerrainWall && cell.Terrain != TerrainDifficult && cell.Terrain != "open" {
			return nil, fray.Errorf(fray.EINVALID, "cell %d,%d: terrain %q must be wall, difficult or open", c.X, c.Y, cell.Terrain)
		}
		if cell.Terrain == "open" {
			cell.Terrain = ""
		}
		if len(cell.Label) > 40 {
			return nil, fray.Errorf(fray.EINVALID, "cell %d,%d: label is longer than 40 characters", c.X, c.Y)
		}
		g.Cells = append(g.Cells, cell)
	}
	return g, nil
}

func (g *Grid) inside(x, y int) bool { return x >= 0 && y >= 0 && x < g.Width && y < g.Height }

func (g *Grid) cell(x, y int) *GridCell {
	for i := range g.Cells {
		if g.Cells[i].X == x && g.Cells[i].Y == y {
			return &g.Cells[i]
		}
	}
	return nil
}

func (g *Grid) wall(x, y int) bool {
	c := g.cell(x, y)
	return c != nil && c.Terrain == TerrainWall
}

// cost is what entering a square costs.
func (g *Grid) cost(x, y int) int {
	if c := g.cell(x, y); c != nil && c.Terrain == TerrainDifficult {
		return 2
	}
	return 1
}

func chebyshev(ax, ay, bx, by int) int { return max(abs(ax-bx), abs(ay-by)) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// at returns who stands on a square (not out), or "".
func (s *State) at(x, y int) string {
	for _, c := range s.Combatants {
		if f := s.Fighters[c.ID]; !c.Out && f.X == x && f.Y == y {
			return c.ID
		}
	}
	return ""
}

// adjacent reports whether two fighters stand in neighbouring squares.
func (s *State) adjacent(a, b string) bool {
	fa, fb := s.Fighters[a], s.Fighters[b]
	return a != b && chebyshev(fa.X, fa.Y, fb.X, fb.Y) == 1 && s.step(Cell{fa.X, fa.Y}, Cell{fb.X, fb.Y})
}

// step reports whether no wall, window or closed door between squares
// (board.Walls) bars one step from a to its neighbour b. The seed has no
// rule against passing a wall's corner: a diagonal is barred only when
// neither way round it is open (board.Loose).
func (s *State) step(a, b Cell) bool {
	return s.Walls.Step(a.X, a.Y, b.X, b.Y, board.Loose)
}

// route is a way to a square: the squares entered, what they cost, and
// the enemies passed on the way (a heuristic count, see reachable).
type route struct {
	Path   []Cell
	Cost   int
	passes int
}

// reachable maps every square f can end a move on within squares to the
// route there that passes the fewest enemies (and traps it knows of),
// then the shortest. Allies
// may be passed through, enemies and walls not; a square next to an
// enemy already surrounded by four is closed (seed 6: at most four
// around a creature).
func (s *State) reachable(f *Fighter, squares int) map[Cell]route {
	g := s.Grid
	start := Cell{f.X, f.Y}
	// The search looks every square up many times: what it needs of a
	// square is worked out once, in slices indexed by square.
	w, size := g.Width, g.Width*g.Height
	index := func(c Cell) int { return c.Y*w + c.X }
	closed := make([]bool, size)   // a wall, or an enemy stands there
	cost := make([]int8, size)     // what entering costs
	occupied := make([]bool, size) // someone (not out) stands there
	penalty := make([]int8, size)  // enemies passed (and known traps)
	crowd := make([]bool, size)    // next to an enemy surrounded by four
	for i := range cost {
		cost[i] = 1
	}
	for _, c := range g.Cells {
		if !g.inside(c.X, c.Y) {
			continue
		}
		switch c.Terrain {
		case TerrainWall:
			closed[index(Cell{c.X, c.Y})] = true
		case TerrainDifficult:
			cost[index(Cell{c.X, c.Y})] = 2
		}
	}
	for _, c := range s.Combatants {
		o := s.Fighters[c.ID]
		if c.Out || !g.inside(o.X, o.Y) {
			continue
		}
		i := index(Cell{o.X, o.Y})
		if occupied[i] {
			continue // the first one there is who stands there
		}
		occupied[i] = true
		if c.ID != f.ID && s.enemies(f.ID, c.ID) {
			closed[i] = true
		}
	}
	around := func(e *Fighter, mark func(int)) {
		for _, d := range neighbours {
			if c := (Cell{e.X + d.X, e.Y + d.Y}); g.inside(c.X, c.Y) {
				mark(index(c))
			}
		}
	}
	for _, id := range s.enemiesOf(f.ID) {
		e := s.Fighters[id]
		if chebyshev(e.X, e.Y, f.X, f.Y) == 1 {
			continue // enemies next to the start are not "passed"
		}
		around(e, func(i int) { penalty[i]++ })
		if len(s.attackersAround(id)) >= 4 {
			around(e, func(i int) { crowd[i] = true })
		}
	}
	if s.Model == board.Grid {
		side := s.side(f.ID)
		trapped := make([]bool, size) // an armed trap seen: the first one counts
		for i := range s.Traps {
			t := &s.Traps[i]
			if !t.armed() || !g.inside(t.X, t.Y) || trapped[index(Cell{t.X, t.Y})] {
				continue
			}
			trapped[index(Cell{t.X, t.Y})] = true
			if t.known(side) {
				penalty[index(Cell{t.X, t.Y})]++ // avoided like an enemy
			}
		}
	}
	type node struct {
		cell   Cell
		used   int
		passes int
		parent int
	}
	nodes := []node{{cell: start, parent: -1}}
	best := make([][]int, size) // per square, the fewest passes at each cost used (-1: none)
	bestAt := func(i, used int) int {
		if b := best[i]; used < len(b) {
			return b[used]
		}
		return -1
	}
	setBest := func(i, used, n int) {
		b := best[i]
		for len(b) <= used {
			b = append(b, -1)
		}
		b[used] = n
		best[i] = b
	}
	if g.inside(start.X, start.Y) {
		setBest(index(start), 0, 0)
	}
	layers := make([][]int, squares+1)
	layers[0] = []int{0}
	for used := 0; used < squares; used++ {
		for _, from := range layers[used] {
			c := nodes[from].cell
			if g.inside(c.X, c.Y) && bestAt(index(c), used) != from {
				continue // bettered since
			}
			for _, d := range neighbours {
				next := Cell{c.X + d.X, c.Y + d.Y}
				if !g.inside(next.X, next.Y) {
					continue
				}
				i := index(next)
				if closed[i] || !s.step(c, next) {
					continue
				}
				u := used + int(cost[i])
				if u > squares {
					continue
				}
				p := nodes[from].passes + int(penalty[i])
				if j := bestAt(i, u); j >= 0 && nodes[j].passes <= p {
					continue
				}
				nodes = append(nodes, node{cell: next, used: u, passes: p, parent: from})
				setBest(i, u, len(nodes)-1)
				layers[u] = append(layers[u], len(nodes)-1)
			}
		}
	}
	out := map[Cell]route{}
	for i, b := range best { // each square's own pick: the order does not matter
		c := Cell{i % w, i / w}
		if c == start || len(b) == 0 {
			continue
		}
		if occupied[i] {
			continue // cannot end on someone
		}
		if crowd[i] {
			continue
		}
		pick := -1
		for _, n := range b {
			if n >= 0 && (pick < 0 || nodes[n].passes < nodes[pick].passes) {
				pick = n
			}
		}
		if pick < 0 {
			continue
		}
		var path []Cell
		for n := pick; nodes[n].parent >= 0; n = nodes[n].parent {
			path = append(path, nodes[n].cell)
		}
		slices.Reverse(path)
		out[c] = route{Path: path, Cost: nodes[pick].used, passes: nodes[pick].passes}
	}
	return out
}

// neighbours are the eight directions, in a fixed order so that routes
// are the same every time.
var neighbours = []Cell{{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}

// attackersAround lists the fighting enemies engaged with id.
func (s *State) attackersAround(id string) []string {
	return s.ids(func(x string) bool { return s.enemies(id, x) && s.fighting(x) && s.inMelee(x, id) })
}

// lineOfSight reports whether a shot from a to b on the grid is clear: no
// wall (a wall square, or a wall or closed door between squares) and no
// one standing between (seed: Line of Sight — ranged weapons
// cannot shoot past other combatants).
func (s *State) lineOfSight(a, b string) bool {
	if s.Model != board.Grid {
		return true
	}
	fa, fb := s.Fighters[a], s.Fighters[b]
	if !s.Walls.Clear(fa.X, fa.Y, fb.X, fb.Y) {
		return false
	}
	for _, c := range line(Cell{fa.X, fa.Y}, Cell{fb.X, fb.Y}) {
		if (c.X == fa.X && c.Y == fa.Y) || (c.X == fb.X && c.Y == fb.Y) {
			continue
		}
		if s.Grid.wall(c.X, c.Y) {
			return false
		}
		if id := s.at(c.X, c.Y); id != "" && s.fighting(id) {
			return false
		}
	}
	return true
}

// line lists the squares a straight line between two squares' centres
// crosses (sampled finely; a line grazing a corner crosses neither side).
func line(a, b Cell) []Cell {
	n := max(abs(b.X-a.X), abs(b.Y-a.Y)) * 4
	var out []Cell
	seen := map[Cell]bool{}
	for i := 0; i <= n; i++ {
		// Integer arithmetic in quarters of a square keeps it exact.
		x := a.X*2*n + (b.X-a.X)*2*i
		y := a.Y*2*n + (b.Y-a.Y)*2*i
		cx, cy := roundDiv(x, 2*n), roundDiv(y, 2*n)
		if n == 0 {
			cx, cy = a.X, a.Y
		}
		c := Cell{cx, cy}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// roundDiv is a/b rounded to the nearest, halves toward zero (b > 0).
func roundDiv(a, b int) int {
	q, r := a/b, a%b
	if r < 0 {
		r += b
		q--
	}
	if 2*r > b {
		q++
	}
	return q
}

// flankingOnGrid reports whether a and an ally flank t (option
// grid-flanking): standing on opposite sides of it, or just both engaged.
func (s *State) flankingOnGrid(a, t string) bool {
	fa, ft := s.Fighters[a], s.Fighters[t]
	for _, b := range s.alliesOf(a) {
		if !s.adjacent(b, t) {
			continue
		}
		if kit.Opt(&s.Base, OptGridFlanking) == FlankAny {
			return true
		}
		fb := s.Fighters[b]
		sx, sy := (fa.X-ft.X)+(fb.X-ft.X), (fa.Y-ft.Y)+(fb.Y-ft.Y)
		if abs(sx)+abs(sy) <= 1 {
			return true
		}
	}
	return false
}

// gridSquares is how many squares one movement action covers for f.
func (s *State) gridSquares(f *Fighter) int {
	if f.Lame {
		return kit.OptInt(&s.Base, OptLameSquares)
	}
	return SquaresPerMove
}

func cellWords(c Cell) string { return board.SquareName(c.X, c.Y) }
