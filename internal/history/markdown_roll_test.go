package history

import (
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
)

// A dealt card is no roll: the export names the card, without a die or a
// total that would read like one.
func TestMarkdownRollAndPick(t *testing.T) {
	names := map[string]string{"brak": "Brak"}
	for _, tc := range []struct {
		roll dice.Roll
		want string
	}{
		{dice.Roll{Label: "Deal: K♠", Who: "brak", Dice: []dice.Die{{Sides: 52, Faces: []int{17}, Role: dice.RolePick}}, Total: 17}, "Deal: K♠ (Brak)"},
		{dice.Roll{Label: "Fighting", Who: "brak", Dice: []dice.Die{{Sides: 8, Faces: []int{5}}}, Mod: 1, Total: 6, Target: 4, Result: "success"},
			"Fighting (Brak): d8 5 +1 = **6** (needs 4) — success"},
	} {
		if got := mdRoll(tc.roll, names); got != tc.want {
			t.Errorf("mdRoll = %q, want %q", got, tc.want)
		}
	}
}
