package d20tactical

import (
	"github.com/fray-vtt/fray/internal/engine"
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

// askStep is a question put in a sequence of steps.
type askStep struct {
	Decision engine.Decision `json:"decision"`
	Cont     Cont            `json:"cont"`
}

// What each answer does, with the decision's Cont.

func answerReaction(tx *Tx, c Cont, a engine.Answered) error {
	if a.Choice == "attack" && c.Reaction != nil {
		return tx.Run(engine.NewStep(stepAttack, *c.Reaction))
	}
	return nil
}

func answerReady(tx *Tx, c Cont, a engine.Answered) error {
	if a.Choice == "act" && c.Ready != nil && tx.State.able(c.Ready.Readier) {
		return actReady(tx, c.Ready.Readier)
	}
	return nil
}

func answerCritical(tx *Tx, c Cont, a engine.Answered) error {
	if c.Critical == nil {
		return nil
	}
	d := *c.Critical
	d.Crit = a.Choice
	return tx.Run(engine.NewStep(stepDamage, d))
}

func answerMassive(tx *Tx, c Cont, a engine.Answered) error {
	if c.Massive == nil {
		return nil
	}
	h := *c.Massive
	h.Massive = massiveSave
	if a.Choice == "spend" {
		h.Massive = massiveSpent
	}
	return tx.Run(engine.NewStep(stepHarm, h))
}

func answerCover(tx *Tx, c Cont, a engine.Answered) error {
	if c.Cover == nil {
		return nil
	}
	s := *c.Cover
	s.Cover = &Cover{Percent: a.Values.Int("percent"), Material: a.Values.Int("material")}
	return tx.Run(engine.NewStep(stepAttack, s))
}

func answerObject(tx *Tx, c Cont, a engine.Answered) error {
	if c.Object != nil && a.Choice == "attack" {
		s := *c.Object
		s.Object = &objectCtx{Defense: a.Values.Int("defense"), Band: a.Values.String("range"), Label: a.Values.String("what")}
		return tx.Run(engine.NewStep(stepAttack, s))
	} else if a.Choice != "attack" {
		return tx.Emits(KindAttackLost, "", "The GM rules the object cannot be attacked.", AttackLost{Attacker: c.Object.Attacker})
	}
	return nil
}

func answerEnduranceRuling(tx *Tx, c Cont, a engine.Answered) error {
	if c.Endurance == nil {
		return nil
	}
	return answerEndurance(tx, *c.Endurance, a.Choice == "pass")
}

func answerDuration(tx *Tx, c Cont, a engine.Answered) error {
	if c.Duration == nil {
		return nil
	}
	e := *c.Duration
	if n := a.Values.Int("rounds"); n > 0 {
		e.Until = tx.State.Round + n
	}
	e.Ruled = true
	return tx.Run(engine.NewStep(stepEffect, e))
}

// yesNo builds a decision's two options.
func yesNo(yes, yesLabel, no, noLabel string) []engine.Choice {
	return []engine.Choice{{Value: yes, Label: yesLabel}, {Value: no, Label: noLabel}}
}
