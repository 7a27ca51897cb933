package d20tactical

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Resolutions that pause — an attack of opportunity offered, a readied
// action, the attacker's choice on a critical, a Life Point to spend, the
// GM's rulings on cover, objects, backfires, Endurance and effect
// durations — are written as engine steps run with Tx.Run. A step that
// asks parks the steps after it in the state; the answer resumes them, so
// a saved, reloaded or replayed encounter carries on exactly where it
// stopped.

// Decision kinds.
const (
	DecReaction  = "reaction"  // take an attack of opportunity or a fumble's free attack
	DecReady     = "ready"     // take a readied action now
	DecCritical  = "critical"  // double damage or a Life Point
	DecMassive   = "massive"   // spend a Life Point against massive damage
	DecBackfire  = "backfire"  // the GM: what a backfire does
	DecCover     = "cover"     // the GM: a target's cover for this shot
	DecObject    = "object"    // the GM: an object's Defense and range
	DecEndurance = "endurance" // the GM: a runner's Endurance
	DecDuration  = "duration"  // the GM: how long an arm or leg effect lasts
)

// Cont is a decision's context (its Data).
type Cont struct {
	Reaction  *attackSpec  `json:"reaction,omitempty"`
	Ready     *readyCtx    `json:"ready,omitempty"`
	Critical  *damageSpec  `json:"critical,omitempty"`
	Massive   *harmSpec    `json:"massive,omitempty"`
	Backfire  *backfireCtx `json:"backfire,omitempty"`
	Cover     *attackSpec  `json:"cover,omitempty"`
	Object    *attackSpec  `json:"object,omitempty"`
	Endurance *runSpec     `json:"endurance,omitempty"`
	Duration  *effectSpec  `json:"duration,omitempty"`
}

type readyCtx struct {
	Readier string `json:"readier"`
}

// Step kinds.
const (
	stepAsk        = "ask"
	stepReadyCheck = "ready-check"
	stepAfter      = "after-action"
	stepMoveLeg    = "move-leg"
	stepPosture    = "posture"
	stepJump       = "jump"
	stepRun        = "run"
	stepReact      = "react"
	stepAttack     = "attack"
	stepHit        = "hit"
	stepDamage     = "damage"
	stepHarm       = "harm"
	stepEffect     = "effect"
	stepHandle     = "handle"
	stepObject     = "object"
)

// Step implements engine.Stepper.
func (Ruleset) Step(tx *engine.Tx, s engine.Step) error {
	switch s.Kind {
	case stepAsk:
		return engine.RunStep(tx, s, func(tx *engine.Tx, a askStep) error { return ask(tx, a.Decision, a.Cont) })
	case stepReadyCheck:
		return engine.RunStep(tx, s, runReadyCheck)
	case stepAfter:
		return engine.RunStep(tx, s, runAfterAction)
	case stepMoveLeg:
		return engine.RunStep(tx, s, runMoveLeg)
	case stepPosture:
		return engine.RunStep(tx, s, runPosture)
	case stepJump:
		return engine.RunStep(tx, s, runJump)
	case stepRun:
		return engine.RunStep(tx, s, runRun)
	case stepReact:
		return engine.RunStep(tx, s, runReact)
	case stepAttack:
		return engine.RunStep(tx, s, runAttack)
	case stepHit:
		return engine.RunStep(tx, s, runHit)
	case stepDamage:
		return engine.RunStep(tx, s, runDamage)
	case stepHarm:
		return engine.RunStep(tx, s, runHarm)
	case stepEffect:
		return engine.RunStep(tx, s, runEffect)
	case stepHandle:
		return engine.RunStep(tx, s, runHandle)
	case stepObject:
		return engine.RunStep(tx, s, askObject)
	}
	return fmt.Errorf("d20-tactical: no step %q", s.Kind)
}

// askStep is a question put in a sequence of steps.
type askStep struct {
	Decision engine.Decision `json:"decision"`
	Cont     Cont            `json:"cont"`
}

// ask opens a decision whose data is c.
func ask(tx *engine.Tx, d engine.Decision, c Cont) error {
	return tx.AskWith(d, c)
}

// askee is who answers a question for combatant id: its controller, or
// the GM for a hidden one, so no player reads of it.
func askee(st *State, id string) string {
	if c := st.Combatant(id); c != nil && c.Hidden {
		return engine.GM
	}
	return id
}

// Answer implements engine.Ruleset.
func (Ruleset) Answer(tx *engine.Tx, answers []engine.Answered) error {
	for _, a := range answers {
		var c Cont
		if len(a.Decision.Data) > 0 {
			if err := json.Unmarshal(a.Decision.Data, &c); err != nil {
				return fmt.Errorf("d20-tactical: decision %s: %w", a.Decision.ID, err)
			}
		}
		var err error
		switch a.Decision.Kind {
		case DecReaction:
			if a.Choice == "attack" && c.Reaction != nil {
				err = tx.Run(engine.NewStep(stepAttack, *c.Reaction))
			}
		case DecReady:
			if a.Choice == "act" && c.Ready != nil && state(tx).able(c.Ready.Readier) {
				err = actReady(tx, c.Ready.Readier)
			}
		case DecCritical:
			if c.Critical != nil {
				d := *c.Critical
				d.Crit = a.Choice
				err = tx.Run(engine.NewStep(stepDamage, d))
			}
		case DecMassive:
			if c.Massive != nil {
				h := *c.Massive
				h.Massive = massiveSave
				if a.Choice == "spend" {
					h.Massive = massiveSpent
				}
				err = tx.Run(engine.NewStep(stepHarm, h))
			}
		case DecBackfire:
			err = answerBackfire(tx, c.Backfire, a)
		case DecCover:
			if c.Cover != nil {
				s := *c.Cover
				s.Cover = &Cover{Percent: a.Values.Int("percent"), Material: a.Values.Int("material")}
				err = tx.Run(engine.NewStep(stepAttack, s))
			}
		case DecObject:
			if c.Object != nil && a.Choice == "attack" {
				s := *c.Object
				s.Object = &objectCtx{Defense: a.Values.Int("defense"), Band: a.Values.String("range"), Label: a.Values.String("what")}
				err = tx.Run(engine.NewStep(stepAttack, s))
			} else if a.Choice != "attack" {
				err = tx.Emits(KindAttackLost, "", "The GM rules the object cannot be attacked.", AttackLost{Attacker: c.Object.Attacker})
			}
		case DecEndurance:
			if c.Endurance != nil {
				err = answerEndurance(tx, *c.Endurance, a.Choice == "pass")
			}
		case DecDuration:
			if c.Duration != nil {
				e := *c.Duration
				if n := a.Values.Int("rounds"); n > 0 {
					e.Until = state(tx).Round + n
				}
				e.Ruled = true
				err = tx.Run(engine.NewStep(stepEffect, e))
			}
		default:
			return fray.Errorf(fray.EILLEGAL, "d20-tactical has no decision of kind %q", a.Decision.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// yesNo builds a decision's two options.
func yesNo(yes, yesLabel, no, noLabel string) []engine.Choice {
	return []engine.Choice{{Value: yes, Label: yesLabel}, {Value: no, Label: noLabel}}
}
