package dice

import (
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

// FuzzParseExpr: every text either parses or is refused with a clear
// error; a parsed expression writes back to one that parses the same, and
// rolls (every die recorded) without running away.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"2d6+1", "d20-2", "4d6kh3", "4d6kl1", "3d6!", "-d4", "1d2!", "100d100", "101d6", "d1",
		"2d6+", "+", "", "d", "99999999999999999999d6", "2d6k0", "3d6k4", "d20+d20+d20+d20+d20+d20+d20+d20+d20+d20+d20", " 2 d 6 ", "1000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ex, err := ParseExpr(s)
		if err != nil {
			if fray.ErrorCode(err) != fray.EINVALID {
				t.Fatalf("ParseExpr(%q): %v", s, err)
			}
			return
		}
		again, err := ParseExpr(ex.String())
		if err != nil || again.String() != ex.String() {
			t.Fatalf("ParseExpr(%q) = %s, which reads back as %v, %v", s, ex, again, err)
		}
		dice := 0
		for _, term := range ex.Terms {
			dice += term.N
		}
		roll := ex.Roll(NewRoller(NewSeeded(1)))
		if got := len(roll.Dice); got != dice {
			t.Fatalf("%s rolled %d dice, want %d", ex, got, dice)
		}
	})
}
