package d20tactical

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Dodge (seed "Dodge"): after a hit, the target rolls a d20 like a saving
// throw; over its Dodge value it takes no damage — so a lower Dodge is
// better. The seed's "high Defense and low Dodge, or vice versa" says the
// opposite; dodge-direction switches to "under the Dodge value dodges".
// Dodge works against incoming shots (dodge-attacks: or every attack);
// objects, the fallen and combatants without a Dodge value do not dodge.

// Dodged is the data of a dodge event.
type Dodged struct {
	Fighter string `json:"fighter"`
	Dodge   int    `json:"dodge"`
	Roll    int    `json:"roll"`
	Dodged  bool   `json:"dodged"`
}

// canDodge reports whether t may dodge an attack, ranged or not.
func canDodge(st *State, t *Fighter, ranged bool) bool {
	return t.Sheet.Dodge > 0 && st.able(t.ID) && (ranged || kit.Opt(&st.Base, OptDodgeAttacks) == AllAttacks)
}

// dodge rolls t's Dodge against a hit and reports whether it avoided it.
func dodge(tx *Tx, t *Fighter, ranged bool) (bool, error) {
	st := tx.State
	if !canDodge(st, t, ranged) {
		return false, nil
	}
	d := tx.Dice.Die(20)
	n, v := d.Total(), t.Sheet.Dodge
	roll := dice.Roll{Label: "Dodge", Who: t.ID, Dice: []dice.Die{d}, Total: n}
	var ok bool
	if kit.Opt(&st.Base, OptDodgeDirection) == Under {
		ok = n < v
		roll.Target, roll.Compare = v-1, dice.AtMost
	} else {
		ok = n > v
		roll.Target, roll.Compare = v+1, dice.AtLeast
	}
	roll.Result, roll.Outcome = "hit", dice.OutcomeOf(ok)
	text := fmt.Sprintf("%s fails to dodge (%d, Dodge %d).", st.NameOf(t.ID), n, v)
	if ok {
		roll.Result = "dodged"
		text = fmt.Sprintf("%s dodges: no damage (%d, Dodge %d).", st.NameOf(t.ID), n, v)
	}
	return ok, tx.Emits(KindDodge, t.ID, text, Dodged{Fighter: t.ID, Dodge: v, Roll: n, Dodged: ok}, roll)
}
