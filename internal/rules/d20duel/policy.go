package d20duel

import (
	"github.com/fray-vtt/fray/internal/engine"
)

// Tactic implements engine.Tactician: how a simulation plays a d20-duel
// fight (docs/prep.md, "Encounter odds").
//
//   - In the approach a fighter apart picks up a weapon it dropped, then
//     engages the most threatening opponent it may pair with; with none,
//     it shoots the most threatening opponent with its best ranged weapon
//     (a normal aim), or waits.
//   - In the exchange it takes the default stance with its melee weapon
//     that deals the most damage (then the better Strike), a normal aim,
//     and attacks its most threatening opponent.
//   - Every other question takes its default: stay at the distance, no
//     one hurt or distracted.
//
// The most threatening opponent is the one that deals the most damage for
// the wound penalties it can still take before it collapses (its best
// weapon's damage, with its Damage Modifier for melee, over what is left
// of collapse-at).
func (r Ruleset) Tactic(s engine.State, o *engine.Offer) (engine.Command, bool) {
	st, ok := r.StateOf(s)
	if !ok {
		return engine.Command{}, false
	}
	for _, d := range o.Pending {
		if d.Kind == DecStance {
			return st.stance(d), true
		}
	}
	if len(o.Pending) > 0 || st.Label != PhaseApproach || st.Waiting() {
		return engine.Command{}, false
	}
	for _, id := range st.Acting {
		f := st.Fighters[id]
		c := st.Combatant(id)
		if f == nil || c == nil || c.Out {
			continue
		}
		try := func(kind string, args map[string]any) (engine.Command, bool) {
			return engine.NewCommand(kind, id, args), !o.Refused(kind, id)
		}
		if len(f.Dropped) > 0 {
			if c, ok := try(CmdRecover, map[string]any{"weapon": f.Dropped[0]}); ok {
				return c, true
			}
		}
		var pairable, foes []string
		for _, x := range st.Combatants {
			if x.Out || x.Side == c.Side || !x.Fighting() {
				continue
			}
			foes = append(foes, x.ID)
			if st.canPair(id, x.ID) == nil {
				pairable = append(pairable, x.ID)
			}
		}
		if t := st.mostThreatening(pairable); t != "" && !f.Fallen() {
			if c, ok := try(CmdEngage, map[string]any{"target": t}); ok {
				return c, true
			}
		}
		if ranged := f.rangedWeapons(); len(ranged) > 0 {
			if t := st.mostThreatening(foes); t != "" {
				if c, ok := try(CmdShoot, map[string]any{"target": t, "weapon": best(ranged).ID, "aim": AimNormal}); ok {
					return c, true
				}
			}
		}
		if c, ok := try(CmdWait, nil); ok {
			return c, true
		}
	}
	return engine.Command{}, false
}

// stance answers a stance decision: the default stance, the best melee
// weapon, a normal aim, the most threatening opponent.
func (st *State) stance(d engine.Decision) engine.Command {
	f := st.Fighters[d.For]
	values := map[string]any{"weapon": best(f.meleeWeapons()).ID, "aim": AimNormal}
	for _, fd := range d.Fields {
		if fd.Name == "target" {
			var ids []string
			for _, c := range fd.Options {
				ids = append(ids, c.Value)
			}
			values["target"] = st.mostThreatening(ids)
		}
	}
	return engine.Answer(d, StanceDefault, values)
}

// mostThreatening is the one of ids that deals the most damage for the
// wound penalties it can still take; "" for none.
func (st *State) mostThreatening(ids []string) string {
	best, bestScore := "", -1.0
	for _, x := range ids {
		t := st.Fighters[x]
		if t == nil || !st.fighting(x) {
			continue
		}
		dmg := 0
		for _, w := range t.Weapons {
			n := w.Damage * w.attacks()
			if !w.Ranged {
				n += t.DamageMod
			}
			dmg = max(dmg, n)
		}
		limit := st.OptionInt(OptCollapseAt, 6)
		if limit <= 0 {
			limit = 6 // never collapses: rank by the would-kill wound's reach
		}
		left := limit - t.penalty(&st.Base, 0)
		if score := float64(dmg) / float64(max(left, 1)); score > bestScore {
			best, bestScore = x, score
		}
	}
	return best
}

// best is the weapon of ws that deals the most damage, then strikes best.
func best(ws []Weapon) Weapon {
	b := ws[0]
	for _, w := range ws[1:] {
		if w.Damage*w.attacks() > b.Damage*b.attacks() || w.Damage*w.attacks() == b.Damage*b.attacks() && w.Strike > b.Strike {
			b = w
		}
	}
	return b
}
