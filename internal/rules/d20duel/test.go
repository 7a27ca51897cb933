package d20duel

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// Tests (spec b, "Test"; seed "Automatic results"): roll a black and a
// white d20 together against a target T. The black die decides: at or
// below T the test passes. The white die is the degree, when it is at or
// below T too (0 otherwise). A black 1 always passes and a black 20 always
// fails; either way the white die is the degree, whatever T.

// Test is a test's outcome.
type Test struct {
	Target int  `json:"target"`
	Black  int  `json:"black"`
	White  int  `json:"white"`
	Passed bool `json:"passed"`
	Degree int  `json:"degree"`
	// Automatic is "black 1" or "black 20" when the black die decided
	// regardless of T.
	Automatic string `json:"automatic,omitempty"`
}

// judgeTest reads a black and a white die against target.
func judgeTest(black, white, target int) Test {
	t := Test{Target: target, Black: black, White: white}
	switch black {
	case 1:
		t.Passed, t.Degree, t.Automatic = true, white, "black 1"
	case 20:
		t.Passed, t.Degree, t.Automatic = false, white, "black 20"
	default:
		t.Passed = black <= target
		if white <= target {
			t.Degree = white
		}
	}
	return t
}

// result words a test's outcome for the log.
func (t Test) result() string {
	switch {
	case t.Automatic != "" && t.Passed:
		return fmt.Sprintf("automatic success (%s), degree %d", t.Automatic, t.Degree)
	case t.Automatic != "":
		return fmt.Sprintf("automatic failure (%s), degree %d", t.Automatic, t.Degree)
	case t.Passed:
		return fmt.Sprintf("success, degree %d", t.Degree)
	}
	return fmt.Sprintf("failure, degree %d", t.Degree)
}

// pairOfD20 rolls the black and the white die.
func pairOfD20(tx *Tx) (black, white dice.Die) {
	black, white = tx.Dice.Die(20), tx.Dice.Die(20)
	black.Role, white.Role = "black", "white"
	return black, white
}

// sumMods adds up modifiers.
func sumMods(mods []dice.Mod) int {
	n := 0
	for _, m := range mods {
		n += m.Value
	}
	return n
}

// rollTest rolls a test of fighter who against base + mods.
func rollTest(tx *Tx, who, label string, base int, mods []dice.Mod) (Test, dice.Roll) {
	black, white := pairOfD20(tx)
	target := base + sumMods(mods)
	t := judgeTest(black.Total(), white.Total(), target)
	return t, dice.Roll{Label: label, Who: who, Dice: []dice.Die{black, white}, Mod: sumMods(mods), Mods: mods,
		Total: black.Total(), Target: target, Compare: dice.AtMost, Result: t.result(), Outcome: dice.OutcomeOf(t.Passed)}
}

// woundMods is a fighter's wound penalty as a modifier, if any. skip
// leaves out the wounds of that exchange (see Fighter.penalty).
func woundMods(b *engine.Base, f *Fighter, skip int) []dice.Mod {
	if p := f.penalty(b, skip); p > 0 {
		return []dice.Mod{{Label: "wounds", Value: -p}}
	}
	return nil
}
