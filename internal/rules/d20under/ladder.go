package d20under

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Distance categories (seed: Alternate Rules, APG). Each pair of sides
// starts at a category the GM chooses, which is a number of movement
// actions to engage in melee. Fray keeps, for each pair of sides, those
// moves (the gap between their lines), and for each combatant how many
// moves it has made ahead of its side's line toward each other side: the
// distance between two combatants is the gap less both their moves ahead.
// A combatant engages an enemy at Short distance (one move) or closer.

// Rungs, nearest first.
var rungs = []struct {
	Name   string
	Moves  int // the fewest moves of the category
	Hit    int // ranged attack modifier
	Damage int // extra ranged damage die (+1d4 at Short)
	Help   string
}{
	{"Close", 0, 0, 0, "1–2 m. Ranged attacks only in the first round, and only by a shooter who acts before the target."},
	{"Short", 1, 2, 4, "About 10 m, 1 move to engage. Ranged attacks +2 to hit and +1d4 damage."},
	{"Medium", 2, 0, 0, "About 20 m, 2 moves to engage."},
	{"Long", 5, -2, 0, "About 50 m, 5 moves to engage. Ranged attacks −2."},
	{"Extreme", 10, -5, 0, "About 100 m, 10 moves to engage. Ranged attacks −5."},
}

// rungOf is the category of a number of moves.
func rungOf(moves int) int {
	r := 0
	for i, g := range rungs {
		if moves >= g.Moves {
			r = i
		}
	}
	return r
}

func rungByName(name string) (int, bool) {
	for i, g := range rungs {
		if equalFold(g.Name, name) {
			return i, true
		}
	}
	return 0, false
}

// Ladder is the distance categories between pairs of sides.
type Ladder struct {
	Gaps []Gap `json:"gaps"`
}

// Gap is the moves between two sides' lines.
type Gap struct {
	A     string `json:"a"`
	B     string `json:"b"`
	Moves int    `json:"moves"`
}

// DefaultRung is the starting category of a pair of sides the setup does
// not mention.
const DefaultRung = 2 // Medium

func readLadder(bf board.Battlefield, sides []engine.Side) (*Ladder, error) {
	if len(bf.Zones) > 0 || len(bf.Melees) > 0 || len(bf.Pairs) > 0 || len(bf.Cells) > 0 || bf.Width != 0 || bf.Height != 0 {
		return nil, fray.Errorf(fray.EINVALID, "distance categories take only distances between pairs of sides")
	}
	l := &Ladder{}
	known := func(id string) bool {
		return slices.ContainsFunc(sides, func(s engine.Side) bool { return s.ID == id })
	}
	for _, d := range bf.Distances {
		if !known(d.A) || !known(d.B) || d.A == d.B {
			return nil, fray.Errorf(fray.EINVALID, "distance %s–%s must be between two different sides", d.A, d.B)
		}
		r, ok := rungByName(d.Rung)
		if !ok {
			return nil, fray.Errorf(fray.EINVALID, "distance %s–%s: %q must be Close, Short, Medium, Long or Extreme", d.A, d.B, d.Rung)
		}
		if l.gap(d.A, d.B) != nil {
			return nil, fray.Errorf(fray.EINVALID, "distance %s–%s is given twice", d.A, d.B)
		}
		l.Gaps = append(l.Gaps, Gap{A: d.A, B: d.B, Moves: rungs[r].Moves})
	}
	for i, a := range sides {
		for _, b := range sides[i+1:] {
			if l.gap(a.ID, b.ID) == nil {
				l.Gaps = append(l.Gaps, Gap{A: a.ID, B: b.ID, Moves: rungs[DefaultRung].Moves})
			}
		}
	}
	return l, nil
}

func (l *Ladder) gap(a, b string) *Gap {
	for i := range l.Gaps {
		g := &l.Gaps[i]
		if (g.A == a && g.B == b) || (g.A == b && g.B == a) {
			return g
		}
	}
	return nil
}

func (l *Ladder) setGap(a, b string, moves int) {
	if g := l.gap(a, b); g != nil {
		g.Moves = moves
		return
	}
	l.Gaps = append(l.Gaps, Gap{A: a, B: b, Moves: moves})
}

// moves is how many movement actions separate two combatants on the
// ladder: 0 when engaged or Close.
func (s *State) moves(a, b string) int {
	if s.inMelee(a, b) {
		return 0
	}
	sa, sb := s.side(a), s.side(b)
	if sa == sb {
		return 0
	}
	g := s.Ladder.gap(sa, sb)
	if g == nil {
		return rungs[DefaultRung].Moves
	}
	return max(0, g.Moves-s.Fighters[a].Ahead[sb]-s.Fighters[b].Ahead[sa])
}

// rung is the distance category between two combatants on the ladder.
func (s *State) rung(a, b string) int { return rungOf(s.moves(a, b)) }

// inMelee reports whether a and b are engaged: next to each other on the
// grid, paired on the ladder.
func (s *State) inMelee(a, b string) bool {
	if a == b {
		return false
	}
	if s.Model == board.Grid {
		ca, cb := s.Combatant(a), s.Combatant(b)
		return ca != nil && cb != nil && !ca.Out && !cb.Out && s.adjacent(a, b)
	}
	return slices.ContainsFunc(s.Melee, func(p Pair) bool { return p.has(a) && p.has(b) })
}

// engagedEnemies are the fighting enemies in melee with id: those who
// get a free attack when it withdraws.
func (s *State) engagedEnemies(id string) []string {
	return s.ids(func(x string) bool { return s.enemies(id, x) && s.fighting(x) && s.inMelee(id, x) })
}

// engaged reports whether id is in melee with any fighting enemy.
func (s *State) engaged(id string) bool { return len(s.engagedEnemies(id)) > 0 }

// startMelees engages the members of each starting melee group with
// their enemies in it (ladder); on the grid, neighbours are engaged and
// groups are refused.
func (s *State) startMelees(groups map[string][]string) error {
	if len(groups) == 0 {
		return nil
	}
	if s.Model == board.Grid {
		return fray.Errorf(fray.EINVALID, "on the grid, melees are whoever stands next to each other: starts take no group")
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		members := groups[k]
		paired := false
		for i, a := range members {
			for _, b := range members[i+1:] {
				if s.enemies(a, b) {
					s.Melee = append(s.Melee, Pair{A: a, B: b})
					paired = true
				}
			}
		}
		if !paired {
			return fray.Errorf(fray.EINVALID, "melee group %q has no enemies in it", k)
		}
	}
	for _, c := range s.Combatants {
		if n := len(s.attackersAround(c.ID)); n > 4 {
			return fray.Errorf(fray.EINVALID, "%s starts surrounded by %d: at most four may engage one creature", c.Name, n)
		}
	}
	return nil
}

// rangedReach says whether a may shoot b on the ladder and the category's
// modifiers: Close only in the first round by a shooter who acts before
// the target.
func (s *State) ladderShot(a, b string) (int, error) {
	r := s.rung(a, b)
	if r == 0 {
		ia, ib := slices.Index(s.Order, a), slices.Index(s.Order, b)
		if s.Round != 1 || ia < 0 || (ib >= 0 && ib < ia) {
			return r, fmt.Errorf("%s is at Close distance: a ranged attack is possible only in the first round, by a shooter who acts first", s.NameOf(b))
		}
	}
	return r, nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func movesWords(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}
