package d20tactical

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The battlefield (spec d): a grid of 5-ft squares. A square may be a
// wall (blocks movement and sight), a pit (jumped over, never entered),
// difficult terrain (double cost), or hold an obstacle of a height — low
// (a quarter of a standing body: a kerb, a log), half (a low wall, a car)
// or high (three quarters: stacked crates). Obstacles give cover to whoever
// is behind them, by height against posture; a low one is crossed as
// difficult terrain, a half one only by jumping, a high one not at all.
// A material modifier (−2 thin drywall … +2 steel) adjusts the cover the
// obstacle gives (seed "Cover").

// Square is the scale of the grid.
const Square = 5

// Grid is the battlefield: Width × Height squares, Cells the ones that are
// not open ground.
type Grid struct {
	Width  int       `json:"width"`
	Height int       `json:"height"`
	Cells  []Terrain `json:"cells,omitempty"`

	// index holds 1 + the position in Cells of each square listed (see
	// at): a memo, since the hub projects one state for many viewers at
	// once and the squares never change once set up.
	index engine.Memo[[]int32]
}

// Terrain is one square that is not open ground.
type Terrain struct {
	X         int    `json:"x"`
	Y         int    `json:"y"`
	Label     string `json:"label,omitempty"`
	Wall      bool   `json:"wall,omitempty"`
	Pit       bool   `json:"pit,omitempty"`
	Difficult bool   `json:"difficult,omitempty"`
	Obstacle  string `json:"obstacle,omitempty"` // "", "low", "half", "high"
	Material  int    `json:"material,omitempty"`
	JumpDC    int    `json:"jumpDC,omitempty"`
}

// Obstacle heights.
const (
	ObstacleLow  = "low"
	ObstacleHalf = "half"
	ObstacleHigh = "high"
)

// obstacleHeight is an obstacle's height in quarters of a standing body.
func obstacleHeight(o string) int {
	switch o {
	case ObstacleLow:
		return 1
	case ObstacleHalf:
		return 2
	case ObstacleHigh:
		return 3
	}
	return 0
}

// at returns the square at x, y (open ground when not listed). Route
// searches ask it for every square they look at, so the squares listed are
// indexed by position once, in a slice rather than a map.
func (g *Grid) at(x, y int) Terrain {
	index := g.index.Load()
	if index == nil {
		built := make([]int32, g.Width*g.Height)
		for i, c := range g.Cells {
			if g.inside(c.X, c.Y) {
				built[c.Y*g.Width+c.X] = int32(i) + 1
			}
		}
		index = g.index.Keep(&built)
	}
	if g.inside(x, y) {
		if i := (*index)[y*g.Width+x]; i > 0 {
			return g.Cells[i-1]
		}
	}
	return Terrain{X: x, Y: y}
}

func (g *Grid) inside(x, y int) bool { return x >= 0 && y >= 0 && x < g.Width && y < g.Height }

// Grid bounds.
const (
	MaxWidth  = 60
	MaxHeight = 60
)

// cellProps are the properties a square takes in the battlefield editor.
var cellProps = []board.Field{
	{Name: "label", Label: "Label", Type: board.FieldText, Help: "What is there: \"crates\", \"car\", \"drywall\"."},
	{Name: "wall", Label: "Wall", Type: board.FieldBool, Help: "Blocks movement and line of sight."},
	{Name: "obstacle", Label: "Obstacle", Type: board.FieldSelect, Default: "", Help: "Gives cover to whoever is behind it, by height against posture.",
		Options: []board.Option{{Value: "", Label: "None"}, {Value: ObstacleLow, Label: "Low (¼ height: crossed as difficult terrain)"},
			{Value: ObstacleHalf, Label: "Half (½ height: jump over it)"}, {Value: ObstacleHigh, Label: "High (¾ height: impassable)"}}},
	{Name: "material", Label: "Cover material", Type: board.FieldInt, Min: -2, Max: 2, Default: "0", Help: "Added to the cover the obstacle gives: −1 thin drywall, +1 or +2 steel."},
	{Name: "difficult", Label: "Difficult terrain", Type: board.FieldBool, Help: "Costs double to enter; no running or charging through it."},
	{Name: "pit", Label: "Pit", Type: board.FieldBool, Help: "Cannot be entered; jump over it."},
	{Name: "jumpDC", Label: "Jump DC", Type: board.FieldInt, Min: 0, Max: 40, Help: "The Jump check to clear this square (empty: the encounter's option)."},
}

