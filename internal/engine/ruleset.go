package engine

import (
	"encoding/json"
	"slices"

	"github.com/fray-vtt/fray/internal/fray"
)

// Ruleset is one game's rules: its statistics, positioning, actions, harm and
// initiative. Implementations are pure: no IO, no clock, dice only from the
// Tx. A ruleset never mutates state in Decide except by emitting events, and
// never writes Base: turn order, decisions and the rest of Base change only
// through the engine's core events, which a ruleset emits with the Tx's
// helpers (StartRound, StartTurn, Reorder, Interrupt, Ask, …).
type Ruleset interface {
	// ID is the registry id, e.g. "toy".
	ID() string
	// Title is a human name, e.g. "Swords and sorcery — zones".
	Title() string
	// Options lists every switch a GM may set, with defaults.
	Options() []OptionSpec
	// Commands lists the ruleset's command kinds. The engine refuses any
	// other kind as unknown, checks who may issue each, and only then
	// calls Decide.
	Commands() []CommandSpec
	// New validates setup (whose generic part the engine already checked)
	// and builds the encounter's initial state, status StatusSetup.
	New(setup Setup, base Base) (State, error)
	// Decode restores a state from its JSON snapshot.
	Decode(snapshot []byte) (State, error)
	// Start begins play after the engine emitted KindStarted: deal or roll
	// initiative, open the first round and turn.
	Start(tx *Tx) error
	// Decide resolves one of the ruleset's commands by emitting events.
	// The engine has checked the kind, the status, that no decision is
	// pending and who issued it (CommandSpec).
	Decide(tx *Tx, cmd Command) error
	// Answer carries out the consequence of answered decisions: one
	// decision, or every decision of a sealed group at once after the
	// engine revealed them. The work parked behind them (Tx.Run) resumes
	// afterwards by itself.
	Answer(tx *Tx, answers []Answered) error
	// Apply folds one event into st. Core events reach it too, after the
	// engine updated Base, so the ruleset can react (e.g. reset movement).
	// It must not change Base.
	Apply(st State, ev Event) error
	// Actions lists the commands v may issue now, for the page and bots:
	// a combatant's actions, and for the GM the ruleset's GM commands.
	Actions(st State, v Viewer) []Action
}

// Describer is implemented by rulesets that say in one line what a fight
// under them is like, for a GM choosing an encounter.
type Describer interface {
	Description() string
}

// Stepper is implemented by rulesets whose resolutions pause: a step is a
// piece of work that may wait behind a decision or an interruption (see
// Tx.Run). Step performs one.
type Stepper interface {
	Step(tx *Tx, s Step) error
}

// Settler is implemented by rulesets that tidy up after every command the
// engine decided for them (a ruleset command, an answer, accepted
// defaults): end the encounter when a side is left alone, move on when the
// combatant acting was taken out.
type Settler interface {
	Settle(tx *Tx) error
}

// CommandSpec declares one of a ruleset's command kinds.
type CommandSpec struct {
	Kind string `json:"kind"`
	// GM marks a GM command: it names no combatant (no "actor"), only the
	// GM may issue it — terrain, cover, vetoes, overrides.
	GM bool `json:"gm,omitempty"`
	// WhileWaiting lets the GM issue this GM command while decisions wait
	// (see waiting.go).
	WhileWaiting bool `json:"whileWaiting,omitempty"`
}

// OptionSpec describes one ruleset option a GM may switch: a choice among
// Choices, or, with Type "int", a whole number between Min and Max.
type OptionSpec struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"`
	Help    string   `json:"help,omitempty"`
	Type    string   `json:"type,omitempty"` // "" (a choice) or "int"
	Default string   `json:"default"`
	Choices []Choice `json:"choices,omitempty"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
}

// OptionInt is the type of an integer option.
const OptionInt = "int"

// Action is a command a viewer may issue now, described so that a page can
// render it as a button or a small form without ruleset-specific code. A
// GM command has no Actor.
type Action struct {
	Kind   string  `json:"kind"`
	Actor  string  `json:"actor,omitempty"`
	Label  string  `json:"label"`
	Help   string  `json:"help,omitempty"`
	Fields []Field `json:"fields,omitempty"`
	// Main marks the few actions a page shows as buttons first; the rest
	// may sit behind "More…". Danger marks actions to confirm. EndsTurn
	// marks the action that ends the actor's turn (a page binds a key to
	// it).
	Main     bool `json:"main,omitempty"`
	Danger   bool `json:"danger,omitempty"`
	EndsTurn bool `json:"endsTurn,omitempty"`
}

// Field is one input of an Action or a Decision: a select, a number, a
// checkbox or a short text. A number is bounded by Min and Max unless both
// are zero. Target marks a select of combatants, which a page may let the
// user pick on the board; Place a select of places on the board — a zone's
// id, or a square as "x,y" in the board's grid coordinates — which a page
// may let the user pick by clicking that place.
type Field struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"`
	Type    string   `json:"type"` // "select", "number", "checkbox" or "text"
	Options []Choice `json:"options,omitempty"`
	Default string   `json:"default,omitempty"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
	Target  bool     `json:"target,omitempty"`
	Place   bool     `json:"place,omitempty"`
}

// Field types.
const (
	FieldSelect   = "select"
	FieldNumber   = "number"
	FieldCheckbox = "checkbox"
	FieldString   = "text"
)

// Setup is the document an encounter is created from: the import format.
type Setup struct {
	Name        string            `json:"name"`
	Ruleset     string            `json:"ruleset"`
	Options     map[string]string `json:"options,omitempty"`
	Sides       []Side            `json:"sides"`
	Combatants  []CombatantSetup  `json:"combatants"`
	Battlefield json.RawMessage   `json:"battlefield,omitempty"`
	// The stage (see Stage): the scene image shown when the encounter
	// opens, other scenes to switch to, handouts (unrevealed until the GM
	// shows them) and the GM's notes.
	Scene    string    `json:"scene,omitempty"`
	Scenes   []Scene   `json:"scenes,omitempty"`
	Handouts []Handout `json:"handouts,omitempty"`
	Notes    []Note    `json:"notes,omitempty"`
	// ZoneScenes are pictures inside zones; SceneFit lays the scene over
	// the board as a map at the GM's scale (see SceneFit).
	ZoneScenes []ZoneScene `json:"zoneScenes,omitempty"`
	SceneFit   *SceneFit   `json:"sceneFit,omitempty"`
}

// CombatantSetup is one combatant in a Setup: the generic identity plus the
// ruleset's statistics and starting position, both parsed by the ruleset.
type CombatantSetup struct {
	Combatant
	Stats json.RawMessage `json:"stats,omitempty"`
	Start json.RawMessage `json:"start,omitempty"`
	// Notes is the GM's private note on the combatant (see Stage).
	Notes string `json:"notes,omitempty"`
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
