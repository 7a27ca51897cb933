package kit

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
)

// Command is one of a ruleset's command kinds with its handler. GM marks a
// GM command: it names no actor and only the GM may issue it;
// WhileWaiting lets the GM issue it while decisions wait (see
// engine.CommandSpec).
type Command[S State[F], F comparable] struct {
	Kind             string
	GM, WhileWaiting bool
	Decide           func(tx *Tx[S, F], cmd engine.Command) error
}

// None is the data of a step, decision or event that carries none.
type None struct{}

// StepSpec is one kind of step with its handler; make one with OnStep.
type StepSpec[S State[F], F comparable] struct {
	Kind string
	run  func(*Tx[S, F], engine.Step) error
}

// OnStep declares a kind of step whose data is a T (None: no data),
// performed by fn.
func OnStep[S State[F], F comparable, T any](kind string, fn func(tx *Tx[S, F], data T) error) StepSpec[S, F] {
	return StepSpec[S, F]{Kind: kind, run: func(tx *Tx[S, F], s engine.Step) error {
		var d T
		if _, none := any(d).(None); !none && len(s.Data) > 0 {
			// Step.Decode copies the data of a step NewStep built rather
			// than decoding it; its errors name the step.
			if err := s.Decode(&d); err != nil {
				return fmt.Errorf("%s: %w", tx.rules.rules.ID, err)
			}
		}
		return fn(tx, d)
	}}
}

// DecisionSpec is one kind of decision with what its answer does; make
// one with OnAnswer or OnAnswers.
type DecisionSpec[S State[F], F comparable] struct {
	Kind string
	one  func(*Tx[S, F], engine.Answered) error
	all  func(*Tx[S, F], []engine.Answered) error
}

// OnAnswer declares a kind of decision answered one at a time: fn gets
// the decision's data (what Tx.AskWith stored with it) as a T, and the
// answer.
func OnAnswer[S State[F], F comparable, T any](kind string, fn func(tx *Tx[S, F], data T, a engine.Answered) error) DecisionSpec[S, F] {
	return DecisionSpec[S, F]{Kind: kind, one: func(tx *Tx[S, F], a engine.Answered) error {
		d, err := decode[T](a.Decision.Data)
		if err != nil {
			return fmt.Errorf("%s: decision %s: %w", tx.rules.rules.ID, a.Decision.ID, err)
		}
		return fn(tx, d, a)
	}}
}

// OnAnswers declares a kind of decision asked of several parties at once
// (engine.Tx.AskAll) whose answers fn takes together: sealed choices,
// revealed at once.
func OnAnswers[S State[F], F comparable](kind string, fn func(tx *Tx[S, F], answers []engine.Answered) error) DecisionSpec[S, F] {
	return DecisionSpec[S, F]{Kind: kind, all: fn}
}

// EventSpec folds one kind of event into the state; make one with
// OnEvent.
type EventSpec[S engine.State] struct {
	Kind  string
	apply func(S, engine.Event) error
}

// OnEvent declares how an event of kind — the ruleset's, or a core
// event it follows — changes the state: fn gets its data as a T (None:
// the data is not read). A bad event fails replay with the ruleset, the
// kind and the reason.
func OnEvent[S engine.State, T any](kind string, fn func(st S, data T) error) EventSpec[S] {
	return EventSpec[S]{Kind: kind, apply: func(st S, ev engine.Event) error {
		d, err := decodeEvent[T](ev)
		if err != nil {
			return err
		}
		return fn(st, d)
	}}
}

// decode reads data as a T: nothing for None or no data.
func decode[T any](data json.RawMessage) (T, error) {
	var d T
	if _, none := any(d).(None); none || len(data) == 0 {
		return d, nil
	}
	err := json.Unmarshal(data, &d)
	return d, err
}

// decodeEvent reads ev's data as a T, as decode does, through the event's
// Decode: the data of an event being emitted is copied, not decoded.
func decodeEvent[T any](ev engine.Event) (T, error) {
	var d T
	if _, none := any(d).(None); none || len(ev.Data) == 0 {
		return d, nil
	}
	err := ev.Decode(&d)
	return d, err
}

// Found returns f, the ruleset's record of combatant id, or an error when
// there is none (f is the zero F): what an applier reports about an event
// that names someone unknown.
func Found[F comparable](f F, id string) (F, error) {
	var zero F
	if f == zero {
		return f, fmt.Errorf("no fighter %q", id)
	}
	return f, nil
}

// TurnEnded is the data of a ruleset's turn-ended event: whose turn ended.
type TurnEnded struct {
	Fighter string `json:"fighter"`
}

// EndTurn is the handler of the command that ends the acting fighter's
// turn: it emits kind (with TurnEnded) and goes on with then — the next
// turn, say.
func EndTurn[S State[F], F comparable](kind string, then func(tx *Tx[S, F]) error) func(tx *Tx[S, F], cmd engine.Command) error {
	return func(tx *Tx[S, F], cmd engine.Command) error {
		if _, err := tx.Actor(cmd, nil); err != nil {
			return err
		}
		if err := tx.Emits(kind, cmd.Actor, tx.Base().NameOf(cmd.Actor)+" ends the turn.", TurnEnded{Fighter: cmd.Actor}); err != nil {
			return err
		}
		return then(tx)
	}
}

// Prompt declares a kind of decision a ruleset asks a combatant that its
// player's standing orders may answer: the answers an order may give
// (values of the decision's options) and the conditions it may test
// besides engine.Always. See engine.PromptSpec.
type Prompt[S State[F], F comparable] struct {
	Kind, Label, Help string
	Answers           []engine.Choice
	Conditions        []Condition[S, F]
}

// Condition is one condition of a Prompt: Value names it, Label is how the
// player reads it ("the hit would take me out"); make one with When.
type Condition[S State[F], F comparable] struct {
	Value, Label string
	Holds        func(st S, d engine.Decision) bool
}

// When declares a condition tested on the decision's data (what
// Tx.AskWith stored with it) as a T, the state and the decision: a
// decision whose data does not decode does not meet it.
func When[S State[F], F comparable, T any](value, label string, fn func(st S, data T, d engine.Decision) bool) Condition[S, F] {
	return Condition[S, F]{Value: value, Label: label, Holds: func(st S, d engine.Decision) bool {
		data, err := decode[T](d.Data)
		return err == nil && fn(st, data, d)
	}}
}
