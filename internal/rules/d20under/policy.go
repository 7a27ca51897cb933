package d20under

import (
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// Tactic implements engine.Tactician: how a simulation plays a d20-under
// fight (docs/prep.md, "Encounter odds").
//
//   - Everyone declares Ready before a round, and the GM begins it; no one
//     tries a surprise. An ambusher strikes the most threatening enemy it
//     may.
//   - On its turn a dying character makes its death test, one caught in a
//     trap breaks free, a prone one stands up.
//   - With the combat action left it attacks the most threatening enemy
//     still standing in melee reach, with the weapon in hand; or, with a
//     ranged weapon ready and no enemy engaged, shoots the most
//     threatening one in sight.
//   - With movement left and no enemy engaged it engages the most
//     threatening enemy one movement action reaches; failing that, on the
//     grid it moves to the square nearest its nearest enemy the way round
//     walls (avoiding traps its side knows of), and on the distance
//     categories advances toward that enemy's side. A shooter with someone
//     to shoot stays where it is.
//   - Then it ends its turn.
//
// The most threatening enemy is the one that deals the most damage for
// the Toughness it has left (its weapon's average over its Toughness).
// Decisions take their defaults: make every free attack, take a hit
// rather than pay for a feat, stop before a trap.
func (r Ruleset) Tactic(s engine.State, o *engine.Offer) (engine.Command, bool) {
	st, ok := r.StateOf(s)
	if !ok {
		return engine.Command{}, false
	}
	if len(o.Pending) > 0 {
		return engine.Command{}, false
	}
	switch st.Phase {
	case PhaseDeclare:
		for _, id := range st.Acting {
			if f := st.Fighters[id]; f != nil && !f.Ready && !o.Refused(CmdDeclared, id) {
				return engine.NewCommand(CmdDeclared, id, nil), true
			}
		}
		return engine.NewCommand(GMBegin, "", nil), true
	case PhaseSurprise:
		for _, id := range st.Acting {
			f := st.Fighters[id]
			if f == nil || o.Refused(CmdSurprisePass, id) {
				continue
			}
			if t := st.mostThreatening(st.choiceIDs(st.surpriseTargets(f, engine.GMViewer()))); t != "" && !o.Refused(CmdSurpriseHit, id) {
				return engine.NewCommand(CmdSurpriseHit, id, map[string]any{"target": t}), true
			}
			return engine.NewCommand(CmdSurprisePass, id, nil), true
		}
		return engine.NewCommand(GMEndSurpise, "", nil), true
	}
	id := st.Current()
	f := st.Fighters[id]
	if f == nil {
		return engine.Command{}, false
	}
	try := func(kind string, args map[string]any) (engine.Command, bool) {
		return engine.NewCommand(kind, id, args), !o.Refused(kind, id)
	}
	if st.Combatant(id).Down {
		if f.Dying {
			return try(CmdDeathTest, nil)
		}
		return engine.Command{}, false
	}
	if f.Caught != "" && f.Combat {
		if c, ok := try(CmdBreakFree, nil); ok {
			return c, true
		}
	}
	if f.Prone && f.movesLeft() > 0 && f.HeldBy == "" && f.Holding == "" {
		if c, ok := try(CmdStand, nil); ok {
			return c, true
		}
	}
	gm := engine.GMViewer()
	engaged := st.engaged(id)
	inHand := f.weapon()
	if best, ok := f.bestMelee(); ok && engaged && best.ID != inHand.ID && (inHand.kind().Ranged || best.average() > inHand.average()) {
		free := best.kind().Short || f.Level(AbQuickDraw) > 0
		if free || f.Moves > 0 && f.HeldBy == "" && f.Holding == "" {
			if c, ok := try(CmdSwitch, map[string]any{"weapon": best.ID}); ok {
				return c, true
			}
		}
	}
	shooter := inHand.kind().Ranged && f.ready(inHand) == nil
	if f.Combat {
		if t := st.mostThreatening(st.choiceIDs(st.meleeTargets(f, gm))); t != "" {
			if c, ok := try(CmdAttack, map[string]any{"target": t, "weapon": f.meleeWeapons()[0].ID, "aim": "", "clean": ""}); ok {
				return c, true
			}
		}
		if shooter && !engaged && alchemyGate(&f.Sheet, inHand.Type) != gateForbidden {
			if t := st.mostThreatening(st.choiceIDs(st.rangedTargets(f, inHand, gm))); t != "" {
				if c, ok := try(CmdShoot, map[string]any{"target": t, "aim": "", "volley": "", "clean": ""}); ok {
					return c, true
				}
			}
		}
	}
	// A shooter keeps its distance while it has someone to shoot.
	if shooter && st.hasShot(f, inHand) {
		return try(CmdEndTurn, map[string]any{"next": "normal"})
	}
	if !engaged && f.movesLeft() > 0 && st.movable(f) == nil {
		if c, ok := st.approach(f, o); ok {
			return c, true
		}
	}
	return try(CmdEndTurn, map[string]any{"next": "normal"})
}

// approach engages the most threatening enemy f reaches with one movement
// action, or moves it toward the nearest.
func (s *State) approach(f *Fighter, o *engine.Offer) (engine.Command, bool) {
	id := f.ID
	enemies := s.enemiesOf(id)
	if len(enemies) == 0 {
		return engine.Command{}, false
	}
	if s.Model == board.Ladder {
		var near []string
		for _, x := range enemies {
			if m := s.moves(id, x); m <= 1 && len(s.attackersAround(x)) < 4 && (m == 0 || ladderCost(f) <= f.movesLeft()) {
				near = append(near, x)
			}
		}
		if t := s.mostThreatening(near); t != "" && !o.Refused(CmdEngage, id) {
			return engine.NewCommand(CmdEngage, id, map[string]any{"target": t}), true
		}
		nearest := enemies[0]
		for _, x := range enemies {
			if s.moves(id, x) < s.moves(id, nearest) {
				nearest = x
			}
		}
		side := s.side(nearest)
		if s.canStep(f, side, 1) == nil && ladderCost(f) <= f.movesLeft() && !o.Refused(CmdAdvance, id) {
			return engine.NewCommand(CmdAdvance, id, map[string]any{"side": side}), true
		}
		return engine.Command{}, false
	}
	// Engage whom a movement action may reach as the crow flies: the
	// rules find the route, or refuse, and then the fighter moves.
	var near []string
	for _, x := range enemies {
		if g := s.Fighters[x]; chebyshev(f.X, f.Y, g.X, g.Y) <= s.gridSquares(f)+1 {
			near = append(near, x)
		}
	}
	if t := s.mostThreatening(near); t != "" && !o.Refused(CmdEngage, id) {
		return engine.NewCommand(CmdEngage, id, map[string]any{"target": t}), true
	}
	// Then a guess down the step field, without the rules' route search;
	// the search only when the rules refused the guess.
	field := s.field(f)
	if to, ok := s.guess(f, field); ok {
		if c := engine.NewCommand(CmdMove, id, map[string]any{"to": to.String(), "actions": 1}); !o.Tried(c) {
			return c, true
		}
	}
	here := Cell{f.X, f.Y}
	best, found := here, false
	for c := range s.reachable(f, s.gridSquares(f)) {
		if t := s.trapAt(c); t != nil && t.known(s.side(id)) {
			continue
		}
		// The square nearest the enemies the way round walls, the first by
		// row and column among equals (the map's order is random).
		if d, bd := field.at(c), field.at(best); d < bd || d == bd && found && (c.Y < best.Y || c.Y == best.Y && c.X < best.X) {
			best, found = c, true
		}
	}
	if !found || field.at(best) >= field.at(here) {
		return engine.Command{}, false
	}
	if c := engine.NewCommand(CmdMove, id, map[string]any{"to": best.String(), "actions": 1}); !o.Tried(c) {
		return c, true
	}
	return engine.Command{}, false
}

// guess is where f's movement action most likely takes it toward its
// enemies, found without the rules' route search: down the step field,
// square by square at the rules' cost (difficult ground two), as far as
// one movement action goes or until it stands next to an enemy, stopping
// before a trap its side knows of; the last free square on the way.
func (s *State) guess(f *Fighter, field stepField) (Cell, bool) {
	if field.steps == nil {
		return Cell{}, false
	}
	at, left := Cell{f.X, f.Y}, s.gridSquares(f)
	best, found := Cell{}, false
	for field.at(at) > 1 {
		next, ok := field.down(at)
		if !ok {
			break
		}
		cost := s.Grid.cost(next.X, next.Y)
		if cost > left {
			break
		}
		if id := s.at(next.X, next.Y); id != "" && s.enemies(f.ID, id) {
			break
		}
		if t := s.trapAt(next); t != nil && t.known(s.side(f.ID)) {
			break
		}
		at, left = next, left-cost
		if s.at(at.X, at.Y) == "" {
			best, found = at, true
		}
	}
	return best, found
}

// stepField is, for every square, the steps to the nearest enemy still
// standing, the way round walls (people are ignored); unreachable squares
// count as far.
type stepField struct {
	width, height int
	steps         []int
	walls         *board.Walls // the walls between squares
}

const far = 1 << 20

func (sf stepField) at(c Cell) int {
	if c.X < 0 || c.Y < 0 || c.X >= sf.width || c.Y >= sf.height {
		return far
	}
	return sf.steps[c.Y*sf.width+c.X]
}

// down is the neighbour of c nearest the enemies (the first in the order
// of neighbours among equals), if it is nearer than c.
func (sf stepField) down(c Cell) (Cell, bool) {
	best, bestSteps := Cell{}, sf.at(c)
	for _, d := range neighbours {
		n := Cell{c.X + d.X, c.Y + d.Y}
		if !sf.walls.Step(c.X, c.Y, n.X, n.Y, board.Loose) {
			continue
		}
		if s := sf.at(n); s < bestSteps {
			best, bestSteps = n, s
		}
	}
	return best, bestSteps < sf.at(c)
}

// field measures the way to f's enemies still standing (breadth first from
// their squares, on a copy of the grid's walls); steps is nil when none
// stands.
func (s *State) field(f *Fighter) stepField {
	g := s.Grid
	n := g.Width * g.Height
	sf := stepField{width: g.Width, height: g.Height, steps: make([]int, n), walls: s.Walls}
	wall := make([]bool, n)
	for _, c := range g.Cells {
		if g.inside(c.X, c.Y) && c.Terrain == TerrainWall {
			wall[c.Y*g.Width+c.X] = true
		}
	}
	for i := range sf.steps {
		sf.steps[i] = far
	}
	var queue []Cell
	for _, x := range s.enemiesOf(f.ID) {
		e := s.Fighters[x]
		if g.inside(e.X, e.Y) && sf.at(Cell{e.X, e.Y}) != 0 {
			sf.steps[e.Y*g.Width+e.X] = 0
			queue = append(queue, Cell{e.X, e.Y})
		}
	}
	if len(queue) == 0 {
		return stepField{}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range neighbours {
			nc := Cell{c.X + d.X, c.Y + d.Y}
			if !g.inside(nc.X, nc.Y) || wall[nc.Y*g.Width+nc.X] || !s.step(c, nc) || sf.at(nc) != far {
				continue
			}
			sf.steps[nc.Y*g.Width+nc.X] = sf.at(c) + 1
			queue = append(queue, nc)
		}
	}
	return sf
}

// mostThreatening is the enemy among ids still standing that deals the
// most damage for the Toughness it has left; "" for none.
func (s *State) mostThreatening(ids []string) string {
	best, bestScore := "", -1.0
	for _, x := range ids {
		if !s.fighting(x) {
			continue
		}
		g := s.Fighters[x]
		score := g.weapon().average() / float64(max(g.Toughness, 1))
		if score > bestScore {
			best, bestScore = x, score
		}
	}
	return best
}

func (s *State) choiceIDs(cs []engine.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Value
	}
	return out
}

// hasShot reports whether f could shoot an enemy standing with w.
func (s *State) hasShot(f *Fighter, w Weapon) bool {
	for _, x := range s.enemiesOf(f.ID) {
		if s.canShoot(f, s.Fighters[x], w, false) == nil {
			return true
		}
	}
	return false
}

// bestMelee is f's melee weapon that deals the most damage on average.
func (f *Fighter) bestMelee() (Weapon, bool) {
	var best Weapon
	found := false
	for _, w := range f.Weapons {
		if !w.kind().Ranged && (!found || w.average() > best.average()) {
			best, found = w, true
		}
	}
	return best, found
}

// average is the weapon's average damage.
func (w Weapon) average() float64 {
	return float64(w.Die+1)/2 + float64(w.Bonus+boolInt(w.Has(QualDeepImpact)))
}
