package d6bands

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
)

// Three things pause a command and ask someone (engine decisions):
//   - defense: the target of a melee attack or of a shot in close contact
//     chooses how many Defense Pool dice to spend (a number field);
//   - stray: the GM confirms what a stray shot hits (stray-ruling "ask");
//   - duel-skill: both sides of an Extreme range duel secretly pick a
//     skill (sealed, revealed together).
//
// An attack is written as two steps — the defense, then the roll — run
// with Tx.Run, so the roll waits behind the defense question and resumes
// once it is answered. A question about a combatant the GM keeps hidden is
// put to that combatant all the same: the GM answers it (as for every
// combatant the GM runs), and the engine keeps the question — whose actor
// the hidden combatant is — from players altogether.

// Decision kinds of this ruleset.
const (
	DecDefense = "defense"
	DecStray   = "stray"
	DecDuel    = "duel-skill"
)

// Cont is a decision's context (its Data, seen by the GM only).
type Cont struct {
	Defense *defenseCtx `json:"defense,omitempty"`
	Stray   *strayCtx   `json:"stray,omitempty"`
	Duel    *duelCtx    `json:"duel,omitempty"`
}

// Step kinds.
const (
	stepDefense = "defense" // ask the target of the attack under way about its Defense Pool
	stepAttack  = "attack"  // roll the attack under way
)

// contJSON encodes a decision's context.
func contJSON(c Cont) json.RawMessage {
	raw, err := json.Marshal(c)
	if err != nil {
		panic("d6-bands: " + err.Error())
	}
	return raw
}

// answerStray carries out the GM's ruling on a stray shot.
func answerStray(tx *Tx, c Cont, a engine.Answered) error {
	if c.Stray == nil {
		return fmt.Errorf("stray decision %s has no context", a.Decision.ID)
	}
	return strayLands(tx, *c.Stray, a.Choice)
}
