package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
)

// History is read access to an encounter's past, injected into DecideWith
// like the dice: the engine stays free of IO while the GM's rewind and
// reveal-event commands consult earlier events and states.
type History interface {
	// Events returns the events with after < seq <= upto, in seq order.
	Events(after, upto int64) ([]Event, error)
	// StateAt returns the state as it was right after event seq (0: the
	// initial state). The caller may modify it.
	StateAt(seq int64) (State, error)
}

// GM command kinds that read the encounter's history.
const (
	// KindRewind undoes the last action(s): {"kind":"rewind","steps":1}.
	KindRewind = "rewind"
	// KindRevealEvent shows a secret event to the players: {"kind":"reveal-event","seq":N}.
	KindRevealEvent = "reveal-event"
)

// Core event kinds of history commands.
const (
	KindRewound       = "encounter-rewound"
	KindEventRevealed = "event-revealed"
)

// MaxRewindSteps bounds how many actions one rewind undoes.
const MaxRewindSteps = 50

// Rewound is the data of KindRewound. Applying it replaces the whole state
// with Snapshot (the state after event To); players get it without Snapshot.
type Rewound struct {
	To       int64           `json:"to"`
	Undone   []int64         `json:"undone"` // the seqs of the events whose effect was undone
	Snapshot json.RawMessage `json:"snapshot,omitempty"`
}

// EventRevealed is the data of KindEventRevealed: event Seq, formerly
// secret, is visible to everyone from now on. Event is a copy of it.
type EventRevealed struct {
	Seq   int64  `json:"seq"`
	Event *Event `json:"event,omitempty"`
}

