package d20tactical

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
)

// Apply implements engine.Ruleset. It is deterministic and rolls nothing:
// everything it needs is in the event. It never writes Base.
func (Ruleset) Apply(s engine.State, ev engine.Event) error {
	st, ok := s.(*State)
	if !ok {
		return fmt.Errorf("d20-tactical: state is %T", s)
	}
	switch ev.Kind {
	case engine.KindRoundStarted:
		for _, f := range st.Fighters {
			f.Hurt = slices.DeleteFunc(f.Hurt, func(h Hurt) bool { return h.Until > 0 && h.Until < st.Round })
		}
		return nil
	case engine.KindTurnStarted:
		return decodeApply(ev, func(d engine.TurnStarted) error {
			for _, f := range st.Fighters {
				f.Budget = Budget{}
			}
			if d.Combatant != "" {
				return startTurnOf(st, d.Combatant, false)
			}
			for _, id := range d.Acting {
				if err := startTurnOf(st, id, true); err != nil {
					return err
				}
			}
			return nil
		})
	case engine.KindInterruptStarted:
		return decodeApply(ev, func(d engine.InterruptStarted) error {
			f, err := st.fighter(d.Combatant)
			if err != nil {
				return err
			}
			f.Budget = Budget{Single: true, Standard: true}
			if f.Ready != nil && f.Ready.Action == "move" {
				f.Budget = Budget{Single: true, Move: true}
			}
			f.Ready = nil
			return nil
		})
	case engine.KindInterruptEnded:
		return decodeApply(ev, func(d engine.InterruptEnded) error {
			f, err := st.fighter(d.Combatant)
			if err == nil {
				f.Budget = Budget{}
			}
			return err
		})
	case engine.KindOrderChanged:
		return decodeApply(ev, func(d engine.OrderChanged) error {
			st.Initiative = slices.Clone(d.Order)
			return nil
		})
	case engine.KindCombatantOut:
		return decodeApply(ev, func(d engine.CombatantOut) error {
			f, err := st.fighter(d.Combatant)
			if err == nil {
				f.Ready, f.Charging, f.Budget = nil, false, Budget{}
			}
			return err
		})
	}
	return applyRuleset(st, ev)
}

// startTurnOf resets f's turn: a fresh budget, flat-footedness over, a
// charge's Defense penalty and an unused readied action lapsed, the groin
// hit's lost action spent, a run streak broken when f did not run.
func startTurnOf(st *State, id string, single bool) error {
	f, err := st.fighter(id)
	if err != nil {
		return err
	}
	f.Budget = fresh(f, single)
	f.Groin = false
	f.FlatFooted, f.Charging, f.Ready = false, false, nil
	if !f.Ran {
		f.RunStreak = 0
	}
	f.Ran = false
	return nil
}

