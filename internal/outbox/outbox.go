// Package outbox names the notices Fray sends when something happens in an
// encounter — a turn changes, a decision waits, an encounter starts or ends
// — and the reminders other parts of the server ask for.
//
// A notice is a row of the outbox table written in the same transaction as
// what causes it, so it is never lost (the transaction commits) nor sent for
// something that did not happen (it rolls back). A command's notices ride in
// its append (store.Append.Notices, derived with FromEvents); anything else
// that must tell people something — a deadline's reminder, say — enqueues
// with store.DB.Enqueue, or inside one of the store's own transactions with
// the store's enqueue helper, in the transaction that makes it true.
//
// A notice carries no text: it names the event that caused it (encounter
// and seq). The worker (package notify) builds every recipient's text from
// that event as the engine's filter shows it to them, so what a notice says
// can never be more than what its recipient could read on the page.
package outbox

import (
	"encoding/json"

	"github.com/fray-vtt/fray/internal/engine"
)

// Type is what a notice is about. It is the "type" of every delivery made
// from it (docs/protocol.md, Notices).
type Type string

const (
	// Turn: a turn started (an event of kind turn-started).
	Turn Type = "turn"
	// Decision: a decision waits for someone (decision-opened).
	Decision Type = "decision"
	// EncounterStarted: the encounter began (encounter-started).
	EncounterStarted Type = "encounter-started"
	// EncounterEnded: the encounter is over (encounter-ended).
	EncounterEnded Type = "encounter-ended"
	// Reminder: whoever must act at event Seq (a turn or a decision) is
	// reminded; it goes only to Notice.User when set, otherwise to those
	// the event's turn or decision belongs to, and never to webhooks. Data
	// may carry {"due": "<RFC 3339 time>"}: when the wait runs out.
	Reminder Type = "reminder"
)

// Types are the notice types, in the order pages list them.
var Types = []Type{Turn, Decision, EncounterStarted, EncounterEnded, Reminder}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// Notice is one thing to tell people, to be enqueued in the transaction
// that makes it true.
type Notice struct {
	// EncounterID is the encounter the notice is about.
	EncounterID string
	// Seq is the seq of the event the notice is about: recipients read
	// that event, filtered for them.
	Seq  int64
	Type Type
	// User, when not "", is the only user to tell (a reminder to whoever
	// must act); "" tells everyone concerned.
	User string
	// Data, when not nil, is a small JSON object the text is built with
	// (a reminder's "due").
	Data json.RawMessage
}

// kinds maps the engine's event kinds that cause a notice to its type.
var kinds = map[string]Type{
	engine.KindTurnStarted:    Turn,
	engine.KindDecisionOpened: Decision,
	engine.KindStarted:        EncounterStarted,
	engine.KindEnded:          EncounterEnded,
}

// FromEvents returns the notices a command's events cause, one per event
// that causes one, in seq order; nil when there are none (most commands).
// The events must carry their seqs.
func FromEvents(encounterID string, events []engine.Event) []Notice {
	var out []Notice
	for _, ev := range events {
		if t, ok := kinds[ev.Kind]; ok {
			out = append(out, Notice{EncounterID: encounterID, Seq: ev.Seq, Type: t})
		}
	}
	return out
}
