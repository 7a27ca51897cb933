package swzones

import (
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
)

// Tactic implements engine.Tactician: how a simulation plays an sw-zones
// fight (docs/prep.md, "Encounter odds").
//
//   - A Shaken fighter spends a Benny to recover when it has one; a prone
//     one rises.
//   - In a melee it fights the most threatening opponent there with its
//     best melee weapon, one action a turn (no multi-action penalty).
//   - Unengaged, with a ranged weapon and an opponent in reach, it shoots
//     the most threatening one, taking the target zone's cover as it is.
//   - Otherwise it closes in: it engages the most threatening opponent in
//     its zone, or crosses into the neighbouring zone nearest its nearest
//     opponent — among equals the one with the best cover. A shooter keeps
//     out of melee.
//   - Then it ends its turn.
//
// No area attacks, powers, grapples, pushes, Running or Holds. The most
// threatening opponent is the one that deals the most damage for the
// wounds it can still take (its best weapon's average over the wounds
// left). Decisions take their defaults: soak with a Benny, reroll a failed
// roll with one, let an interruption pass.
func (r Ruleset) Tactic(s engine.State, o *engine.Offer) (engine.Command, bool) {
	st, ok := r.StateOf(s)
	if !ok {
		return engine.Command{}, false
	}
	if len(o.Pending) > 0 {
		return engine.Command{}, false
	}
	id := st.Current()
	f := st.Fighters[id]
	if f == nil || st.Combatant(id).Out {
		return engine.Command{}, false
	}
	try := func(kind string, args map[string]any) (engine.Command, bool) {
		return engine.NewCommand(kind, id, args), !o.Refused(kind, id)
	}
	if f.Shaken && st.bennies(id) > 0 {
		if c, ok := try(CmdUnshake, nil); ok {
			return c, true
		}
	}
	if f.Prone && f.MP >= riseCost(st) {
		if c, ok := try(CmdRise, nil); ok {
			return c, true
		}
	}
	acting := f.Actions == 0
	if acting {
		_, _, err := actionMods(st, f, actionReq{})
		acting = err == nil
	}
	var foes []string
	for _, c := range st.Combatants {
		if st.opponents(id, c.ID) && c.Fighting() {
			foes = append(foes, c.ID)
		}
	}
	if f.Melee != "" {
		var engaged []string
		for _, x := range st.melee(f.Melee).Members {
			if slices.Contains(foes, x) {
				engaged = append(engaged, x)
			}
		}
		if t := st.mostThreatening(engaged); t != "" && acting {
			if c, ok := try(CmdFight, map[string]any{"target": t, "weapon": bestWeapon(st, f, f.MeleeWeapons()).ID, "actions": 1}); ok {
				return c, true
			}
		}
		return try(CmdEndTurn, nil)
	}
	ranged := f.RangedWeapons()
	if len(ranged) > 0 {
		w := bestWeapon(st, f, ranged)
		var inReach []string
		for _, x := range foes {
			if d := st.Distance(f.Zone, st.Fighters[x].Zone); d >= 0 && d <= maxReach(&st.Base, w) {
				inReach = append(inReach, x)
			}
		}
		if t := st.mostThreatening(inReach); t != "" {
			if acting {
				if c, ok := try(CmdShoot, map[string]any{"target": t, "weapon": w.ID, "cover": "", "actions": 1}); ok {
					return c, true
				}
			}
			return try(CmdEndTurn, nil)
		}
	}
	if movable(st, f) == nil && f.MP >= 1 {
		if len(ranged) == 0 {
			var here []string
			for _, x := range foes {
				if canEngage(st, f, st.Fighters[x]) == nil {
					here = append(here, x)
				}
			}
			if t := st.mostThreatening(here); t != "" {
				if c, ok := try(CmdEngage, map[string]any{"target": t}); ok {
					return c, true
				}
			}
		}
		if to := st.stepToward(f, foes); to != "" {
			if c, ok := try(CmdMove, map[string]any{"to": to}); ok {
				return c, true
			}
		}
	}
	return try(CmdEndTurn, nil)
}

// stepToward is the zone next to f's nearest to its nearest opponent (the
// best covered among equals), or "" when none is nearer than f's own.
func (st *State) stepToward(f *Fighter, foes []string) string {
	gap := func(zone string) int {
		d := -1
		for _, x := range foes {
			if n := st.Distance(zone, st.Fighters[x].Zone); n >= 0 && (d < 0 || n < d) {
				d = n
			}
		}
		return d
	}
	now := gap(f.Zone)
	best, bestGap, bestCover := "", now, -1
	for _, z := range st.zone(f.Zone).Adjacent {
		d := gap(z)
		if d < 0 || d > bestGap || d == now {
			continue
		}
		cover := slices.Index(coverLevels, st.zone(z).Cover)
		if d < bestGap || cover > bestCover {
			best, bestGap, bestCover = z, d, cover
		}
	}
	return best
}

// mostThreatening is the one of ids that deals the most damage for the
// wounds it can still take; "" for none.
func (st *State) mostThreatening(ids []string) string {
	best, bestScore := "", -1.0
	for _, x := range ids {
		t := st.Fighters[x]
		dmg := 0.0
		for _, w := range t.Weapons {
			dmg = max(dmg, average(t, w))
		}
		left := 1
		if t.WildCard {
			left = 4 - t.Wounds
		}
		if score := dmg / float64(max(left, 1)); score > bestScore {
			best, bestScore = x, score
		}
	}
	return best
}

// bestWeapon is the one of ws that deals f's most damage on average.
func bestWeapon(st *State, f *Fighter, ws []Weapon) Weapon {
	best := ws[0]
	for _, w := range ws[1:] {
		if average(f, w) > average(f, best) {
			best = w
		}
	}
	return best
}

// average is the damage f deals with w on average (dice that ace average
// a little more than half their sides plus one; that is close enough to
// rank weapons).
func average(f *Fighter, w Weapon) float64 {
	sum := float64(w.Damage.Mod)
	for _, d := range w.Damage.Dice {
		sum += float64(d+1) / 2
	}
	if w.Damage.Str {
		str := f.Trait("strength")
		sum += float64(str.Sides+1)/2 + float64(str.Bonus)
	}
	return sum
}
