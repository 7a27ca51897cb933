// Package kit is what every ruleset is built with: a typed adapter from a
// ruleset's own state to engine.Ruleset, so no ruleset casts a state, and
// the glue each would otherwise write again — commands, steps, decisions
// and events declared with their handlers (no list to keep in step with a
// switch), typed appliers with one way of reporting a bad event, options
// whose defaults are in place, and one way to resolve an actor and a
// target, with one set of messages.
//
// A ruleset describes itself with a Rules value and wraps it with New:
//
//	var ruleset = kit.New(kit.Rules[*State, *Fighter]{
//		ID: "my-rules", Title: "My rules", Options: optionSpecs,
//		New: newEncounter, Start: newRound, Board: project, Actions: actions,
//		Commands: []kit.Command[*State, *Fighter]{
//			{Kind: CmdStrike, Decide: decideStrike},
//			{Kind: CmdRuling, GM: true, Decide: decideRuling},
//		},
//		Events: []kit.EventSpec[*State]{
//			kit.OnEvent(KindStruck, (*State).applyStruck),
//		},
//	})
//
// The engine owns everything shared (turn order, decisions, who may issue
// what, who answers a question — see engine.Base.Answerer); the kit only
// types it for the ruleset. docs/architecture.md, "Adding a ruleset", walks
// through a whole one.
package kit

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// State is what a ruleset's encounter state must be for the kit: a pointer
// to a struct that embeds engine.Base (and so round-trips through JSON),
// which finds the ruleset's record of a combatant.
type State[F comparable] interface {
	comparable
	engine.State
	// Fighter returns the ruleset's record of combatant id, or the zero F
	// when there is none.
	Fighter(id string) F
}

// Rules describes a ruleset to the kit. ID, Title, New, Board and Actions
// are required; the rest is optional.
type Rules[S State[F], F comparable] struct {
	// ID is the registry id ("sw-zones"), Title a human name.
	ID, Title string
	// Options are the switches a GM may set. engine.NewEncounter and
	// Decode put every option's value in Base.Options, its default when
	// the GM set none, so Opt and OptInt never look a default up.
	Options []engine.OptionSpec
	// New validates setup — whose generic part, options included, the
	// engine already checked — and builds the initial state.
	New func(setup engine.Setup, base engine.Base) (S, error)
	// Start begins play once the engine emitted KindStarted: deal or roll
	// initiative, open the first round and turn.
	Start func(tx *Tx[S, F]) error
	// Commands are the ruleset's commands, each with its handler.
	Commands []Command[S, F]
	// Steps are the pieces of work that may wait behind a decision (see
	// engine.Step), each with its handler.
	Steps []StepSpec[S, F]
	// Decisions are the questions the ruleset asks, each with what its
	// answer does.
	Decisions []DecisionSpec[S, F]
	// Events fold the ruleset's events, and any core event it follows,
	// into its part of the state.
	Events []EventSpec[S]
	// Settle tidies up after every command the engine decided for the
	// ruleset (see engine.Settler). Nil ends the encounter when one side
	// alone is left (Tx.LastStanding).
	Settle func(tx *Tx[S, F]) error
	// CanAct is the ruleset's own check that the fighter acting may act
	// now (not down, the first round begun…), run by Tx.Actor after the
	// kit's. Nil: anyone whose turn it is may act.
	CanAct func(st S, f F) error
	// Board is the one projection of the encounter: the battlefield and
	// every token as viewer v may see them (see board.Board).
	Board func(st S, v engine.Viewer) *board.Board
	// Editor describes the battlefield editor for the prep pages.
	Editor board.Editor
	// Actions are the commands v may issue now, for the page and bots.
	Actions func(st S, v engine.Viewer) []engine.Action
	// Prompts are the decisions asked of a combatant that its player's
	// standing orders may answer while the player is away or out of time
	// (see engine.Prompter); each kind must be one of Decisions.
	Prompts []Prompt[S, F]
	// Pass is the command, with no arguments, by which fighter f passes
	// its turn doing nothing (the ruleset's own end of a turn; the one
	// thing a fighter in a bad way may still do): what a timer sends when
	// a player's time runs out on their turn; "" when it cannot (a timer
	// pauses instead). Nil: no fighter can. PassWith(kind) is a Pass that
	// is always kind.
	Pass func(st S, f F) string
}

// Ruleset is a Rules made into an engine.Ruleset (and an engine.Stepper,
// engine.Settler and engine.Boarder). A ruleset package embeds it in its
// own type, which adds the optional interfaces it implements (stat
// schema, carry-over).
type Ruleset[S State[F], F comparable] struct {
	rules     Rules[S, F]
	specs     []engine.CommandSpec
	commands  map[string]func(*Tx[S, F], engine.Command) error
	steps     map[string]func(*Tx[S, F], engine.Step) error
	decisions map[string]DecisionSpec[S, F]
	events    map[string]func(S, engine.Event) error
	prompts   []engine.PromptSpec
	holds     map[string]func(S, engine.Decision) bool // "kind/condition"
}

