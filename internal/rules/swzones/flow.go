package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
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
