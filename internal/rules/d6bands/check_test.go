package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// The check: N d6 summed, a 6 replaced by two new dice, success when the
// sum is at most the skill; ±D and ±TN; criticals by margin.
func TestCheck(t *testing.T) {
	base := &engine.Base{Options: optionsWith(nil)}
	tests := []struct {
		name          string
		check         Check
		faces         []int
		sum, margin   int
		dice, dropped int
		result        string
	}{
		{"3D at 12, exactly", Check{Skill: "Melee", Value: 12, Dice: 3}, []int{3, 4, 5}, 12, 0, 3, 0, "success by 0"},
		{"3D at 12, one over", Check{Skill: "Melee", Value: 12, Dice: 3}, []int{3, 5, 5}, 13, -1, 3, 0, "missed by 1"},
		{"a 6 is replaced by two dice", Check{Skill: "Melee", Value: 12, Dice: 3}, []int{6, 2, 3, 1, 1}, 7, 5, 5, 1, "success by 5"},
		{"sixes chain", Check{Skill: "Melee", Value: 12, Dice: 1}, []int{6, 6, 2, 1, 1}, 4, 8, 5, 2, "critical success by 8"},
		{"critical success at margin 6", Check{Skill: "Melee", Value: 12, Dice: 3}, []int{1, 2, 3}, 6, 6, 3, 0, "critical success by 6"},
		{"margin 5 is not critical", Check{Skill: "Melee", Value: 12, Dice: 3}, []int{2, 2, 3}, 7, 5, 3, 0, "success by 5"},
		{"fumble at a miss by 7", Check{Skill: "Melee", Value: 8, Dice: 3}, []int{5, 5, 5}, 15, -7, 3, 0, "fumble, missed by 7"},
		{"a miss by 6 is no fumble", Check{Skill: "Melee", Value: 9, Dice: 3}, []int{5, 5, 5}, 15, -6, 3, 0, "missed by 6"},
		{"+1D adds a die", Check{Skill: "Firearms", Value: 14, Dice: 4, Mods: []dice.Mod{diceMod("cover", 1)}}, []int{1, 1, 1, 1, 1}, 5, 9, 5, 0, "critical success by 9"},
		{"−1D removes one", Check{Skill: "Firearms", Value: 14, Dice: 4, Mods: []dice.Mod{diceMod("aimed 3 rounds", -1)}}, []int{5, 5, 4}, 14, 0, 3, 0, "success by 0"},
		{"+TN raises the skill", Check{Skill: "Firearms", Value: 12, Dice: 3, Mods: []dice.Mod{tnMod("aimed", 2)}}, []int{5, 5, 4}, 14, 0, 3, 0, "success by 0"},
		{"at least one die", Check{Skill: "Stealth", Value: 12, Dice: 1, Mods: []dice.Mod{diceMod("ambush", -1)}}, []int{4}, 4, 8, 1, 0, "critical success by 8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fixed := dice.NewFixed(tc.faces...)
			r := dice.NewRoller(fixed)
			res := rollPlain(r, base, tc.check)
			eq(t, "sum", res.Sum, tc.sum)
			eq(t, "margin", res.Margin, tc.margin)
			eq(t, "result", res.Roll.Result, tc.result)
			eq(t, "dice recorded", len(res.Roll.Dice), tc.dice)
			eq(t, "compare", res.Roll.Compare, dice.AtMost)
			eq(t, "faces recorded", res.Roll.Faces(), r.Faces())
			dropped := 0
			for _, d := range res.Roll.Dice {
				if d.Dropped {
					dropped++
					eq(t, "dropped face", d.Faces[0], 6)
				}
			}
			eq(t, "dropped", dropped, tc.dropped)
			eq(t, "unused faces", fixed.Remaining(), 0)
		})
	}
}

func TestCheckCriticalOptions(t *testing.T) {
	base := &engine.Base{Options: optionsWith(map[string]string{OptCritMargin: "3", OptFumbleMargin: "2"})}
	res := rollPlain(dice.NewRoller(dice.NewFixed(3, 3, 3)), base, Check{Skill: "Melee", Value: 12, Dice: 3})
	if !res.Crit {
		t.Errorf("margin 3 with crit-margin 3: %s", res.Words())
	}
	res = rollPlain(dice.NewRoller(dice.NewFixed(4, 4, 4)), base, Check{Skill: "Melee", Value: 10, Dice: 3})
	if !res.Fumble {
		t.Errorf("miss by 2 with fumble-margin 2: %s", res.Words())
	}
}

func TestParseDice(t *testing.T) {
	for in, want := range map[string]Dice{"2D": {N: 2}, "3D+2": {N: 3, Bonus: 2}, "1D-1": {N: 1, Bonus: -1}, "2d6+1": {N: 2, Bonus: 1}, "2T6+3": {N: 2, Bonus: 3}, " 4 D ": {N: 4}} {
		got, err := ParseDice(in)
		if err != nil || got != want {
			t.Errorf("ParseDice(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "D", "2", "0D", "13D", "2D+", "two dice", "2D6+1d4"} {
		if _, err := ParseDice(in); err == nil {
			t.Errorf("ParseDice(%q) accepted", in)
		}
	}
}