// startProps are the properties of a combatant's start.
var startProps = []board.Field{
	{Name: "posture", Label: "Posture", Type: board.FieldSelect, Default: Standing,
		Options: []board.Option{{Value: Standing, Label: "Standing"}, {Value: Crouched, Label: "Crouched", Pose: pose(Crouched)},
			{Value: Prone, Label: "Prone", Pose: pose(Prone)}}},
	{Name: "surprised", Label: "Surprised", Type: board.FieldBool, Help: "Does not act in the surprise round and is flat-footed until its first turn."},
}

// checkProps validates props against the editor's fields.
func checkProps(fields []board.Field, p board.Props, where string) error {
	for name, v := range p {
		i := slices.IndexFunc(fields, func(f board.Field) bool { return f.Name == name })
		if i < 0 {
			return fray.Errorf(fray.EINVALID, "%s: no property %q", where, name)
		}
		f := fields[i]
		switch f.Type {
		case board.FieldBool:
			if _, ok := v.(bool); !ok {
				return fray.Errorf(fray.EINVALID, "%s: %s must be true or false", where, name)
			}
		case board.FieldInt:
			n, ok := v.(float64)
			if !ok || n != math.Trunc(n) || int(n) < f.Min || int(n) > f.Max {
				return fray.Errorf(fray.EINVALID, "%s: %s must be a whole number from %d to %d", where, name, f.Min, f.Max)
			}
		case board.FieldSelect:
			s, ok := v.(string)
			if !ok || !slices.ContainsFunc(f.Options, func(o board.Option) bool { return o.Value == s }) {
				return fray.Errorf(fray.EINVALID, "%s: %s cannot be %v", where, name, v)
			}
		case board.FieldText:
			s, ok := v.(string)
			if !ok || len(s) > 60 {
				return fray.Errorf(fray.EINVALID, "%s: %s must be a short text", where, name)
			}
		}
	}
	return nil
}

// parseGrid reads the setup's battlefield into g.
func parseGrid(raw json.RawMessage, g *Grid) error {
	bf, err := board.Read(raw)
	if err != nil {
		return fray.Errorf(fray.EINVALID, "%v", err)
	}
	if bf.Model != "" && bf.Model != board.Grid {
		return fray.Errorf(fray.EINVALID, "battlefield: d20-tactical uses a grid, not %q", bf.Model)
	}
	if len(bf.Zones) > 0 || len(bf.Melees) > 0 || len(bf.Pairs) > 0 || len(bf.Distances) > 0 {
		return fray.Errorf(fray.EINVALID, "battlefield: d20-tactical uses a grid of 5-ft squares (width, height, cells)")
	}
	if bf.Width < 2 || bf.Height < 2 || bf.Width > MaxWidth || bf.Height > MaxHeight {
		return fray.Errorf(fray.EINVALID, "battlefield: the grid must be 2–%d squares wide and 2–%d high", MaxWidth, MaxHeight)
	}
	g.Width, g.Height = bf.Width, bf.Height
	seen := map[[2]int]bool{}
	for _, c := range bf.Cells {
		where := fmt.Sprintf("square %d,%d", c.X, c.Y)
		if !g.inside(c.X, c.Y) {
			return fray.Errorf(fray.EINVALID, "%s is off the grid", where)
		}
		if seen[[2]int{c.X, c.Y}] {
			return fray.Errorf(fray.EINVALID, "%s is listed twice", where)
		}
		seen[[2]int{c.X, c.Y}] = true
		if err := checkProps(cellProps, c.Props, where); err != nil {
			return err
		}
		t := Terrain{X: c.X, Y: c.Y, Label: c.Props.String("label"), Wall: c.Props.Bool("wall"), Pit: c.Props.Bool("pit"),
			Difficult: c.Props.Bool("difficult"), Obstacle: c.Props.String("obstacle"), Material: c.Props.Int("material"), JumpDC: c.Props.Int("jumpDC")}
		if t.Wall && (t.Pit || t.Obstacle != "") {
			return fray.Errorf(fray.EINVALID, "%s: a wall is neither a pit nor an obstacle", where)
		}
		g.Cells = append(g.Cells, t)
	}
	return nil
}

