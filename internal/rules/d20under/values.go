package d20under

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// The values an event sets. Every event of this ruleset carries the exact
// state changes it makes as a list of Change; each value a change may set
// is declared once below, in change, with its key on the wire (a Change's
// K, "key:name" for a count kept by name) and the field it sets. Rules
// build their changes from these declarations — change.Prone.To(id, true)
// — so a misspelt value does not compile, and Apply finds the setter by
// the key: the wire format is what it always was, and only a stored event
// naming a value this ruleset never had fails replay.

// value is one declared value: its key and how a change of it applies.
type value interface {
	key() string
	apply(s *State, c Change, name string) error
}

// number is a fighter's whole number.
type number struct {
	k  string
	at func(*Fighter) *int
}

// To sets fighter id's value to n.
func (v number) To(id string, n int) Change { return Change{F: id, K: v.k, V: n} }

// flag is a fighter's yes or no, 1 or 0 on the wire.
type flag struct {
	k  string
	at func(*Fighter) *bool
}

// To sets fighter id's flag.
func (v flag) To(id string, on bool) Change { return Change{F: id, K: v.k, V: boolInt(on)} }

// text is a fighter's word: a weapon, a combatant, a plan.
type text struct {
	k  string
	at func(*Fighter) *string
}

// To sets fighter id's value to s.
func (v text) To(id, s string) Change { return Change{F: id, K: v.k, S: s} }

// count is one of a fighter's counts kept by name (ammunition by weapon,
// items by kind, moves ahead by side). Zero removes the name, unless the
// count keeps it (an empty ammunition counter is still a counter).
type count struct {
	k    string
	at   func(*Fighter) *map[string]int
	keep bool
}

// To sets fighter id's count of name to n.
func (v count) To(id, name string, n int) Change { return Change{F: id, K: v.k + ":" + name, V: n} }

// field is a value of the battlefield, set by its own function.
type field[A any] struct {
	k   string
	to  func(k string, a A) Change
	set func(s *State, c Change, name string) error
}

// To sets the battlefield's value to a.
func (v field[A]) To(a A) Change { return v.to(v.k, a) }

func (v number) key() string   { return v.k }
func (v flag) key() string     { return v.k }
func (v text) key() string     { return v.k }
func (v count) key() string    { return v.k }
func (v field[A]) key() string { return v.k }

func (v number) apply(s *State, c Change, _ string) error {
	return onFighter(s, c, func(f *Fighter) { *v.at(f) = c.V })
}

func (v flag) apply(s *State, c Change, _ string) error {
	return onFighter(s, c, func(f *Fighter) { *v.at(f) = c.V != 0 })
}

func (v text) apply(s *State, c Change, _ string) error {
	return onFighter(s, c, func(f *Fighter) { *v.at(f) = c.S })
}

func (v count) apply(s *State, c Change, name string) error {
	return onFighter(s, c, func(f *Fighter) { m := v.at(f); *m = setInt(*m, name, c.V, v.keep) })
}

func (v field[A]) apply(s *State, c Change, name string) error {
	if c.F != "" {
		return fmt.Errorf("battlefield value %q set on fighter %q", v.k, c.F)
	}
	return v.set(s, c, name)
}

// onFighter applies a fighter's change.
func onFighter(s *State, c Change, fn func(*Fighter)) error {
	f := s.Fighters[c.F]
	if f == nil {
		return fmt.Errorf("no fighter %q", c.F)
	}
	fn(f)
	return nil
}

// idList is a field holding combatant ids, comma-separated on the wire.
func idList(k string, at func(*State) *[]string) field[[]string] {
	return field[[]string]{k: k,
		to:  func(k string, ids []string) Change { return Change{K: k, S: strings.Join(ids, ",")} },
		set: func(s *State, c Change, _ string) error { *at(s) = splitIDs(c.S); return nil }}
}

// stateText is a field holding a word.
func stateText(k string, at func(*State) *string) field[string] {
	return field[string]{k: k,
		to:  func(k, v string) Change { return Change{K: k, S: v} },
		set: func(s *State, c Change, _ string) error { *at(s) = c.S; return nil }}
}

