package d6bands

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
)

// Apply implements engine.Ruleset. It is deterministic and rolls nothing:
// everything it needs is in the event.
func (Ruleset) Apply(s engine.State, ev engine.Event) error {
	st, ok := s.(*State)
	if !ok {
		return fmt.Errorf("d6-bands: state is %T", s)
	}
	switch ev.Kind {
	case engine.KindRoundStarted:
		applyRoundStarted(st)
	case engine.KindTurnStarted:
		return decodeApply(ev, func(d engine.TurnStarted) error { applyTurnStarted(st, d.Combatant); return nil })
	case engine.KindCombatantOut, engine.KindCombatantDown:
		return decodeApply(ev, func(d engine.CombatantOut) error {
			f, err := st.fighter(d.Combatant)
			if err != nil {
				return err
			}
			f.Status, f.Aim, f.Actions = d.Reason, nil, 0
			if ev.Kind == engine.KindCombatantOut {
				f.Group = ""
				st.tidyGroups()
			} else {
				f.Prone = true
			}
			return nil
		})
	case KindInitiative:
		return decodeApply(ev, func(d Initiative) error { applyInitiative(st, d); return nil })
	case KindMoved:
		return decodeApply(ev, func(d Moved) error { return applyMoved(st, d) })
	case KindProne:
		return decodeApply(ev, func(d Prone) error { return applyProne(st, d) })
	case KindHarm:
		return decodeApply(ev, func(d Harmed) error { return applyHarm(st, d) })
	case KindBled:
		return decodeApply(ev, func(d Bled) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.BloodLoss += d.Loss
			}
			return err
		})
	case KindFirstAid:
		return decodeApply(ev, func(d FirstAid) error { return applyFirstAid(st, d) })
	case KindStealth:
		return decodeApply(ev, func(d StealthCheck) error { return applyStealth(st, d) })
	case KindSlipped:
		return decodeApply(ev, func(d Slipped) error { return applySlipped(st, d) })
	case KindAim:
		return decodeApply(ev, func(d AimTaken) error { return applyAim(st, d) })
	case KindAttackBegun:
		return decodeApply(ev, func(d Attack) error { return applyAttackBegun(st, d) })
	case KindDefense:
		return decodeApply(ev, func(d Defended) error { return applyDefense(st, d) })
	case KindAttack:
		return decodeApply(ev, func(d AttackRolled) error { return applyAttack(st, d) })
	case KindAreaFire:
		return decodeApply(ev, func(d AreaFired) error { return applyAreaFire(st, d) })
	case KindTerror:
		return decodeApply(ev, func(d Terrified) error { return applyTerror(st, d) })
	case KindReload:
		return decodeApply(ev, func(d Reloaded) error { return applyReload(st, d) })
	case KindDuelBegun:
		return decodeApply(ev, func(d DuelBegun) error { return applyDuelBegun(st, d) })
	case KindCellChanged:
		return decodeApply(ev, func(d CellChanged) error { applyCellChanged(st, d); return nil })
	case KindPlaced:
		return decodeApply(ev, func(d Placed) error { return applyPlaced(st, d) })
	case KindAdjusted:
		return decodeApply(ev, func(d Adjusted) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				a := d.Adjust
				f.Adjust = &a
			}
			return err
		})
	case KindAdjustUsed:
		return decodeApply(ev, func(d AdjustUsed) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.Adjust = nil
			}
			return err
		})
	case KindTurnEnded:
		return decodeApply(ev, func(d TurnEnded) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.Actions = 0
			}
			return err
		})
	}
	return nil
}

// decodeApply decodes an event's data into a T and applies it with fn.
func decodeApply[T any](ev engine.Event, fn func(T) error) error {
	var d T
	if err := ev.Decode(&d); err != nil {
		return fmt.Errorf("d6-bands: %s: %w", ev.Kind, err)
	}
	return fn(d)
}
