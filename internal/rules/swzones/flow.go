package swzones

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Reactions and rulings pause a command: a Soak offer, a reroll offer, an
// ally diving out of a blast, a holder deciding whether to interrupt a move,
// the GM placing a deviated burst. Each is an engine.Decision whose Data is
// a Cont, the decision's own context. The work still to do once it is
// answered (the remaining free attacks of a disengage, the remaining
// victims of a blast, …) is written as engine steps run with Tx.Run: the
// engine parks the steps after a step that asks, and resumes them after the
// answer, so an answer carries on exactly where the command stopped and
// replaying the events rebuilds the same state.

// Decision kinds of this ruleset.
const (
	DecSoak      = "soak"
	DecReroll    = "reroll"
	DecDive      = "dive"
	DecAim       = "aim"
	DecScatter   = "scatter"
	DecPushZone  = "push-zone"
	DecInterrupt = "interrupt"
)

// Cont is a pending decision's data: its context.
type Cont struct {
	Soak    *soakCtx    `json:"soak,omitempty"`
	Reroll  *rerollCtx  `json:"reroll,omitempty"`
	Dive    *diveCtx    `json:"dive,omitempty"`
	Aim     *aimCtx     `json:"aim,omitempty"`
	Scatter *scatterCtx `json:"scatter,omitempty"`
	Push    *pushZone   `json:"push,omitempty"`
	Window  *windowCtx  `json:"window,omitempty"`
}

// Step kinds: the pieces of work that may wait behind a decision or an
// interruption.
const (
	stepMP         = "mp"          // a Movement step, after any interrupt windows (movement.go)
	stepFreeAttack = "free-attack" // one free attack on a fighter leaving or entering a melee
	stepDisengage  = "disengage"   // leaving the melee once the free attacks are done
	stepRun        = "run"         // a Running roll in the middle of an action (running.go)
	stepDives      = "dives"       // an area's victims diving out (area.go)
	stepAreaDamage = "area-damage" // damage to one of an area's victims
	stepPushZone   = "push-zone"   // ask where a push with a raise sends its target (grapple.go)
	stepInterrupt  = "interrupt"   // a holder's interruption, after the mover's step (hold.go)
)

// Step implements engine.Stepper.
func (Ruleset) Step(tx *engine.Tx, s engine.Step) error {
	switch s.Kind {
	case stepMP:
		return engine.RunStep(tx, s, runMPStep)
	case stepFreeAttack:
		return engine.RunStep(tx, s, runFreeAttack)
	case stepDisengage:
		return engine.RunStep(tx, s, runDisengage)
	case stepRun:
		return engine.RunStep(tx, s, runRoll)
	case stepDives:
		return engine.RunStep(tx, s, runDives)
	case stepAreaDamage:
		return engine.RunStep(tx, s, runAreaDamage)
	case stepPushZone:
		return engine.RunStep(tx, s, askPushZone)
	case stepInterrupt:
		return engine.RunStep(tx, s, runInterruptStep)
	}
	return fmt.Errorf("sw-zones: no step %q", s.Kind)
}

// ask opens a decision whose data is c. A decision for a hidden fighter
// is asked of the GM, so that the log names no one players cannot see.
func ask(tx *engine.Tx, d engine.Decision, c Cont) error {
	d.For = askee(tx, d.For)
	return tx.AskWith(d, c)
}

// askee is who answers a question about fighter id: the GM for a hidden one.
func askee(tx *engine.Tx, id string) string {
	if cb := tx.Base().Combatant(id); cb != nil && cb.Hidden {
		return engine.GM
	}
	return id
}

// Answer implements engine.Ruleset: it carries out the answered decision;
// the engine then resumes the work that waited behind it and settles.
func (Ruleset) Answer(tx *engine.Tx, answers []engine.Answered) error {
	for _, a := range answers {
		var c Cont
		if len(a.Decision.Data) > 0 {
			if err := json.Unmarshal(a.Decision.Data, &c); err != nil {
				return fmt.Errorf("sw-zones: decision %s: %w", a.Decision.ID, err)
			}
		}
		var err error
		switch a.Decision.Kind {
		case DecSoak:
			err = answerSoak(tx, c, a.Choice)
		case DecReroll:
			err = answerReroll(tx, c, a.Choice)
		case DecDive:
			err = answerDive(tx, c, a.Choice)
		case DecAim:
			err = answerAim(tx, c, a.Choice)
		case DecScatter:
			err = answerScatter(tx, c, a.Choice)
		case DecPushZone:
			err = answerPushZone(tx, c, a.Choice)
		case DecInterrupt:
			err = answerWindow(tx, c, a.Choice)
		default:
			return fray.Errorf(fray.EILLEGAL, "sw-zones has no decision of kind %q", a.Decision.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// yesNo is a decision's two options, the first the default.
func yesNo(yes, yesLabel, no, noLabel string) []engine.Choice {
	return []engine.Choice{{Value: yes, Label: yesLabel}, {Value: no, Label: noLabel}}
}

// bennyCount words a number of Bennies: "1 Benny", "3 Bennies".
func bennyCount(n int) string {
	if n == 1 {
		return "1 Benny"
	}
	return fmt.Sprintf("%d Bennies", n)
}
