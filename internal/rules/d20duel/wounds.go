package d20duel

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Wounds (spec b, "Damage"; seed "Disarm", "Immobilize").
//
// The wound table turns damage into a wound: −1, −2, −3 or one that would
// kill (options wound-light … wound-kill). Wound penalties lower every
// test, Strike and Grapple (and, by default, Guard and Defense). A
// would-kill wound ends the fighter's duel: they are out of the fight.
// So is a fighter whose penalties add up to collapse-at.
//
// Disarm and Immobilize wound a limb. At −3 or worse a Disarm makes the
// target drop what it holds in a hand of the attacker's choice and leaves
// the arm useless until healed; an Immobilize brings the target to the
// ground, unable to stand until healed. A limb wound that would kill
// enforces a crippled Trait instead (it counts as a −3 wound with its
// effect; with limb-would-kill "crippled-out" the fighter is out as well).

// woundFor is the wound damage deals to a fighter aimed at with aim, and
// the crippled Trait a would-kill limb wound leaves ("" for none).
func woundFor(b *engine.Base, damage int, aim string) (*Wound, string) {
	penalty := 0
	switch {
	case damage >= kit.OptInt(b, OptWoundKill):
		penalty = Mortal
	case damage >= kit.OptInt(b, OptWoundGrave):
		penalty = 3
	case damage >= kit.OptInt(b, OptWoundSerious):
		penalty = 2
	case damage >= kit.OptInt(b, OptWoundLight):
		penalty = 1
	default:
		return nil, ""
	}
	w := &Wound{Penalty: penalty, Location: LocBody}
	limb := ""
	switch aim {
	case AimDisarm:
		w.Location, limb = LocArm, "arm"
	case AimImmobilize:
		w.Location, limb = LocLeg, "leg"
	}
	if limb == "" {
		return w, ""
	}
	crippled := ""
	if w.Penalty >= Mortal {
		w.Penalty, w.Effect, crippled = 3, EffectCrippled, "Crippled "+limb
	} else if w.Penalty >= 3 {
		w.Effect = map[string]string{"arm": EffectDisarmed, "leg": EffectFallen}[limb]
	}
	return w, crippled
}

// fallout takes out of the fight whoever the last blows finished: a
// would-kill wound, a crippling one under limb-would-kill "crippled-out",
// or wound penalties adding up to collapse-at. It runs after every
// exchange and every shot, so blows landing together all count.
func fallout(tx *Tx, ids []string) error {
	st := tx.State
	b := tx.Base()
	collapse := kit.OptInt(b, OptCollapseAt)
	for _, id := range ids {
		c, f := st.Combatant(id), st.Fighters[id]
		if c == nil || f == nil || c.Out {
			continue
		}
		reason, text := "", ""
		switch {
		case f.mortal():
			reason, text = "would-kill", fmt.Sprintf("%s takes a wound that would kill: the duel is over for %s.", c.Name, c.Name)
		case kit.Opt(b, OptLimbWouldKill) == LimbCrippledOut && crippledNow(st, f):
			reason, text = "crippled", fmt.Sprintf("%s is crippled and out of the fight.", c.Name)
		case collapse > 0 && f.totalPenalty() >= collapse:
			reason, text = "collapsed", fmt.Sprintf("%s collapses under wounds of −%d and is out of the fight.", c.Name, f.totalPenalty())
		default:
			continue
		}
		if err := tx.TakeOut(id, reason, text); err != nil {
			return err
		}
	}
	// A side left alone ends the fight now: no maneuvers are offered
	// after the last blow (Tx.Run stops once the encounter ended).
	_, err := tx.LastStanding()
	return err
}

// crippledNow reports whether f was crippled in this fight.
func crippledNow(st *State, f *Fighter) bool {
	for _, w := range f.Wounds {
		if w.Effect == EffectCrippled && w.Round > 0 {
			return true
		}
	}
	return false
}
