package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/fray"
)

// Tx is one command being decided. Events emitted through it are applied to
// its state at once, so a ruleset always decides against the state as it
// stands after what it has already emitted.
type Tx struct {
	rs      Ruleset
	st      State
	viewer  Viewer
	Dice    *dice.Roller
	command string
	events  []Event
	history History        // the encounter's past, for rewind and reveal-event; may be nil
	rest    []Step         // the work after the step being run (Run)
	parked  int            // how often the rest was parked (Ask, Interrupt)
	draw    *dice.Position // where the command's provable faces come from; nil when they are not
}

// State is the state as it stands after the events emitted so far.
func (tx *Tx) State() State { return tx.st }

// Base is the generic part of State. Read it; change it only with the
// Tx's helpers.
func (tx *Tx) Base() *Base { return tx.st.Core() }

// Viewer is who issued the command.
func (tx *Tx) Viewer() Viewer { return tx.viewer }

// Events returns the events emitted so far.
func (tx *Tx) Events() []Event { return tx.events }

// Emit stamps ev with the next sequence number, the round and the command id,
// applies it, and records it. An event whose actor is hidden is secret.
func (tx *Tx) Emit(ev Event) error {
	b := tx.Base()
	ev.Seq = b.Seq + 1
	ev.Command = tx.command
	if c := b.Combatant(ev.Actor); c != nil && c.Hidden {
		ev.Secret = true
	}
	if len(ev.Rolls) > 0 && tx.draw != nil && b.Dice != nil {
		ev.Draw = tx.draw
	}
	if err := Apply(tx.rs, tx.st, ev); err != nil {
		return fmt.Errorf("apply %s: %w", ev.Kind, err)
	}
	ev.Round = b.Round // the round the event belongs to: a new round's own number
	ev.typed = nil     // recorded, the event is its JSON alone
	tx.events = append(tx.events, ev)
	return nil
}

// Emits builds and emits an event, see NewEvent.
func (tx *Tx) Emits(kind, actor, text string, data any, rolls ...dice.Roll) error {
	return tx.Emit(NewEvent(kind, actor, text, data, rolls...))
}

// Ask opens a decision. The work after the step being run waits behind it
// (see Run). Its id is derived from the sequence number.
func (tx *Tx) Ask(d Decision) error { return tx.AskAll(d) }

// AskWith opens decision d carrying data (encoded into d.Data): what the
// ruleset needs to carry on when it is answered (see Decision.Decode).
func (tx *Tx) AskWith(d Decision, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("decision %s: %w", d.Kind, err)
	}
	d.Data = raw
	return tx.Ask(d)
}

// AskAll opens several decisions as one group: sealed ones are revealed
// together once all are answered; the parked work resumes when none of
// the group waits any more.
func (tx *Tx) AskAll(ds ...Decision) error {
	if len(ds) == 0 {
		return nil
	}
	then := tx.park()
	group := "d" + strconv.FormatInt(tx.Base().Seq+1, 10)
	for i, d := range ds {
		if err := checkDecision(d); err != nil {
			return err
		}
		d.ID = "d" + strconv.FormatInt(tx.Base().Seq+1, 10)
		d.Group, d.Answered = group, false
		actor := ""
		if c := tx.Base().Combatant(d.For); c != nil {
			// The combatant is the event's actor, so a hidden one's
			// question is secret (see Emit) and its name never reaches
			// players.
			actor = c.ID
		} else if d.For != GM {
			return fmt.Errorf("decision %q is for unknown %q", d.Prompt, d.For)
		}
		who := tx.Base().answererName(d)
		data := DecisionOpened{Decision: d}
		if i == 0 {
			data.Then = then
		}
		if err := tx.Emit(Event{Kind: KindDecisionOpened, Actor: actor, Text: "Waiting for " + who + ": " + d.Prompt}.withData(data)); err != nil {
			return err
		}
	}
	return nil
}

// StartRound opens round n with its turn order. No one acts until
// StartTurn.
func (tx *Tx) StartRound(n int, order []string, text string) error {
	if text == "" {
		text = fmt.Sprintf("Round %d begins.", n)
	}
	return tx.Emit(Event{Kind: KindRoundStarted, Text: text}.withData(RoundStarted{Round: n, Order: order}))
}

