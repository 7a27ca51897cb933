package d6bands

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The check (spec b, base game reconstructed): a difficulty of N D rolls N
// six-sided dice and sums them; each 6 is set aside and replaced by two new
// dice, which may come up 6 again. The check succeeds when the sum is at
// most the skill value (the target number, TN); the margin is TN − sum.
// Modifiers either add or remove dice (±D, the difficulty) or raise or
// lower the TN. A success by crit-margin or more is critical, a miss by
// fumble-margin or more a fumble. Every die is recorded: a replaced 6 is a
// dropped die, and its replacements carry the role "for a 6".

// maxCheckDice bounds how many dice one open-ended roll may add up to: a
// safeguard against a broken dice source, never reached in play (forty
// sixes in a row).
const maxCheckDice = 48

// Units of a dice.Mod: "D" adds dice to the difficulty; "" (the default)
// raises or lowers the target number.
const unitDice = "D"

// Check is one skill check to roll.
type Check struct {
	Label string // what it is for: "Shot at Orc", "Dash"
	Who   string // the combatant rolling
	Skill string // the skill's display name
	Value int    // the skill value, before modifiers
	Dice  int    // the difficulty, before modifiers
	Mods  []dice.Mod
}

// Result is a rolled check.
type Result struct {
	Roll    dice.Roll
	Dice    int // dice rolled at the start (the difficulty after modifiers)
	TN      int
	Sum     int
	Margin  int // TN − Sum: ≥ 0 a success, < 0 a miss by −Margin
	Success bool
	Crit    bool // a critical success
	Fumble  bool // a critical failure
}

// MissBy is how much the check missed by (0 on a success).
func (r Result) MissBy() int { return max(0, -r.Margin) }

// dieCount is the difficulty after the ±D modifiers, at least 1D.
func (c Check) dieCount() int {
	n := c.Dice
	for _, m := range c.Mods {
		if m.Unit == unitDice {
			n += m.Value
		}
	}
	return max(1, n)
}

// target is the skill value after the ±TN modifiers.
func (c Check) target() int {
	tn := c.Value
	for _, m := range c.Mods {
		if m.Unit != unitDice {
			tn += m.Value
		}
	}
	return tn
}

// openEnded rolls n open-ended d6: every 6 is dropped and replaced by two
// new dice. It returns the dice in the order rolled and the sum of those
// that count.
func openEnded(r *dice.Roller, n int) ([]dice.Die, int) {
	// Room for the dice and the pairs a few sixes add: growing the slice
	// die by die was a visible share of a simulation's allocations.
	var out []dice.Die
	if n > 0 {
		out = make([]dice.Die, 0, min(n+n/2+2, maxCheckDice))
	}
	sum := 0
	roles := make([]string, n)
	for i := 0; i < len(roles) && len(out) < maxCheckDice; i++ {
		d := r.Die(6)
		d.Role = roles[i]
		if d.Faces[0] == 6 {
			d.Dropped = true
			roles = append(roles, "for a 6", "for a 6")
		} else {
			sum += d.Faces[0]
		}
		out = append(out, d)
	}
	return out, sum
}

// rollCheck rolls c for fighter f: its wound penalty and any one-off GM
// adjustment join the modifiers (the adjustment is used up by an event).
func rollCheck(tx *Tx, f *Fighter, c Check) (Result, error) {
	st := tx.State
	if f != nil {
		c.Who = f.ID
		if p := woundPenalty(&st.Base, f); p != 0 {
			c.Mods = append(c.Mods, dice.Mod{Label: "wounds", Value: -p})
		}
		if a := f.Adjust; a != nil {
			if a.Dice != 0 {
				c.Mods = append(c.Mods, dice.Mod{Label: "GM: " + a.Reason, Value: a.Dice, Unit: unitDice})
			}
			if a.TN != 0 {
				c.Mods = append(c.Mods, dice.Mod{Label: "GM: " + a.Reason, Value: a.TN})
			}
			if err := tx.Emit(engine.NewEvent(KindAdjustUsed, f.ID, fmt.Sprintf("The GM's ruling (%s) applies to %s's check.", a.Reason, st.NameOf(f.ID)),
				AdjustUsed{Fighter: f.ID})); err != nil {
				return Result{}, err
			}
		}
	}
	return rollPlain(tx.Dice, &st.Base, c), nil
}

// rollPlain rolls c with exactly its modifiers.
func rollPlain(r *dice.Roller, b *engine.Base, c Check) Result {
	n, tn := c.dieCount(), c.target()
	ds, sum := openEnded(r, n)
	res := Result{Dice: n, TN: tn, Sum: sum, Margin: tn - sum}
	res.Success = sum <= tn
	res.Crit = res.Success && res.Margin >= kit.OptInt(b, OptCritMargin)
	res.Fumble = !res.Success && -res.Margin >= kit.OptInt(b, OptFumbleMargin)
	label := fmt.Sprintf("%s: %s %dD", c.Label, c.Skill, n)
	if c.Label == "" {
		label = fmt.Sprintf("%s %dD", c.Skill, n)
	}
	res.Roll = dice.Roll{Label: label, Who: c.Who, Dice: ds, Mods: c.Mods, Total: sum, Target: tn,
		Compare: dice.AtMost, Result: res.Words(), Outcome: dice.OutcomeOf(res.Success)}
	return res
}

// Words is how the log words the result.
func (r Result) Words() string {
	switch {
	case r.Crit:
		return fmt.Sprintf("critical success by %d", r.Margin)
	case r.Success:
		return fmt.Sprintf("success by %d", r.Margin)
	case r.Fumble:
		return fmt.Sprintf("fumble, missed by %d", -r.Margin)
	}
	return fmt.Sprintf("missed by %d", -r.Margin)
}

// modsText lists modifiers for a prompt: "+1D cover, −2 wounds".
func modsText(mods []dice.Mod) string {
	var parts []string
	for _, m := range mods {
		sign := "+"
		v := m.Value
		if v < 0 {
			sign, v = "−", -v
		}
		parts = append(parts, fmt.Sprintf("%s%d%s %s", sign, v, m.Unit, m.Label))
	}
	return strings.Join(parts, ", ")
}

// diceMod is a ±D modifier.
func diceMod(label string, n int) dice.Mod { return dice.Mod{Label: label, Value: n, Unit: unitDice} }

// tnMod is a ±TN modifier.
func tnMod(label string, n int) dice.Mod { return dice.Mod{Label: label, Value: n} }

// capital upper-cases the first letter of s.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
