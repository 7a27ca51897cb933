package d6bands

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Range bands (seed: "Range bands"; spec c1). The battlefield is a map of
// squares about 30 m across. Combatants in the same square are Very Close
// (0–30 m); one square apart Close (30–60 m), then Distant, Far and Very
// Far (120–150 m). The band between two squares is the larger of their
// column and row distances (band-metric: or the sum). Combatants in the
// same square whose tokens touch are in close contact: a contact group.
// Extreme range is off the map: a combatant placed off it is at Extreme
// range from everyone, and so is anyone five or more squares away.

// Bands, nearest first. BandContact is close contact.
const (
	BandContact   = -1
	BandVeryClose = 0
	BandClose     = 1
	BandDistant   = 2
	BandFar       = 3
	BandVeryFar   = 4
	BandExtreme   = 5
)

// bandNames are the bands' names by index, Very Close first.
var bandNames = []string{"Very Close", "Close", "Distant", "Far", "Very Far", "Extreme"}

// BandName names band b.
func BandName(b int) string {
	if b == BandContact {
		return "Close Contact"
	}
	if b >= 0 && b < len(bandNames) {
		return bandNames[b]
	}
	return "Extreme"
}

// parseBands reads a weapon's optimal bands: "close" or "close/distant".
func parseBands(s string) ([]int, error) {
	var out []int
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == ',' }) {
		key := strings.Join(strings.FieldsFunc(strings.ToLower(part), func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), " ")
		i := slices.IndexFunc(bandNames[:BandExtreme], func(n string) bool { return strings.ToLower(n) == key })
		if i < 0 {
			return nil, fmt.Errorf("optimal range %q: use very close, close, distant, far or very far", strings.TrimSpace(part))
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	if len(out) == 0 || len(out) > 2 {
		return nil, fmt.Errorf("optimal range %q: one or two bands", s)
	}
	slices.Sort(out)
	return out, nil
}

// bandsText words a weapon's optimal bands: "Close/Distant".
func bandsText(bands []int) string {
	names := make([]string, len(bands))
	for i, b := range bands {
		names[i] = BandName(b)
	}
	return strings.Join(names, "/")
}

// Cell is a square that is not open ground: how hard it is to dash through
// or to cross at all, its cover and whether it blocks the line of sight.
// The GM sets them in prep and may change them mid-fight (set-cell).
type Cell struct {
	X int `json:"x"`
	Y int `json:"y"`
	// Dash is the difficulty of dashing through: 0 easy, 3 difficult,
	// 4 hard, 5 very hard.
	Dash int `json:"dash,omitempty"`
	// Impassable is the difficulty of crossing impassable terrain: 0 (it
	// is passable), 4 hard, 5 very hard, 6 dramatic. Water is crossed
	// with Swimming.
	Impassable int  `json:"impassable,omitempty"`
	Water      bool `json:"water,omitempty"`
	// Cover is 0 none, 1 light (+1D), 2 medium (+2D), 3 heavy (+3D).
	Cover  int    `json:"cover,omitempty"`
	Blocks bool   `json:"blocks,omitempty"` // blocks the line of sight through it
	Crowd  bool   `json:"crowd,omitempty"`  // a crowd: a miss by 6 or less hits a random body here
	Label  string `json:"label,omitempty"`
}

// Open reports whether c is plain open ground.
func (c Cell) Open() bool {
	return c.Dash == 0 && c.Impassable == 0 && !c.Water && c.Cover == 0 && !c.Blocks && !c.Crowd && c.Label == ""
}

// Difficulty names of dash terrain, impassable terrain and cover levels.
var (
	dashNames       = map[int]string{0: "Easy", 3: "Difficult", 4: "Hard", 5: "Very hard"}
	impassableNames = map[int]string{4: "Hard", 5: "Very hard", 6: "Dramatic"}
	coverNames      = []string{"No cover", "Light cover", "Medium cover", "Heavy cover"}
)

// Features words what matters about c.
func (c Cell) Features() []string {
	var out []string
	if c.Impassable > 0 {
		what := "Impassable"
		if c.Water {
			what = "Impassable water (Swimming)"
		}
		out = append(out, what+", "+strings.ToLower(impassableNames[c.Impassable])+" "+strconv.Itoa(c.Impassable)+"D")
	} else if c.Dash > 0 {
		out = append(out, dashNames[c.Dash]+" terrain: dash "+strconv.Itoa(c.Dash)+"D")
	}
	if c.Cover > 0 {
		out = append(out, coverNames[c.Cover]+" +"+strconv.Itoa(c.Cover)+"D")
	}
	if c.Blocks {
		out = append(out, "Blocks line of sight")
	}
	if c.Crowd {
		out = append(out, "Crowd")
	}
	return out
}

// point is a square.
type point struct{ X, Y int }

func (p point) String() string { return strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) }

// Name is the square as people read it, the way the board labels it ("C1").
func (p point) Name() string { return board.SquareName(p.X, p.Y) }

// parsePoint reads "x,y".
func parsePoint(s string) (point, bool) {
	var p point
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return p, false
	}
	if _, err := fmt.Sscanf(a+" "+b, "%d %d", &p.X, &p.Y); err != nil {
		return p, false
	}
	return p, true
}

// cell returns the square at (x, y): open ground unless the map says
// otherwise.
func (s *State) cell(x, y int) Cell {
	for _, c := range s.Cells {
		if c.X == x && c.Y == y {
			return c
		}
	}
	return Cell{X: x, Y: y}
}

