package d6bands

import (
	"github.com/fray-vtt/fray/internal/engine"
)

// Tactic implements engine.Tactician: how a simulation plays a d6-bands
// fight (docs/prep.md, "Encounter odds").
//
//   - A prone combatant stands up.
//   - In close contact with an opponent it strikes the most threatening
//     one with its best melee weapon.
//   - With a loaded ranged weapon and an opponent to shoot it shoots the
//     most threatening one it has fair odds of hitting (the skill at least
//     the dice's average less 3), or the one it has the best odds of
//     hitting: an aimed shot while two actions are left, a snapshot with
//     one. With poor odds it first moves a band nearer, or into close
//     contact with a target in its square; standing in the open at the
//     start of its turn, it first steps into a neighbouring square with
//     cover no farther from its target, so that the aimed shot keeps the
//     cover.
//   - A weapon that needs reloading is reloaded (no quick loading).
//   - Off the map, or with every opponent at Extreme range, a combatant
//     with a weapon that reaches that far duels the most threatening one.
//   - Otherwise it closes in: into close contact with an opponent in its
//     square, dashing into contact with one a band away, or moving a band
//     toward the nearest opponent (passable squares first); a shooter
//     with no one in sight moves once a turn.
//   - Then it ends its turn.
//
// The most threatening opponent is the one that deals the most damage for
// the blood it has left to lose (its best weapon's average over Blood less
// blood loss). Decisions take their defaults: a die of the Defense Pool
// against each attack, the best skill in a duel, the stray shot as the die
// fell.
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
	if f == nil || !st.standing(id) || f.Actions <= 0 {
		return engine.Command{}, false
	}
	try := func(kind string, args map[string]any) (engine.Command, bool) {
		return engine.NewCommand(kind, id, args), !o.Refused(kind, id)
	}
	b := &st.Base
	if f.Prone {
		if f.Actions >= b.OptionInt(OptRiseActions, 1) {
			if c, ok := try(CmdStand, nil); ok {
				return c, true
			}
		}
		return try(CmdEndTurn, nil)
	}
	var inContactFoes, foes []string
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if !st.opponents(id, c.ID) || !st.standing(c.ID) || t.Unseen[id] > 0 {
			continue
		}
		foes = append(foes, c.ID)
		if inContact(f, t) {
			inContactFoes = append(inContactFoes, c.ID)
		}
	}
	if t := st.mostThreatening(inContactFoes); t != "" && f.Actions >= b.OptionInt(OptMeleeActions, 1) {
		if c, ok := try(CmdStrike, map[string]any{"target": t, "weapon": bestMelee(f).ID, "called": false}); ok {
			return c, true
		}
	}
	shooter := false
	if t, w, odds := st.bestShot(f, foes); t != "" {
		shooter = true
		if odds < poorOdds && len(inContactFoes) == 0 {
			// Into close contact with a target in the same square (a
			// shot there is 3D), else a band nearer.
			if tf := st.Fighters[t]; !tf.Off && !f.Off && tf.at() == f.at() && !o.Refused(CmdMove, id) {
				return engine.NewCommand(CmdMove, id, map[string]any{"to": "contact:" + t}), true
			}
			if f.Moves == 0 {
				if c, ok := st.closeIn(f, foes, true, o); ok {
					return c, true
				}
			}
		}
		if f.Actions >= 3 && f.Moves == 0 && len(inContactFoes) == 0 && st.cell(f.X, f.Y).Cover == 0 {
			if p, ok := st.coverNear(f, st.Fighters[t]); ok && !o.Refused(CmdMove, id) {
				return engine.NewCommand(CmdMove, id, map[string]any{"to": p.String()}), true
			}
		}
		mode := ModeSnapshot
		if f.Actions >= 2 {
			mode = ModeAimed
		}
		if c, ok := try(CmdShoot, map[string]any{"target": t, "weapon": w, "mode": mode, "called": false}); ok {
			return c, true
		}
	}
	for i := range f.Weapons {
		if w := &f.Weapons[i]; w.Ranged() && canReload(st, f, w) == nil && len(inContactFoes) == 0 {
			shooter = true
			if c, ok := try(CmdReload, map[string]any{"weapon": w.ID, "quick": false}); ok {
				return c, true
			}
		}
	}
	if f.Actions >= 2 && !o.Refused(CmdDuel, id) {
		for i := range f.Weapons {
			w := &f.Weapons[i]
			if w.Extreme() == 0 || !loaded(f, w) {
				continue
			}
			var far []string
			for _, x := range foes {
				if canDuel(st, f, st.Fighters[x], w) == nil {
					far = append(far, x)
				}
			}
			if t := st.mostThreatening(far); t != "" {
				return engine.NewCommand(CmdDuel, id, map[string]any{"target": t, "weapon": w.ID}), true
			}
		}
	}
	if len(inContactFoes) == 0 && !(shooter && f.Moves > 0) {
		if c, ok := st.closeIn(f, foes, shooter, o); ok {
			return c, true
		}
	}
	return try(CmdEndTurn, nil)
}

