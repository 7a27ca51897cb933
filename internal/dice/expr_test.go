package dice

import "testing"

func TestParseExpr(t *testing.T) {
	for in, want := range map[string]string{"2d6+1": "2d6+1", "D20": "d20", "1d8 + 1d4 - 2": "d8+d4-2", "-d4+3": "-d4+3", "4d6kl3": "4d6kl3", "3D6!": "3d6!"} {
		ex, err := ParseExpr(in)
		if err != nil || ex.String() != want {
			t.Errorf("%q → %q, %v; want %q", in, ex.String(), err, want)
		}
	}
	for _, in := range []string{"", "2", "d1", "d1001", "2d6+", "0d6", "3d6k4", "2d6+5000", "fire", "2d6 fire"} {
		if _, err := ParseExpr(in); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
	for in, want := range map[string][2]string{"2d6+1 fire damage": {"2d6+1", "fire damage"}, "d20": {"d20", ""}, "d20 - 2 to hit": {"d20 - 2", "to hit"}, "damage": {"damage", ""}} {
		e, l := SplitRoll(in)
		if e != want[0] || l != want[1] {
			t.Errorf("SplitRoll(%q) = %q, %q", in, e, l)
		}
	}
}
