package d20tactical

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Aimed shots (seed "Aimed Shots"), melee or ranged: −4 to hit, −6 at the
// head or groin; the front torso counts as a normal shot. Never a critical,
// never at Long or Extreme range, always a single shot. Half damage, but
// the head and the back torso take standard damage (aimed-damage). The
// armour covering the location negates the hit when the target rolls a d20
// above its DC there. A hit that lands has an effect:
//   - head: drops what it holds (pick-up is a move action) and falls prone;
//   - back torso: knocked prone;
//   - groin: only a move-equivalent action next turn;
//   - arm: −1 to hit per arm hit, −1 melee damage with both;
//   - leg: −10 ft of speed per leg, down to 5 ft per full round.
// Arm and leg effects last until healed — the GM's clear-effects — or, with
// effect-duration "ask", as many rounds as the GM says.

// Negated is the data of an armour-negate event.
type Negated struct {
	Fighter  string `json:"fighter"`
	Location string `json:"location"`
	DC       int    `json:"dc"`
	Roll     int    `json:"roll"`
	Negated  bool   `json:"negated"`
}

// negate rolls t's armour against an aimed hit at loc.
func negate(tx *Tx, t *Fighter, loc string) (bool, error) {
	st := tx.State
	if !t.ArmorUseful() {
		return false, nil
	}
	dc := t.Sheet.Armor.DC[armourArea(loc)]
	if dc <= 0 {
		return false, nil
	}
	d := tx.Dice.Die(20)
	ok := d.Total() > dc
	roll := dice.Roll{Label: "Armour at the " + locationName(loc), Who: t.ID, Dice: []dice.Die{d}, Total: d.Total(), Target: dc + 1, Compare: dice.AtLeast, Result: "hit", Outcome: dice.OutcomeOf(ok)}
	text := fmt.Sprintf("%s's armour does not stop the hit to the %s (%d, DC %d).", st.NameOf(t.ID), locationName(loc), d.Total(), dc)
	if ok {
		roll.Result = "negated"
		text = fmt.Sprintf("%s's armour negates the hit to the %s (%d over DC %d).", st.NameOf(t.ID), locationName(loc), d.Total(), dc)
	}
	return ok, tx.Emits(KindNegated, t.ID, text, Negated{Fighter: t.ID, Location: loc, DC: dc, Roll: d.Total(), Negated: ok}, roll)
}

// effectSpec is an aimed shot's effect on its target.
type effectSpec struct {
	Target   string `json:"target"`
	Location string `json:"location"`
	// Until is the last round an arm or leg effect lasts (0: until healed).
	Until int  `json:"until,omitempty"`
	Ruled bool `json:"ruled,omitempty"`
}

// Effect is the data of an effect event.
type Effect struct {
	Fighter  string `json:"fighter"`
	Location string `json:"location"`
	Until    int    `json:"until,omitempty"`
}

func limb(loc string) bool {
	return loc == LocLeftArm || loc == LocRightArm || loc == LocLeftLeg || loc == LocRightLeg
}

func runEffect(tx *Tx, e effectSpec) error {
	st := tx.State
	t := st.Fighters[e.Target]
	if t == nil || st.Combatant(t.ID).Out {
		return nil
	}
	if limb(e.Location) && slices.ContainsFunc(t.Hurt, func(h Hurt) bool { return h.Location == e.Location }) {
		return nil // the same limb twice counts once
	}
	if limb(e.Location) && !e.Ruled && kit.Opt(&st.Base, OptEffectDuration) == AskRounds {
		return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecDuration,
			Prompt:  fmt.Sprintf("How long does the hit to %s's %s hamper it?", st.PublicNameOf(t.ID), locationName(e.Location)),
			Options: []engine.Choice{{Value: "set", Label: "Set"}}, Default: "set",
			Fields: []engine.Field{{Name: "rounds", Label: "Rounds (0: until healed)", Type: engine.FieldNumber, Min: 0, Max: 100, Default: "0"}}},
			Cont{Duration: &e})
	}
	name := st.NameOf(t.ID)
	var text string
	switch e.Location {
	case LocHead:
		text = name + " is hit in the head: drops what they hold and falls prone."
	case LocBackTorso:
		text = name + " is hit in the back and knocked prone."
	case LocGroin:
		text = name + " is hit in the groin: only a move-equivalent action next turn."
	case LocLeftArm, LocRightArm:
		text = fmt.Sprintf("%s's %s is hit: −1 to hit", name, locationName(e.Location))
		if t.hurtCount("arm") == 1 {
			text += ", and −1 melee damage with both arms hit"
		}
		text += "."
	default:
		text = fmt.Sprintf("%s's %s is hit: −10 ft of speed.", name, locationName(e.Location))
	}
	if e.Until > 0 {
		text += fmt.Sprintf(" (until the end of round %d)", e.Until)
	}
	return tx.Emits(KindEffect, t.ID, text, Effect{Fighter: t.ID, Location: e.Location, Until: e.Until})
}
