package d20under

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Reactions and rulings pause a command: a free attack offered to its
// reactor, a feat offered to someone hit, the GM ruling on a hazard. Each
// is an engine.Decision whose Data is a Cont, the decision's context; the
// work still to do (the next free attack, the rest of a move) is written
// as engine steps that the engine parks behind the decision and resumes
// after the answer, so an answer carries on exactly where the command
// stopped and replaying the events rebuilds the same state.

// Decision kinds of this ruleset.
const (
	DecFreeAttack = "free-attack"
	DecHit        = "hit"         // Perfect Defence or Resilience, or take it
	DecPain       = "pain"        // prone or a free attack
	DecKnockOut   = "knock-out"   // how long (GM)
	DecPushHazard = "push-hazard" // what the push does (GM)
	DecMishap     = "alchemical-mishap"
	DecTrap       = "trap" // jump, go around or stop
	DecGaze       = "steely-gaze"
	DecPrepared   = "prepared"
	DecFearless   = "fearless"
	DecReclaim    = "reclaim"
)

// Cont is a pending decision's context.
type Cont struct {
	Free     *freeCtx     `json:"free,omitempty"`
	Hit      *hitCtx      `json:"hit,omitempty"`
	Pain     *painCtx     `json:"pain,omitempty"`
	KnockOut *koCtx       `json:"knockOut,omitempty"`
	Push     *pushCtx     `json:"push,omitempty"`
	Mishap   *mishapCtx   `json:"mishap,omitempty"`
	Trap     *trapCtx     `json:"trap,omitempty"`
	Gaze     *gazeCtx     `json:"gaze,omitempty"`
	Prepared *preparedCtx `json:"prepared,omitempty"`
	Terrify  *terrifyCtx  `json:"terrify,omitempty"`
}

// Step kinds: the pieces of work that may wait behind a decision.
const (
	stepStrike = "strike"      // one attack (attack.go)
	stepDamage = "damage"      // the damage of a hit (attack.go)
	stepFree   = "free-attack" // a free attack, offered or made (freeattack.go)
	stepMoveTo = "move-to"     // the next stretch of a move (movement.go)
	stepTrap   = "trap"        // a trap in the way (traps.go)
	stepAfter  = "after-move"  // long weapons on arrival, a charge's attack (movement.go)
	stepLadder = "ladder-move" // a move on the distance categories (movement.go)
)

// Step implements engine.Stepper.
func (Ruleset) Step(tx *engine.Tx, s engine.Step) error {
	switch s.Kind {
	case stepStrike:
		return engine.RunStep(tx, s, runStrike)
	case stepDamage:
		return engine.RunStep(tx, s, runDamage)
	case stepFree:
		return engine.RunStep(tx, s, runFreeAttack)
	case stepMoveTo:
		return engine.RunStep(tx, s, runMoveTo)
	case stepTrap:
		return engine.RunStep(tx, s, runTrap)
	case stepAfter:
		return engine.RunStep(tx, s, runAfterMove)
	case stepLadder:
		return engine.RunStep(tx, s, runLadderMove)
	case stepSurpriseDone:
		return surpriseDone(tx)
	}
	return fmt.Errorf("d20-under: no step %q", s.Kind)
}

// ask opens a decision whose data is c. A decision for a hidden fighter
// goes to the GM, so that no player learns of it.
func ask(tx *engine.Tx, d engine.Decision, c Cont) error {
	d.For = askee(tx, d.For)
	return tx.AskWith(d, c)
}

// askee is who answers for fighter id: the GM for a hidden one or an NPC.
func askee(tx *engine.Tx, id string) string {
	if id == engine.GM {
		return id
	}
	if c := tx.Base().Combatant(id); c == nil || c.Hidden || !c.PC {
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
				return fmt.Errorf("d20-under: decision %s: %w", a.Decision.ID, err)
			}
		}
		var err error
		switch {
		case a.Decision.Kind == DecFreeAttack && c.Free != nil:
			err = answerFreeAttack(tx, *c.Free, a.Choice)
		case a.Decision.Kind == DecHit && c.Hit != nil:
			err = answerHit(tx, *c.Hit, a.Choice)
		case a.Decision.Kind == DecPain && c.Pain != nil:
			err = answerPain(tx, *c.Pain, a.Choice)
		case a.Decision.Kind == DecKnockOut && c.KnockOut != nil:
			err = answerKnockOut(tx, *c.KnockOut, a.Choice, a.Values)
		case a.Decision.Kind == DecPushHazard && c.Push != nil:
			err = answerPushHazard(tx, *c.Push, a.Choice, a.Values)
		case a.Decision.Kind == DecMishap && c.Mishap != nil:
			err = answerMishap(tx, *c.Mishap, a.Choice)
		case a.Decision.Kind == DecTrap && c.Trap != nil:
			err = answerTrap(tx, *c.Trap, a.Choice)
		case a.Decision.Kind == DecGaze && c.Gaze != nil:
			err = answerGaze(tx, *c.Gaze, a.Choice, a.Values)
		case a.Decision.Kind == DecPrepared && c.Prepared != nil:
			err = answerPrepared(tx, *c.Prepared, a.Choice)
		case a.Decision.Kind == DecFearless && c.Terrify != nil:
			err = answerFearless(tx, *c.Terrify, a.Choice)
		case a.Decision.Kind == DecReclaim:
			err = answerReclaim(tx, a.Choice)
		default:
			return fray.Errorf(fray.EILLEGAL, "d20-under has no decision of kind %q", a.Decision.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
