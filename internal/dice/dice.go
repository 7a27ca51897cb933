// Package dice rolls server-side dice from an injected source and records
// every die, so that each event carries the exact faces that produced it;
// it also reads the dice expressions players write ("2d6+1", "4d6kh3").
package dice

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Source yields one die face: a uniformly distributed integer in [1, sides].
type Source interface {
	Face(sides int) int
}

// Random is a Source backed by a ChaCha8 generator seeded from the operating
// system. It is not safe for concurrent use: give each encounter owner its own.
type Random struct{ r *rand.Rand }

// NewRandom returns a Random seeded from crypto/rand.
func NewRandom() *Random {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		// crypto/rand never fails on supported platforms; fall back to a time-free seed anyway.
		binary.LittleEndian.PutUint64(seed[:], rand.Uint64())
	}
	return &Random{r: rand.New(rand.NewChaCha8(seed))}
}

// NewSeeded returns a Random that always yields the same faces for the same
// seed: for tests and reproducible demos, never for real play.
func NewSeeded(seed uint64) *Random {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return &Random{r: rand.New(rand.NewChaCha8(key))}
}

// Face implements Source.
func (s *Random) Face(sides int) int { return s.r.IntN(sides) + 1 }

// Fixed replays a fixed sequence of faces, for tests. Rolling past the end,
// or asking for a face larger than the die, panics with a message naming the
// roll, because a scenario test whose script ran out is a broken test.
type Fixed struct {
	faces []int
	next  int
}

// NewFixed returns a Fixed source that yields faces in order.
func NewFixed(faces ...int) *Fixed { return &Fixed{faces: faces} }

// Face implements Source.
func (s *Fixed) Face(sides int) int {
	if s.next >= len(s.faces) {
		panic(fmt.Sprintf("dice.Fixed: script exhausted after %d faces (next die: d%d)", len(s.faces), sides))
	}
	f := s.faces[s.next]
	if f < 1 || f > sides {
		panic(fmt.Sprintf("dice.Fixed: face %d (position %d) does not fit a d%d", f, s.next, sides))
	}
	s.next++
	return f
}

// Remaining reports how many scripted faces were not used.
func (s *Fixed) Remaining() int { return len(s.faces) - s.next }

// Die is one physical die as it landed: several faces when it aced
// (exploded). Role says what the die is when dice of one roll differ — the
// Wild Die, the black and the white d20, the second of a "second chance"
// pair; Dropped marks a die that does not count (the lower of a pair, a
// six replaced by two new dice).
type Die struct {
	Sides   int    `json:"sides"`
	Faces   []int  `json:"faces"`
	Role    string `json:"role,omitempty"`
	Dropped bool   `json:"dropped,omitempty"`
	// At is the index of the die's first face among the faces its command
	// rolled (its faces follow in order): with the event's Position, what a
	// provable face is derived from (Deriver.Face).
	At int `json:"at,omitempty"`
}

// Total is the sum of the die's faces.
func (d Die) Total() int {
	t := 0
	for _, f := range d.Faces {
		t += f
	}
	return t
}

// Aced reports whether the die exploded at least once.
func (d Die) Aced() bool { return len(d.Faces) > 1 }

func (d Die) String() string {
	parts := make([]string, len(d.Faces))
	for i, f := range d.Faces {
		parts[i] = fmt.Sprint(f)
	}
	return fmt.Sprintf("d%d:%s", d.Sides, strings.Join(parts, "+"))
}

// Roll is one labelled roll as the log shows it: which dice came up, the
// modifiers and where each comes from, the total, what it was rolled
// against and how it compares.
type Roll struct {
	Label string `json:"label"`
	Who   string `json:"who,omitempty"` // combatant id that rolled
	Dice  []Die  `json:"dice"`
	Kept  int    `json:"kept,omitempty"` // index+1 of the die kept, when only one counts (Wild Die)
	Mod   int    `json:"mod,omitempty"`  // the sum of the flat modifiers
	// Mods itemises the modifiers: "cover −2", "wounds −1", "+1D band".
	Mods   []Mod `json:"mods,omitempty"`
	Total  int   `json:"total"`
	Target int   `json:"target,omitempty"`
	// Compare says how Total meets Target: AtLeast (roll high, the
	// default), AtMost (roll under), Window (Low < die ≤ Target) or
	// Opposed (against another roll's total).
	Compare string `json:"compare,omitempty"`
	Low     int    `json:"low,omitempty"`    // a Window's lower bound, excluded
	Result  string `json:"result,omitempty"` // the outcome in the ruleset's words: "success", "hit", "failure", …
	// Outcome says how Result went for whoever rolled, as the ruleset
	// judged it; rolls logged before it existed are Neutral.
	Outcome Outcome `json:"outcome,omitempty"`
}

// Outcome is how a roll went for whoever rolled it: Good, Bad or Neutral
// (a roll that only measures or picks, or one whose result is mixed).
type Outcome string

// Outcomes of a roll.
const (
	Neutral Outcome = ""
	Good    Outcome = "good"
	Bad     Outcome = "bad"
)

// OutcomeOf is Good when ok, Bad otherwise.
func OutcomeOf(ok bool) Outcome {
	if ok {
		return Good
	}
	return Bad
}

