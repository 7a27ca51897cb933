// Package engine is Fray's pure rules core: encounters, sides, combatants,
// turn order, commands, events, pending decisions and per-viewer projections.
// It does no IO and reads no clock; dice come from an injected dice.Roller.
//
// An encounter is event-sourced. A Ruleset decides a command against the
// current state and returns events (every die it rolled recorded in them);
// folding those events with Apply yields the next state. The same events
// always fold to the same state, which is what replay and audit rely on.
//
// The engine owns Base — status, turn order, the acting set, interruptions,
// pending decisions and their continuations, the reaction ledger — and
// changes it only through its core events (event.go). A ruleset keeps
// everything else (positions, statistics, conditions) in its own part of
// the state, and never writes Base.
//
// Nothing here knows about zones or any other positioning model (that is
// package board's), nor about character sheets and carry-over (package
// sheet's).
package engine

import (
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/fray"
)

// Status is an encounter's lifecycle stage.
type Status string

const (
	StatusSetup    Status = "setup"    // prepared, not started
	StatusRunning  Status = "running"  // turns are being taken
	StatusPaused   Status = "paused"   // the GM halted play; only the GM may act
	StatusFinished Status = "finished" // over; nothing more may happen
)

// GM is the party id of the game master in decisions and viewers.
const GM = "gm"

// Side is one faction in an encounter.
type Side struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Combatant is what every ruleset knows about a participant. Rules-specific
// statistics live in the ruleset's own state, keyed by the same ID.
//
// Out and Down are the two ways of no longer fighting. An Out combatant has
// left the fight (dead, fled, unconscious for the rest of it): it takes no
// turns, though a ruleset may bring it back (KindCombatantBack). A Down
// combatant is incapacitated but still in the turn order — dying, or
// bleeding — until it dies (Out) or gets up (KindCombatantUp).
// Neither counts as fighting for its side.
type Combatant struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Side   string `json:"side"`
	PC     bool   `json:"pc,omitempty"`     // a player character (else an NPC the GM runs)
	Player string `json:"player,omitempty"` // the player who controls a PC, when known
	Hidden bool   `json:"hidden,omitempty"` // unseen by players until revealed
	Out    bool   `json:"out,omitempty"`    // no longer in the fight
	Down   bool   `json:"down,omitempty"`   // incapacitated, still taking turns
	// Portrait is the URL of its picture (a campaign asset), "" for none:
	// tokens, the turn order and roll cards show it, initials otherwise.
	Portrait string `json:"portrait,omitempty"`
}

// Fighting reports whether c still counts for its side.
func (c Combatant) Fighting() bool { return !c.Out && !c.Down }

// Outcome records how an encounter ended.
type Outcome struct {
	Winner  string `json:"winner,omitempty"` // side id, empty for none
	Summary string `json:"summary,omitempty"`
}

// Base is the ruleset-independent part of every encounter's state. Each
// ruleset's state embeds it and exposes it through State.Core. Only the
// engine's core events change it (see Apply).
type Base struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Ruleset    string            `json:"ruleset"`
	Options    map[string]string `json:"options,omitempty"`
	Status     Status            `json:"status"`
	Round      int               `json:"round"`
	Sides      []Side            `json:"sides"`
	Combatants []Combatant       `json:"combatants"`
	// Order is this round's turn order, combatant ids; Turn the index of
	// the slot being played, -1 before the first.
	Order []string `json:"order"`
	Turn  int      `json:"turn"`
	// Acting is who may act now: the combatant of the current slot, an
	// interrupter, or a set acting together (a simultaneous exchange, a
	// side's surprise phase). Label names a set's phase ("Surprise round").
	Acting []string `json:"acting,omitempty"`
	Label  string   `json:"label,omitempty"`
	// Interrupts is the stack of interruptions: the floor given to
	// someone else, returned when each ends.
	Interrupts []Interruption `json:"interrupts,omitempty"`
	// Pending are the decisions the encounter waits on; Queue the work
	// waiting until all are answered; Sealed the answers of sealed
	// decisions not yet revealed (never projected).
	Pending []Decision     `json:"pending,omitempty"`
	Queue   []Step         `json:"queue,omitempty"`
	Sealed  []SealedAnswer `json:"sealed,omitempty"`
	// Reactions is the reaction ledger: the reactions already spent.
	Reactions []Trigger `json:"reactions,omitempty"`
	Seq       int64     `json:"seq"` // the last event folded into this state
	Outcome   *Outcome  `json:"outcome,omitempty"`
	Revealed  []int64   `json:"revealed,omitempty"` // seqs of secret events the GM revealed to players
	// Hiding remembers who was hidden before each event that changed it (a
	// reveal, a rewind to before one), so that any event up to Seq can be
	// shown as it was seen when it happened (HiddenAt). A rewind keeps it.
	Hiding []HidingChange `json:"hiding,omitempty"`
	// Dice is where the provable dice stand (nil when they are not): the
	// seed's epoch, the commitment to it, whether it was published. A
	// rewind keeps it.
	Dice *DiceState `json:"dice,omitempty"`
	// Stage is the scene, the handouts and the GM's notes (stage.go):
	// changed only by the stage's own events, kept by a rewind.
	Stage Stage `json:"stage,omitzero"`
	// Walls are the walls, doors and windows between a grid's squares
	// (doors.go), nil for none: changed only by the door events.
	Walls *board.Walls `json:"walls,omitempty"`
}

