package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
)

// Trait rolls: roll the trait die (and, for a Wild Card, a d6 Wild Die, keep
// the higher), every die aces, add the modifiers, compare with the target
// number (4 unless something else is rolled against). Each full 4 over the
// target is a raise. A Wild Card rolling 1 on both dice critically fails.
// Extras roll no Wild Die and, in this core, never critically fail (the base
// game only checks an Extra's critical failure when the GM says it matters).

// TargetNumber is the usual target of a trait roll.
const TargetNumber = 4

// Mod is one modifier to a roll and where it comes from.
type Mod struct {
	Source string `json:"source"`
	Value  int    `json:"value"`
}

// nonNil returns mods, or an empty list for none, so event data always
// carries a "mods" list.
func nonNil(mods []Mod) []Mod {
	if mods == nil {
		return []Mod{}
	}
	return mods
}

// diceMods itemises modifiers for the roll the log and the roll cards show.
func diceMods(mods []Mod) []dice.Mod {
	if len(mods) == 0 {
		return nil
	}
	out := make([]dice.Mod, len(mods))
	for i, m := range mods {
		out[i] = dice.Mod{Label: m.Source, Value: m.Value}
	}
	return out
}

func sumMods(mods []Mod) int {
	t := 0
	for _, m := range mods {
		t += m.Value
	}
	return t
}

// Check is one trait roll to make.
type Check struct {
	Label  string   `json:"label"` // the trait as the log shows it: "Fighting"
	Who    string   `json:"who"`   // the fighter rolling
	Die    TraitDie `json:"die"`
	Wild   bool     `json:"wild,omitempty"` // a Wild Card: roll the Wild Die too
	Mods   []Mod    `json:"mods,omitempty"` // situational modifiers; the die's own bonus is added
	Target int      `json:"target"`
	Attack bool     `json:"attack,omitempty"` // word the result as hit/miss rather than success/failure
}

// Outcome is a rolled trait roll.
type Outcome struct {
	Roll     dice.Roll
	Mods     []Mod // every modifier applied, the die's own bonus included
	Total    int
	Success  bool
	Raises   int
	CritFail bool
}

// rollTrait makes a trait roll with r.
func rollTrait(r *dice.Roller, c Check) Outcome {
	mods := append([]Mod(nil), c.Mods...)
	if c.Die.Bonus != 0 {
		src := "trait bonus"
		if c.Die == untrained {
			src = "untrained"
		}
		mods = append([]Mod{{Source: src, Value: c.Die.Bonus}}, mods...)
	}
	mod := sumMods(mods)
	trait := r.Ace(c.Die.Sides)
	roll := dice.Roll{Label: c.Label, Who: c.Who, Dice: []dice.Die{trait}, Mod: mod, Mods: diceMods(mods), Target: c.Target, Compare: dice.AtLeast}
	best := trait.Total()
	critical := false
	if c.Wild {
		wild := r.Ace(6)
		wild.Role = "Wild Die"
		roll.Dice[0].Role = "trait die"
		roll.Dice = append(roll.Dice, wild)
		roll.Kept = 1
		if wild.Total() > best {
			best, roll.Kept = wild.Total(), 2
		}
		roll.Dice[2-roll.Kept].Dropped = true
		critical = trait.Faces[0] == 1 && wild.Faces[0] == 1
	}
	o := Outcome{Mods: mods, Total: best + mod, CritFail: critical}
	roll.Total = o.Total
	if !critical {
		o.Success, o.Raises = grade(o.Total, c.Target)
	}
	roll.Result, roll.Outcome = resultWord(o, c.Attack), dice.OutcomeOf(o.Success)
	o.Roll = roll
	return o
}

// grade compares a total with a target: success, and the number of raises
// (each full 4 over the target).
func grade(total, target int) (bool, int) {
	if total < target {
		return false, 0
	}
	return true, (total - target) / 4
}

func resultWord(o Outcome, attack bool) string {
	switch {
	case o.CritFail:
		return "critical failure"
	case !o.Success && attack:
		return "miss"
	case !o.Success:
		return "failure"
	case o.Raises == 1:
		return "raise"
	case o.Raises > 1:
		return fmt.Sprintf("%d raises", o.Raises)
	case attack:
		return "hit"
	}
	return "success"
}

// jokerMod is the +2 a fighter holding a Joker adds to trait and damage
// rolls that round.
func jokerMod(f *Fighter) []Mod {
	if f.Joker() {
		return []Mod{{Source: "joker", Value: 2}}
	}
	return nil
}

// woundMod is the fighter's wound penalty, if any.
func woundMod(f *Fighter) []Mod {
	if p := f.WoundPenalty(); p != 0 {
		return []Mod{{Source: "wounds", Value: p}}
	}
	return nil
}

// check prepares a trait roll for f with the modifiers every trait roll
// carries (wounds, Joker) plus extra.
func check(f *Fighter, trait string, target int, extra ...Mod) Check {
	mods := append(woundMod(f), extra...)
	mods = append(mods, jokerMod(f)...)
	return Check{Label: traitLabel(trait), Who: f.ID, Die: f.Trait(trait), Wild: f.WildCard, Mods: mods, Target: target}
}