// How a roll compares to its target.
const (
	AtLeast = "≥"
	AtMost  = "≤"
	Window  = "window"
	Opposed = "vs"
)

// Mod is one modifier of a roll and its source. Unit is empty for a flat
// modifier to the total or the target, or names what it counts ("D" for
// dice added to a roll's difficulty).
type Mod struct {
	Label string `json:"label"`
	Value int    `json:"value"`
	Unit  string `json:"unit,omitempty"`
}

// Needs is how every reader is told what a roll had to make, in words a
// newcomer reads right: "(needs 4)", "(needs ≤ 10)", "(needs 5–12)",
// "(against 9)". Written after the total ("1 (needs 4) — miss"), it never
// reads as a claim about the total the way "1 ≥ 4" does. Empty when the
// roll has no target. Pages, the log, exports and notices all word a
// roll's target through it; a test keeps "≥" and "≤" from
// standing between a total and a target anywhere a player reads.
func (r Roll) Needs() string {
	switch {
	case r.Compare == Window:
		return fmt.Sprintf("(needs %d–%d)", r.Low+1, r.Target)
	case r.Target == 0 && r.Compare != AtMost:
		return ""
	case r.Compare == AtMost:
		return fmt.Sprintf("(needs ≤ %d)", r.Target)
	case r.Compare == Opposed:
		return fmt.Sprintf("(against %d)", r.Target)
	}
	return fmt.Sprintf("(needs %d)", r.Target) // AtLeast, the default
}

// Percent words a d% roll against a chance inside a sentence the way
// Needs words a roll against its target: "rolled 57, needs ≤ 10%".
func Percent(total, chance int) string {
	return fmt.Sprintf("rolled %d, needs ≤ %d%%", total, chance)
}

// Faces counts the die faces in the roll.
func (r Roll) Faces() int {
	n := 0
	for _, d := range r.Dice {
		n += len(d.Faces)
	}
	return n
}

// Roller rolls dice from a Source and counts every face it produced, so the
// engine can verify that each one reached an event. It numbers the faces
// of each command (Begin) and keeps them, so the engine can also check
// that every die recorded is the one rolled at its position.
type Roller struct {
	src    Source
	faces  int
	rolled []int // the faces since Begin, in order
}

// NewRoller returns a Roller over src.
func NewRoller(src Source) *Roller { return &Roller{src: src} }

// Begin starts a command's faces at position p: they are numbered from 0
// (Die.At), and a Derived source derives them from p.
func (r *Roller) Begin(p Position) {
	r.rolled = r.rolled[:0]
	if d, ok := r.src.(*Derived); ok {
		d.Begin(p)
	}
}

// Rolled returns the faces rolled since Begin, in order. The slice is
// reused by the next Begin.
func (r *Roller) Rolled() []int { return r.rolled }

// Provable reports whether the faces are derived from a committed seed
// (a Derived source), so events should say where they come from.
func (r *Roller) Provable() bool {
	_, ok := r.src.(*Derived)
	return ok
}

// Commitment returns the published commitment to epoch e's seed, when the
// dice are provable.
func (r *Roller) Commitment(e int) (string, bool) {
	d, ok := r.src.(*Derived)
	if !ok {
		return "", false
	}
	return d.Seed(e).Commitment(), true
}

// SeedOf returns epoch e's seed, to publish once the encounter has ended,
// when the dice are provable.
func (r *Roller) SeedOf(e int) (Seed, bool) {
	d, ok := r.src.(*Derived)
	if !ok {
		return Seed{}, false
	}
	return d.Seed(e), true
}

func (r *Roller) face(sides int) int {
	f := r.src.Face(sides)
	r.faces++
	r.rolled = append(r.rolled, f)
	return f
}

// Die rolls one die that does not explode.
func (r *Roller) Die(sides int) Die {
	at := len(r.rolled)
	return Die{Sides: sides, Faces: []int{r.face(sides)}, At: at}
}

// Ace rolls one die that explodes: each maximum face adds another roll.
func (r *Roller) Ace(sides int) Die {
	d := Die{Sides: sides, At: len(r.rolled)}
	for {
		f := r.face(sides)
		d.Faces = append(d.Faces, f)
		if f != sides || sides < 2 {
			return d
		}
	}
}

// RolePick is the Role of a die that picks among choices (a card from the
// deck, a zone to scatter into): pages show the choice, not a die roll.
const RolePick = "pick"

// Pick rolls one non-exploding die and returns its face, for random choices
// (a card, a scatter direction) that are still recorded. The die's Role is
// RolePick.
func (r *Roller) Pick(sides int) (Die, int) {
	d := r.Die(sides)
	d.Role = RolePick
	return d, d.Faces[0]
}

// IsPick reports whether every die of the roll is a pick (RolePick): a
// random choice such as a dealt card, not a roll to show as dice.
func (r Roll) IsPick() bool {
	for _, d := range r.Dice {
		if d.Role != RolePick {
			return false
		}
	}
	return len(r.Dice) > 0
}

// Faces reports how many die faces this roller has produced.
func (r *Roller) Faces() int { return r.faces }