// New makes r a ruleset. A malformed description — a required part
// missing, a kind declared twice — is a programming error: it panics, so
// the first test of the ruleset fails.
func New[S State[F], F comparable](r Rules[S, F]) *Ruleset[S, F] {
	if r.ID == "" || r.Title == "" || r.New == nil || r.Board == nil || r.Actions == nil {
		panic("kit: a ruleset needs an ID, a Title, New, Board and Actions")
	}
	rs := &Ruleset[S, F]{rules: r,
		commands:  map[string]func(*Tx[S, F], engine.Command) error{},
		steps:     map[string]func(*Tx[S, F], engine.Step) error{},
		decisions: map[string]DecisionSpec[S, F]{},
		events:    map[string]func(S, engine.Event) error{},
	}
	once := func(what, kind string, seen bool) {
		if kind == "" || seen {
			panic(fmt.Sprintf("kit: %s: %s %q is empty or declared twice", r.ID, what, kind))
		}
	}
	for _, c := range r.Commands {
		_, seen := rs.commands[c.Kind]
		once("command", c.Kind, seen)
		if c.Decide == nil {
			panic(fmt.Sprintf("kit: %s: command %q has no handler", r.ID, c.Kind))
		}
		rs.commands[c.Kind] = c.Decide
		rs.specs = append(rs.specs, engine.CommandSpec{Kind: c.Kind, GM: c.GM, WhileWaiting: c.WhileWaiting})
	}
	for _, s := range r.Steps {
		_, seen := rs.steps[s.Kind]
		once("step", s.Kind, seen)
		rs.steps[s.Kind] = s.run
	}
	for _, d := range r.Decisions {
		_, seen := rs.decisions[d.Kind]
		once("decision", d.Kind, seen)
		rs.decisions[d.Kind] = d
	}
	for _, e := range r.Events {
		_, seen := rs.events[e.Kind]
		once("event", e.Kind, seen)
		rs.events[e.Kind] = e.apply
	}
	rs.holds = map[string]func(S, engine.Decision) bool{}
	for _, p := range r.Prompts {
		if _, ok := rs.decisions[p.Kind]; !ok {
			panic(fmt.Sprintf("kit: %s: prompt %q is not a declared decision", r.ID, p.Kind))
		}
		spec := engine.PromptSpec{Kind: p.Kind, Label: p.Label, Help: p.Help, Answers: p.Answers}
		for _, c := range p.Conditions {
			if c.Holds == nil {
				panic(fmt.Sprintf("kit: %s: prompt %q: condition %q has no test", r.ID, p.Kind, c.Value))
			}
			spec.Conditions = append(spec.Conditions, engine.Choice{Value: c.Value, Label: c.Label})
			rs.holds[p.Kind+"/"+c.Value] = c.Holds
		}
		rs.prompts = append(rs.prompts, spec)
	}
	if err := engine.CheckPrompts(rs.prompts); err != nil {
		panic(fmt.Sprintf("kit: %s: %v", r.ID, err))
	}
	return rs
}

// PassWith is a Rules.Pass that passes every fighter's turn with kind.
func PassWith[S State[F], F comparable](kind string) func(S, F) string {
	return func(S, F) string { return kind }
}

// Prompts implements engine.Prompter.
func (r *Ruleset[S, F]) Prompts() []engine.PromptSpec { return slices.Clone(r.prompts) }

// Holds implements engine.Prompter.
func (r *Ruleset[S, F]) Holds(s engine.State, d engine.Decision, condition string) bool {
	h, ok := r.holds[d.Kind+"/"+condition]
	st, err := r.state(s)
	return ok && err == nil && h(st, d)
}

// Pass implements engine.Passer: the ruleset's Pass, when it declares a
// command of its own.
func (r *Ruleset[S, F]) Pass(s engine.State, actor string) string {
	var zero F
	st, err := r.state(s)
	if err != nil || r.rules.Pass == nil {
		return ""
	}
	f := st.Fighter(actor)
	if f == zero {
		return ""
	}
	if kind := r.rules.Pass(st, f); kind != "" {
		if _, ok := r.commands[kind]; ok {
			return kind
		}
	}
	return ""
}

// ID implements engine.Ruleset.
func (r *Ruleset[S, F]) ID() string { return r.rules.ID }

// Title implements engine.Ruleset.
func (r *Ruleset[S, F]) Title() string { return r.rules.Title }

// Options implements engine.Ruleset.
func (r *Ruleset[S, F]) Options() []engine.OptionSpec { return slices.Clone(r.rules.Options) }

// Commands implements engine.Ruleset. The engine only reads the slice.
func (r *Ruleset[S, F]) Commands() []engine.CommandSpec { return r.specs }

