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
	return a != b && chebyshev(fa.X, fa.Y, fb.X, fb.Y) == 1
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
	near := map[string]bool{} // enemies next to the start: not "passed"
	var foes []*Fighter
	for _, id := range s.enemiesOf(f.ID) {
		e := s.Fighters[id]
		foes = append(foes, e)
		if chebyshev(e.X, e.Y, f.X, f.Y) == 1 {
			near[id] = true
		}
	}
	side := s.side(f.ID)
	penalty := func(c Cell) int {
		n := 0
		for _, e := range foes {
			if !near[e.ID] && chebyshev(e.X, e.Y, c.X, c.Y) == 1 {
				n++
			}
		}
		if t := s.trapAt(c); t != nil && t.known(side) {
			n++ // a trap the mover knows of is avoided like an enemy
		}
		return n
	}
	blocked := func(c Cell) bool {
		if !g.inside(c.X, c.Y) || g.wall(c.X, c.Y) {
			return true
		}
		if id := s.at(c.X, c.Y); id != "" && id != f.ID && s.enemies(f.ID, id) {
			return true
		}
		return false
	}
	type node struct {
		cell   Cell
		used   int
		passes int
		parent int
	}
	nodes := []node{{cell: start, parent: -1}}
	best := map[Cell][]int{} // per square, the fewest passes at each cost used (-1: none)
	bestAt := func(c Cell, used int) int {
		b := best[c]
		if used < len(b) {
			return b[used]
		}
		return -1
	}
	setBest := func(c Cell, used, i int) {
		b := best[c]
		for len(b) <= used {
			b = append(b, -1)
		}
		b[used] = i
		best[c] = b
	}
	setBest(start, 0, 0)
	layers := make([][]int, squares+1)
	layers[0] = []int{0}
	for used := 0; used < squares; used++ {
		for _, from := range layers[used] {
			c := nodes[from].cell
			if bestAt(c, used) != from {
				continue // bettered since
			}
			for _, d := range neighbours {
				next := Cell{c.X + d.X, c.Y + d.Y}
				if blocked(next) {
					continue
				}
				u := used + g.cost(next.X, next.Y)
				if u > squares {
					continue
				}
				p := nodes[from].passes + penalty(next)
				if j := bestAt(next, u); j >= 0 && nodes[j].passes <= p {
					continue
				}
				nodes = append(nodes, node{cell: next, used: u, passes: p, parent: from})
				setBest(next, u, len(nodes)-1)
				layers[u] = append(layers[u], len(nodes)-1)
			}
		}
	}
	out := map[Cell]route{}
	for c, b := range best { // each square's own pick: the order does not matter
		if c == start {
			continue
		}
		if id := s.at(c.X, c.Y); id != "" {
			continue // cannot end on someone
		}
		if s.crowded(f, c) {
			continue
		}
		pick := -1
		for _, i := range b {
			if i >= 0 && (pick < 0 || nodes[i].passes < nodes[pick].passes) {
				pick = i
			}
		}
		if pick < 0 {
			continue
		}
		var path []Cell
		for i := pick; nodes[i].parent >= 0; i = nodes[i].parent {
			path = append(path, nodes[i].cell)
		}
		slices.Reverse(path)
		out[c] = route{Path: path, Cost: nodes[pick].used, passes: nodes[pick].passes}
	}
	return out
}

// neighbours are the eight directions, in a fixed order so that routes
// are the same every time.
var neighbours = []Cell{{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}

// crowded reports whether ending on c would put f next to an enemy that
// already has four attackers around it.
func (s *State) crowded(f *Fighter, c Cell) bool {
	for _, id := range s.enemiesOf(f.ID) {
		e := s.Fighters[id]
		if chebyshev(e.X, e.Y, c.X, c.Y) != 1 || chebyshev(e.X, e.Y, f.X, f.Y) == 1 {
			continue
		}
		if len(s.attackersAround(id)) >= 4 {
			return true
		}
	}
	return false
}

// attackersAround lists the fighting enemies engaged with id.
func (s *State) attackersAround(id string) []string {
	return s.ids(func(x string) bool { return s.enemies(id, x) && s.fighting(x) && s.inMelee(x, id) })
}

// lineOfSight reports whether a shot from a to b on the grid is clear: no
// wall and no one standing between (seed: Line of Sight — ranged weapons
// cannot shoot past other combatants).
func (s *State) lineOfSight(a, b string) bool {
	if s.Model != board.Grid {
		return true
	}
	fa, fb := s.Fighters[a], s.Fighters[b]
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
