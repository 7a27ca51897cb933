package swzones

import (
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
)

func TestTraitRoll(t *testing.T) {
	d8 := TraitDie{Sides: 8}
	tests := []struct {
		name      string
		die       TraitDie
		wild      bool
		mods      []Mod
		target    int
		faces     []int
		total     int
		kept      int
		success   bool
		raises    int
		crit      bool
		result    string
		diceFaces int
	}{
		{"plain success", d8, true, nil, 4, []int{5, 3}, 5, 1, true, 0, false, "success", 2},
		{"trait die aces", d8, true, nil, 4, []int{8, 3, 2}, 11, 1, true, 1, false, "raise", 3},
		{"wild die kept", d8, true, nil, 4, []int{2, 6, 4}, 10, 2, true, 1, false, "raise", 3},
		{"two raises need 8 over", d8, true, nil, 4, []int{8, 4, 1}, 12, 1, true, 2, false, "2 raises", 3},
		{"7 over is one raise", d8, true, nil, 4, []int{8, 3, 1}, 11, 1, true, 1, false, "raise", 3},
		{"modifiers count", d8, true, []Mod{{"wounds", -2}}, 4, []int{5, 1}, 3, 1, false, 0, false, "failure", 2},
		{"critical failure on double 1", d8, true, []Mod{{"joker", 2}, {"gang-up", 4}}, 4, []int{1, 1}, 7, 1, false, 0, true, "critical failure", 2},
		{"one 1 is not critical", d8, true, nil, 4, []int{1, 4}, 4, 2, true, 0, false, "success", 2},
		{"extra: no wild die", d8, false, nil, 4, []int{3}, 3, 0, false, 0, false, "failure", 1},
		{"extra: a 1 is a plain failure", d8, false, nil, 4, []int{1}, 1, 0, false, 0, false, "failure", 1},
		{"extra aces", TraitDie{Sides: 6}, false, nil, 5, []int{6, 6, 1}, 13, 0, true, 2, false, "2 raises", 3},
		{"untrained is d4-2", untrained, true, nil, 4, []int{4, 2, 2}, 4, 1, true, 0, false, "success", 3},
		{"d12+1 adds one", TraitDie{Sides: 12, Bonus: 1}, true, nil, 4, []int{3, 2}, 4, 1, true, 0, false, "success", 2},
		{"against Parry 7", d8, true, nil, 7, []int{7, 2}, 7, 1, true, 0, false, "success", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fixed := dice.NewFixed(tc.faces...)
			r := dice.NewRoller(fixed)
			o := rollTrait(r, Check{Label: "Fighting", Who: "brak", Die: tc.die, Wild: tc.wild, Mods: tc.mods, Target: tc.target})
			eq(t, "total", o.Total, tc.total)
			eq(t, "roll total", o.Roll.Total, tc.total)
			eq(t, "kept", o.Roll.Kept, tc.kept)
			eq(t, "success", o.Success, tc.success)
			eq(t, "raises", o.Raises, tc.raises)
			eq(t, "critical", o.CritFail, tc.crit)
			eq(t, "result", o.Roll.Result, tc.result)
			eq(t, "faces recorded", o.Roll.Faces(), tc.diceFaces)
			eq(t, "faces rolled", r.Faces(), tc.diceFaces)
			eq(t, "unused", fixed.Remaining(), 0)
			eq(t, "target", o.Roll.Target, tc.target)
			eq(t, "mod", o.Roll.Mod, sumMods(o.Mods))
		})
	}
}

func TestTraitRollAttackWords(t *testing.T) {
	r := dice.NewRoller(dice.NewFixed(3, 2, 6, 1, 1, 1))
	c := Check{Label: "Fighting", Die: TraitDie{Sides: 8}, Wild: true, Target: 5, Attack: true}
	eq(t, "miss", rollTrait(r, c).Roll.Result, "miss")
	eq(t, "hit", rollTrait(r, c).Roll.Result, "hit")
	eq(t, "critical", rollTrait(r, c).Roll.Result, "critical failure")
}

func TestWoundPenaltyCap(t *testing.T) {
	for wounds, want := range []int{0, -1, -2, -3, -3, -3} {
		f := &Fighter{Wounds: wounds}
		eq(t, "penalty", f.WoundPenalty(), want)
	}
}

func TestDerivedStats(t *testing.T) {
	tests := []struct {
		fighting, vigor     TraitDie
		armor, parry, tough int
		hasFighting         bool
	}{
		{TraitDie{Sides: 8}, TraitDie{Sides: 6}, 0, 6, 5, true},
		{TraitDie{Sides: 10}, TraitDie{Sides: 8}, 2, 7, 8, true},
		{TraitDie{Sides: 12, Bonus: 2}, TraitDie{Sides: 12, Bonus: 1}, 0, 9, 8, true},
		{TraitDie{}, TraitDie{Sides: 4}, 1, 2, 5, false},
	}
	for _, tc := range tests {
		f := &Fighter{Attributes: map[string]TraitDie{"vigor": tc.vigor}, Skills: map[string]TraitDie{}, Armor: tc.armor}
		if tc.hasFighting {
			f.Skills["fighting"] = tc.fighting
		}
		eq(t, "parry "+tc.fighting.String(), f.Parry(), tc.parry)
		eq(t, "toughness "+tc.vigor.String(), f.Toughness(), tc.tough)
	}
}

func TestParseDamage(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"Str+d8", "Str+d8", true},
		{"str + d6 + 1", "Str+d6+1", true},
		{"2d6", "2d6", true},
		{"2d6+1", "2d6+1", true},
		{"3d6-1", "3d6-1", true},
		{"Str", "Str", true},
		{"d10+d4", "d10+d4", true},
		{"", "", false},
		{"2d7", "", false},
		{"Str+Str", "", false},
		{"5", "", false},
		{"Str-d6", "", false},
	}
	for _, tc := range tests {
		d, err := ParseDamage(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseDamage(%q) error = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && d.String() != tc.want {
			t.Errorf("ParseDamage(%q) = %s, want %s", tc.in, d, tc.want)
		}
	}
}
