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
// a Cont: the decision's own context, and Then, the work still to do once it
// is answered (the remaining free attacks of a disengage, the remaining
// victims of a blast, …). Nothing else is kept outside the state, so an
// answer resumes exactly where the command stopped, and replaying the events
// rebuilds the same state: every die rolled after the pause is in the
// answer's events.

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

// Cont is a pending decision's data: its context and the work left after it.
type Cont struct {
	Soak    *soakCtx    `json:"soak,omitempty"`
	Reroll  *rerollCtx  `json:"reroll,omitempty"`
	Dive    *diveCtx    `json:"dive,omitempty"`
	Aim     *aimCtx     `json:"aim,omitempty"`
	Scatter *scatterCtx `json:"scatter,omitempty"`
	Push    *pushZone   `json:"push,omitempty"`
	Window  *windowCtx  `json:"window,omitempty"`
	Then    []Step      `json:"then,omitempty"`
}

// Step is one piece of work waiting behind a decision. Exactly one field is
// set.
type Step struct {
	MP          *mpStep         `json:"mp,omitempty"`          // a Movement step, after any interrupt windows
	FreeAttacks *freeAttackStep `json:"freeAttacks,omitempty"` // free attacks on a fighter leaving or entering a melee
	Disengage   *disengageStep  `json:"disengage,omitempty"`   // leaving the melee once the free attacks are done
	Run         *runStep        `json:"run,omitempty"`         // a Running roll in the middle of an action
	AreaDamage  *areaDamageStep `json:"areaDamage,omitempty"`  // damage to an area's victims
	PushZone    *pushZone       `json:"pushZone,omitempty"`    // ask where a push with a raise sends its target
	Interrupt   *interruptStep  `json:"interrupt,omitempty"`   // a holder's interruption, after the mover's step
}

// run performs s. rest is the work after s: a step that opens a decision
// stores rest in it, and never runs rest itself.
func (s Step) run(tx *engine.Tx, rest []Step) (bool, error) {
	switch {
	case s.MP != nil:
		return runMPStep(tx, *s.MP, rest)
	case s.FreeAttacks != nil:
		return runFreeAttacks(tx, *s.FreeAttacks, rest)
	case s.Disengage != nil:
		return runDisengage(tx, *s.Disengage, rest)
	case s.Run != nil:
		return runRoll(tx, *s.Run, rest)
	case s.AreaDamage != nil:
		return runAreaDamage(tx, *s.AreaDamage, rest)
	case s.PushZone != nil:
		return askPushZone(tx, *s.PushZone, rest)
	case s.Interrupt != nil:
		return runInterruptStep(tx, *s.Interrupt, rest)
	}
	return false, fmt.Errorf("sw-zones: empty step")
}

// runSteps runs steps in order, each with the steps after it and then tail
// as its rest. It stops when one of them waits on a decision (reporting
// true) or the encounter is over; it never runs tail itself.
func runSteps(tx *engine.Tx, steps, tail []Step) (bool, error) {
	for i := range steps {
		if tx.Base().Status != engine.StatusRunning {
			return true, nil
		}
		rest := append(append([]Step(nil), steps[i+1:]...), tail...)
		waiting, err := steps[i].run(tx, rest)
		if err != nil || waiting {
			return waiting, err
		}
	}
	return false, nil
}

// ask opens a decision whose data is c. A decision for a hidden fighter
// is asked of the GM, so that the log names no one players cannot see.
func ask(tx *engine.Tx, d engine.Decision, c Cont) error {
	if cb := tx.Base().Combatant(d.For); cb != nil && cb.Hidden {
		d.For = engine.GM
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	d.Data = raw
	return tx.Open(d)
}

// pendingOf reports whether a decision of kind is still pending.
func pendingOf(b *engine.Base, kind string) bool {
	for _, d := range b.Pending {
		if d.Kind == kind {
			return true
		}
	}
	return false
}

// Answer implements engine.Ruleset: it carries out the answered decision,
// then the work that waited behind it, then settles the turn.
func (Ruleset) Answer(tx *engine.Tx, d engine.Decision, choice string) error {
	var c Cont
	if len(d.Data) > 0 {
		if err := json.Unmarshal(d.Data, &c); err != nil {
			return fmt.Errorf("sw-zones: decision %s: %w", d.ID, err)
		}
	}
	var waiting bool
	var err error
	switch d.Kind {
	case DecSoak:
		waiting, err = answerSoak(tx, c, choice)
	case DecReroll:
		waiting, err = answerReroll(tx, c, choice)
	case DecDive:
		waiting, err = answerDive(tx, c, choice)
	case DecAim:
		waiting, err = answerAim(tx, c, choice)
	case DecScatter:
		waiting, err = answerScatter(tx, c, choice)
	case DecPushZone:
		waiting, err = answerPushZone(tx, c, choice)
	case DecInterrupt:
		waiting, err = answerWindow(tx, c, choice)
	default:
		return fray.Errorf(fray.EILLEGAL, "sw-zones has no decision of kind %q", d.Kind)
	}
	if err != nil {
		return err
	}
	if !waiting {
		if _, err := runSteps(tx, c.Then, nil); err != nil {
			return err
		}
	}
	return settle(tx)
}

// shown is a fighter's name as a prompt every viewer reads may give it.
func (s *State) shown(id string) string {
	if c := s.Combatant(id); c != nil && c.Hidden {
		return "someone unseen"
	}
	return s.name(id)
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
