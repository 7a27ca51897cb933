package d20under

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Success tests (spec b): d20 ≤ attribute + modifier. An opposed test
// [A←B] adds 10 − B. A second chance is rolling twice and keeping the
// better (the lower); a second chance to fail keeps the worse; the two
// cancel. A 1 always passes and a 20 always fails.

// chanceUnit marks a second chance among a roll's modifiers: +1 a second
// chance to pass, −1 a second chance to fail.
const chanceUnit = "second chance"

// party is one side of a test: the attribute it stands on and what
// modifies it, with the sources (each shown on the roll card).
type party struct {
	ID      string
	Attr    string // an attribute, or Defense
	Base    int
	Mods    []dice.Mod
	Chances []dice.Mod
}

// total is the party's value with its modifiers.
func (p party) total() int {
	n := p.Base
	for _, m := range p.Mods {
		n += m.Value
	}
	return n
}

// test is a success test: Roller rolls, against Foe when opposed.
type test struct {
	Label  string
	Roller party
	Foe    *party
}

// outcome is a test as rolled.
type outcome struct {
	Roll   dice.Roll `json:"roll"`
	Pass   bool      `json:"pass"`
	Face   int       `json:"face"`
	Target int       `json:"target"`
}

// Natural results.
func (o outcome) one() bool    { return o.Face == 1 }
func (o outcome) twenty() bool { return o.Face == 20 }

// chances is the net second chance of a test for its roller: > 0 keep
// the better of two, < 0 the worse, 0 a single die.
func (t test) chances() ([]dice.Mod, int) {
	mods := append([]dice.Mod(nil), t.Roller.Chances...)
	if t.Foe != nil {
		// The foe's second chances are seen from the roller's side: an
		// enemy's second chance to fail is the player's second chance
		// to pass (seed 9: "the player rolls twice and picks the better").
		for _, m := range t.Foe.Chances {
			mods = append(mods, dice.Mod{Label: m.Label + " (" + foeWord + ")", Value: -m.Value, Unit: chanceUnit})
		}
	}
	net := 0
	for _, m := range mods {
		net += m.Value
	}
	return mods, net
}

const foeWord = "foe"

// target is the number to roll under, and its itemised modifiers.
func (t test) target() (int, []dice.Mod) {
	mods := append([]dice.Mod(nil), t.Roller.Mods...)
	n := t.Roller.total()
	if t.Foe != nil {
		mods = append(mods, dice.Mod{Label: fmt.Sprintf("vs %s %d", label(t.Foe.Attr), t.Foe.Base), Value: 10 - t.Foe.Base})
		n += 10 - t.Foe.Base
		for _, m := range t.Foe.Mods {
			mods = append(mods, dice.Mod{Label: m.Label + " (" + foeWord + ")", Value: -m.Value})
			n -= m.Value
		}
	}
	return n, mods
}

// rollTest rolls a test: one d20, or two with a second chance.
func rollTest(tx *Tx, t test) outcome {
	target, mods := t.target()
	chances, net := t.chances()
	first := tx.Dice.Die(20)
	dies := []dice.Die{first}
	face := first.Faces[0]
	if net != 0 {
		second := tx.Dice.Die(20)
		second.Role = chanceUnit
		f2 := second.Faces[0]
		keepSecond := (net > 0 && f2 < face) || (net < 0 && f2 > face)
		if keepSecond {
			first.Dropped = true
			face = f2
		} else {
			second.Dropped = true
		}
		dies = []dice.Die{first, second}
	}
	sum := 0
	for _, m := range mods {
		sum += m.Value
	}
	pass := face == 1 || (face != 20 && face <= target)
	result := "fail"
	if pass {
		result = "pass"
	}
	switch face {
	case 1:
		result += " (a 1)"
	case 20:
		result += " (a 20)"
	}
	roll := dice.Roll{Label: t.Label, Who: t.Roller.ID, Dice: dies, Mod: sum, Mods: append(mods, chances...),
		Total: face, Target: target, Compare: dice.AtMost, Result: result, Outcome: dice.OutcomeOf(pass)}
	return outcome{Roll: roll, Pass: pass, Face: face, Target: target}
}

// testLabel is what the roll card calls a test, in words a player says:
// "Attack: Accurate against Defense", "Break free: Strong" or "Quick" (the
// book's [Accurate←Defense]; the numbers are the roll's modifiers and
// target).
func testLabel(what string, t test) string {
	if t.Foe == nil {
		if what == "" {
			return label(t.Roller.Attr)
		}
		return fmt.Sprintf("%s: %s", what, label(t.Roller.Attr))
	}
	return fmt.Sprintf("%s: %s against %s", what, label(t.Roller.Attr), label(t.Foe.Attr))
}

// Test kinds, for the modifiers and second chances that apply.
type testKind int

const (
	testOther   testKind = iota // any other test
	testCraft                   // a non-combat test: traps, poison, first aid (Prepared)
	testMelee                   // a melee attack or manoeuvre
	testRanged                  // a ranged attack
	testDefence                 // a defence test
)