// StartTurn plays slot i of the order: its combatant acts.
func (tx *Tx) StartTurn(i int, text string) error {
	b := tx.Base()
	if i < 0 || i >= len(b.Order) {
		return fmt.Errorf("turn %d is outside the order (%d slots)", i, len(b.Order))
	}
	id := b.Order[i]
	if text == "" {
		text = b.name(id) + "'s turn."
	}
	return tx.Emit(Event{Kind: KindTurnStarted, Actor: id, Text: text}.withData(TurnStarted{Combatant: id, Turn: i}))
}

// StartPhase lets several combatants act together in slot i of the order
// (-1 for a phase outside it, such as a surprise round): a simultaneous
// exchange, or a side acting in any order. Each leaves the set with
// Acted; the ruleset starts the next turn when it wants.
func (tx *Tx) StartPhase(i int, acting []string, label, text string) error {
	if len(acting) == 0 {
		return fmt.Errorf("a phase needs someone acting")
	}
	for _, id := range acting {
		if tx.Base().Combatant(id) == nil {
			return fmt.Errorf("phase: no combatant %q", id)
		}
	}
	if text == "" {
		text = label
	}
	ev := Event{Kind: KindTurnStarted, Text: text}.withData(TurnStarted{Turn: i, Acting: acting, Label: label})
	return tx.Emit(ev.With(acting...))
}

// Acted takes id out of the acting set.
func (tx *Tx) Acted(id, text string) error {
	if !slices.Contains(tx.Base().Acting, id) {
		return fmt.Errorf("%s is not acting", id)
	}
	if text == "" {
		text = tx.Base().name(id) + " is done acting."
	}
	return tx.Emit(Event{Kind: KindActed, Actor: id, Text: text}.withData(Acted{Combatant: id}))
}

// Reorder moves id to index to of the order for the rest of the round
// (a delay, a readied action, a chosen later slot, a strike out of turn). The slot being
// played stays the same combatant's; when id itself is moved out of it,
// the turn pointer steps back so the next turn is whoever came after.
func (tx *Tx) Reorder(id string, to int, reason, text string) error {
	b := tx.Base()
	from := slices.Index(b.Order, id)
	if from < 0 {
		return fmt.Errorf("reorder: %s is not in the order", id)
	}
	if to < 0 || to >= len(b.Order) {
		return fmt.Errorf("reorder: index %d is outside the order", to)
	}
	order := slices.Delete(slices.Clone(b.Order), from, from+1)
	order = slices.Insert(order, to, id)
	if text == "" {
		text = b.name(id) + " now acts first."
		if to > 0 {
			text = b.name(id) + " now acts after " + b.name(order[to-1]) + "."
		}
	}
	turn := b.Turn
	if b.Turn >= 0 && b.Turn < len(b.Order) {
		current := b.Order[b.Turn]
		if current == id {
			turn = from - 1
			if to < from {
				turn = from // moved earlier: the slot it left is now the next one's
			}
		} else {
			turn = slices.Index(order, current)
		}
	}
	return tx.SetOrder(order, turn, reason, text)
}

// SetOrder replaces the round's order and the index of the slot being
// played in it.
func (tx *Tx) SetOrder(order []string, turn int, reason, text string) error {
	if turn < -1 || turn >= len(order) {
		return fmt.Errorf("order: turn %d is outside the order", turn)
	}
	if text == "" {
		text = "The turn order changes."
	}
	return tx.Emit(Event{Kind: KindOrderChanged, Text: text}.withData(OrderChanged{Order: order, Turn: turn, Reason: reason}))
}

// Interrupt gives id the floor now. The given steps, then the work after
// the step being run, wait for the interruption to end (EndInterrupt).
func (tx *Tx) Interrupt(id, text string, then ...Step) error {
	if tx.Base().Combatant(id) == nil {
		return fmt.Errorf("interrupt: no combatant %q", id)
	}
	rest := tx.park()
	then = append(slices.Clone(then), rest...)
	return tx.Emit(Event{Kind: KindInterruptStarted, Actor: id, Text: text}.withData(InterruptStarted{Combatant: id, Then: then}))
}

