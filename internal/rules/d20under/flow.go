package d20under

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
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

// decisions are the questions of this ruleset, each with its context in
// the decision's Cont.
var decisions = []kit.DecisionSpec[*State, *Fighter]{
	on(DecFreeAttack, func(c Cont) *freeCtx { return c.Free }, answerFreeAttack),
	on(DecHit, func(c Cont) *hitCtx { return c.Hit }, answerHit),
	on(DecPain, func(c Cont) *painCtx { return c.Pain }, answerPain),
	on(DecKnockOut, func(c Cont) *koCtx { return c.KnockOut }, answerKnockOut),
	on(DecPushHazard, func(c Cont) *pushCtx { return c.Push }, answerPushHazard),
	on(DecMishap, func(c Cont) *mishapCtx { return c.Mishap }, answerMishap),
	on(DecTrap, func(c Cont) *trapCtx { return c.Trap }, answerTrap),
	on(DecGaze, func(c Cont) *gazeCtx { return c.Gaze }, answerGaze),
	on(DecPrepared, func(c Cont) *preparedCtx { return c.Prepared }, answerPrepared),
	on(DecFearless, func(c Cont) *terrifyCtx { return c.Terrify }, answerFearless),
	kit.OnAnswer(DecReclaim, answerReclaim),
}

// on declares a decision whose Cont carries a T, which fn answers.
func on[T any](kind string, ctx func(Cont) *T, fn func(tx *Tx, c T, a engine.Answered) error) kit.DecisionSpec[*State, *Fighter] {
	return kit.OnAnswer(kind, func(tx *Tx, c Cont, a engine.Answered) error {
		x := ctx(c)
		if x == nil {
			return fray.Errorf(fray.EILLEGAL, "d20-under: decision %s has no %s context", a.Decision.ID, kind)
		}
		return fn(tx, *x, a)
	})
}