// party builds id's side of a test of attr (base value) of kind, against
// foe ("" when unopposed): the Corruption, Prepared and Advantage
// modifiers and the second chances of its conditions.
func (s *State) party(id, attr string, base int, kind testKind, foe string) party {
	f := s.Fighters[id]
	p := party{ID: id, Attr: attr, Base: base}
	if pen := s.corruptionPenalty(f); pen != 0 {
		p.Mods = append(p.Mods, dice.Mod{Label: "Corruption", Value: -pen})
	}
	if kind == testCraft && f.Prepared != "" {
		p.Mods = append(p.Mods, dice.Mod{Label: "Prepared: " + f.Prepared, Value: 1})
	}
	if foe != "" {
		if why := s.advantage(id, foe); why != "" {
			p.Mods = append(p.Mods, dice.Mod{Label: "Advantage (" + why + ")", Value: 2})
		}
	}
	fail := func(what string) { p.Chances = append(p.Chances, dice.Mod{Label: what, Value: -1, Unit: chanceUnit}) }
	pass := func(what string) { p.Chances = append(p.Chances, dice.Mod{Label: what, Value: 1, Unit: chanceUnit}) }
	if f.Critical {
		fail("Critical Damage")
	}
	if f.Hasty {
		fail("took the initiative")
	}
	if f.Blinded {
		fail("blinded")
	}
	if f.CursedBy != "" {
		fail("cursed")
	}
	attack := kind == testMelee || kind == testRanged
	if f.ArmRight && attack {
		fail("wounded right arm")
	}
	twoHanded := f.weapon().kind().Heavy || (f.weapon().kind().Long && !f.ShieldUp)
	if f.ArmLeft && ((kind == testDefence && f.ShieldUp) || (attack && twoHanded)) {
		fail("wounded left arm")
	}
	if f.FullDefence && kind == testDefence {
		pass("Full Defence")
	}
	if f.FullOffense {
		switch kind {
		case testMelee:
			pass("Full Offense")
		case testDefence:
			fail("Full Offense")
		}
	}
	return p
}

// corruptionPenalty is what the fighter's accumulated Corruption takes
// off its tests (option corruption-tests), unless it ignores it this
// round (the feat).
func (s *State) corruptionPenalty(f *Fighter) int {
	if kit.Opt(&s.Base, OptCorruptionTests) != CorruptionOverThreshold || f.IgnoreCorruption {
		return 0
	}
	return max(0, f.totalCorruption()-f.CorruptionThreshold())
}

// plainTest is an unopposed test of one of id's attributes.
func (s *State) plainTest(id, attr, what string, kind testKind, mods ...dice.Mod) test {
	p := s.party(id, attr, s.Fighters[id].Attributes[attr], kind, "")
	p.Mods = append(p.Mods, mods...)
	t := test{Roller: p}
	t.Label = testLabel(what, t)
	return t
}

// opposedTest is an opposed test [a.attr←b.attr] between two fighters,
// rolled by whoever the player-facing rule says (see rollerOf): a's side
// or, turned around, b's side [b.attr←a.attr]. aMods are a's own
// modifiers for this test (aiming, distance, Robust …).
func (s *State) opposedTest(what string, a, aAttr string, aKind testKind, aMods []dice.Mod, aChances []dice.Mod,
	b, bAttr string, bKind testKind, bMods []dice.Mod) (test, bool) {
	pa := s.party(a, aAttr, s.value(a, aAttr), aKind, b)
	pa.Mods = append(pa.Mods, aMods...)
	pa.Chances = append(pa.Chances, aChances...)
	pb := s.party(b, bAttr, s.value(b, bAttr), bKind, a)
	pb.Mods = append(pb.Mods, bMods...)
	if s.rollerOf(a, b) == a {
		t := test{Roller: pa, Foe: &pb}
		t.Label = testLabel(what, t)
		return t, true
	}
	t := test{Roller: pb, Foe: &pa}
	t.Label = testLabel(what, t)
	return t, false
}

// value is a fighter's attribute, or its Defense.
func (s *State) value(id, attr string) int {
	f := s.Fighters[id]
	if attr == Defense {
		return f.defense()
	}
	return f.Attributes[attr]
}

// rollerOf says who rolls a test between an acting a and a resisting b
// (spec b): players roll — their attacks and their defences — and NPCs
// use flat values; between two NPCs the option npc-vs-npc decides, and
// between two player characters the one acting rolls.
func (s *State) rollerOf(a, b string) string {
	switch {
	case s.pc(a):
		return a
	case s.pc(b):
		return b
	case kit.Opt(&s.Base, OptNPCvsNPC) == RollerDefender:
		return b
	}
	return a
}

// rolls reports whether the fighter's own dice are rolled (a PC), or its
// values are flat (an NPC): damage and armour.
func (s *State) rolls(id string) bool { return s.pc(id) }

// flat is an NPC's flat value for a die: ⌈max/2⌉.
func flat(sides int) int { return (sides + 1) / 2 }
