package dice

import "testing"

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

func TestVersus(t *testing.T) {
	for _, tc := range []struct {
		r    Roll
		want string
	}{
		{Roll{Total: 14, Target: 4}, "vs 4"},
		{Roll{Total: 7, Target: 12, Compare: AtMost}, "≤ 12"},
		{Roll{Total: 15, Target: 14, Compare: AtLeast}, "≥ 14"},
		{Roll{Total: 9, Target: 12, Low: 4, Compare: Window}, "in 5–12"},
		{Roll{Total: 9}, ""},
	} {
		if got := tc.r.Versus(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}
