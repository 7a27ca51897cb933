package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Step is a piece of a resolution that may have to wait: a reaction's
// attack still to roll, the damage of a blast's next victim, the rest of a move.
// Kind names the ruleset's handler (Stepper.Step), Data its arguments.
//
// A ruleset that pauses ("pause this resolution, ask someone, resume with
// the answer") writes the resolution as steps and runs them with Tx.Run.
// When a step asks a question (Tx.Ask) or gives someone the floor
// (Tx.Interrupt), the steps after it — and whatever waited behind the
// steps being run — are parked on that decision or interruption, in the
// state, so the encounter can be saved, reloaded and replayed in between.
// Once every pending decision is answered (or the interruption ends) the
// engine runs the parked steps. Rulesets keep no continuations of their own.
type Step struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data,omitempty"`

	// typed is a copy of the value Data was encoded from, as decoding
	// Data would make it, while the step is the one NewStep built: Decode
	// copies it rather than decoding (see jsoncopy.go). A step parked in
	// the state, a copied state's or a decoded one's, has none.
	typed any
}

// NewStep builds a step with data marshalled to JSON.
func NewStep(kind string, data any) Step {
	s := Step{Kind: kind}
	if data != nil {
		s.Data = mustJSON(data)
		s.typed = jsonCopyOf(data)
	}
	return s
}

// Decode reads the step's data into v.
func (s Step) Decode(v any) error {
	if err := decodeData("step "+s.Kind, s.typed, s.Data, v); err != nil {
		return fmt.Errorf("step %s: %w", s.Kind, err)
	}
	return nil
}

// RunStep decodes step s's data into a T and performs it with fn: the
// body of a Stepper's case for one kind of step.
func RunStep[T any](tx *Tx, s Step, fn func(*Tx, T) error) error {
	var d T
	if err := s.Decode(&d); err != nil {
		return err
	}
	return fn(tx, d)
}

// Run performs steps in order through the ruleset's Stepper. It stops
// early when a step parks the rest (asks or interrupts) or the encounter
// stops running; the parked steps run later by themselves.
func (tx *Tx) Run(steps ...Step) error {
	if len(steps) == 0 {
		return nil
	}
	stepper, ok := tx.rs.(Stepper)
	if !ok {
		return fmt.Errorf("ruleset %s runs steps but has no Stepper", tx.rs.ID())
	}
	outer := tx.rest
	defer func() { tx.rest = outer }()
	for i, s := range steps {
		if tx.Base().Status != StatusRunning {
			return nil
		}
		tx.rest = append(slices.Clone(steps[i+1:]), outer...)
		parked := tx.parked
		if err := stepper.Step(tx, s); err != nil {
			return err
		}
		if tx.parked != parked {
			return nil
		}
	}
	return nil
}

// park hands the work after the current step to a decision or an
// interruption: once parked it is no longer the caller's to run.
func (tx *Tx) park() []Step {
	tx.parked++
	rest := tx.rest
	tx.rest = nil
	return rest
}

// Trigger identifies a reaction: Reactor responding to Kind (a withdrawal,
// a move past, a fumble) caused by Source. Per is how long a reaction
// spent stays spent: "turn" (until the next turn starts, the default),
// "round" or "encounter". Rulesets put their once-per-trigger limits here
// and check them with Base.Reacted; an event that carries Uses spends one.
type Trigger struct {
	Reactor string `json:"reactor"`
	Kind    string `json:"kind"`
	Source  string `json:"source,omitempty"`
	Per     string `json:"per,omitempty"`
}

// Reaction limits.
const (
	PerTurn      = "turn"
	PerRound     = "round"
	PerEncounter = "encounter"
)

func (t Trigger) same(o Trigger) bool {
	return t.Reactor == o.Reactor && t.Kind == o.Kind && t.Source == o.Source
}

// Reacted reports whether t's reaction is already spent.
func (b *Base) Reacted(t Trigger) bool {
	return slices.ContainsFunc(b.Reactions, t.same)
}

// CanReact reports whether reactor may still react to t: in the fight,
// standing, and not yet spent.
func (b *Base) CanReact(t Trigger) bool {
	c := b.Combatant(t.Reactor)
	return c != nil && c.Fighting() && !b.Reacted(t)
}

// Offer asks t's reactor whether to react (d, put to the reactor) when
// the reactor still may; it reports whether it asked. The ruleset spends
// the reaction with an event that carries Uses (Event.Using) when it
// happens.
func (tx *Tx) Offer(t Trigger, d Decision) (bool, error) {
	if !tx.Base().CanReact(t) {
		return false, nil
	}
	if d.For == "" {
		d.For = t.Reactor
	}
	return true, tx.Ask(d)
}
