package engine

import (
	"encoding/json"
	"slices"

	"github.com/fray-vtt/fray/internal/fray"
)

// Ruleset is one game's rules: its statistics, positioning, actions, harm and
// initiative. Implementations are pure: no IO, no clock, dice only from the
// Tx. A ruleset never mutates state in Decide except by emitting events.
type Ruleset interface {
	// ID is the registry id, e.g. "sw-zones".
	ID() string
	// Title is a human name, e.g. "Savage Worlds — zones".
	Title() string
	// Options lists every switch a GM may set, with defaults.
	Options() []OptionSpec
	// New validates setup (whose generic part the engine already checked)
	// and builds the encounter's initial state, status StatusSetup.
	New(setup Setup, base Base) (State, error)
	// Decode restores a state from its JSON snapshot.
	Decode(snapshot []byte) (State, error)
	// Start begins play after the engine emitted KindStarted: deal or roll
	// initiative, open the first round and turn.
	Start(tx *Tx) error
	// Decide resolves one of the ruleset's commands by emitting events.
	// The engine has checked status, pending decisions and that the viewer
	// controls cmd.Actor.
	Decide(tx *Tx, cmd Command) error
	// Answer carries out the consequence of a pending decision being
	// answered; the engine already emitted KindDecisionResolved.
	Answer(tx *Tx, d Decision, choice string) error
	// Apply folds one event into st. Core events reach it too, after the
	// engine updated Base, so the ruleset can react (e.g. reset movement).
	Apply(st State, ev Event) error
	// Project returns the ruleset part of what v may see (JSON-encodable).
	Project(st State, v Viewer) any
	// Actions lists the commands v may issue now, for the page and bots.
	Actions(st State, v Viewer) []Action
}

// OptionSpec describes one ruleset option a GM may switch.
type OptionSpec struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"`
	Help    string   `json:"help,omitempty"`
	Default string   `json:"default"`
	Choices []Choice `json:"choices"`
}

// Action is a command a viewer may issue now, described so that a page can
// render it as a button or a small form without ruleset-specific code.
type Action struct {
	Kind   string  `json:"kind"`
	Actor  string  `json:"actor,omitempty"`
	Label  string  `json:"label"`
	Help   string  `json:"help,omitempty"`
	Fields []Field `json:"fields,omitempty"`
}

// Field is one input of an Action: a select, a number or a checkbox.
type Field struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"`
	Type    string   `json:"type"` // "select", "number" or "checkbox"
	Options []Choice `json:"options,omitempty"`
	Default string   `json:"default,omitempty"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
}

// Setup is the document an encounter is created from: the import format.
type Setup struct {
	Name        string            `json:"name"`
	Ruleset     string            `json:"ruleset"`
	Options     map[string]string `json:"options,omitempty"`
	Sides       []Side            `json:"sides"`
	Combatants  []CombatantSetup  `json:"combatants"`
	Battlefield json.RawMessage   `json:"battlefield,omitempty"`
}

// CombatantSetup is one combatant in a Setup: the generic identity plus the
// ruleset's statistics and starting position, both parsed by the ruleset.
type CombatantSetup struct {
	Combatant
	Stats json.RawMessage `json:"stats,omitempty"`
	Start json.RawMessage `json:"start,omitempty"`
}

// Registry maps ruleset ids to rulesets.
type Registry struct {
	byID map[string]Ruleset
	ids  []string
}

// NewRegistry registers rulesets; duplicate ids panic.
func NewRegistry(rulesets ...Ruleset) *Registry {
	r := &Registry{byID: map[string]Ruleset{}}
	for _, rs := range rulesets {
		if _, dup := r.byID[rs.ID()]; dup {
			panic("engine: ruleset registered twice: " + rs.ID())
		}
		r.byID[rs.ID()] = rs
		r.ids = append(r.ids, rs.ID())
	}
	slices.Sort(r.ids)
	return r
}

// Get returns the ruleset with id.
func (r *Registry) Get(id string) (Ruleset, error) {
	rs, ok := r.byID[id]
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "unknown ruleset %q (known: %v)", id, r.ids)
	}
	return rs, nil
}

// All returns every ruleset ordered by id.
func (r *Registry) All() []Ruleset {
	out := make([]Ruleset, len(r.ids))
	for i, id := range r.ids {
		out[i] = r.byID[id]
	}
	return out
}
