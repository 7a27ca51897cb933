package d20duel

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// A round is a chain of decisions: the sealed stances of every engaged
// set, a weapon to knock away, a retreat, the GM's "hurt or distracted",
// the maneuvers. Each is an engine.Decision whose Data is its context;
// the work still to do behind it (the next blows, who falls, the next
// pair's maneuvering, the next round) is written as engine steps run with
// Tx.Run, which the engine parks behind a question and resumes after the
// answer — so a round can be saved, reloaded and replayed at any point.

// Decision kinds of this ruleset.
const (
	DecStance   = "stance"
	DecDrop     = "drop"
	DecRetreat  = "retreat"
	DecHurt     = "hurt-or-distracted"
	DecManeuver = "maneuver"
	DecVeto     = "veto"
)

// Step kinds.
const (
	stepExchange = "exchange"  // open the round's exchange: ask the stances
	stepRoundEnd = "round-end" // after the exchange: the next round
	stepAttack   = "attack"    // one attack roll
	stepCounter  = "counter"   // a Defensive fighter's counter-attack, if the opening came
	stepFallout  = "fallout"   // who the blows took out of the fight
	stepManeuver = "maneuver"  // a pair's distance after its exchange
	stepOffer    = "offer"     // ask who maneuvers, knowing who was hurt
	stepTest     = "test"      // roll a test
	stepVeto     = "veto"      // ask the GM to allow a player's test
	stepActed    = "acted"     // a fighter's approach action is done
)

// falloutStep names the fighters the last blows may have finished.
type falloutStep struct {
	Fighters []string `json:"fighters"`
}

// Step implements engine.Stepper.
func (Ruleset) Step(tx *engine.Tx, s engine.Step) error {
	switch s.Kind {
	case stepExchange:
		return startExchange(tx)
	case stepRoundEnd:
		return newRound(tx)
	case stepAttack:
		return engine.RunStep(tx, s, runAttack)
	case stepCounter:
		return engine.RunStep(tx, s, runCounter)
	case stepFallout:
		return engine.RunStep(tx, s, func(tx *engine.Tx, f falloutStep) error { return fallout(tx, f.Fighters) })
	case stepManeuver:
		return engine.RunStep(tx, s, runManeuver)
	case stepOffer:
		return engine.RunStep(tx, s, offerManeuver)
	case stepTest:
		return engine.RunStep(tx, s, rollAttempt)
	case stepVeto:
		return engine.RunStep(tx, s, askVeto)
	case stepActed:
		return engine.RunStep(tx, s, runActed)
	}
	return fmt.Errorf("d20-duel: no step %q", s.Kind)
}

// ask opens a decision whose data is c.
func ask(tx *engine.Tx, d engine.Decision, c any) error {
	return tx.AskWith(d, c)
}

// askee is who answers a question about fighter id: the GM for a hidden
// one, so that no prompt names someone players cannot see.
func askee(tx *engine.Tx, id string) string {
	if c := tx.Base().Combatant(id); c != nil && c.Hidden {
		return engine.GM
	}
	return id
}

// Answer implements engine.Ruleset: a sealed set of stances or a pair's
// maneuvers come together; every other decision alone.
func (Ruleset) Answer(tx *engine.Tx, answers []engine.Answered) error {
	if len(answers) == 0 {
		return nil
	}
	switch answers[0].Decision.Kind {
	case DecStance:
		return answerStances(tx, answers)
	case DecManeuver:
		return answerManeuver(tx, answers)
	}
	for _, a := range answers {
		var err error
		switch a.Decision.Kind {
		case DecDrop:
			err = answerWith(a, func(c dropCtx) error { return answerDrop(tx, c, a.Choice) })
		case DecRetreat:
			err = answerWith(a, func(c retreatCtx) error { return answerRetreat(tx, c, a.Choice) })
		case DecHurt:
			err = answerWith(a, func(c hurtCtx) error { return answerHurt(tx, c, a.Choice) })
		case DecVeto:
			err = answerWith(a, func(c testArgs) error { return answerVeto(tx, c, a.Choice) })
		default:
			return fray.Errorf(fray.EILLEGAL, "d20-duel has no decision of kind %q", a.Decision.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// answerWith decodes an answered decision's context into a T.
func answerWith[T any](a engine.Answered, fn func(T) error) error {
	var c T
	if err := a.Decision.Decode(&c); err != nil {
		return fmt.Errorf("d20-duel: decision %s: %w", a.Decision.ID, err)
	}
	return fn(c)
}