// Interrupted reports whether an interruption is under way.
func (b *Base) Interrupted() bool { return len(b.Interrupts) > 0 }

// EndInterrupt returns the floor to whoever had it before the latest
// interruption, then runs the work that waited for it.
func (tx *Tx) EndInterrupt(text string) error {
	b := tx.Base()
	if len(b.Interrupts) == 0 {
		return fmt.Errorf("no interruption to end")
	}
	top := b.Interrupts[len(b.Interrupts)-1]
	if err := tx.Emit(Event{Kind: KindInterruptEnded, Actor: top.Combatant, Text: text}.withData(InterruptEnded{Combatant: top.Combatant})); err != nil {
		return err
	}
	return tx.Run(top.Then...)
}

// TakeOut removes id from the fight (dead, fled, unconscious for good).
func (tx *Tx) TakeOut(id, reason, text string) error {
	return tx.Emit(Event{Kind: KindCombatantOut, Actor: id, Text: tx.line(text, id, "is out of the fight", reason)}.withData(CombatantOut{Combatant: id, Reason: reason}))
}

// BringBack returns an out combatant to the fight (healed, revived).
func (tx *Tx) BringBack(id, reason, text string) error {
	c := tx.Base().Combatant(id)
	if c == nil || !c.Out {
		return fray.Errorf(fray.EILLEGAL, "%s is not out of the fight", tx.Base().name(id))
	}
	return tx.Emit(Event{Kind: KindCombatantBack, Actor: id, Text: tx.line(text, id, "is back in the fight", reason)}.withData(CombatantOut{Combatant: id, Reason: reason}))
}

// PutDown marks id incapacitated but still taking turns (dying, bleeding).
func (tx *Tx) PutDown(id, reason, text string) error {
	return tx.Emit(Event{Kind: KindCombatantDown, Actor: id, Text: tx.line(text, id, "is down", reason)}.withData(CombatantOut{Combatant: id, Reason: reason}))
}

// GetUp returns a down combatant to the fight (stabilised and healed).
func (tx *Tx) GetUp(id, reason, text string) error {
	return tx.Emit(Event{Kind: KindCombatantUp, Actor: id, Text: tx.line(text, id, "is back on their feet", reason)}.withData(CombatantOut{Combatant: id, Reason: reason}))
}

// End emits the end of the encounter with outcome.
func (tx *Tx) End(o Outcome) error {
	text := "The encounter ends."
	if s := tx.Base().Side(o.Winner); s != nil {
		text = fmt.Sprintf("The encounter ends: %s win.", s.Name)
	}
	return tx.Emits(KindEnded, "", text, Ended{Outcome: o})
}

// LastStanding ends the encounter when at most one side is still
// fighting, naming the winner and who is out; it reports whether it did.
// Rulesets call it from Settle.
func (tx *Tx) LastStanding() (bool, error) {
	b := tx.Base()
	if b.Status != StatusRunning {
		return false, nil
	}
	sides := b.Fighting()
	if len(sides) > 1 {
		return false, nil
	}
	o := Outcome{Summary: "No one is left standing."}
	if len(sides) == 1 {
		o.Winner = sides[0]
		o.Summary = fmt.Sprintf("%s are the last side standing.", b.Side(sides[0]).Name)
		var names []string
		for _, c := range b.Combatants {
			if c.Side != sides[0] && !c.Fighting() && !c.Hidden {
				names = append(names, c.Name)
			}
		}
		if len(names) > 0 {
			o.Summary += " Out of the fight: " + strings.Join(names, ", ") + "."
		}
	}
	return true, tx.End(o)
}

// line is an event's text, or, when its ruleset gave none, the engine's
// own line saying who and what: "Draugr is out of the fight (dead)." No
// log line is ever only an event's kind.
func (tx *Tx) line(text, id, what, reason string) string {
	if text != "" {
		return text
	}
	text = tx.Base().name(id) + " " + what
	if reason != "" {
		text += " (" + strings.ReplaceAll(reason, "-", " ") + ")"
	}
	return text + "."
}
