package dice

import (
	"fmt"
	"testing"
)

func TestAceExplodesOnMaximum(t *testing.T) {
	r := NewRoller(NewFixed(6, 6, 2, 3))
	d := r.Ace(6)
	if d.Total() != 14 || !d.Aced() || len(d.Faces) != 3 {
		t.Fatalf("d6 aced twice gave %v", d)
	}
	if d2 := r.Ace(8); d2.Total() != 3 || d2.Aced() {
		t.Fatalf("plain d8 gave %v", d2)
	}
	if r.Faces() != 4 {
		t.Fatalf("roller counted %d faces, want 4", r.Faces())
	}
	roll := Roll{Dice: []Die{d}}
	if roll.Faces() != 3 {
		t.Fatalf("roll counts %d faces", roll.Faces())
	}
}

func TestFixedPanicsWhenExhaustedOrImpossible(t *testing.T) {
	for _, tc := range []struct {
		faces []int
		sides int
	}{{nil, 6}, {[]int{7}, 6}, {[]int{0}, 6}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Fixed%v rolling d%d did not panic", tc.faces, tc.sides)
				}
			}()
			NewFixed(tc.faces...).Face(tc.sides)
		}()
	}
}

func TestRandomStaysInRange(t *testing.T) {
	src := NewRandom()
	seen := map[int]bool{}
	for i := 0; i < 2000; i++ {
		f := src.Face(6)
		if f < 1 || f > 6 {
			t.Fatalf("face %d out of range", f)
		}
		seen[f] = true
	}
	if len(seen) != 6 {
		t.Fatalf("2000 rolls of a d6 showed only %v", seen)
	}
}

func TestSeededRepeats(t *testing.T) {
	a, b := NewSeeded(7), NewSeeded(7)
	for i := 0; i < 50; i++ {
		if x, y := a.Face(20), b.Face(20); x != y {
			t.Fatalf("roll %d: %d vs %d with the same seed", i, x, y)
		}
	}
}

// TestNeeds: a target is worded after the total as what the roll needed,
// never as a comparison a newcomer reads as a false statement ("1 ≥ 4").
func TestNeeds(t *testing.T) {
	for _, tc := range []struct {
		r            Roll
		needs, whole string
	}{
		{Roll{Total: 1, Target: 4, Result: "miss"}, "(needs 4)", "1 (needs 4) — miss"},
		{Roll{Total: 57, Target: 10, Compare: AtMost, Result: "failure"}, "(needs ≤ 10)", "57 (needs ≤ 10) — failure"},
		{Roll{Total: 15, Target: 14, Compare: AtLeast}, "(needs 14)", "15 (needs 14)"},
		{Roll{Total: 9, Target: 12, Low: 4, Compare: Window, Result: "hit"}, "(needs 5–12)", "9 (needs 5–12) — hit"},
		{Roll{Total: 9, Target: 7, Compare: Opposed}, "(against 7)", "9 (against 7)"},
		{Roll{Total: 9}, "", "9"},
	} {
		if got := tc.r.Needs(); got != tc.needs {
			t.Errorf("%+v: Needs %q, want %q", tc.r, got, tc.needs)
		}
		whole := fmt.Sprint(tc.r.Total)
		if tc.needs != "" {
			whole += " " + tc.needs
		}
		if tc.r.Result != "" {
			whole += " — " + tc.r.Result
		}
		if whole != tc.whole {
			t.Errorf("%+v reads %q, want %q", tc.r, whole, tc.whole)
		}
	}
	if got := Percent(57, 10); got != "rolled 57, needs ≤ 10%" {
		t.Errorf("Percent = %q", got)
	}
}
