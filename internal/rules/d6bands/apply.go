package d6bands

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// events fold the ruleset's events, and the core events it follows, into
// its state. Applying is deterministic and rolls nothing: everything it
// needs is in the event.
var events = []kit.EventSpec[*State]{
	kit.OnEvent(engine.KindRoundStarted, applyRoundStarted),
	kit.OnEvent(engine.KindTurnStarted, applyTurnStarted),
	kit.OnEvent(engine.KindCombatantOut, func(st *State, d engine.CombatantOut) error { return applyFallen(st, d, true) }),
	kit.OnEvent(engine.KindCombatantDown, func(st *State, d engine.CombatantOut) error { return applyFallen(st, d, false) }),
	kit.OnEvent(KindInitiative, applyInitiative),
	kit.OnEvent(KindMoved, applyMoved),
	kit.OnEvent(KindProne, applyProne),
	kit.OnEvent(KindHarm, applyHarm),
	kit.OnEvent(KindBled, func(st *State, d Bled) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.BloodLoss += d.Loss
		}
		return err
	}),
	kit.OnEvent(KindFirstAid, applyFirstAid),
	kit.OnEvent(KindStealth, applyStealth),
	kit.OnEvent(KindSlipped, applySlipped),
	kit.OnEvent(KindAim, applyAim),
	kit.OnEvent(KindAttackBegun, applyAttackBegun),
	kit.OnEvent(KindDefense, applyDefense),
	kit.OnEvent(KindAttack, applyAttack),
	kit.OnEvent(KindAreaFire, applyAreaFire),
	kit.OnEvent(KindTerror, applyTerror),
	kit.OnEvent(KindReload, applyReload),
	kit.OnEvent(KindDuelBegun, applyDuelBegun),
	kit.OnEvent(KindCellChanged, applyCellChanged),
	kit.OnEvent(KindPlaced, applyPlaced),
	kit.OnEvent(KindAdjusted, func(st *State, d Adjusted) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			a := d.Adjust
			f.Adjust = &a
			if a.Dice == 0 && a.TN == 0 {
				f.Adjust = nil // a ruling of no adjustment clears one
			}
		}
		return err
	}),
	kit.OnEvent(KindAdjustUsed, func(st *State, d AdjustUsed) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.Adjust = nil
		}
		return err
	}),
	kit.OnEvent(KindTurnEnded, func(st *State, d TurnEnded) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.Actions = 0
		}
		return err
	}),
}

// applyFallen records a combatant down (unconscious: it falls prone) or
// out of the fight (it leaves its contact group).
func applyFallen(st *State, d engine.CombatantOut, out bool) error {
	f, err := kit.Found(st.Fighter(d.Combatant), d.Combatant)
	if err != nil {
		return err
	}
	f.Status, f.Aim, f.Actions = d.Reason, nil, 0
	if out {
		f.Group = ""
		st.tidyGroups()
	} else {
		f.Prone = true
	}
	return nil
}
