package d20tactical

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// events fold the ruleset's events, and the core events it follows, into
// its state. Applying is deterministic and rolls nothing: everything it
// needs is in the event. It never writes Base. Delays, damage rolls,
// saves, dodges, negated and lost attacks and stray shots change nothing
// by themselves.
var events = []kit.EventSpec[*State]{
	kit.OnEvent(engine.KindRoundStarted, func(st *State, _ kit.None) error {
		for _, f := range st.Fighters {
			f.Hurt = slices.DeleteFunc(f.Hurt, func(h Hurt) bool { return h.Until > 0 && h.Until < st.Round })
		}
		return nil
	}),
	kit.OnEvent(engine.KindTurnStarted, func(st *State, d engine.TurnStarted) error {
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
	}),
	kit.OnEvent(engine.KindInterruptStarted, func(st *State, d engine.InterruptStarted) error {
		f, err := kit.Found(st.Fighter(d.Combatant), d.Combatant)
		if err != nil {
			return err
		}
		f.Budget = Budget{Single: true, Standard: true}
		if f.Ready != nil && f.Ready.Action == "move" {
			f.Budget = Budget{Single: true, Move: true}
		}
		f.Ready = nil
		return nil
	}),
	kit.OnEvent(engine.KindInterruptEnded, func(st *State, d engine.InterruptEnded) error {
		f, err := kit.Found(st.Fighter(d.Combatant), d.Combatant)
		if err == nil {
			f.Budget = Budget{}
		}
		return err
	}),
	kit.OnEvent(engine.KindOrderChanged, func(st *State, d engine.OrderChanged) error {
		st.Initiative = slices.Clone(d.Order)
		return nil
	}),
	kit.OnEvent(engine.KindCombatantOut, func(st *State, d engine.CombatantOut) error {
		f, err := kit.Found(st.Fighter(d.Combatant), d.Combatant)
		if err == nil {
			f.Ready, f.Charging, f.Budget = nil, false, Budget{}
		}
		return err
	}),
	kit.OnEvent(KindInitiative, func(st *State, d Initiative) error {
		if len(d.Order) >= len(st.Initiative) {
			st.Initiative = slices.Clone(d.Order)
		}
		for id, n := range d.Totals {
			f, err := kit.Found(st.Fighter(id), id)
			if err != nil {
				return err
			}
			f.Init = n
		}
		return nil
	}),
	kit.OnEvent(KindSurprise, func(st *State, d Surprise) error {
		st.Surprise = d.Rounds
		if d.Rounds == 0 {
			for _, f := range st.Fighters {
				f.Surprised = false
			}
		}
		return nil
	}),
	kit.OnEvent(KindAction, func(st *State, d ActionTaken) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
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
	}),
	kit.OnEvent(KindReady, func(st *State, d Readied) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err != nil {
			return err
		}
		r := d.Ready
		f.Budget, f.Ready = d.Budget, &r
		return nil
	}),
	kit.OnEvent(KindMoved, func(st *State, d Moved) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err != nil {
			return err
		}
		f.X, f.Y, f.Cover = d.To.X, d.To.Y, nil
		return nil
	}),
	kit.OnEvent(KindPosture, func(st *State, d PostureChanged) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err != nil {
			return err
		}
		f.Posture, f.Cover = d.To, nil
		return nil
	}),
	kit.OnEvent(KindEndurance, func(st *State, d Endurance) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil && !d.Pass {
			f.WindedTill, f.RunStreak = d.WindedTill, 0
		}
		return err
	}),
	kit.OnEvent(KindJump, func(st *State, d Jumped) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil && !d.Success {
			f.Posture, f.Cover = Prone, nil
		}
		return err
	}),
	kit.OnEvent(KindAttack, func(st *State, d AttackRolled) error {
		f, err := kit.Found(st.Fighter(d.Attacker), d.Attacker)
		if err != nil {
			return err
		}
		if w := f.Weapon(d.Weapon); w != nil && d.Ammo >= 0 && w.ID != unarmed.ID {
			w.Ammo = d.Ammo
		}
		return nil
	}),
	kit.OnEvent(KindFumble, func(st *State, d Fumbled) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
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
	}),
	kit.OnEvent(KindWeapon, func(st *State, d WeaponState) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err != nil {
			return err
		}
		w := f.Weapon(d.Weapon)
		if w == nil || w.ID == unarmed.ID {
			return fmt.Errorf("%s has no weapon %q", d.Fighter, d.Weapon)
		}
		w.Ammo, w.Jammed, w.Ruined = d.Ammo, d.Jammed, d.Ruined
		return nil
	}),
	onFighter(KindPickedUp, func(f *Fighter, _ PointsLeft) { f.Dropped = false }),
	kit.OnEvent(KindHarm, func(st *State, d Harmed) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.HP = d.HP
			f.Stable = false
		}
		return err
	}),
	kit.OnEvent(KindHeal, func(st *State, d Healed) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.HP = d.HP
			if f.HP >= 0 {
				f.Stable = false
			}
		}
		return err
	}),
	kit.OnEvent(KindStabilize, func(st *State, d Stabilized) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.HP, f.Stable = d.HP, d.Stable
		}
		return err
	}),
	kit.OnEvent(KindTreat, func(st *State, d Treated) error {
		f, err := kit.Found(st.Fighter(d.Target), d.Target)
		if err == nil && d.Success {
			f.Stable = true
		}
		return err
	}),
	kit.OnEvent(KindStatus, func(st *State, d Status) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
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
	}),
	onFighter(KindArmourPoints, func(f *Fighter, d PointsLeft) { f.ArmorLeft = d.Left }),
	onFighter(KindLifePoints, func(f *Fighter, d PointsLeft) { f.LifePoints = d.Left }),
	kit.OnEvent(KindEffect, func(st *State, d Effect) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
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
	}),
	onFighter(KindEffectsCleared, func(f *Fighter, _ PointsLeft) { f.Hurt, f.Groin = nil, false }),
	kit.OnEvent(KindCover, func(st *State, d CoverSet) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.Cover = d.Cover
		}
		return err
	}),
	kit.OnEvent(KindTurnEnded, func(st *State, d TurnEnded) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			f.Budget = Budget{}
		}
		return err
	}),
}

// startTurnOf resets f's turn: a fresh budget, flat-footedness over, a
// charge's Defense penalty and an unused readied action lapsed, the groin
// hit's lost action spent, a run streak broken when f did not run.
func startTurnOf(st *State, id string, single bool) error {
	f, err := kit.Found(st.Fighter(id), id)
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

// onFighter declares a PointsLeft-shaped event of kind that applies fn to
// its fighter.
func onFighter(kind string, fn func(*Fighter, PointsLeft)) kit.EventSpec[*State] {
	return kit.OnEvent(kind, func(st *State, d PointsLeft) error {
		f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
		if err == nil {
			fn(f, d)
		}
		return err
	})
}
