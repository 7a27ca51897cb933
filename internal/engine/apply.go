package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
)

// strictApply makes Apply verify that a ruleset's Apply leaves Base alone.
var strictApply atomic.Bool

// SetStrictApply turns on (for tests) the check that a ruleset's Apply
// never changes Base: Apply then fails the event that did. It costs two
// JSON encodings of Base per event, so production leaves it off.
func SetStrictApply(on bool) { strictApply.Store(on) }

// Apply folds ev into st: the engine's part of Base first, then the
// ruleset's. Events must arrive in sequence with no gap.
func Apply(rs Ruleset, st State, ev Event) error {
	b := st.Core()
	if ev.Seq != b.Seq+1 {
		return fmt.Errorf("event seq %d does not follow %d", ev.Seq, b.Seq)
	}
	if IsTableTalk(ev.Kind) {
		// Table talk changes nothing; the ruleset never sees it.
		b.Seq = ev.Seq
		return nil
	}
	if IsStageEvent(ev.Kind) {
		// The stage is the engine's; the ruleset never sees it.
		if err := applyStage(b, ev); err != nil {
			return err
		}
		b.Seq = ev.Seq
		return nil
	}
	if ev.Kind == KindRewound {
		// The whole state, the ruleset's part included, becomes the
		// snapshot the event carries; the ruleset does not see the event.
		// Only the record of who was hidden when goes on: what happened
		// after the snapshot stays in the log, as it was seen.
		hiding, hidden, dice, stage := b.Hiding, b.HiddenIDs(), b.Dice, b.Stage
		if err := applyRewound(rs, st, ev); err != nil {
			return err
		}
		b = st.Core()
		if !slices.Equal(b.HiddenIDs(), hidden) {
			hiding = append(slices.Clip(hiding), HidingChange{Seq: ev.Seq, Hidden: hidden})
		}
		b.Seq, b.Hiding, b.Dice, b.Stage = ev.Seq, hiding, dice, stage
		return nil
	}
	if err := applyCore(b, ev); err != nil {
		return err
	}
	var before []byte
	if strictApply.Load() {
		before, _ = json.Marshal(b)
	}
	if err := rs.Apply(st, ev); err != nil {
		return err
	}
	if before != nil {
		if after, _ := json.Marshal(st.Core()); !bytes.Equal(before, after) {
			return fmt.Errorf("ruleset %s changed the engine's Base while applying %q: only core events may", rs.ID(), ev.Kind)
		}
	}
	b.Seq = ev.Seq
	return nil
}

