package d20under

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Hit locations (seed: Hit Locations; spec c17). Aiming high or low (−2)
// rolls a d10 on its column of the table; aiming at a body part (−5) hits
// it. Damage at or above the Pain Threshold on an aimed body part (option
// aim-effects: or any located hit) has the part's effect instead of the
// usual pain: a leg — prone and half movement for the scene; the torso —
// winded, a turn lost; an arm — the item held drops unless a Quick test
// passes, and a second chance to fail the arm's rolls for the scene; the
// head — +1d6 damage and unconscious for 1d4 turns. Armour segments
// (seed 18) protect only the parts they cover.

// Body parts.
const (
	PartRightLeg = "right-leg"
	PartLeftLeg  = "left-leg"
	PartTorso    = "torso"
	PartRightArm = "right-arm"
	PartLeftArm  = "left-arm"
	PartHead     = "head"
)

var bodyParts = []string{PartRightLeg, PartLeftLeg, PartTorso, PartRightArm, PartLeftArm, PartHead}

// Aims.
const (
	AimHigh = "high"
	AimLow  = "low"
)

// highTable, lowTable and partTable map a d10 (index 1–10) to a body part:
// Aim High, Aim Low and the body-part table's own d10 column. The seed's
// row "1 Right Left" is read as the right leg [I] (option table-row-one).
var (
	highTable = [11]string{"", PartRightLeg, PartLeftLeg, PartTorso, PartTorso, PartRightArm, PartRightArm, PartLeftArm, PartLeftArm, PartHead, PartHead}
	lowTable  = [11]string{"", PartRightLeg, PartRightLeg, PartLeftLeg, PartLeftLeg, PartTorso, PartTorso, PartTorso, PartRightArm, PartLeftArm, PartHead}
	partTable = [11]string{"", PartRightLeg, PartLeftLeg, PartTorso, PartTorso, PartTorso, PartRightArm, PartRightArm, PartLeftArm, PartLeftArm, PartHead}
)

func partWords(part string) string {
	if part == "" {
		return "body"
	}
	return strings.ReplaceAll(part, "-", " ")
}

// locate finds where a hit landed: the part aimed at, a d10 for an aim
// high or low, or (option hit-locations) a d10 on the body-part column.
func locate(tx *Tx, h *hitCtx) error {
	st := tx.State
	var table *[11]string
	what := ""
	switch {
	case h.Aim == AimHigh:
		table, what = &highTable, "Aim high"
	case h.Aim == AimLow:
		table, what = &lowTable, "Aim low"
	case h.Aim != "":
		h.Location, h.Effects = h.Aim, true
		return nil
	case kit.Opt(&st.Base, OptHitLocations) == LocationsEvery && h.Mode != ModeQuake:
		table, what = &partTable, "Hit location"
	default:
		return nil
	}
	who := ""
	if st.rolls(h.By) {
		who = h.By
	}
	d := tx.Dice.Die(10)
	h.Location = table[d.Total()]
	if d.Total() == 1 && kit.Opt(&st.Base, OptRowOne) == RowOneLeft {
		h.Location = PartLeftLeg
	}
	h.Effects = kit.Opt(&st.Base, OptAimEffects) == AimLocated
	text := fmt.Sprintf("The blow lands on %s's %s.", st.PublicNameOf(h.At), partWords(h.Location))
	r := dice.Roll{Label: what + " (d10)", Who: who, Dice: []dice.Die{d}, Total: d.Total(), Result: partWords(h.Location)}
	return emit(tx, KindLocation, h.By, text, Note{Fighter: h.By, Target: h.At, What: h.Location}, []string{h.At}, r)
}

// armourCovers reports whether f's armour protects a location: a worn
// segment over the part, or for an unlocated hit the cuirass (option
// unlocated-armour: any segment).
func (s *State) armourCovers(f *Fighter, part string) bool {
	if f.Armour.Die == 0 {
		return false
	}
	if part != "" {
		return f.Armour.Covers(part)
	}
	if len(f.Armour.Segments) == 0 || kit.Opt(&s.Base, OptUnlocatedArmour) == UnlocatedAny {
		return true
	}
	return f.Armour.Covers(PartTorso)
}

// bodyPartEffect is a located hit's effect at the Pain Threshold.
func bodyPartEffect(tx *Tx, b blow) error {
	st := tx.State
	id := b.To
	f := st.Fighters[id]
	name := st.PublicNameOf(id)
	switch b.Location {
	case PartRightLeg, PartLeftLeg:
		set := []Change{change.Prone.To(id, true), change.Lame.To(id, true)}
		return note(tx, KindCondition, id, name+" is struck in the leg: prone, and half movement for the rest of the scene.", Note{Fighter: id, What: "leg", Set: set})
	case PartTorso:
		return note(tx, KindCondition, id, name+" loses their breath: winded, the next turn lost.", Note{Fighter: id, What: "torso", Set: []Change{change.Winded.To(id, 1)}})
	case PartRightArm, PartLeftArm:
		arm := change.ArmRight
		if b.Location == PartLeftArm {
			arm = change.ArmLeft
		}
		set := []Change{arm.To(id, true)}
		o := rollTest(tx, st.plainTest(id, Quick, "Keep hold", testOther))
		text := fmt.Sprintf("%s's %s is hurt: a second chance to fail its rolls for the scene; they keep hold of what they carry.", name, partWords(b.Location))
		if !o.Pass {
			w := f.weapon()
			if f.Drawn && !w.kind().Natural && w.ID != unarmedWeapon.ID {
				set = append(set, change.Drawn.To(id, false))
				text = fmt.Sprintf("%s's %s is hurt: %s drops, and a second chance to fail its rolls for the scene.", name, partWords(b.Location), w.Name)
			}
		}
		return note(tx, KindCondition, id, text, Note{Fighter: id, What: "arm", Set: set}, o.Roll)
	case PartHead:
		if st.Combatant(id).Out || (st.Combatant(id).Down && f.Dying) {
			return nil
		}
		who := id
		if !st.rolls(id) {
			who = ""
		}
		d := tx.Dice.Die(4)
		if err := note(tx, KindCondition, id, name+" takes a blow to the head.", Note{Fighter: id, What: "head", Value: d.Total()}, dieRoll("Unconscious (turns)", who, d)); err != nil {
			return err
		}
		return knockedOut(tx, id, d.Total(), "a blow to the head")
	}
	return nil
}

// aimChoices are the aims an attack offers.
func aimChoices() []engine.Choice {
	out := []engine.Choice{{Value: "", Label: "Anywhere"}, {Value: AimHigh, Label: "Aim high (−2)"}, {Value: AimLow, Label: "Aim low (−2)"}}
	for _, p := range bodyParts {
		out = append(out, engine.Choice{Value: p, Label: "The " + partWords(p) + " (−5)"})
	}
	return out
}
