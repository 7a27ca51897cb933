package engine

import "encoding/json"

// Tactician is implemented by a ruleset that knows how its fights are
// fought well. A simulation (the encounter odds a GM asks for while
// preparing) plays a fight to its end many times with the GM at the
// controls of every side; at each step it asks the ruleset's Tactician,
// when there is one, for the next command, and otherwise — or when the
// Tactician declines — a generic policy that reads only the offer and the
// board.
//
// A Tactician is pure, like the rest of a ruleset: it reads the state and
// the offer, rolls nothing and keeps nothing between calls, so the same
// state and the same dice always play the same fight. It plays every side
// with the same care, seeing what the GM sees.
type Tactician interface {
	// Tactic picks the next command in st: an answer to one of the
	// decisions waiting, or one of the actions offered (Offer.Actions)
	// with values among those offered. It may build the command from its
	// own state without listing the offer — listing every legal move can
	// cost more than deciding one — but must keep to what the offer would
	// list. ok false leaves the choice to the generic policy. A command
	// the engine refuses is taken out of the offer and Tactic is asked
	// again, so a Tactician need not foresee every refusal.
	Tactic(st State, o *Offer) (cmd Command, ok bool)
}

// Offer is what the GM may do next in a running encounter played by a
// simulation: answer one of the decisions waiting (they come first: while
// any waits, nothing else is offered), or take one of the ruleset's
// actions — the combatants' (Actor set) and the GM's (a ruling, or a step
// only the GM takes, such as beginning a round after declarations). The
// engine's own controls (pause, end, rewind…) are left out: a simulation
// plays the fight as the rules run it.
type Offer struct {
	// Pending are the decisions waiting for an answer.
	Pending []Decision
	// Taken are the commands accepted since the floor last changed hands
	// (a new turn, phase or interruption): what the acting side already
	// did with it, for a policy that must not go round in circles.
	Taken []Command

	rs      Ruleset
	st      State
	actions []Action
	listed  bool
	refused []Command
}

// NewOffer is the GM's offer in st: the unanswered decisions, or, when none
// waits, the ruleset's actions for the GM. taken are the commands accepted
// since the floor last changed hands.
func NewOffer(rs Ruleset, st State, taken []Command) *Offer {
	o := &Offer{rs: rs, st: st, Taken: taken}
	b := st.Core()
	if b.Status != StatusRunning {
		o.listed = true
		return o
	}
	for _, d := range b.Pending {
		if !d.Answered {
			o.Pending = append(o.Pending, d)
		}
	}
	o.listed = len(o.Pending) > 0 || b.Waiting()
	return o
}

// Actions lists the actions offered, but those refused (Refuse). It asks
// the ruleset the first time only.
func (o *Offer) Actions() []Action {
	if !o.listed {
		o.listed = true
		o.actions = o.rs.Actions(o.st, GMViewer())
		for _, cmd := range o.refused {
			o.drop(cmd)
		}
	}
	return o.actions
}

// Refuse takes out of the offer what cmd chose, which the engine refused:
// the decision it answered, or the actor's action of its kind.
func (o *Offer) Refuse(cmd Command) {
	o.refused = append(o.refused, cmd)
	if cmd.Kind == KindAnswer {
		var answered struct {
			Decision string `json:"decision"`
		}
		_ = json.Unmarshal(cmd.Args, &answered)
		for i, d := range o.Pending {
			if d.ID == answered.Decision {
				o.Pending = append(o.Pending[:i:i], o.Pending[i+1:]...)
				break
			}
		}
		return
	}
	if o.listed {
		o.drop(cmd)
	}
}

func (o *Offer) drop(cmd Command) {
	var kept []Action
	for _, a := range o.actions {
		if a.Kind != cmd.Kind || a.Actor != cmd.Actor {
			kept = append(kept, a)
		}
	}
	o.actions = kept
}

// Tried reports whether this very command (its kind, actor and
// arguments) was refused in this offer: a Tactician that guessed (a
// destination, say) may then try another of the same kind.
func (o *Offer) Tried(cmd Command) bool {
	for _, c := range o.refused {
		if c.Kind == cmd.Kind && c.Actor == cmd.Actor && string(c.Args) == string(cmd.Args) {
			return true
		}
	}
	return false
}

// Refused reports whether an action of kind by actor was refused in this
// offer.
func (o *Offer) Refused(kind, actor string) bool {
	for _, c := range o.refused {
		if c.Kind == kind && c.Actor == actor {
			return true
		}
	}
	return false
}

// Answer is the command that answers decision d with choice (and values
// for its fields, when it has any).
func Answer(d Decision, choice string, values map[string]any) Command {
	args := map[string]any{"decision": d.ID, "choice": choice}
	if len(values) > 0 {
		args["values"] = values
	}
	return NewCommand(KindAnswer, "", args)
}
