package engine

import (
	"encoding/json"
	"fmt"
	"reflect"

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
	// Involves names the combatants the event concerns besides its actor
	// and the owners of its rolls (a target, a victim), for the
	// per-character history filters.
	Involves []string `json:"involves,omitempty"`
	// Uses records a reaction spent (see Trigger): the engine adds it to
	// the reaction ledger.
	Uses *Trigger `json:"uses,omitempty"`
	// Audience, when set, limits who may ever see the event to the GM and
	// the controllers of the combatants it names ("gm" stands for the GM):
	// a whisper. Empty means whoever may see the event otherwise.
	Audience []string `json:"audience,omitempty"`
	// Draw, on an event with dice, is where the command's faces come from
	// when they are provable (see dice.go): with each die's At, what anyone
	// recomputes them from once the seed is published.
	Draw *dice.Position `json:"draw,omitempty"`

	// typed is, while the event is being emitted, a copy of the value
	// Data was encoded from, as decoding Data would make it: Decode
	// copies it rather than decoding (see jsoncopy.go). Emit drops it
	// before recording the event.
	typed any
}

// NewEvent builds an event with data marshalled to JSON. Data must be a
// plain struct or map; a marshalling failure is a programming error.
func NewEvent(kind, actor, text string, data any, rolls ...dice.Roll) Event {
	ev := Event{Kind: kind, Actor: actor, Text: text, Rolls: rolls}
	if data != nil {
		ev = ev.withData(data)
	}
	return ev
}

// With returns ev naming ids as involved.
func (e Event) With(ids ...string) Event {
	for _, id := range ids {
		if id != "" && id != e.Actor {
			e.Involves = append(e.Involves, id)
		}
	}
	return e
}

// Using returns ev recording that it spends reaction t.
func (e Event) Using(t Trigger) Event {
	e.Uses = &t
	return e
}

// Decode reads the event's data into v. While the event is emitted, data
// of v's type is copied rather than decoded, with the same result (see
// jsoncopy.go).
func (e Event) Decode(v any) error { return decodeData(e.Kind, e.typed, e.Data, v) }

// decodeData reads data into v: typed, when it is a copy of what data
// decodes to (see jsoncopy.go) of v's type, is copied instead. kind names
// the data in the counts and errors of SetCheckDecode.
func decodeData(kind string, typed any, data json.RawMessage, v any) error {
	if typed == nil || !decodeTyped(typed, v) {
		if checkDecode.Load() {
			countDecode(kind, false)
		}
		return json.Unmarshal(data, v)
	}
	if checkDecode.Load() {
		countDecode(kind, true)
		want := reflect.New(reflect.TypeOf(v).Elem())
		if err := json.Unmarshal(data, want.Interface()); err != nil {
			return fmt.Errorf("%s: data copied, but it does not decode: %w", kind, err)
		}
		if got := reflect.ValueOf(v).Elem().Interface(); !reflect.DeepEqual(got, want.Elem().Interface()) {
			return fmt.Errorf("%s: data copied as %#v, but it decodes to %#v", kind, got, want.Elem().Interface())
		}
	}
	return nil
}

// Core event kinds, applied to Base by the engine before the ruleset sees
// them. Rulesets emit the turn-order ones through the Tx's helpers.
const (
	KindStarted           = "encounter-started"
	KindRoundStarted      = "round-started"
	KindTurnStarted       = "turn-started"
	KindOrderChanged      = "order-changed"
	KindActed             = "acted"
	KindInterruptStarted  = "interrupt-started"
	KindInterruptEnded    = "interrupt-ended"
	KindDecisionOpened    = "decision-opened"
	KindDecisionResolved  = "decision-resolved"
	KindDecisionAnswered  = "decision-answered"
	KindDecisionSealed    = "decision-sealed"
	KindDecisionsRevealed = "decisions-revealed"
	KindCombatantOut      = "combatant-out"
	KindCombatantBack     = "combatant-back"
	KindCombatantDown     = "combatant-down"
	KindCombatantUp       = "combatant-up"
	KindRevealed          = "combatant-revealed"
	KindPaused            = "encounter-paused"
	KindResumed           = "encounter-resumed"
	KindEnded             = "encounter-ended"
)

