package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Shaken: a Shaken fighter may take only free actions (moving included).
// At the start of their turn they roll Spirit (the seed, in either edition):
//   - failure: still Shaken;
//   - success: recovers and may act, at −2 (to every action this turn, or
//     the first only: the shaken-recovery-penalty option);
//   - raise: recovers and acts normally.
// Spending a Benny removes Shaken at any time ("unshake").

// RecoveryPenalty is the seed's penalty after recovering without a raise.
const RecoveryPenalty = -2

// ShakenRecovery is the data of a shaken-recovery event.
type ShakenRecovery struct {
	Fighter   string `json:"fighter"`
	Mods      []Mod  `json:"mods"` // modifiers to the Spirit roll
	Recovered bool   `json:"recovered"`
	Penalty   int    `json:"penalty,omitempty"` // to this turn's actions
}

// recoverShaken makes f's Spirit roll at the start of their turn.
func recoverShaken(tx *Tx, f *Fighter) error {
	st := tx.State
	o := rollTrait(tx.Dice, check(f, "spirit", TargetNumber))
	d := ShakenRecovery{Fighter: f.ID, Mods: nonNil(o.Mods)}
	outcome := "still Shaken"
	switch {
	case o.Success && o.Raises > 0:
		d.Recovered = true
		outcome = "recovers and acts normally"
	case o.Success:
		d.Recovered, d.Penalty = true, RecoveryPenalty
		outcome = "recovers, acting at −2"
		if kit.Opt(&st.Base, OptRecoveryPenalty) == PenaltyFirst {
			outcome += " on the first action this turn"
		} else {
			outcome += " this turn"
		}
	}
	text := fmt.Sprintf("%s tries to shake off being Shaken: Spirit %d (%s) — %s.", st.NameOf(f.ID), o.Total, o.Roll.Result, outcome)
	return tx.Emits(KindShakenRecovery, f.ID, text, d, o.Roll)
}

func applyShakenRecovery(st *State, d ShakenRecovery) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	if d.Recovered {
		f.Shaken = false
		f.RecoveryPenalty = d.Penalty
	}
	return nil
}