// Cell is a square's coordinates.
type Cell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

func (c Cell) String() string { return strconv.Itoa(c.X) + "," + strconv.Itoa(c.Y) }

// Name is the square as people read it, the way the board labels it ("K9").
func (c Cell) Name() string { return board.SquareName(c.X, c.Y) }

// parseCell reads "x,y".
func parseCell(s string) (Cell, bool) {
	var c Cell
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return c, false
	}
	if _, err := fmt.Sscanf(a+" "+b, "%d %d", &c.X, &c.Y); err != nil {
		return c, false
	}
	return c, true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the distance in feet between two squares, counting
// diagonals by the option.
func distance(b *engine.Base, a, c Cell) int {
	dx, dy := abs(a.X-c.X), abs(a.Y-c.Y)
	diag, straight := min(dx, dy), max(dx, dy)-min(dx, dy)
	if kit.Opt(b, OptDiagonals) == Five {
		return Square * (diag + straight)
	}
	return Square * (straight + diag + diag/2)
}

// line lists the squares a straight line from a's centre to c's centre
// passes through, a and c excluded.
func line(a, c Cell) []Cell {
	// The line steps to a neighbour at a time, so it passes through no
	// more squares than the two distances add up to (one spare for a
	// caller that appends c).
	out := make([]Cell, 0, abs(c.X-a.X)+abs(c.Y-a.Y)+1)
	onLine(a, c, func(p Cell) bool {
		out = append(out, p)
		return true
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// onLine calls each with the squares of line(a, c) in order, until it
// returns false, without building the line.
func onLine(a, c Cell, each func(Cell) bool) {
	dx, dy := float64(c.X-a.X), float64(c.Y-a.Y)
	n := 8 * max(abs(c.X-a.X), abs(c.Y-a.Y))
	last, moved := Cell{}, false
	for i := 1; i < n; i++ {
		t := float64(i) / float64(n)
		p := Cell{int(math.Floor(float64(a.X) + 0.5 + t*dx + 1e-9)), int(math.Floor(float64(a.Y) + 0.5 + t*dy + 1e-9))}
		if p == a || p == c || (moved && last == p) {
			continue
		}
		last, moved = p, true
		if !each(p) {
			return
		}
	}
}

// sight reports whether a can see c: no wall square on the line between.
func (g *Grid) sight(a, c Cell) bool {
	clear := true
	onLine(a, c, func(p Cell) bool {
		clear = !g.at(p.X, p.Y).Wall
		return clear
	})
	return clear
}

// sight reports whether a can see c: no wall square on the line between
// and no wall or closed door between squares across it (board.Walls).
func (st *State) sight(a, c Cell) bool {
	return st.Grid.sight(a, c) && st.Walls.Clear(a.X, a.Y, c.X, c.Y)
}

// obstacleCover is the obstacle between a and c that covers c best (one
// next to c on the line from a), and how much of a body of height h it
// hides, in percent.
func (g *Grid) obstacleCover(a, c Cell, h int) (Terrain, int) {
	var best Terrain
	pct := 0
	for _, p := range line(a, c) {
		if max(abs(p.X-c.X), abs(p.Y-c.Y)) != 1 {
			continue
		}
		t := g.at(p.X, p.Y)
		oh := obstacleHeight(t.Obstacle)
		if oh == 0 {
			continue
		}
		if v := min(100, oh*100/h); v > pct {
			best, pct = t, v
		}
	}
	return best, pct
}

// neighbours are the eight directions.
var neighbours = []Cell{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}

// directionNames name the eight directions in the order of neighbours.
var directionNames = []string{"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"}

// walkable reports whether a square can be entered on foot.
func (t Terrain) walkable() bool {
	return !t.Wall && !t.Pit && (t.Obstacle == "" || t.Obstacle == ObstacleLow)
}

// rough reports whether a square costs double.
func (t Terrain) rough() bool { return t.Difficult || t.Obstacle == ObstacleLow }

// stepCost is the cost in feet of entering b from a (one square), the
// parity of diagonals taken so far updated.
func stepCost(st *State, a, b Cell, diagonals int, mult int) (int, int) {
	cost := Square
	if a.X != b.X && a.Y != b.Y {
		diagonals++
		if kit.Opt(&st.Base, OptDiagonals) == Alternate && diagonals%2 == 0 {
			cost = 2 * Square
		}
	}
	if st.Grid.at(b.X, b.Y).rough() {
		cost *= 2
	}
	return cost * mult, diagonals
}

// cornerCut reports whether a diagonal step from a to b squeezes past a
// wall's corner, which d20 forbids.
func (g *Grid) cornerCut(a, b Cell) bool {
	if a.X == b.X || a.Y == b.Y {
		return false
	}
	return g.at(b.X, a.Y).Wall || g.at(a.X, b.Y).Wall
}

// barred reports whether one step from a to its neighbour b is barred by
// a wall: a wall, window or closed door between them (board.Walls, judged
// by d20's corner rule, Strict) or a diagonal squeezing past a wall
// square's corner.
func (st *State) barred(a, b Cell) bool {
	return st.Grid.cornerCut(a, b) || !st.Walls.Step(a.X, a.Y, b.X, b.Y, board.Strict)
}

// Route is a path to a square: its squares after the start and its cost.
type Route struct {
	To    Cell   `json:"to"`
	Path  []Cell `json:"path"`
	Feet  int    `json:"feet"`
	Risky int    `json:"risky,omitempty"` // threatened squares left on the way
}

type node struct {
	c         Cell
	diagonals int // parity of diagonals so far
}

type item struct {
	n    node
	prio int
}

// pq is the search's queue: a binary min-heap of items by value, which
// moves them exactly as container/heap would (the same pushes give the
// same pops, ties included) without a pointer per item.
type pq []item

func (q pq) Len() int { return len(q) }

func (q *pq) push(n node, p int) {
	*q = append(*q, item{n: n, prio: p})
	h := *q
	for j := len(h) - 1; ; {
		i := (j - 1) / 2 // parent
		if i == j || h[j].prio >= h[i].prio {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func (q *pq) pop() item {
	h := *q
	n := len(h) - 1
	h[0], h[n] = h[n], h[0]
	for i := 0; ; {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1
		if j2 := j1 + 1; j2 < n && h[j2].prio < h[j1].prio {
			j = j2
		}
		if h[j].prio >= h[i].prio {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
	it := h[n]
	*q = h[:n]
	return it
}

// routes finds the cheapest way to every square f can reach on foot within
// budget feet: through allies and the fallen but not opponents, never
// ending on anyone, never across walls, pits or high obstacles. Among equal
// costs it prefers paths leaving fewer threatened squares (attacks of
// opportunity).
func routes(st *State, f *Fighter, budget int) map[Cell]Route {
	return reach(st, f, budget, true)
}

// reach is routes, each with its path when paths is set (offering the
// squares needs only their costs).
func reach(st *State, f *Fighter, budget int, paths bool) map[Cell]Route {
	start := Cell{f.X, f.Y}
	mult := moveMultiplier(st, f)
	g := &st.Grid
	// The search looks squares up many times: who stands on each and
	// whether it is threatened are worked out once, in slices indexed by
	// square, and each node (a square and the parity of diagonals taken)
	// is a slot in a slice.
	w, size := g.Width, g.Width*g.Height
	square := func(c Cell) int { return c.Y*w + c.X }
	occupants := make([]*Fighter, size) // the first one standing there (not f)
	for _, cb := range st.Combatants {
		o := st.Fighters[cb.ID]
		if o == nil || cb.ID == f.ID || cb.Out || o.Dead || !g.inside(o.X, o.Y) {
			continue
		}
		if i := square(cell(o)); occupants[i] == nil {
			occupants[i] = o
		}
	}
	threatened := make([]bool, size)
	for c := range threatMap(st, f) {
		if g.inside(c.X, c.Y) {
			threatened[square(c)] = true
		}
	}
	type seen struct {
		feet, risky int
		prev        node
		set         bool
	}
	slot := func(n node) int { return square(n.c)*2 + n.diagonals }
	best := make([]seen, 2*size)
	startNode := node{start, 0}
	if !g.inside(start.X, start.Y) {
		return map[Cell]Route{}
	}
	best[slot(startNode)] = seen{set: true}
	q := &pq{}
	q.push(startNode, 0)
	for q.Len() > 0 {
		it := q.pop()
		cur := best[slot(it.n)]
		if it.prio != cur.feet*1000+cur.risky {
			continue
		}
		risk := 0
		if threatened[square(it.n.c)] {
			risk = 1
		}
		for _, d := range neighbours {
			nc := Cell{it.n.c.X + d.X, it.n.c.Y + d.Y}
			if !g.inside(nc.X, nc.Y) || !g.at(nc.X, nc.Y).walkable() || st.barred(it.n.c, nc) {
				continue
			}
			if o := occupants[square(nc)]; o != nil && st.opponents(o.ID, f.ID) && !o.Down() {
				continue
			}
			cost, diag := stepCost(st, it.n.c, nc, it.n.diagonals, mult)
			nn := node{nc, diag % 2}
			feet, risky := cur.feet+cost, cur.risky+risk
			if feet > budget {
				continue
			}
			if old := best[slot(nn)]; old.set && old.feet*1000+old.risky <= feet*1000+risky {
				continue
			}
			best[slot(nn)] = seen{feet: feet, risky: risky, prev: it.n, set: true}
			q.push(nn, feet*1000+risky)
		}
	}
	out := map[Cell]Route{}
	for i, s := range best {
		n := node{Cell{i / 2 % w, i / 2 / w}, i % 2}
		if !s.set || n.c == start || occupants[i/2] != nil {
			continue
		}
		if r, ok := out[n.c]; ok && r.Feet*1000+r.Risky <= s.feet*1000+s.risky {
			continue
		}
		var path []Cell
		for cur := n; paths && cur != startNode; cur = best[slot(cur)].prev {
			path = append(path, cur.c)
		}
		slices.Reverse(path)
		out[n.c] = Route{To: n.c, Path: path, Feet: s.feet, Risky: s.risky}
	}
	return out
}

// moveMultiplier is what each square costs f in multiples: prone crawls a
// square per move action (its whole speed), crouched moves at half speed
// (option).
func moveMultiplier(st *State, f *Fighter) int {
	switch {
	case f.Posture == Prone:
		return max(f.Speed(), Square) / Square
	case f.Posture == Crouched && kit.Opt(&st.Base, OptCrouchedSpeed) == HalfSpeed:
		return 2
	}
	return 1
}

// straight lists the squares from a toward direction d, as far as f could
// go in a straight line within budget feet without entering difficult
// terrain, walls, pits or obstacles, or passing opponents.
func straight(st *State, f *Fighter, d Cell, budget int) []Route {
	var out []Route
	cur := Cell{f.X, f.Y}
	feet, diagonals := 0, 0
	var path []Cell
	for {
		next := Cell{cur.X + d.X, cur.Y + d.Y}
		t := st.Grid.at(next.X, next.Y)
		if !st.Grid.inside(next.X, next.Y) || !t.walkable() || t.rough() || st.barred(cur, next) {
			return out
		}
		if o := st.occupant(next, f.ID); o != nil && st.opponents(o.ID, f.ID) && !o.Down() {
			return out
		}
		var cost int
		cost, diagonals = stepCost(st, cur, next, diagonals, 1)
		if feet+cost > budget {
			return out
		}
		feet += cost
		path = append(path, next)
		cur = next
		if st.occupant(next, f.ID) == nil {
			out = append(out, Route{To: next, Path: slices.Clone(path), Feet: feet})
		}
	}
}

// slicesSortCells sorts squares by row, then column.
func slicesSortCells(cs []Cell) {
	slices.SortFunc(cs, func(a, b Cell) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
}