// onMap reports whether (x, y) is a square of the map.
func (s *State) onMap(x, y int) bool { return x >= 0 && y >= 0 && x < s.Width && y < s.Height }

// onEdge reports whether (x, y) is on the map's edge, where a combatant
// may leave it for Extreme range or come back.
func (s *State) onEdge(x, y int) bool {
	return s.onMap(x, y) && (x == 0 || y == 0 || x == s.Width-1 || y == s.Height-1)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the band between two squares.
func (s *State) distance(a, b point) int {
	dx, dy := abs(a.X-b.X), abs(a.Y-b.Y)
	if kit.Opt(&s.Base, OptBandMetric) == MetricManhattan {
		return dx + dy
	}
	return max(dx, dy)
}

// neighbours are the squares one band from p, in reading order.
func (s *State) neighbours(p point) []point {
	var out []point
	for y := p.Y - 1; y <= p.Y+1; y++ {
		for x := p.X - 1; x <= p.X+1; x++ {
			q := point{x, y}
			if q != p && s.onMap(x, y) && s.distance(p, q) == 1 {
				out = append(out, q)
			}
		}
	}
	return out
}

// ways are the neighbours of p one move may reach: those no wall, window
// or closed door between squares (board.Walls) separates from p. The seed
// has no rule on a wall's corner: a diagonal is barred only when neither
// way round it is open (board.Loose).
func (s *State) ways(p point) []point {
	return slices.DeleteFunc(s.neighbours(p), func(q point) bool { return !s.step(p, q) })
}

// step reports whether one move from p to its neighbour q crosses no wall
// between squares.
func (s *State) step(p, q point) bool {
	return s.Walls.Step(p.X, p.Y, q.X, q.Y, board.Loose)
}

// Band is the range band between two combatants.
func (s *State) Band(a, b *Fighter) int {
	switch {
	case a.Off || b.Off:
		return BandExtreme
	case a.Group != "" && a.Group == b.Group:
		return BandContact
	}
	return min(BandExtreme, s.distance(a.at(), b.at()))
}

// inContact reports whether a and b are in close contact.
func inContact(a, b *Fighter) bool {
	return !a.Off && a.Group != "" && a.Group == b.Group && a.ID != b.ID
}

// line is the squares strictly between a and b, on a straight line.
func line(a, b point) []point {
	var out []point
	dx, dy := abs(b.X-a.X), -abs(b.Y-a.Y)
	sx, sy := 1, 1
	if a.X > b.X {
		sx = -1
	}
	if a.Y > b.Y {
		sy = -1
	}
	e := dx + dy
	p := a
	for p != b {
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			p.X += sx
		}
		if e2 <= dx {
			e += dx
			p.Y += sy
		}
		if p != b {
			out = append(out, p)
		}
	}
	return out
}

// sight reports whether the line of sight from square a to square b is
// clear (spec c6): no square between them blocks it, no wall or closed
// door between squares crosses it, and fewer than
// heavy-cover-los squares of heavy cover lie on the way, b's own included.
func (s *State) sight(a, b point) bool {
	if a == b {
		return true
	}
	if !s.Walls.Clear(a.X, a.Y, b.X, b.Y) {
		return false
	}
	heavy := 0
	if s.cell(b.X, b.Y).Cover == 3 {
		heavy++
	}
	for _, p := range line(a, b) {
		c := s.cell(p.X, p.Y)
		if c.Blocks {
			return false
		}
		if c.Cover == 3 {
			heavy++
		}
	}
	limit := kit.OptInt(&s.Base, OptHeavyLOS)
	return limit == 0 || heavy < limit
}

// sees reports whether a has a line of sight to b on the map.
func (s *State) sees(a, b *Fighter) bool {
	if a.Off || b.Off {
		return false
	}
	return s.sight(a.at(), b.at())
}

// cover is the cover t has against a shot from shooter (nil: against
// being spotted), and why it has none (spec c2, c3, c6): no cover in close
// contact, after a dash, or after more than one move action this turn.
func (s *State) cover(t, shooter *Fighter) (int, string) {
	switch {
	case t.Off:
		return 0, "off the map"
	case shooter != nil && inContact(t, shooter), s.inCloseContact(t):
		// Seed "Cover": "Cover grants no benefit in close contact" — for a
		// target touching anyone, whoever shoots from wherever.
		return 0, "no cover in close contact"
	case t.Dashed:
		return 0, "no cover after a dash"
	case t.Moves > 1:
		return 0, "no cover after more than one move"
	}
	c := s.cell(t.X, t.Y).Cover
	if c == 0 {
		return 0, ""
	}
	return c, strings.ToLower(coverNames[c])
}

// inCloseContact reports whether f is in close contact with anyone: a
// contact group of two or more on the map.
func (s *State) inCloseContact(f *Fighter) bool {
	return !f.Off && len(s.members(f.Group)) > 1
}

// members are the combatants of contact group g, in setup order.
func (s *State) members(g string) []string {
	var out []string
	if g == "" {
		return out
	}
	for _, c := range s.Combatants {
		if f := s.Fighters[c.ID]; f != nil && f.Group == g && !f.Off {
			out = append(out, c.ID)
		}
	}
	return out
}

// at is the square a fighter stands in.
func (f *Fighter) at() point { return point{f.X, f.Y} }

// where words where a fighter stands: "(2,3)" or "off the map".
func (f *Fighter) where() string {
	if f.Off {
		return "off the map (Extreme range)"
	}
	return fmt.Sprintf("(%d,%d)", f.X, f.Y)
}
