package swzones

import (
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"slices"
	"strings"
	"testing"
)

func TestConvertRange(t *testing.T) {
	tests := []struct {
		inches   []int
		rounding string
		want     []int
	}{
		// The seed's examples.
		{[]int{12, 24, 48}, RoundNearest, []int{2, 4, 8}},
		{[]int{3, 6, 12}, RoundNearest, []int{0, 1, 2}},
		// Below 6" is 0, then each band at least one more than the last.
		{[]int{2, 4, 5}, RoundNearest, []int{0, 1, 2}},
		{[]int{5, 10, 20}, RoundNearest, []int{0, 2, 3}},
		{[]int{4, 8, 16}, RoundNearest, []int{0, 1, 3}},
		{[]int{24, 48, 96}, RoundNearest, []int{4, 8, 16}},
		{[]int{6, 6, 6}, RoundNearest, []int{1, 2, 3}},
		// Halves round up when rounding to nearest: 9" → 1.5 → 2, 15" → 2.5 → 3.
		{[]int{9, 18, 36}, RoundNearest, []int{2, 3, 6}},
		{[]int{15, 30, 60}, RoundNearest, []int{3, 5, 10}},
		{[]int{15, 30, 60}, RoundDown, []int{2, 5, 10}},
		{[]int{10, 20, 40}, RoundUp, []int{2, 4, 7}},
		{[]int{10, 20, 40}, RoundDown, []int{1, 3, 6}},
		{[]int{5, 10, 20}, RoundUp, []int{0, 2, 4}},
	}
	for _, tc := range tests {
		if got := ConvertRange(tc.inches, tc.rounding); !slices.Equal(got, tc.want) {
			t.Errorf("ConvertRange(%v, %s) = %v, want %v", tc.inches, tc.rounding, got, tc.want)
		}
	}
}

func TestParseRange(t *testing.T) {
	got, err := ParseRange("12/24/48")
	if err != nil || !slices.Equal(got, []int{12, 24, 48}) {
		t.Fatalf("ParseRange = %v, %v", got, err)
	}
	for _, bad := range []string{"12/24", "12/24/48/96", "24/12/48", "0/6/12", "a/b/c", ""} {
		if _, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q) should fail", bad)
		}
	}
}

func TestPowerRange(t *testing.T) {
	// The seed's table, and the [I] fill-ins for the dice it skips.
	want := map[string][]int{ // d4, d6, d8, d10, d12
		PowerSmarts:   {0, 0, 1, 1, 1},
		PowerSmartsX2: {1, 2, 3, 3, 4},
		PowerSmartsX3: {2, 3, 4, 5, 6},
	}
	for kind, row := range want {
		for i, sides := range []int{4, 6, 8, 10, 12} {
			got, err := PowerRange(kind, TraitDie{Sides: sides})
			if err != nil || got != row[i] {
				t.Errorf("PowerRange(%s, d%d) = %d, %v; want %d", kind, sides, got, err, row[i])
			}
		}
	}
	if got, _ := PowerRange(PowerSmartsX3, TraitDie{Sides: 12, Bonus: 2}); got != 6 {
		t.Errorf("d12+2 counts as d12: got %d", got)
	}
	if _, err := PowerRange("smarts-x4", TraitDie{Sides: 6}); err == nil {
		t.Error("unknown power range kind should fail")
	}
}

func TestRangeBand(t *testing.T) {
	pistol := []int{2, 4, 8}
	tests := []struct {
		dist    int
		extreme bool
		name    string
		penalty int
		ok      bool
	}{
		{0, true, "short", 0, true},
		{2, true, "short", 0, true},
		{3, true, "medium", -2, true},
		{4, true, "medium", -2, true},
		{5, true, "long", -4, true},
		{8, true, "long", -4, true},
		{9, true, "extreme", -8, true},
		{32, true, "extreme", -8, true},
		{33, true, "", 0, false},
		{9, false, "", 0, false}, // SWD: no Extreme range
	}
	for _, tc := range tests {
		b, ok := RangeBand(tc.dist, pistol, tc.extreme)
		if ok != tc.ok || b.Name != tc.name || b.Penalty != tc.penalty {
			t.Errorf("RangeBand(%d, extreme=%v) = %+v, %v; want %s %d %v", tc.dist, tc.extreme, b, ok, tc.name, tc.penalty, tc.ok)
		}
	}
}

// power-range-gaps "lower": the dice the seed skips take the value of the
// die below.
func TestPowerRangeGapsLower(t *testing.T) {
	want := map[string][]int{ // d4, d6, d8, d10, d12
		PowerSmarts:   {0, 0, 0, 1, 1},
		PowerSmartsX2: {1, 2, 3, 3, 4},
		PowerSmartsX3: {2, 2, 4, 4, 6},
	}
	for kind, row := range want {
		for i, sides := range []int{4, 6, 8, 10, 12} {
			got, err := powerRange(kind, TraitDie{Sides: sides}, GapsLower)
			if err != nil || got != row[i] {
				t.Errorf("%s d%d = %d, %v; want %d", kind, sides, got, err, row[i])
			}
		}
	}
}

// TestShootFormPerWeapon: a shooter with a derringer (3/6/12: 0/1/2 zones)
// and a rifle (24/48/96: 4/8/16) gets a form for each, each offering the
// targets that weapon reaches — never the derringer (extreme range: 8
// zones) at the goblin nine zones off — and every target a form offers
// is a shot the rules take.
func TestShootFormPerWeapon(t *testing.T) {
	st := newState(t, newSetup(nil, chain(10, nil),
		spec{ID: "lyra", Side: "heroes", Zone: "z1", WC: true, PC: true, Weapons: []map[string]any{
			{"id": "derringer", "name": "Derringer", "damage": "2d4", "range": "3/6/12"},
			{"id": "rifle", "name": "Rifle", "damage": "2d8", "range": "24/48/96"}}},
		spec{ID: "gob1", Side: "goblins", Zone: "z2"},
		spec{ID: "gob3", Side: "goblins", Zone: "z10"},
	))
	_, st = startWith(t, st, []string{"A♠", "K♠", "Q♠"})
	forms := map[string][]string{}
	for _, a := range engine.Project(New(), st, gm).Actions {
		if a.Kind != CmdShoot {
			continue
		}
		for _, o := range a.Fields[0].Options {
			forms[a.Label] = append(forms[a.Label], o.Value)
			c := cmd(CmdShoot, "lyra", "target", o.Value, "weapon", a.Fields[1].Options[0].Value)
			if _, _, err := engine.Decide(New(), st, gm, "c", c, dice.NewRoller(dice.NewSeeded(1))); err != nil {
				t.Errorf("%s offers %s: %v", a.Label, o.Value, err)
			}
		}
	}
	eq(t, "the derringer's", strings.Join(forms["Shoot: Derringer"], " "), "gob1")
	eq(t, "the rifle's", strings.Join(forms["Shoot: Rifle"], " "), "gob1 gob3")
}
