package d20tactical

import (
	"cmp"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
)

// Tactic implements engine.Tactician: how a simulation plays a
// d20-tactical fight (docs/prep.md, "Encounter odds").
//
//   - A fighter lying prone stands up, and one that dropped its weapons
//     picks them up (a move action each).
//   - With its standard action left it attacks the most threatening
//     opponent it can hit from where it stands, with the weapon that deals
//     the most damage on average (single shots, no aimed shots).
//   - A jammed gun is cleared, one with an empty magazine reloaded.
//   - Otherwise it moves: a fighter with a loaded ranged weapon takes one
//     move action toward the nearest opponent, keeping its standard action
//     for the shot; one that fights in melee goes as far as it must to
//     stand next to one, double move if need be. Among equal squares it
//     picks one that provokes no attack of opportunity, then the shortest
//     way. A fighter that has attacked stays where it is.
//   - Then it ends its turn.
//
// The most threatening opponent is the one that deals the most damage
// for the hit points it has left (its best weapon's average over its hit
// points). Decisions take their defaults — take every attack of
// opportunity, double a critical's damage — but a Life Point is spent
// against massive damage.
func (Ruleset) Tactic(s engine.State, o *engine.Offer) (engine.Command, bool) {
	st := s.(*State)
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
	if b.Move && !b.Single {
		if f.Posture == Prone {
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
	if b.Standard && canMove(st, f) == nil && !o.Refused(CmdMove, id) {
		if to, ok := st.approach(f); ok {
			return engine.NewCommand(CmdMove, id, map[string]any{"to": to.String()}), true
		}
	}
	return try(CmdEndTurn, nil)
}

// bestAttack is the most threatening opponent f can attack now and the
// weapon that deals it the most damage on average.
func (st *State) bestAttack(f *Fighter) (target, weapon string) {
	weapons := append(slices.Clone(f.Weapons), f.Weapon(unarmed.ID))
	slices.SortStableFunc(weapons, func(a, b *Weapon) int { return cmp.Compare(average(b), average(a)) })
	bestScore := -1.0
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if !st.opponents(f.ID, c.ID) || !st.able(c.ID) {
			continue
		}
		score := st.threat(t)
		if score <= bestScore {
			continue
		}
		for _, w := range weapons {
			if w == nil || w.Ruined || w.Jammed || w.Clip > 0 && w.Ammo == 0 {
				continue
			}
			if checkAttack(st, f, t, w, attackSpec{Attacker: f.ID, Target: t.ID, Weapon: w.ID}) == nil {
				target, weapon, bestScore = t.ID, w.ID, score
				break
			}
		}
	}
	return target, weapon
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
	d, err := ParseDice(w.Damage)
	if err != nil {
		return 0
	}
	return float64(d.N)*float64(d.Sides+1)/2 + float64(d.Bonus)
}

// approach picks where f moves: next to an opponent for a fighter in
// melee, a move action nearer the nearest opponent for one with a loaded
// ranged weapon; false when no square brings it nearer.
func (st *State) approach(f *Fighter) (Cell, bool) {
	var foes []Cell
	for _, c := range st.Combatants {
		if st.opponents(f.ID, c.ID) && st.able(c.ID) {
			foes = append(foes, cell(st.Fighters[c.ID]))
		}
	}
	if len(foes) == 0 {
		return Cell{}, false
	}
	nearest := func(at Cell) int {
		d := -1
		for _, c := range foes {
			if n := distance(&st.Base, at, c); d < 0 || n < d {
				d = n
			}
		}
		return d
	}
	shooter := slices.ContainsFunc(f.Weapons, func(w *Weapon) bool {
		return w.Ranged() && !w.Ruined && (w.Clip == 0 || w.Ammo > 0 || w.Jammed)
	})
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
		return cmp.Or(cmp.Compare(nearest(a.To), nearest(b.To)), cmp.Compare(a.Risky, b.Risky), cmp.Compare(a.Feet, b.Feet),
			cmp.Compare(a.To.Y, b.To.Y), cmp.Compare(a.To.X, b.To.X))
	})
	if nearest(best.To) >= nearest(cell(f)) {
		return Cell{}, false
	}
	return best.To, true
}
