package d20tactical

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Critical hits (seed "Critical Hits"): a roll in the weapon's critical
// range (normally a natural 20) that hits — confirmed by a second roll
// when the crit-confirm option asks for one — is a critical, never on an
// aimed shot. The target loses 1 Armour Point at once. The attacker then
// chooses: double damage (the damage dice rolled again and added; that
// extra cannot kill, it stops at the crit-floor option) or a Life Point
// off the target (a player character saves on Fortitude to keep it). A
// Life Point loss can kill: at 0 the target dies.

// Critical choices.
const (
	critDouble = "double"
	critLife   = "life"
)

// askCritical puts the attacker's choice.
func askCritical(tx *Tx, d damageSpec) error {
	st := tx.State
	t := st.Fighters[d.Target]
	life := fmt.Sprintf("%s loses a Life Point (%d left)", st.PublicNameOf(d.Target), t.LifePoints)
	if st.Combatant(d.Target).PC {
		life += fmt.Sprintf("; Fortitude DC %d keeps it", kit.OptInt(&st.Base, OptCritFortDC))
	}
	return tx.AskWith(engine.Decision{For: d.Attacker, Kind: DecCritical,
		Prompt:  fmt.Sprintf("Critical hit by %s on %s: double damage or a Life Point?", st.PublicNameOf(d.Attacker), st.PublicNameOf(d.Target)),
		Options: []engine.Choice{{Value: critDouble, Label: "Double damage (the extra cannot kill)"}, {Value: critLife, Label: life}},
		Default: critDouble}, Cont{Critical: &d})
}

// loseArmourPoint takes a critical's Armour Point off t's armour.
func loseArmourPoint(tx *Tx, t *Fighter) error {
	st := tx.State
	if t.Sheet.Armor == nil || t.ArmorLeft == 0 {
		return nil
	}
	left := t.ArmorLeft - 1
	return tx.Emits(KindArmourPoints, t.ID, armourText(st, t, left, "The critical hit costs"), PointsLeft{Fighter: t.ID, Left: left})
}

// armourText words an Armour Point change and what it does to Defense.
func armourText(st *State, t *Fighter, left int, why string) string {
	a := t.Sheet.Armor
	name := a.Name
	if name == "" {
		name = "armour"
	}
	text := fmt.Sprintf("%s %s's %s an Armour Point: %d of %d left", why, st.NameOf(t.ID), name, left, a.Points)
	switch {
	case left == 0:
		text += "; it is useless until repaired"
	case left < a.Points/2:
		text += "; below half, Defense −1"
	}
	return text + "."
}

// critLifePoint takes a Life Point off t, unless a player character makes
// its Fortitude save.
func critLifePoint(tx *Tx, t *Fighter) error {
	st := tx.State
	if st.Combatant(t.ID).PC {
		ok, err := save(tx, t, "Fortitude to keep a Life Point", t.Fort(), kit.OptInt(&st.Base, OptCritFortDC))
		if err != nil || ok {
			return err
		}
	}
	text := fmt.Sprintf("%s loses a Life Point (%d left).", st.NameOf(t.ID), t.LifePoints-1)
	if err := tx.Emits(KindLifePoints, t.ID, text, PointsLeft{Fighter: t.ID, Left: t.LifePoints - 1}); err != nil {
		return err
	}
	return settleHealth(tx, t.ID)
}