// closeIn moves f toward its opponents: into close contact when one
// stands in its square (a shooter keeps its distance), a dash into
// contact with one a band away, else a band toward the nearest.
func (st *State) closeIn(f *Fighter, foes []string, shooter bool, o *engine.Offer) (engine.Command, bool) {
	id := f.ID
	if len(foes) == 0 {
		return engine.Command{}, false
	}
	move := func(kind, to string) (engine.Command, bool) {
		return engine.NewCommand(kind, id, map[string]any{"to": to}), !o.Refused(kind, id)
	}
	if !f.Off && !shooter {
		var here, near []string
		for _, x := range foes {
			t := st.Fighters[x]
			if t.Off {
				continue
			}
			switch st.distance(f.at(), t.at()) {
			case 0:
				here = append(here, x)
			case 1:
				near = append(near, x)
			}
		}
		if t := st.mostThreatening(here); t != "" {
			if c, ok := move(CmdMove, "contact:"+t); ok {
				return c, true
			}
		}
		if t := st.mostThreatening(near); t != "" && f.Actions >= 2 {
			if _, hard := impassable(st, f, st.Fighters[t].at()); !hard && st.cell(st.Fighters[t].X, st.Fighters[t].Y).Impassable == 0 {
				if c, ok := move(CmdDash, "contact:"+t); ok {
					return c, true
				}
			}
		}
	}
	gap := func(p point) int {
		d := -1
		for _, x := range foes {
			if t := st.Fighters[x]; !t.Off {
				if n := st.distance(p, t.at()); d < 0 || n < d {
					d = n
				}
			}
		}
		return d
	}
	var options []point
	if f.Off {
		for y := 0; y < st.Height; y++ {
			for x := 0; x < st.Width; x++ {
				if st.onEdge(x, y) {
					options = append(options, point{x, y})
				}
			}
		}
	} else {
		options = st.ways(f.at())
	}
	var best point
	bestGap, bestHard, found := 0, 0, false
	for _, p := range options {
		d := gap(p)
		if d < 0 {
			continue
		}
		hard, _ := impassable(st, f, p)
		if hard > 0 && f.Actions < 2 {
			continue
		}
		if !found || d < bestGap || d == bestGap && hard < bestHard {
			best, bestGap, bestHard, found = p, d, hard, true
		}
	}
	if !found || !f.Off && bestGap >= gap(f.at()) {
		return engine.Command{}, false
	}
	return move(CmdMove, best.String())
}

// coverNear is a neighbouring square with cover, passable, no farther from
// t than f stands.
func (st *State) coverNear(f, t *Fighter) (point, bool) {
	if f.Off || t.Off {
		return point{}, false
	}
	now := st.distance(f.at(), t.at())
	best, bestCover := point{}, 0
	for _, p := range st.ways(f.at()) {
		c := st.cell(p.X, p.Y)
		if hard, _ := impassable(st, f, p); hard > 0 || c.Blocks || st.distance(p, t.at()) > now || now <= 1 {
			continue
		}
		if c.Cover > bestCover {
			best, bestCover = p, c.Cover
		}
	}
	return best, bestCover > 0
}

// poorOdds is the margin below which a shooter first moves a band nearer:
// a roll of its dice averages 3.75 a die, so a shot that needs 3 less
// than that average seldom hits.
const poorOdds = -3

// bestShot is the most threatening of foes f can shoot now with fair odds
// (or with the best odds, when none are fair), the weapon, and the odds:
// the skill the aimed shot must stay under less the dice's average.
func (st *State) bestShot(f *Fighter, foes []string) (target, weapon string, odds float64) {
	var fair []string
	via := map[string]string{}
	margin := map[string]float64{}
	for _, x := range foes {
		t := st.Fighters[x]
		for i := range f.Weapons {
			w := &f.Weapons[i]
			if !w.Ranged() || !loaded(f, w) {
				continue
			}
			a, err := planShot(st, f, t, w, true, false)
			if err != nil {
				continue
			}
			value, n := a.Value, a.Dice
			for _, m := range a.Mods {
				if m.Unit == unitDice {
					n += m.Value
				} else {
					value += m.Value
				}
			}
			if m := float64(value) - 3.75*float64(max(n, 1)); via[x] == "" || m > margin[x] {
				via[x], margin[x] = w.ID, m
			}
		}
		if via[x] != "" && margin[x] >= poorOdds {
			fair = append(fair, x)
		}
	}
	if t := st.mostThreatening(fair); t != "" {
		return t, via[t], margin[t]
	}
	for x := range margin {
		if target == "" || margin[x] > odds || margin[x] == odds && x < target {
			target, odds = x, margin[x]
		}
	}
	return target, via[target], odds
}

// mostThreatening is the one of ids that deals the most damage for the
// blood it has left to lose; "" for none.
func (st *State) mostThreatening(ids []string) string {
	best, bestScore := "", -1.0
	for _, x := range ids {
		t := st.Fighters[x]
		dmg := average(Unarmed.Damage)
		for _, w := range t.Weapons {
			dmg = max(dmg, average(w.Damage))
		}
		score := dmg / float64(max(t.Blood-t.BloodLoss, 1))
		if score > bestScore {
			best, bestScore = x, score
		}
	}
	return best
}

// bestMelee is f's melee weapon with the most damage on average.
func bestMelee(f *Fighter) Weapon {
	ws := f.MeleeWeapons()
	best := ws[0]
	for _, w := range ws[1:] {
		if average(w.Damage) > average(best.Damage) {
			best = w
		}
	}
	return best
}

// average is the mean of open-ended dice: a 6 is rerolled as two dice,
// so each die averages (1+…+5 + 2·mean)/6 = 3.75.
func average(d Dice) float64 { return 3.75*float64(d.N) + float64(d.Bonus) }