// HidingChange is one entry of Base.Hiding: Hidden are the combatants who
// were hidden right before event Seq changed who is.
type HidingChange struct {
	Seq    int64    `json:"seq"`
	Hidden []string `json:"hidden"`
}

// HiddenIDs returns the combatants hidden now.
func (b *Base) HiddenIDs() []string {
	var ids []string
	for _, c := range b.Combatants {
		if c.Hidden {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// HiddenAt returns the combatants who were hidden right after event seq
// (0: at the start), for any seq up to b.Seq; past it, those hidden now.
func (b *Base) HiddenAt(seq int64) []string {
	for _, h := range b.Hiding {
		if h.Seq > seq {
			return h.Hidden
		}
	}
	return b.HiddenIDs()
}

// State is an encounter's complete state under one ruleset. It must marshal
// to JSON and back without loss: snapshots rely on it, and Copy, which
// decides every command on a copy, gives what a snapshot decodes to.
type State interface {
	Core() *Base
}

// Core implements State for rulesets that embed Base.
func (b *Base) Core() *Base { return b }

// Combatant returns the combatant with id, or nil.
func (b *Base) Combatant(id string) *Combatant {
	for i := range b.Combatants {
		if b.Combatants[i].ID == id {
			return &b.Combatants[i]
		}
	}
	return nil
}

// NameOf returns combatant id's display name (id itself when there is no
// such combatant).
func (b *Base) NameOf(id string) string {
	if c := b.Combatant(id); c != nil {
		return c.Name
	}
	return id
}

// PublicNameOf returns combatant id's name as every viewer may read it, in
// a prompt or event text that players see: "someone unseen" for a
// combatant the GM keeps hidden.
func (b *Base) PublicNameOf(id string) string {
	if c := b.Combatant(id); c != nil && c.Hidden {
		return "someone unseen"
	}
	return b.NameOf(id)
}

// Current returns the combatant who has the floor: the only one acting,
// an interrupter, or the first of an acting set ("" when none). Use
// IsActing to ask whether a given combatant may act.
func (b *Base) Current() string {
	if b.Status != StatusRunning || len(b.Acting) == 0 {
		return ""
	}
	return b.Acting[0]
}

// IsActing reports whether id may act now.
func (b *Base) IsActing(id string) bool {
	return b.Status == StatusRunning && id != "" && slices.Contains(b.Acting, id)
}

// Side returns the side with id, or nil.
func (b *Base) Side(id string) *Side {
	for i := range b.Sides {
		if b.Sides[i].ID == id {
			return &b.Sides[i]
		}
	}
	return nil
}

// Fighting returns the ids of sides that still have a combatant fighting
// (neither out nor down).
func (b *Base) Fighting() []string {
	var sides []string
	for _, c := range b.Combatants {
		if c.Fighting() && !slices.Contains(sides, c.Side) {
			sides = append(sides, c.Side)
		}
	}
	return sides
}

// Decision returns the pending decision with id, or nil.
func (b *Base) Decision(id string) *Decision {
	for i := range b.Pending {
		if b.Pending[i].ID == id {
			return &b.Pending[i]
		}
	}
	return nil
}

// Waiting reports whether a decision still awaits an answer.
func (b *Base) Waiting() bool {
	for _, d := range b.Pending {
		if !d.Answered {
			return true
		}
	}
	return false
}

// RequireTurn fails unless actor may act now.
func RequireTurn(st State, actor string) error {
	b := st.Core()
	if !b.IsActing(actor) {
		return fray.Errorf(fray.ENOTYOURTURN, "it is not %s's turn", b.name(actor))
	}
	return nil
}

func (b *Base) name(id string) string {
	if c := b.Combatant(id); c != nil {
		return c.Name
	}
	return id
}
