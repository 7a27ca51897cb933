package d20tactical

import (
	"cmp"
	"slices"
	"sync"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// Tactic implements engine.Tactician: how a simulation plays a
// d20-tactical fight (docs/prep.md, "Encounter odds").
//
//   - A fighter with a ranged weapon uses cover: it stays down when prone,
//     and crouches when a low obstacle between it and its nearest opponent
//     then covers it. One without stands up; one that dropped its weapons
//     picks them up (a move action each).
//   - With its standard action left it attacks, from where it stands, the
//     opponent and with the weapon that take away the most threat: the
//     target's threat times the weapon's average damage (single shots, no
//     aimed shots), a shot weighed down by the target's cover (a target in
//     full cover is not shot at).
//   - A jammed gun is cleared, one with an empty magazine reloaded.
//   - Otherwise it moves: a fighter with a loaded ranged weapon takes one
//     move action toward the nearest opponent, keeping its standard action
//     for the shot; one that fights in melee goes as far as it must to
//     stand next to one, double move if need be — nearer counted the way
//     round walls. Among equal squares it picks one that provokes no
//     attack of opportunity, then the shortest way. A fighter that has
//     attacked stays where it is.
//   - Then it ends its turn.
//
// The most threatening opponent is the one that deals the most damage
// for the hit points it has left (its best weapon's average over its hit
// points). Decisions take their defaults — take every attack of
// opportunity, double a critical's damage — but a Life Point is spent
// against massive damage.
func (r Ruleset) Tactic(s engine.State, o *engine.Offer) (engine.Command, bool) {
	st, ok := r.StateOf(s)
	if !ok {
		return engine.Command{}, false
	}
	if len(o.Pending) > 0 {
		for _, d := range o.Pending {
			if d.Kind == DecMassive && d.HasOption("spend") {
				return engine.Answer(d, "spend", nil), true
			}
		}
		return engine.Command{}, false
	}
	for _, id := range st.Acting {
		if st.able(id) {
			return st.turnTactic(st.Fighters[id], o)
		}
	}
	return engine.Command{}, false
}

func (st *State) turnTactic(f *Fighter, o *engine.Offer) (engine.Command, bool) {
	id := f.ID
	b := f.Budget
	try := func(kind string, args map[string]any) (engine.Command, bool) {
		return engine.NewCommand(kind, id, args), !o.Refused(kind, id)
	}
	shooter := isShooter(f)
	if b.Move && !b.Single {
		if f.Posture == Prone && !shooter {
			if c, ok := try(CmdPosture, map[string]any{"to": Standing}); ok {
				return c, true
			}
		}
		if f.Dropped {
			if c, ok := try(CmdPickUp, nil); ok {
				return c, true
			}
		}
	}
	if shooter && f.Posture == Standing && b.Standard && st.crouchCovers(f) {
		if c, ok := try(CmdPosture, map[string]any{"to": Crouched}); ok {
			return c, true
		}
	}
	if b.Standard && !o.Refused(CmdAttack, id) {
		if t, w := st.bestAttack(f); t != "" {
			return engine.NewCommand(CmdAttack, id, map[string]any{"target": t, "weapon": w}), true
		}
	}
	if b.Move || b.Standard {
		for _, w := range f.Weapons {
			if w.Jammed && canHandle(st, f, CmdClearJam, w.ID) == nil {
				if c, ok := try(CmdClearJam, map[string]any{"weapon": w.ID}); ok {
					return c, true
				}
			}
			if w.Ranged() && w.Clip > 0 && w.Ammo == 0 && canHandle(st, f, CmdReload, w.ID) == nil {
				if c, ok := try(CmdReload, map[string]any{"weapon": w.ID}); ok {
					return c, true
				}
			}
		}
	}
	if b.Standard && canMove(st, f) == nil {
		// A guess first, without a route search: the rules search the
		// route anyway, and refuse a square out of reach.
		if to, ok := st.guess(f); ok {
			if c := engine.NewCommand(CmdMove, id, map[string]any{"to": to.String()}); !o.Tried(c) {
				return c, true
			}
		}
		if to, ok := st.approach(f); ok {
			if c := engine.NewCommand(CmdMove, id, map[string]any{"to": to.String()}); !o.Tried(c) {
				return c, true
			}
		}
	}
	return try(CmdEndTurn, nil)
}

// bestAttack is the opponent and weapon f can attack with now that
// remove the most threat: the opponent's threat times the weapon's
// average damage, weighed down for a shot by the target's cover (+1
// Defense a tenth of a hit's chance; full cover, none). "" when nothing
// is worth an attack.
func (st *State) bestAttack(f *Fighter) (target, weapon string) {
	weapons := append(slices.Clone(f.Weapons), f.Weapon(unarmed.ID))
	best := 0.0
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if !st.opponents(f.ID, c.ID) || !st.able(c.ID) {
			continue
		}
		threat := st.threat(t)
		for _, w := range weapons {
			if w == nil || w.Ruined || w.Jammed || w.Clip > 0 && w.Ammo == 0 {
				continue
			}
			score := threat * average(w)
			if w.Ranged() {
				cover, _ := coverFor(st, f, t, nil)
				score *= float64(10-cover.Bonus()) / 10
			}
			if score <= best || checkAttack(st, f, t, w, attackSpec{Attacker: f.ID, Target: t.ID, Weapon: w.ID}) != nil {
				continue
			}
			target, weapon, best = t.ID, w.ID, score
		}
	}
	return target, weapon
}