// New implements engine.Ruleset.
func (r *Ruleset[S, F]) New(setup engine.Setup, base engine.Base) (engine.State, error) {
	st, err := r.rules.New(setup, base)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Decode implements engine.Ruleset. Options the snapshot lacks (added to
// the ruleset after the encounter was made) get their defaults.
func (r *Ruleset[S, F]) Decode(snapshot []byte) (engine.State, error) {
	var st, none S
	if err := json.Unmarshal(snapshot, &st); err != nil {
		return nil, fmt.Errorf("decode %s state: %w", r.rules.ID, err)
	}
	if st == none {
		return nil, fmt.Errorf("decode %s state: empty", r.rules.ID)
	}
	r.fillOptions(st.Core())
	return st, nil
}

// state is s as the ruleset's own state.
func (r *Ruleset[S, F]) state(s engine.State) (S, error) {
	st, ok := s.(S)
	if !ok {
		return st, fmt.Errorf("%s: state is %T", r.rules.ID, s)
	}
	return st, nil
}

// tx wraps the engine's tx for the ruleset.
func (r *Ruleset[S, F]) tx(etx *engine.Tx) (*Tx[S, F], error) {
	st, err := r.state(etx.State())
	if err != nil {
		return nil, err
	}
	return &Tx[S, F]{Tx: etx, State: st, rules: r}, nil
}

// Start implements engine.Ruleset.
func (r *Ruleset[S, F]) Start(etx *engine.Tx) error {
	if r.rules.Start == nil {
		return nil
	}
	tx, err := r.tx(etx)
	if err != nil {
		return err
	}
	return r.rules.Start(tx)
}

// Decide implements engine.Ruleset: the command's own handler.
func (r *Ruleset[S, F]) Decide(etx *engine.Tx, cmd engine.Command) error {
	h, ok := r.commands[cmd.Kind]
	if !ok {
		return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
	}
	tx, err := r.tx(etx)
	if err != nil {
		return err
	}
	return h(tx, cmd)
}

// Step implements engine.Stepper.
func (r *Ruleset[S, F]) Step(etx *engine.Tx, s engine.Step) error {
	h, ok := r.steps[s.Kind]
	if !ok {
		return fmt.Errorf("%s: no step %q", r.rules.ID, s.Kind)
	}
	tx, err := r.tx(etx)
	if err != nil {
		return err
	}
	return h(tx, s)
}

// Answer implements engine.Ruleset: a group answered together (sealed
// choices) goes to its decision's OnAnswers handler at once; any other
// answer to its own OnAnswer handler.
func (r *Ruleset[S, F]) Answer(etx *engine.Tx, answers []engine.Answered) error {
	if len(answers) == 0 {
		return nil
	}
	tx, err := r.tx(etx)
	if err != nil {
		return err
	}
	if d, ok := r.decisions[answers[0].Decision.Kind]; ok && d.all != nil {
		return d.all(tx, answers)
	}
	for _, a := range answers {
		d, ok := r.decisions[a.Decision.Kind]
		if !ok || d.one == nil {
			return fray.Errorf(fray.EILLEGAL, "%s has no decision of kind %q", r.rules.ID, a.Decision.Kind)
		}
		if err := d.one(tx, a); err != nil {
			return err
		}
	}
	return nil
}

// Settle implements engine.Settler.
func (r *Ruleset[S, F]) Settle(etx *engine.Tx) error {
	if r.rules.Settle == nil {
		_, err := etx.LastStanding()
		return err
	}
	tx, err := r.tx(etx)
	if err != nil {
		return err
	}
	return r.rules.Settle(tx)
}

// Apply implements engine.Ruleset: the event's applier, if the ruleset
// follows its kind. A rewind brings back an older snapshot: options it
// lacks get their defaults, as in Decode.
func (r *Ruleset[S, F]) Apply(s engine.State, ev engine.Event) error {
	if ev.Kind == engine.KindRewound {
		r.fillOptions(s.Core())
	}
	h, ok := r.events[ev.Kind]
	if !ok {
		return nil
	}
	st, err := r.state(s)
	if err != nil {
		return err
	}
	if err := h(st, ev); err != nil {
		return fmt.Errorf("%s: %s: %w", r.rules.ID, ev.Kind, err)
	}
	return nil
}

// Board implements engine.Boarder.
func (r *Ruleset[S, F]) Board(s engine.State, v engine.Viewer) *board.Board {
	st, err := r.state(s)
	if err != nil {
		return nil
	}
	return r.rules.Board(st, v)
}

// Editor implements engine.Boarder.
func (r *Ruleset[S, F]) Editor() board.Editor { return r.rules.Editor }

// Actions implements engine.Ruleset.
func (r *Ruleset[S, F]) Actions(s engine.State, v engine.Viewer) []engine.Action {
	st, err := r.state(s)
	if err != nil {
		return nil
	}
	return r.rules.Actions(st, v)
}

// StateOf returns s as the ruleset's state, for the optional interfaces
// that get an engine.State (tactics); ok false when s is another's.
func (r *Ruleset[S, F]) StateOf(s engine.State) (st S, ok bool) {
	st, err := r.state(s)
	return st, err == nil
}

// Of returns s as the ruleset's state and its record of combatant id, for
// the optional interfaces that get an engine.State (carry-over): an
// unknown id is not found.
func (r *Ruleset[S, F]) Of(s engine.State, id string) (S, F, error) {
	var zero F
	st, err := r.state(s)
	if err != nil {
		return st, zero, err
	}
	f := st.Fighter(id)
	if f == zero {
		return st, zero, fray.Errorf(fray.ENOTFOUND, "no fighter %q", id)
	}
	return st, f, nil
}
