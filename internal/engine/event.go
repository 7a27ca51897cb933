package engine

import (
	"encoding/json"

	"github.com/fray-vtt/fray/internal/dice"
)

// Event is one thing that happened in an encounter. Events are the history:
// they are appended, never changed, and folding them rebuilds the state.
type Event struct {
	Seq     int64           `json:"seq"`
	Kind    string          `json:"kind"`
	Round   int             `json:"round"`
	Actor   string          `json:"actor,omitempty"`
	Text    string          `json:"text"`              // the log line a person reads
	Rolls   []dice.Roll     `json:"rolls,omitempty"`   // every die rolled for this event
	Data    json.RawMessage `json:"data,omitempty"`    // the ruleset's payload
	Secret  bool            `json:"secret,omitempty"`  // seen only by the GM and the actor's controllers
	Command string          `json:"command,omitempty"` // the client command id that caused it
}

// NewEvent builds an event with data marshalled to JSON. Data must be a
// plain struct or map; a marshalling failure is a programming error.
func NewEvent(kind, actor, text string, data any, rolls ...dice.Roll) Event {
	ev := Event{Kind: kind, Actor: actor, Text: text, Rolls: rolls}
	if data != nil {
		raw, err := json.Marshal(data)
		if err != nil {
			panic("engine.NewEvent: " + err.Error())
		}
		ev.Data = raw
	}
	return ev
}

// Decode reads the event's data into v.
func (e Event) Decode(v any) error { return json.Unmarshal(e.Data, v) }

// Core event kinds, applied by the engine before the ruleset sees them.
const (
	KindStarted          = "encounter-started"
	KindRoundStarted     = "round-started"
	KindTurnStarted      = "turn-started"
	KindDecisionOpened   = "decision-opened"
	KindDecisionResolved = "decision-resolved"
	KindCombatantOut     = "combatant-out"
	KindRevealed         = "combatant-revealed"
	KindPaused           = "encounter-paused"
	KindResumed          = "encounter-resumed"
	KindEnded            = "encounter-ended"
)

// RoundStarted is the data of KindRoundStarted.
type RoundStarted struct {
	Round int      `json:"round"`
	Order []string `json:"order"`
}

// TurnStarted is the data of KindTurnStarted.
type TurnStarted struct {
	Combatant string `json:"combatant"`
	Turn      int    `json:"turn"` // index into the round's order
}

// DecisionOpened is the data of KindDecisionOpened.
type DecisionOpened struct {
	Decision Decision `json:"decision"`
}

// DecisionResolved is the data of KindDecisionResolved.
type DecisionResolved struct {
	ID     string `json:"id"`
	Choice string `json:"choice"`
	By     string `json:"by"` // "gm" or the combatant whose controller answered
}

// CombatantOut is the data of KindCombatantOut.
type CombatantOut struct {
	Combatant string `json:"combatant"`
	Reason    string `json:"reason"`
}

// Revealed is the data of KindRevealed.
type Revealed struct {
	Combatant string `json:"combatant"`
}

// Ended is the data of KindEnded.
type Ended struct {
	Outcome Outcome `json:"outcome"`
}