// crouchCovers reports whether crouching would give f more cover against
// the opponent nearest to it than standing does.
func (st *State) crouchCovers(f *Fighter) bool {
	if !slices.ContainsFunc(postureChoices(st, f), func(c engine.Choice) bool { return c.Value == Crouched }) {
		return false
	}
	foes := st.foeCells(f)
	if len(foes) == 0 {
		return false
	}
	at := cell(f)
	near := slices.MinFunc(foes, func(a, b Cell) int {
		return cmp.Or(cmp.Compare(distance(&st.Base, at, a), distance(&st.Base, at, b)), cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X))
	})
	if distance(&st.Base, at, near) <= Square {
		return false
	}
	_, standing := st.Grid.obstacleCover(near, at, height(Standing))
	_, crouched := st.Grid.obstacleCover(near, at, height(Crouched))
	return crouched > standing
}

// threat is how much damage t deals for the hit points it has left.
func (st *State) threat(t *Fighter) float64 {
	best := average(t.Weapon(unarmed.ID))
	for _, w := range t.Weapons {
		if !w.Ruined {
			best = max(best, average(w))
		}
	}
	return best / float64(max(t.HP, 1))
}

// average is a weapon's average damage.
func average(w *Weapon) float64 {
	if w == nil {
		return 0
	}
	if a, ok := averages.Load(w.Damage); ok {
		return a.(float64)
	}
	a := 0.0
	if d, err := ParseDice(w.Damage); err == nil {
		a = float64(d.N)*float64(d.Sides+1)/2 + float64(d.Bonus)
	}
	averages.Store(w.Damage, a)
	return a
}

// averages holds the average of each damage expression seen: the tactics
// weigh every attack of every turn by it, and parsing it was a tenth of a
// simulation's time.
var averages sync.Map // string → float64

// approach picks where f moves: next to an opponent for a fighter in
// melee, a move action nearer the nearest opponent for one with a loaded
// ranged weapon — nearer by the way round walls (field) — from every
// route the rules offer; false when none brings it nearer.
func (st *State) approach(f *Fighter) (Cell, bool) {
	field := st.field(f)
	if field.steps == nil {
		return Cell{}, false
	}
	shooter := isShooter(f)
	var routes []Route
	for _, r := range moveRoutes(st, f) {
		if shooter && f.Speed() > 0 && f.Budget.usesStandard(f.Speed(), r.Feet) {
			continue
		}
		routes = append(routes, r)
	}
	if len(routes) == 0 {
		return Cell{}, false
	}
	best := slices.MinFunc(routes, func(a, b Route) int {
		return cmp.Or(cmp.Compare(field.at(a.To), field.at(b.To)), cmp.Compare(a.Risky, b.Risky), cmp.Compare(a.Feet, b.Feet),
			cmp.Compare(a.To.Y, b.To.Y), cmp.Compare(a.To.X, b.To.X))
	})
	if field.at(best.To) >= field.at(cell(f)) {
		return Cell{}, false
	}
	return best.To, true
}