func applyRuleset(st *State, ev engine.Event) error {
	switch ev.Kind {
	case KindInitiative:
		return decodeApply(ev, func(d Initiative) error {
			if len(d.Order) >= len(st.Initiative) {
				st.Initiative = slices.Clone(d.Order)
			}
			for id, n := range d.Totals {
				f, err := st.fighter(id)
				if err != nil {
					return err
				}
				f.Init = n
			}
			return nil
		})
	case KindSurprise:
		return decodeApply(ev, func(d Surprise) error {
			st.Surprise = d.Rounds
			if d.Rounds == 0 {
				for _, f := range st.Fighters {
					f.Surprised = false
				}
			}
			return nil
		})
	case KindAction:
		return decodeApply(ev, func(d ActionTaken) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			f.Budget = d.Budget
			switch d.What {
			case ModeRun:
				f.Ran = true
				f.RunStreak++
			case ModeCharge:
				f.Charging = true
			}
			return nil
		})
	case KindReady:
		return decodeApply(ev, func(d Readied) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			r := d.Ready
			f.Budget, f.Ready = d.Budget, &r
			return nil
		})
	case KindMoved:
		return decodeApply(ev, func(d Moved) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			f.X, f.Y, f.Cover = d.To.X, d.To.Y, nil
			return nil
		})
	case KindPosture:
		return decodeApply(ev, func(d PostureChanged) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			f.Posture, f.Cover = d.To, nil
			return nil
		})
	case KindEndurance:
		return decodeApply(ev, func(d Endurance) error {
			f, err := st.fighter(d.Fighter)
			if err == nil && !d.Pass {
				f.WindedTill, f.RunStreak = d.WindedTill, 0
			}
			return err
		})
	case KindJump:
		return decodeApply(ev, func(d Jumped) error {
			f, err := st.fighter(d.Fighter)
			if err == nil && !d.Success {
				f.Posture, f.Cover = Prone, nil
			}
			return err
		})
	case KindAttack:
		return decodeApply(ev, func(d AttackRolled) error {
			f, err := st.fighter(d.Attacker)
			if err != nil {
				return err
			}
			if w := f.Weapon(d.Weapon); w != nil && d.Ammo >= 0 && w.ID != unarmed.ID {
				w.Ammo = d.Ammo
			}
			return nil
		})
	case KindFumble:
		return decodeApply(ev, func(d Fumbled) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			if w := f.Weapon(d.Weapon); w != nil && w.ID != unarmed.ID {
				if d.Ammo >= 0 {
					w.Ammo = d.Ammo
				}
				w.Jammed = w.Jammed || d.Jammed
			}
			return nil
		})
	case KindWeapon:
		return decodeApply(ev, func(d WeaponState) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			w := f.Weapon(d.Weapon)
			if w == nil || w.ID == unarmed.ID {
				return fmt.Errorf("d20-tactical: %s has no weapon %q", d.Fighter, d.Weapon)
			}
			w.Ammo, w.Jammed, w.Ruined = d.Ammo, d.Jammed, d.Ruined
			return nil
		})
	case KindPickedUp:
		return onFighter(st, ev, func(f *Fighter, _ PointsLeft) { f.Dropped = false })
	case KindHarm:
		return decodeApply(ev, func(d Harmed) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.HP = d.HP
				f.Stable = false
			}
			return err
		})
	case KindHeal:
		return decodeApply(ev, func(d Healed) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.HP = d.HP
				if f.HP >= 0 {
					f.Stable = false
				}
			}
			return err
		})
	case KindStabilize:
		return decodeApply(ev, func(d Stabilized) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.HP, f.Stable = d.HP, d.Stable
			}
			return err
		})
	case KindTreat:
		return decodeApply(ev, func(d Treated) error {
			f, err := st.fighter(d.Target)
			if err == nil && d.Success {
				f.Stable = true
			}
			return err
		})
	case KindStatus:
		return decodeApply(ev, func(d Status) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			switch d.Status {
			case "dead":
				f.Dead = true
			case "dying":
				f.Stable, f.Posture, f.Cover = false, Prone, nil
			}
			return nil
		})
	case KindArmourPoints:
		return onFighter(st, ev, func(f *Fighter, d PointsLeft) { f.ArmorLeft = d.Left })
	case KindLifePoints:
		return onFighter(st, ev, func(f *Fighter, d PointsLeft) { f.LifePoints = d.Left })
	case KindEffect:
		return decodeApply(ev, func(d Effect) error {
			f, err := st.fighter(d.Fighter)
			if err != nil {
				return err
			}
			switch d.Location {
			case LocHead:
				f.Dropped, f.Posture, f.Cover = true, Prone, nil
			case LocBackTorso:
				f.Posture, f.Cover = Prone, nil
			case LocGroin:
				f.Groin = true
			default:
				f.Hurt = append(f.Hurt, Hurt{Location: d.Location, Until: d.Until})
			}
			return nil
		})
	case KindEffectsCleared:
		return onFighter(st, ev, func(f *Fighter, _ PointsLeft) { f.Hurt, f.Groin = nil, false })
	case KindCover:
		return decodeApply(ev, func(d CoverSet) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.Cover = d.Cover
			}
			return err
		})
	case KindTurnEnded:
		return decodeApply(ev, func(d TurnEnded) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.Budget = Budget{}
			}
			return err
		})
	case KindDelay, KindDamage, KindSave, KindDodge, KindNegated, KindAttackLost, KindStray:
		return nil
	}
	return nil
}

// onFighter decodes a PointsLeft-shaped event and applies fn to its
// fighter.
func onFighter(st *State, ev engine.Event, fn func(*Fighter, PointsLeft)) error {
	return decodeApply(ev, func(d PointsLeft) error {
		f, err := st.fighter(d.Fighter)
		if err == nil {
			fn(f, d)
		}
		return err
	})
}