func applyCore(b *Base, ev Event) error {
	if ev.Uses != nil {
		b.Reactions = append(b.Reactions, *ev.Uses)
	}
	switch ev.Kind {
	case KindDoorOpened, KindDoorClosed:
		return applyDoor(b, ev)
	case KindStarted:
		b.Status = StatusRunning
		var d Started
		if len(ev.Data) > 0 {
			if err := ev.Decode(&d); err != nil {
				return err
			}
		}
		if d.Dice != nil {
			b.Dice = &DiceState{Epoch: d.Dice.Epoch, Commitment: d.Dice.Commitment}
		}
	case KindDiceCommitted:
		var d DiceCommitment
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Dice = &DiceState{Epoch: d.Epoch, Commitment: d.Commitment}
	case KindDicePublished:
		var d DicePublished
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if b.Dice == nil || b.Dice.Epoch != d.Epoch {
			return fmt.Errorf("dice seed of epoch %d published, but it was never committed to", d.Epoch)
		}
		b.Dice = &DiceState{Epoch: d.Epoch, Commitment: b.Dice.Commitment, Published: true}
	case KindRoundStarted:
		var d RoundStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Round, b.Order, b.Turn, b.Acting, b.Label, b.Interrupts = d.Round, d.Order, -1, nil, "", nil
		b.Reactions = slices.DeleteFunc(b.Reactions, func(t Trigger) bool { return t.Per != PerEncounter })
	case KindTurnStarted:
		var d TurnStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if d.Turn < -1 || d.Turn >= len(b.Order) {
			return fmt.Errorf("turn %d is outside the order", d.Turn)
		}
		b.Turn, b.Label, b.Interrupts = d.Turn, d.Label, nil
		b.Acting = d.Acting
		if len(b.Acting) == 0 && d.Combatant != "" {
			b.Acting = []string{d.Combatant}
		}
		b.Reactions = slices.DeleteFunc(b.Reactions, func(t Trigger) bool { return t.Per == PerTurn || t.Per == "" })
	case KindOrderChanged:
		var d OrderChanged
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Order, b.Turn = d.Order, d.Turn
	case KindActed:
		var d Acted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Acting = slices.DeleteFunc(slices.Clone(b.Acting), func(id string) bool { return id == d.Combatant })
	case KindInterruptStarted:
		var d InterruptStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Interrupts = append(b.Interrupts, Interruption{Combatant: d.Combatant, Acting: b.Acting, Label: b.Label, Then: d.Then})
		b.Acting, b.Label = []string{d.Combatant}, ""
	case KindInterruptEnded:
		if len(b.Interrupts) == 0 {
			return fmt.Errorf("no interruption to end")
		}
		top := b.Interrupts[len(b.Interrupts)-1]
		b.Interrupts = b.Interrupts[:len(b.Interrupts)-1]
		b.Acting, b.Label = top.Acting, top.Label
	case KindDecisionOpened:
		var d DecisionOpened
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Pending = append(b.Pending, d.Decision)
		if len(d.Then) > 0 {
			b.Queue = append(slices.Clone(d.Then), b.Queue...)
		}
	case KindDecisionResolved:
		var d DecisionResolved
		if err := ev.Decode(&d); err != nil {
			return err
		}
		resolve(b, d.ID)
	case KindDecisionAnswered:
		var d DecisionAnswered
		if err := ev.Decode(&d); err != nil {
			return err
		}
		p := b.Decision(d.ID)
		if p == nil {
			return fmt.Errorf("no pending decision %s", d.ID)
		}
		p.Answered = true
		if d.Commitment != "" {
			b.Sealed = append(b.Sealed, SealedAnswer{ID: d.ID, By: d.By, Commitment: d.Commitment})
		}
	case KindDecisionSealed:
		var d SealedAnswer
		if err := ev.Decode(&d); err != nil {
			return err
		}
		d.Opened = true // a sealed answer logged before commitments is known
		b.Sealed = slices.DeleteFunc(slices.Clone(b.Sealed), func(s SealedAnswer) bool { return s.ID == d.ID })
		b.Sealed = append(b.Sealed, d)
	case KindDecisionForfeited:
		var d DecisionForfeited
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s := b.sealedOf(d.ID)
		if s == nil {
			return fmt.Errorf("no sealed answer to %s to forfeit", d.ID)
		}
		kept := SealedAnswer{ID: s.ID, By: s.By, Commitment: s.Commitment, Choice: d.Choice, Values: d.Values, Opened: true, Forfeited: true}
		b.Sealed = slices.DeleteFunc(slices.Clone(b.Sealed), func(s SealedAnswer) bool { return s.ID == d.ID })
		b.Sealed = append(b.Sealed, kept)
	case KindDecisionsRevealed:
		var d DecisionsRevealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		for _, a := range d.Answers {
			resolve(b, a.ID)
			b.Sealed = slices.DeleteFunc(b.Sealed, func(s SealedAnswer) bool { return s.ID == a.ID })
		}
	case KindCombatantOut, KindCombatantBack, KindCombatantDown, KindCombatantUp:
		var d CombatantOut
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := b.Combatant(d.Combatant)
		if c == nil {
			return fmt.Errorf("no combatant %q", d.Combatant)
		}
		switch ev.Kind {
		case KindCombatantOut:
			c.Out, c.Down = true, false
		case KindCombatantBack:
			c.Out = false
		case KindCombatantDown:
			c.Down = true
		case KindCombatantUp:
			c.Down = false
		}
	case KindRevealed:
		var d Revealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if c := b.Combatant(d.Combatant); c != nil && c.Hidden {
			b.Hiding = append(b.Hiding, HidingChange{Seq: ev.Seq, Hidden: b.HiddenIDs()})
			c.Hidden = false
		}
	case KindEventRevealed:
		var d EventRevealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !slices.Contains(b.Revealed, d.Seq) {
			b.Revealed = append(b.Revealed, d.Seq)
		}
	case KindPaused:
		b.Status = StatusPaused
	case KindResumed:
		b.Status = StatusRunning
	case KindEnded:
		var d Ended
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Status, b.Outcome, b.Turn = StatusFinished, &d.Outcome, -1
		b.Acting, b.Label, b.Interrupts, b.Pending, b.Queue, b.Sealed = nil, "", nil, nil, nil, nil
	}
	return nil
}

// resolve removes decision id from Pending; with nothing left waiting,
// the queue has been taken up by whoever resolved it.
func resolve(b *Base, id string) {
	b.Pending = slices.DeleteFunc(b.Pending, func(p Decision) bool { return p.ID == id })
	if len(b.Pending) == 0 {
		b.Queue = nil
	}
}

// Replay folds events into st in order.
func Replay(rs Ruleset, st State, events []Event) error {
	for _, ev := range events {
		if err := Apply(rs, st, ev); err != nil {
			return fmt.Errorf("replay seq %d: %w", ev.Seq, err)
		}
	}
	return nil
}