// RoundStarted is the data of KindRoundStarted: a new round with its turn
// order; no one acts until a turn starts.
type RoundStarted struct {
	Round int      `json:"round"`
	Order []string `json:"order"`
}

// TurnStarted is the data of KindTurnStarted: slot Turn of the order is
// played. Acting is who may act in it, when not just Combatant (a
// simultaneous exchange, a side's phase); Label names such a phase.
type TurnStarted struct {
	Combatant string   `json:"combatant,omitempty"`
	Turn      int      `json:"turn"`
	Acting    []string `json:"acting,omitempty"`
	Label     string   `json:"label,omitempty"`
}

// OrderChanged is the data of KindOrderChanged: the round's order from now
// on, and the index of the slot being played in it (see Reorder).
type OrderChanged struct {
	Order  []string `json:"order"`
	Turn   int      `json:"turn"`
	Reason string   `json:"reason,omitempty"`
}

// Acted is the data of KindActed: Combatant is done acting in the current
// slot (an acting set shrinks).
type Acted struct {
	Combatant string `json:"combatant"`
}

// Interruption is one entry of the interrupt stack: Combatant has the
// floor; Acting had it before and gets it back; Then is the work that
// waits for the interruption to end.
type Interruption struct {
	Combatant string   `json:"combatant"`
	Acting    []string `json:"acting,omitempty"`
	Label     string   `json:"label,omitempty"`
	Then      []Step   `json:"then,omitempty"`
}

// InterruptStarted is the data of KindInterruptStarted.
type InterruptStarted struct {
	Combatant string `json:"combatant"`
	Then      []Step `json:"then,omitempty"`
}

// InterruptEnded is the data of KindInterruptEnded.
type InterruptEnded struct {
	Combatant string `json:"combatant"`
}

// DecisionOpened is the data of KindDecisionOpened. Then is the work
// parked behind the decision (players never see it).
type DecisionOpened struct {
	Decision Decision `json:"decision"`
	Then     []Step   `json:"then,omitempty"`
}

// DecisionResolved is the data of KindDecisionResolved.
type DecisionResolved struct {
	ID     string `json:"id"`
	Choice string `json:"choice"`
	Values Values `json:"values,omitempty"`
	By     string `json:"by"` // "gm" or the combatant whose controller answered
	// DecidedFor is the player on whose behalf the decision was answered:
	// the GM took it over (owner.go), or, with Via, the player's standing
	// order answered it or their time ran out (standing.go).
	DecidedFor string `json:"decidedFor,omitempty"`
	// Via is AgentStanding or AgentFallback when one of them answered;
	// empty otherwise.
	Via string `json:"via,omitempty"`
}

// DecisionAnswered is the data of KindDecisionAnswered: a sealed decision
// has its answer, which stays secret.
type DecisionAnswered struct {
	ID         string `json:"id"`
	By         string `json:"by"`
	DecidedFor string `json:"decidedFor,omitempty"` // as in DecisionResolved
	Via        string `json:"via,omitempty"`        // as in DecisionResolved
	// Commitment, when the answer was committed to rather than given: see
	// Commitment (sealed.go).
	Commitment string `json:"commitment,omitempty"`
}

// DecisionsRevealed is the data of KindDecisionsRevealed: a sealed group's
// answers, all at once.
type DecisionsRevealed struct {
	Group   string           `json:"group"`
	Answers []RevealedAnswer `json:"answers"`
}

// RevealedAnswer is one answer in a DecisionsRevealed.
type RevealedAnswer struct {
	ID     string `json:"id"`
	For    string `json:"for"`
	Choice string `json:"choice"`
	Label  string `json:"label"`
	Values Values `json:"values,omitempty"`
	// Nonce and Committed (the values as committed to) open the answer's
	// commitment: anyone can recompute it (see Commitment). Forfeited: it
	// was not revealed in time, and the default applied.
	Nonce     string          `json:"nonce,omitempty"`
	Committed json.RawMessage `json:"committed,omitempty"`
	Forfeited bool            `json:"forfeited,omitempty"`
}

// CombatantOut is the data of KindCombatantOut, KindCombatantBack,
// KindCombatantDown and KindCombatantUp.
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