// stateFlag is a field holding a yes or no.
func stateFlag(k string, at func(*State) *bool) field[bool] {
	return field[bool]{k: k,
		to:  func(k string, on bool) Change { return Change{K: k, V: boolInt(on)} },
		set: func(s *State, c Change, _ string) error { *at(s) = c.V != 0; return nil }}
}

// named is a battlefield value of one name (a trap, a combatant's
// tie-break): To(name, a).
type named[A any] struct{ field[A] }

// To sets the value of name.
func (v named[A]) To(name string, a A) Change {
	c := v.to(v.k, a)
	c.K += ":" + name
	return c
}

// pair is a battlefield value of two sides or two combatants, "a|b" on the
// wire: To(a, b, n).
type pair struct{ field[int] }

// To sets the value of the pair a, b.
func (v pair) To(a, b string, n int) Change { return Change{K: v.k, S: pairKey(a, b), V: n} }

// change declares every value an event may set.
var change = struct {
	Toughness, XP, XPSpent, Permanent, CorruptionGained, Temporary, Moves, X, Y, Winded, Unconscious,
	DeathFails, PoisonDie, PoisonTurns, InitBonus, Resilience, KojTest, Moving number
	Combat, Acted, Drawn, ShieldUp, Prone, Blinded, Critical, Roused, Lame, Dying, ArmRight, ArmLeft,
	Terrified, Fearless, Abomination, Hasty, QuickStrike, IgnoreCorruption, PerfectDefence, Ready,
	FullDefence, FullOffense flag
	Wielded, Prepared, CursedBy, Cursing, HeldBy, Holding, Caught, Plan               text
	Ahead, WeaponPoison, Cowed, Edge, Ammo, Special, Units, Spent, SpentSpecial, Item count

	// The battlefield.
	Engage, Gap                     pair
	Order, Surprised                field[[]string]
	Ambush, Phase                   field[string]
	ReclaimAsked, SurpriseTried     field[bool]
	TrapCount                       field[int]
	Tiebreak                        named[int]
	TrapKnown, TrapVictim, TrapGone named[string]
}{
	Toughness:        number{"toughness", func(f *Fighter) *int { return &f.Toughness }},
	XP:               number{"xp", func(f *Fighter) *int { return &f.XP }},
	XPSpent:          number{"xp-spent", func(f *Fighter) *int { return &f.XPSpent }},
	Permanent:        number{"permanent", func(f *Fighter) *int { return &f.Permanent }},
	CorruptionGained: number{"gained", func(f *Fighter) *int { return &f.CorruptionGained }},
	Temporary:        number{"temporary", func(f *Fighter) *int { return &f.Temporary }},
	Moves:            number{"moves", func(f *Fighter) *int { return &f.Moves }},
	X:                number{"x", func(f *Fighter) *int { return &f.X }},
	Y:                number{"y", func(f *Fighter) *int { return &f.Y }},
	Winded:           number{"winded", func(f *Fighter) *int { return &f.Winded }},
	Unconscious:      number{"unconscious", func(f *Fighter) *int { return &f.Unconscious }},
	DeathFails:       number{"death-fails", func(f *Fighter) *int { return &f.DeathFails }},
	PoisonDie:        number{"poison-die", func(f *Fighter) *int { return &f.PoisonDie }},
	PoisonTurns:      number{"poison-turns", func(f *Fighter) *int { return &f.PoisonTurns }},
	InitBonus:        number{"init-bonus", func(f *Fighter) *int { return &f.InitBonus }},
	Resilience:       number{"resilience", func(f *Fighter) *int { return &f.Resilience }},
	KojTest:          number{"koj-test", func(f *Fighter) *int { return &f.KojTest }},
	Moving:           number{"moving", func(f *Fighter) *int { return &f.Moving }},

	Combat:           flag{"combat", func(f *Fighter) *bool { return &f.Combat }},
	Acted:            flag{"acted", func(f *Fighter) *bool { return &f.Acted }},
	Drawn:            flag{"drawn", func(f *Fighter) *bool { return &f.Drawn }},
	ShieldUp:         flag{"shield-up", func(f *Fighter) *bool { return &f.ShieldUp }},
	Prone:            flag{"prone", func(f *Fighter) *bool { return &f.Prone }},
	Blinded:          flag{"blinded", func(f *Fighter) *bool { return &f.Blinded }},
	Critical:         flag{"critical", func(f *Fighter) *bool { return &f.Critical }},
	Roused:           flag{"roused", func(f *Fighter) *bool { return &f.Roused }},
	Lame:             flag{"lame", func(f *Fighter) *bool { return &f.Lame }},
	Dying:            flag{"dying", func(f *Fighter) *bool { return &f.Dying }},
	ArmRight:         flag{"arm-right", func(f *Fighter) *bool { return &f.ArmRight }},
	ArmLeft:          flag{"arm-left", func(f *Fighter) *bool { return &f.ArmLeft }},
	Terrified:        flag{"terrified", func(f *Fighter) *bool { return &f.Terrified }},
	Fearless:         flag{"fearless", func(f *Fighter) *bool { return &f.Fearless }},
	Abomination:      flag{"abomination", func(f *Fighter) *bool { return &f.Abomination }},
	Hasty:            flag{"hasty", func(f *Fighter) *bool { return &f.Hasty }},
	QuickStrike:      flag{"quick-strike", func(f *Fighter) *bool { return &f.QuickStrike }},
	IgnoreCorruption: flag{"ignore-corruption", func(f *Fighter) *bool { return &f.IgnoreCorruption }},
	PerfectDefence:   flag{"perfect-defence", func(f *Fighter) *bool { return &f.PerfectDefence }},
	Ready:            flag{"ready", func(f *Fighter) *bool { return &f.Ready }},
	FullDefence:      flag{"full-defence", func(f *Fighter) *bool { return &f.FullDefence }},
	FullOffense:      flag{"full-offense", func(f *Fighter) *bool { return &f.FullOffense }},

	Wielded:  text{"wielded", func(f *Fighter) *string { return &f.Wielded }},
	Prepared: text{"prepared", func(f *Fighter) *string { return &f.Prepared }},
	CursedBy: text{"cursed-by", func(f *Fighter) *string { return &f.CursedBy }},
	Cursing:  text{"cursing", func(f *Fighter) *string { return &f.Cursing }},
	HeldBy:   text{"held-by", func(f *Fighter) *string { return &f.HeldBy }},
	Holding:  text{"holding", func(f *Fighter) *string { return &f.Holding }},
	Caught:   text{"caught", func(f *Fighter) *string { return &f.Caught }},
	Plan:     text{"plan", func(f *Fighter) *string { return &f.Plan }},

	Ahead:        count{"ahead", func(f *Fighter) *map[string]int { return &f.Ahead }, true},
	WeaponPoison: count{"weapon-poison", func(f *Fighter) *map[string]int { return &f.WeaponPoison }, false},
	Cowed:        count{"cowed", func(f *Fighter) *map[string]int { return &f.Cowed }, false},
	Edge:         count{"edge", func(f *Fighter) *map[string]int { return &f.Edge }, false},
	Ammo:         count{"ammo", func(f *Fighter) *map[string]int { return &f.Ammo }, true},
	Special:      count{"special", func(f *Fighter) *map[string]int { return &f.Special }, true},
	Units:        count{"units", func(f *Fighter) *map[string]int { return &f.Units }, true},
	Spent:        count{"spent", func(f *Fighter) *map[string]int { return &f.Spent }, false},
	SpentSpecial: count{"spent-special", func(f *Fighter) *map[string]int { return &f.SpentSpecial }, false},
	Item:         count{"item", func(f *Fighter) *map[string]int { return &f.Items }, false},

	// A melee formed (1) or left (0) on the distance categories.
	Engage: pair{field[int]{k: "engage", set: func(s *State, c Change, _ string) error {
		a, b, _ := strings.Cut(c.S, "|")
		s.Melee = slices.DeleteFunc(s.Melee, func(p Pair) bool { return p.has(a) && p.has(b) })
		if c.V != 0 {
			s.Melee = append(s.Melee, Pair{A: a, B: b})
		}
		return nil
	}}},
	// The moves between two sides on the distance categories.
	Gap: pair{field[int]{k: "gap", set: func(s *State, c Change, _ string) error {
		a, b, _ := strings.Cut(c.S, "|")
		if s.Ladder == nil {
			return fmt.Errorf("no ladder")
		}
		s.Ladder.setGap(a, b, c.V)
		return nil
	}}},
	Order:         idList("order", func(s *State) *[]string { return &s.Initiative }),
	Surprised:     idList("surprised", func(s *State) *[]string { return &s.Surprised }),
	Ambush:        stateText("ambush", func(s *State) *string { return &s.Ambush }),
	Phase:         stateText("phase", func(s *State) *string { return &s.Phase }),
	ReclaimAsked:  stateFlag("reclaim-asked", func(s *State) *bool { return &s.ReclaimAsked }),
	SurpriseTried: stateFlag("surprise-tried", func(s *State) *bool { return &s.SurpriseTried }),
	TrapCount: field[int]{k: "trap-count", to: func(k string, n int) Change { return Change{K: k, V: n} },
		set: func(s *State, c Change, _ string) error { s.TrapCount = c.V; return nil }},
	Tiebreak: named[int]{field[int]{k: "tiebreak", to: func(k string, n int) Change { return Change{K: k, V: n} },
		set: func(s *State, c Change, id string) error {
			if s.Tiebreak == nil {
				s.Tiebreak = map[string]int{}
			}
			s.Tiebreak[id] = c.V
			return nil
		}}},
	// A side learns where a trap lies.
	TrapKnown: named[string]{field[string]{k: "trap-known", to: func(k, side string) Change { return Change{K: k, S: side} },
		set: func(s *State, c Change, id string) error {
			t := s.trap(id)
			if t == nil {
				return fmt.Errorf("no trap %q", id)
			}
			if !slices.Contains(t.KnownBy, c.S) {
				t.KnownBy = append(t.KnownBy, c.S)
			}
			return nil
		}}},
	// A trap caught someone.
	TrapVictim: named[string]{field[string]{k: "trap-victim", to: func(k, victim string) Change { return Change{K: k, S: victim} },
		set: func(s *State, c Change, id string) error {
			t := s.trap(id)
			if t == nil {
				return fmt.Errorf("no trap %q", id)
			}
			t.Victim = c.S
			return nil
		}}},
	// A trap is disarmed or spent (To(id, "")).
	TrapGone: named[string]{field[string]{k: "trap-gone", to: func(k, _ string) Change { return Change{K: k} },
		set: func(s *State, _ Change, id string) error {
			s.Traps = slices.DeleteFunc(s.Traps, func(t Trap) bool { return t.ID == id })
			return nil
		}}},
}

// values finds a declared value by its key.
var values = func() map[string]value {
	out := map[string]value{}
	all := reflect.ValueOf(change)
	for i := range all.NumField() {
		v, ok := all.Field(i).Interface().(value)
		if !ok {
			panic(fmt.Sprintf("d20-under: change.%s is no value", all.Type().Field(i).Name))
		}
		if _, dup := out[v.key()]; dup || v.key() == "" {
			panic(fmt.Sprintf("d20-under: value key %q is empty or declared twice", v.key()))
		}
		out[v.key()] = v
	}
	return out
}()

// set applies one change.
func (s *State) set(c Change) error {
	key, name, _ := strings.Cut(c.K, ":")
	v, ok := values[key]
	if !ok {
		return fmt.Errorf("unknown value %q", c.K)
	}
	if _, battlefield := v.(interface{ isField() }); !battlefield && c.F == "" {
		return fmt.Errorf("fighter value %q set on no fighter", c.K)
	}
	return v.apply(s, c, name)
}

func (field[A]) isField() {}
