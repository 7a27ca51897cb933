package dice

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
)

// Bounds of an expression.
const (
	maxTerms = 10
	maxDice  = 100 // dice in one roll
	maxSides = 1000
	maxFlat  = 1000 // a flat modifier's size
)

// Expr is a parsed dice expression, as players write a free roll: a sum
// of dice terms and flat modifiers, "2d6+1", "d20-2", "4d6kh3", "3d6!"
// (exploding).
type Expr struct {
	Terms []Term
	Flat  int
}

// Term is N dice of Sides sides: negative when subtracted, Keep > 0
// keeps only the Keep highest (or lowest, with Low), Explode rerolls and
// adds maximum faces.
type Term struct {
	N, Sides int
	Neg      bool
	Keep     int
	Low      bool
	Explode  bool
}

var (
	diceTermRE = regexp.MustCompile(`^(\d*)d(\d+)(?:k([hl]?)(\d+))?(!?)$`)
	rollExprRE = regexp.MustCompile(`^\s*([+-]?\s*(?:\d*[dD]\d+(?:[kK][hHlL]?\d+)?!?|\d+)(?:\s*[+-]\s*(?:\d*[dD]\d+(?:[kK][hHlL]?\d+)?!?|\d+))*)(?:\s+(.*))?$`)
)

// SplitRoll splits "2d6+1 fire damage" into the expression and the label.
// Without a leading expression the whole text is the expression, so that
// ParseExpr explains what is wrong with it.
func SplitRoll(s string) (expr, label string) {
	m := rollExprRE.FindStringSubmatch(s)
	if m == nil {
		return strings.TrimSpace(s), ""
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
}

// ParseExpr reads a dice expression; its error (fray.EINVALID) says what
// is wrong with it.
func ParseExpr(s string) (Expr, error) {
	var ex Expr
	src := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	bad := func(format string, args ...any) (Expr, error) {
		return Expr{}, fray.Errorf(fray.EINVALID, "cannot roll %q: "+format, append([]any{s}, args...)...)
	}
	if src == "" || len(src) > 64 {
		return bad("write dice like 2d6+1, d20-2, 4d6kh3 or 3d6!")
	}
	total := 0
	neg := false
	rest := src
	if rest[0] == '+' || rest[0] == '-' {
		neg, rest = rest[0] == '-', rest[1:]
	}
	for {
		i := strings.IndexAny(rest, "+-")
		part := rest
		if i >= 0 {
			part = rest[:i]
		}
		if part == "" {
			return bad("a sign with nothing after it")
		}
		if m := diceTermRE.FindStringSubmatch(part); m != nil {
			t := Term{N: 1, Neg: neg, Low: m[3] == "l", Explode: m[5] == "!"}
			if m[1] != "" {
				t.N, _ = strconv.Atoi(m[1])
			}
			t.Sides, _ = strconv.Atoi(m[2])
			if m[4] != "" {
				t.Keep, _ = strconv.Atoi(m[4])
			}
			switch {
			case t.N < 1:
				return bad("roll at least one die")
			case t.Sides < 2 || t.Sides > maxSides:
				return bad("dice have 2 to %d sides", maxSides)
			case t.Keep > t.N || (m[4] != "" && t.Keep < 1):
				return bad("keep between 1 and the number of dice")
			}
			total += t.N
			ex.Terms = append(ex.Terms, t)
		} else if n, err := strconv.Atoi(part); err == nil && n <= maxFlat {
			if neg {
				n = -n
			}
			ex.Flat += n
		} else {
			return bad("%q is neither dice (2d6) nor a number up to %d", part, maxFlat)
		}
		if total > maxDice || len(ex.Terms) > maxTerms {
			return bad("at most %d dice in %d terms", maxDice, maxTerms)
		}
		if i < 0 {
			break
		}
		neg, rest = rest[i] == '-', rest[i+1:]
	}
	if len(ex.Terms) == 0 {
		return bad("no dice in it")
	}
	return ex, nil
}

// String writes the expression back canonically: "2d6+1".
func (ex Expr) String() string {
	var b strings.Builder
	for i, t := range ex.Terms {
		switch {
		case t.Neg:
			b.WriteByte('-')
		case i > 0:
			b.WriteByte('+')
		}
		if t.N > 1 {
			b.WriteString(strconv.Itoa(t.N))
		}
		b.WriteString("d" + strconv.Itoa(t.Sides))
		if t.Keep > 0 {
			b.WriteString("k")
			if t.Low {
				b.WriteString("l")
			} else {
				b.WriteString("h")
			}
			b.WriteString(strconv.Itoa(t.Keep))
		}
		if t.Explode {
			b.WriteByte('!')
		}
	}
	switch {
	case ex.Flat > 0:
		b.WriteString("+" + strconv.Itoa(ex.Flat))
	case ex.Flat < 0:
		b.WriteString(strconv.Itoa(ex.Flat))
	}
	return b.String()
}

// Roll rolls the expression: every die recorded, dropped ones marked, the
// flat modifier in Mod.
func (ex Expr) Roll(r *Roller) Roll {
	roll := Roll{Mod: ex.Flat}
	if ex.Flat != 0 {
		roll.Mods = []Mod{{Label: "modifier", Value: ex.Flat}}
	}
	total := ex.Flat
	for _, t := range ex.Terms {
		dd := make([]Die, t.N)
		for i := range dd {
			if t.Explode {
				dd[i] = r.Ace(t.Sides)
			} else {
				dd[i] = r.Die(t.Sides)
			}
			if t.Neg {
				dd[i].Role = "minus"
			}
		}
		if t.Keep > 0 {
			order := make([]int, len(dd))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				if t.Low {
					return dd[a].Total() - dd[b].Total()
				}
				return dd[b].Total() - dd[a].Total()
			})
			for _, i := range order[t.Keep:] {
				dd[i].Dropped = true
			}
		}
		for _, d := range dd {
			if d.Dropped {
				continue
			}
			if t.Neg {
				total -= d.Total()
			} else {
				total += d.Total()
			}
		}
		roll.Dice = append(roll.Dice, dd...)
	}
	roll.Total = total
	return roll
}