// guess is where approach would most likely take f, found without the
// rules' route search: down the field, square by square at the rules'
// cost of each step, as far as f's movement (one move action for a
// shooter) goes or until it stands next to an opponent; the last free
// square on the way. The rules refuse it when the way is blocked after
// all, and approach searches properly.
func (st *State) guess(f *Fighter) (Cell, bool) {
	field := st.field(f)
	if field.steps == nil || f.Speed() == 0 {
		return Cell{}, false
	}
	feet := f.Budget.feetAvailable(f.Speed())
	if isShooter(f) {
		feet = min(feet, f.Budget.Feet+f.Speed())
	}
	mult := moveMultiplier(st, f)
	at, spent, diagonals := cell(f), 0, 0
	best, found := Cell{}, false
	for field.at(at) > 1 {
		next, ok := field.down(at)
		if !ok {
			break
		}
		cost, diag := stepCost(st, at, next, diagonals, mult)
		if spent+cost > feet {
			break
		}
		if o := st.occupant(next, f.ID); o != nil && st.opponents(o.ID, f.ID) {
			break
		}
		at, spent, diagonals = next, spent+cost, diag
		if st.occupant(at, f.ID) == nil {
			best, found = at, true
		}
	}
	return best, found
}

// stepField is, for every square, the steps to the nearest opponent
// still standing, the way round walls and corners (people are ignored);
// unreachable squares count as far.
type stepField struct {
	width, height int
	steps         []int
	wall          []bool
	walls         *board.Walls // the walls between squares
}

const far = 1 << 20

func (sf stepField) at(c Cell) int { return sf.steps[c.Y*sf.width+c.X] }

func (sf stepField) inside(c Cell) bool {
	return c.X >= 0 && c.Y >= 0 && c.X < sf.width && c.Y < sf.height
}

// cornerCut is State.barred on the field's copy of the walls.
func (sf stepField) cornerCut(a, b Cell) bool {
	return a.X != b.X && a.Y != b.Y && (sf.wall[a.Y*sf.width+b.X] || sf.wall[b.Y*sf.width+a.X]) ||
		!sf.walls.Step(a.X, a.Y, b.X, b.Y, board.Strict)
}

// down is the neighbour of c nearest the opponents (the first in the
// order of neighbours among equals), if it is nearer than c.
func (sf stepField) down(c Cell) (Cell, bool) {
	best, bestSteps := Cell{}, sf.at(c)
	for _, d := range neighbours {
		n := Cell{c.X + d.X, c.Y + d.Y}
		if !sf.inside(n) || sf.cornerCut(c, n) {
			continue
		}
		if s := sf.at(n); s < bestSteps {
			best, bestSteps = n, s
		}
	}
	return best, bestSteps < sf.at(c)
}

// field measures the way to f's opponents still standing (breadth first
// from their squares, on a copy of the grid's walls); steps is nil when
// none stands.
func (st *State) field(f *Fighter) stepField {
	g := &st.Grid
	n := g.Width * g.Height
	sf := stepField{width: g.Width, height: g.Height, steps: make([]int, n), wall: make([]bool, n), walls: st.Walls}
	blocked := make([]bool, n)
	for _, t := range g.Cells {
		if g.inside(t.X, t.Y) {
			sf.wall[t.Y*g.Width+t.X] = t.Wall
			blocked[t.Y*g.Width+t.X] = !t.walkable()
		}
	}
	for i := range sf.steps {
		sf.steps[i] = far
	}
	// Every square joins the queue once at most: sized for all of them,
	// it never grows.
	queue := make([]Cell, 0, n)
	for _, c := range st.Combatants {
		if st.opponents(f.ID, c.ID) && st.able(c.ID) {
			at := cell(st.Fighters[c.ID])
			if sf.inside(at) && sf.at(at) != 0 {
				sf.steps[at.Y*g.Width+at.X] = 0
				queue = append(queue, at)
			}
		}
	}
	if len(queue) == 0 {
		return stepField{}
	}
	for head := 0; head < len(queue); head++ {
		c := queue[head]
		for _, d := range neighbours {
			nc := Cell{c.X + d.X, c.Y + d.Y}
			if !sf.inside(nc) || blocked[nc.Y*g.Width+nc.X] || sf.cornerCut(c, nc) || sf.at(nc) != far {
				continue
			}
			sf.steps[nc.Y*g.Width+nc.X] = sf.at(c) + 1
			queue = append(queue, nc)
		}
	}
	return sf
}

// isShooter reports whether f has a ranged weapon it can fire (or clear).
func isShooter(f *Fighter) bool {
	return slices.ContainsFunc(f.Weapons, func(w *Weapon) bool {
		return w.Ranged() && !w.Ruined && (w.Clip == 0 || w.Ammo > 0 || w.Jammed)
	})
}

// foeCells are where f's opponents still standing stand.
func (st *State) foeCells(f *Fighter) []Cell {
	var out []Cell
	for _, c := range st.Combatants {
		if st.opponents(f.ID, c.ID) && st.able(c.ID) {
			out = append(out, cell(st.Fighters[c.ID]))
		}
	}
	return out
}
