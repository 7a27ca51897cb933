// Package engine is Fray's pure rules core: encounters, sides, combatants,
// turn order, commands, events, pending decisions and per-viewer projections.
// It does no IO and reads no clock; dice come from an injected dice.Roller.
//
// An encounter is event-sourced. A Ruleset decides a command against the
// current state and returns events (every die it rolled recorded in them);
// folding those events with Apply yields the next state. The same events
// always fold to the same state, which is what replay and audit rely on.
//
// Nothing here knows about zones or any other positioning model: each
// ruleset keeps its battlefield in its own part of the state.
package engine

import (
	"slices"

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
type Combatant struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Side   string `json:"side"`
	PC     bool   `json:"pc,omitempty"`     // a player character (else an NPC the GM runs)
	Player string `json:"player,omitempty"` // the player who controls a PC, when known
	Hidden bool   `json:"hidden,omitempty"` // unseen by players until revealed
	Out    bool   `json:"out,omitempty"`    // no longer fighting (incapacitated, fled, dead)
}

// Outcome records how an encounter ended.
type Outcome struct {
	Winner  string `json:"winner,omitempty"` // side id, empty for none
	Summary string `json:"summary,omitempty"`
}

// Base is the ruleset-independent part of every encounter's state. Each
// ruleset's state embeds it and exposes it through State.Core.
type Base struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Ruleset    string            `json:"ruleset"`
	Options    map[string]string `json:"options,omitempty"`
	Status     Status            `json:"status"`
	Round      int               `json:"round"`
	Sides      []Side            `json:"sides"`
	Combatants []Combatant       `json:"combatants"`
	Order      []string          `json:"order"` // this round's turn order, combatant ids
	Turn       int               `json:"turn"`  // index into Order of the acting combatant, -1 for none
	Pending    []Decision        `json:"pending,omitempty"`
	Seq        int64             `json:"seq"` // the last event folded into this state
	Outcome    *Outcome          `json:"outcome,omitempty"`
	Revealed   []int64           `json:"revealed,omitempty"` // seqs of secret events the GM revealed to players
}

// State is an encounter's complete state under one ruleset. It must marshal
// to JSON and back without loss: snapshots and clones rely on it.
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

// Current returns the id of the combatant whose turn it is, or "".
func (b *Base) Current() string {
	if b.Status != StatusRunning || b.Turn < 0 || b.Turn >= len(b.Order) {
		return ""
	}
	return b.Order[b.Turn]
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

// Fighting returns the ids of sides that still have a combatant not out.
func (b *Base) Fighting() []string {
	var sides []string
	for _, c := range b.Combatants {
		if !c.Out && !slices.Contains(sides, c.Side) {
			sides = append(sides, c.Side)
		}
	}
	return sides
}

// Option returns the value of a ruleset option, or def when unset.
func (b *Base) Option(name, def string) string {
	if v, ok := b.Options[name]; ok {
		return v
	}
	return def
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

// RequireTurn fails unless it is actor's turn.
func RequireTurn(st State, actor string) error {
	b := st.Core()
	if b.Current() != actor {
		return fray.Errorf(fray.ENOTYOURTURN, "it is not %s's turn", name(b, actor))
	}
	return nil
}

func name(b *Base, id string) string {
	if c := b.Combatant(id); c != nil {
		return c.Name
	}
	return id
}