func decideRewind(tx *Tx, cmd Command) error {
	var args struct {
		Steps *int `json:"steps"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	steps := 1
	if args.Steps != nil {
		steps = *args.Steps
	}
	if steps < 1 || steps > MaxRewindSteps {
		return fray.Errorf(fray.EINVALID, "steps must be between 1 and %d", MaxRewindSteps)
	}
	b := tx.Base()
	if b.Status == StatusSetup {
		return fray.Errorf(fray.EILLEGAL, "the encounter has not started: there is nothing to undo")
	}
	if tx.history == nil {
		return fmt.Errorf("rewind: no history available")
	}
	events, err := tx.history.Events(0, b.Seq)
	if err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	to, undone, err := PlanRewind(events, steps)
	if err != nil {
		return err
	}
	target, err := tx.history.StateAt(to)
	if err != nil {
		return fmt.Errorf("rewind: state at %d: %w", to, err)
	}
	if got := target.Core().Seq; got != to {
		return fmt.Errorf("rewind: state for seq %d is at seq %d", to, got)
	}
	snapshot, err := Snapshot(target)
	if err != nil {
		return err
	}
	text := "The GM undoes the last action."
	if steps > 1 {
		text = fmt.Sprintf("The GM undoes the last %d actions.", steps)
	}
	return tx.Emits(KindRewound, "", text, Rewound{To: to, Undone: undone, Snapshot: snapshot})
}

// action is one command's run of consecutive events.
type action struct {
	first, last int64
	started     bool // the command that started the encounter
}

// PlanRewind works out what undoing the last steps actions of an encounter
// means, given all its events so far: the seq to return to and the seqs of
// the events undone. An action is the events of one command; actions undone
// by an earlier rewind, and rewinds themselves, do not count, so repeated
// undos walk further back. Nothing before or at the start of the encounter
// can be undone.
func PlanRewind(events []Event, steps int) (to int64, undone []int64, err error) {
	var live []action
	start := -1
	for i := 0; i < len(events); {
		j := i + 1
		for j < len(events) && events[i].Command != "" && events[j].Command == events[i].Command {
			j++
		}
		if IsTableTalk(events[i].Kind) || IsStageEvent(events[i].Kind) {
			// Chat and free rolls change nothing: no action to undo.
		} else if events[i].Kind == KindRewound {
			var d Rewound
			if err := events[i].Decode(&d); err != nil {
				return 0, nil, fmt.Errorf("rewind event %d: %w", events[i].Seq, err)
			}
			for len(live) > 0 && live[len(live)-1].first > d.To {
				live = live[:len(live)-1]
			}
			if start >= len(live) {
				start = -1
			}
		} else {
			a := action{first: events[i].Seq, last: events[j-1].Seq}
			for _, ev := range events[i:j] {
				a.started = a.started || ev.Kind == KindStarted
			}
			if a.started {
				start = len(live)
			}
			live = append(live, a)
		}
		i = j
	}
	if start < 0 {
		return 0, nil, fray.Errorf(fray.EILLEGAL, "the encounter has not started: there is nothing to undo")
	}
	undoable := len(live) - start - 1
	if undoable == 0 {
		return 0, nil, fray.Errorf(fray.EILLEGAL, "there is nothing to undo: the start of the encounter cannot be undone")
	}
	if steps > undoable {
		return 0, nil, fray.Errorf(fray.EILLEGAL, "only %d action(s) can be undone: a rewind cannot go back past the start of the encounter", undoable)
	}
	cut := live[len(live)-steps:]
	for _, a := range cut {
		for s := a.first; s <= a.last; s++ {
			undone = append(undone, s)
		}
	}
	return cut[0].first - 1, undone, nil
}

// applyRewound replaces st, in place, with the snapshot ev carries: the
// state is overwritten as a whole (maps included), never merged.
func applyRewound(rs Ruleset, st State, ev Event) error {
	var d Rewound
	if err := ev.Decode(&d); err != nil {
		return err
	}
	if len(d.Snapshot) == 0 {
		return fmt.Errorf("rewind event %d carries no snapshot", ev.Seq)
	}
	target, err := rs.Decode(d.Snapshot)
	if err != nil {
		return fmt.Errorf("rewind event %d: %w", ev.Seq, err)
	}
	if target.Core().Seq != d.To {
		return fmt.Errorf("rewind event %d: snapshot is at seq %d, not %d", ev.Seq, target.Core().Seq, d.To)
	}
	dst, src := reflect.ValueOf(st), reflect.ValueOf(target)
	if dst.Kind() != reflect.Pointer || dst.IsNil() || src.Type() != dst.Type() {
		return fmt.Errorf("rewind: cannot replace a %T with a %T", st, target)
	}
	dst.Elem().Set(src.Elem())
	return nil
}

func decideRevealEvent(tx *Tx, cmd Command) error {
	var args struct {
		Seq int64 `json:"seq"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	b := tx.Base()
	if args.Seq < 1 || args.Seq > b.Seq {
		return fray.Errorf(fray.ENOTFOUND, "no event %d", args.Seq)
	}
	if slices.Contains(b.Revealed, args.Seq) {
		return fray.Errorf(fray.EILLEGAL, "event %d is already revealed", args.Seq)
	}
	if tx.history == nil {
		return fmt.Errorf("reveal-event: no history available")
	}
	evs, err := tx.history.Events(args.Seq-1, args.Seq)
	if err != nil {
		return fmt.Errorf("reveal-event: %w", err)
	}
	if len(evs) != 1 || evs[0].Seq != args.Seq {
		return fray.Errorf(fray.ENOTFOUND, "no event %d", args.Seq)
	}
	ev := evs[0]
	if !SecretFromPlayers(ev) {
		return fray.Errorf(fray.EILLEGAL, "event %d is not secret", args.Seq)
	}
	text := strings.TrimSpace(ev.Text)
	if text == "" {
		text = ev.Kind
	}
	return tx.Emits(KindEventRevealed, "", fmt.Sprintf("The GM reveals event %d: %s", ev.Seq, text),
		EventRevealed{Seq: ev.Seq, Event: &ev})
}

// SecretFromPlayers reports whether ev holds something players do not see
// unless the GM reveals it: a secret event (a hidden combatant's), or a
// decision's GM-only context.
func SecretFromPlayers(ev Event) bool {
	if ev.Secret {
		return true
	}
	if ev.Kind == KindDecisionOpened {
		var d DecisionOpened
		return ev.Decode(&d) == nil && len(d.Decision.Data) > 0
	}
	return false
}

// Undone returns the seqs undone by the rewind events among events.
func Undone(events []Event) map[int64]bool {
	var out map[int64]bool
	for _, ev := range events {
		if ev.Kind != KindRewound {
			continue
		}
		var d Rewound
		if ev.Decode(&d) != nil {
			continue
		}
		if out == nil {
			out = map[int64]bool{}
		}
		for _, s := range d.Undone {
			out[s] = true
		}
	}
	return out
}

// Involves reports whether ev concerns combatant id: it acts, rolls, or
// the event names it as involved (a target, a victim, the combatant a turn
// or a decision is about). Rulesets say whom an event involves
// (Event.With); the engine never guesses from the data.
func Involves(ev Event, id string) bool {
	if id == "" || ev.Actor == id || slices.Contains(ev.Involves, id) {
		return true
	}
	for _, r := range ev.Rolls {
		if r.Who == id {
			return true
		}
	}
	return false
}
