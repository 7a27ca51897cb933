package engine

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/fray"
)

// Provable dice (docs/protocol.md, "Provable dice"). When the Roller's
// faces are derived from a committed seed (dice.Derived), the engine
//   - publishes the commitment to the seed in the encounter-started event
//     (Started.Dice), before any die is rolled;
//   - begins each command's faces at its position: the seq of its first
//     event, the seed's epoch and the entropy the sender contributed — none
//     for the GM, who may be the server's operator and could otherwise try
//     entropies against a seed they can read until one rolls what they
//     want;
//   - records that position on every event with dice (Event.Draw), and each
//     die's index among the command's faces (dice.Die.At);
//   - publishes the seed (dice-published) once the encounter has ended, and
//     commits to the next epoch's seed (dice-committed) when a rewind
//     reopens an encounter whose seed was published.
// Whatever the source, every die an event records must be the one rolled
// at its position, and every face rolled must be recorded (checkRolls).

// Core event kinds of provable dice.
const (
	KindDiceCommitted = "dice-committed"
	KindDicePublished = "dice-published"
)

// DiceState is where an encounter's provable dice stand: the epoch of the
// seed in use, the commitment to it, and whether it has been published.
// A rewind keeps it: what was published stays published.
type DiceState struct {
	Epoch      int    `json:"epoch,omitempty"`
	Commitment string `json:"commitment"`
	Published  bool   `json:"published,omitempty"`
}

// DiceCommitment is the commitment to an epoch's seed: in the data of
// KindStarted (Started.Dice) for epoch 0, of KindDiceCommitted for the
// others. Commitment is the hexadecimal SHA-256 of the seed's 32 bytes.
type DiceCommitment struct {
	Epoch      int    `json:"epoch"`
	Commitment string `json:"commitment"`
}

// DicePublished is the data of KindDicePublished: an epoch's seed, in
// hexadecimal, once the encounter has ended.
type DicePublished struct {
	Epoch int    `json:"epoch"`
	Seed  string `json:"seed"`
}

// Started is the data of KindStarted.
type Started struct {
	Dice *DiceCommitment `json:"dice,omitempty"`
}

// beginDice starts the command's faces at their position.
func (tx *Tx) beginDice(cmd Command) {
	b := tx.Base()
	p := dice.Position{From: b.Seq + 1}
	if b.Dice != nil {
		p.Epoch = b.Dice.Epoch
	}
	if !tx.viewer.GM {
		p.Entropy = cmd.Entropy
	}
	tx.Dice.Begin(p)
	if tx.Dice.Provable() {
		tx.draw = &p
	}
}

// startedData is the encounter-started event's data: the commitment to
// epoch 0's seed, when the dice are provable.
func (tx *Tx) startedData() any {
	c, ok := tx.Dice.Commitment(0)
	if !ok {
		return nil
	}
	return Started{Dice: &DiceCommitment{Commitment: c}}
}

// settleDice publishes the seed of an encounter that has ended, and
// commits to a new one when a rewind reopened an encounter whose seed was
// published.
func (tx *Tx) settleDice() error {
	b := tx.Base()
	switch {
	case b.Dice == nil:
		return nil
	case b.Status == StatusFinished && !b.Dice.Published:
		seed, ok := tx.Dice.SeedOf(b.Dice.Epoch)
		if !ok {
			return nil
		}
		return tx.Emit(Event{Kind: KindDicePublished, Text: "The dice seed is published: every roll can be checked."}.withData(DicePublished{Epoch: b.Dice.Epoch, Seed: seed.String()}))
	case b.Status != StatusFinished && b.Dice.Published:
		e := b.Dice.Epoch + 1
		c, ok := tx.Dice.Commitment(e)
		if !ok {
			return nil
		}
		return tx.Emit(Event{Kind: KindDiceCommitted, Text: "New dice are committed to for the rest of the fight."}.withData(DiceCommitment{Epoch: e, Commitment: c}))
	}
	return nil
}

// checkRolls fails unless the dice recorded in events are exactly the faces
// the roller rolled for the command, each at its position.
func checkRolls(rs Ruleset, events []Event, rolled []int) error {
	seen := make([]bool, len(rolled))
	recorded := 0
	for _, ev := range events {
		for _, r := range ev.Rolls {
			for _, d := range r.Dice {
				for j, f := range d.Faces {
					recorded++
					at := d.At + j
					if at < 0 || at >= len(rolled) || seen[at] || rolled[at] != f {
						return fmt.Errorf("ruleset %s recorded a d%d of %d (event %d, %q) that was not the face rolled at position %d",
							rs.ID(), d.Sides, f, ev.Seq, r.Label, at)
					}
					seen[at] = true
				}
			}
		}
	}
	if recorded != len(rolled) {
		return fmt.Errorf("ruleset %s rolled %d die faces but recorded %d in events", rs.ID(), len(rolled), recorded)
	}
	return nil
}

// checkEntropy validates a command's entropy.
func checkEntropy(cmd Command) error {
	if err := dice.CheckEntropy(cmd.Entropy); err != nil {
		return fray.Errorf(fray.EINVALID, "%v", err)
	}
	return nil
}
