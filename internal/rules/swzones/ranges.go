package swzones

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
)

// Ranges are counted in zones: 0 is the same zone, 1 an adjacent one, and so
// on (the distance is the fewest borders between the two zones).

// ParseRange reads a printed range "Short/Medium/Long" in inches, e.g.
// "12/24/48".
func ParseRange(s string) ([]int, error) {
	parts := strings.Split(strings.ReplaceAll(s, " ", ""), "/")
	if len(parts) != 3 {
		return nil, fmt.Errorf("range %q must be Short/Medium/Long in inches, e.g. 12/24/48", s)
	}
	out := make([]int, 3)
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 999 {
			return nil, fmt.Errorf("range %q: %q is not a whole number of inches from 1 to 999", s, p)
		}
		if i > 0 && n < out[i-1] {
			return nil, fmt.Errorf("range %q must not decrease", s)
		}
		out[i] = n
	}
	return out, nil
}

// InchesToZones converts one range in inches with the seed's rule: below 6"
// is range 0; otherwise range ÷ 6, rounded as the range-rounding option says
// (nearest by default, halves up).
func InchesToZones(inches int, rounding string) int {
	if inches < 6 {
		return 0
	}
	switch rounding {
	case RoundDown:
		return inches / 6
	case RoundUp:
		return (inches + 5) / 6
	}
	return (inches + 3) / 6
}

// ConvertRange converts Short/Medium/Long from inches to zones, then makes
// each band at least one more than the one before (the seed: ranges always
// increase by at least 1). 12/24/48 → 2/4/8; 3/6/12 → 0/1/2.
func ConvertRange(inches []int, rounding string) []int {
	out := make([]int, len(inches))
	for i, in := range inches {
		out[i] = InchesToZones(in, rounding)
		if i > 0 && out[i] < out[i-1]+1 {
			out[i] = out[i-1] + 1
		}
	}
	return out
}

// rangeString shows a range in zones: "2/4/8".
func rangeString(r []int) string {
	b := make([]byte, 0, 3*len(r))
	for i, n := range r {
		if i > 0 {
			b = append(b, '/')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

// Band is a range band and its attack modifier.
type Band struct {
	Name    string `json:"name"` // "short", "medium", "long", "extreme"
	Penalty int    `json:"penalty"`
}

// RangeBand finds the band of a target dist zones away for a weapon with
// Short/Medium/Long r (in zones). Extreme range reaches 4× Long at −8 when
// extreme is set (SWADE). ok is false when the target is out of range.
func RangeBand(dist int, r []int, extreme bool) (Band, bool) {
	switch {
	case dist <= r[0]:
		return Band{"short", 0}, true
	case dist <= r[1]:
		return Band{"medium", -2}, true
	case dist <= r[2]:
		return Band{"long", -4}, true
	case extreme && dist <= 4*r[2]:
		return Band{"extreme", -8}, true
	}
	return Band{}, false
}

// maxReach is the farthest a weapon reaches, in zones.
func maxReach(b *engine.Base, w Weapon) int {
	if extremeRange(b) {
		return 4 * w.Range[2]
	}
	return w.Range[2]
}

// Power ranges. The seed gives a table by Smarts die for the three kinds of
// power range; the dice it leaves out are filled in by interpolation
// (marked [I] below), or with the value of the die below (power-range-gaps:
// "lower"). Powers (power.go) take their reach from here.
const (
	PowerSmarts   = "smarts"    // range Smarts
	PowerSmartsX2 = "smarts-x2" // range Smarts×2
	PowerSmartsX3 = "smarts-x3" // range Smarts×3
)

var powerRanges = map[string]map[int]int{
	PowerSmarts:   {4: 0, 6: 0, 8: 1 /* [I] */, 10: 1, 12: 1},
	PowerSmartsX2: {4: 1, 6: 2, 8: 3, 10: 3 /* [I] */, 12: 4},
	PowerSmartsX3: {4: 2, 6: 3 /* [I] */, 8: 4, 10: 5 /* [I] */, 12: 6},
}

// gapDice are the Smarts dice the seed's table leaves out, by range kind.
var gapDice = map[string][]int{PowerSmarts: {8}, PowerSmartsX2: {10}, PowerSmartsX3: {6, 10}}

// PowerRange returns a power's range in zones for a caster's Smarts die,
// with the seed's gaps interpolated. Smarts beyond d12 counts as d12.
func PowerRange(kind string, smarts TraitDie) (int, error) {
	return powerRange(kind, smarts, GapsInterpolate)
}

// powerRange is PowerRange under a power-range-gaps option.
func powerRange(kind string, smarts TraitDie, gaps string) (int, error) {
	if gaps == GapsLower && slices.Contains(gapDice[kind], smarts.Sides) {
		smarts.Sides -= 2
		return powerRange(kind, smarts, gaps)
	}
	table, ok := powerRanges[kind]
	if !ok {
		return 0, fmt.Errorf("unknown power range %q (smarts, smarts-x2, smarts-x3)", kind)
	}
	r, ok := table[smarts.Sides]
	if !ok {
		return 0, fmt.Errorf("%s is not a Smarts die", smarts)
	}
	return r, nil
}
