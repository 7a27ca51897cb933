package d20under

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/statblock"
)

// The book's stat block, as its bestiary prints it (the numbers in
// brackets are the modifiers players roll against; damage and armour
// are the flat values non-player characters deal and soak):
//
//	Ogre
//	Race Ogre
//	Resistance Challenging
//	Traits Robust (II)
//	Accurate 10 (0), Cunning 5 (+5), Discreet 7 (+3), Persuasive 9 (+1),
//	Quick 11 (-1), Resolute 13 (-3), Strong 15 (-5), Vigilant 10 (0)
//	Abilities Man-at-arms (novice)
//	Weapons Club 7 (heavy)
//	Armor Thick skin 3
//	Defense -1
//	Toughness 15 Pain Threshold 8
//	Equipment 1d10 ortegs
//	Shadow Moss green (corruption: 0)
//	Tactics: The ogre charges the nearest foe.
//
// A PDF copy often gives the attributes as a table: their names on one
// line, their values on the next.

// weaponWords guess a weapon's type from its name.
var weaponWords = []struct{ word, typ string }{
	{"crossbow", "crossbow"}, {"arbalest", "crossbow"}, {"bow", "bow"},
	{"dagger", "short"}, {"knife", "short"}, {"stiletto", "short"}, {"hatchet", "short"},
	{"spear", "long"}, {"halberd", "long"}, {"pike", "long"}, {"staff", "long"}, {"quarterstaff", "long"},
	{"two-handed", "heavy"}, {"greataxe", "heavy"}, {"maul", "heavy"}, {"great", "heavy"},
	{"claw", "natural"}, {"bite", "natural"}, {"fang", "natural"}, {"horn", "natural"}, {"tail", "natural"}, {"tentacle", "natural"}, {"sting", "natural"},
	{"fist", "unarmed"}, {"unarmed", "unarmed"}, {"punch", "unarmed"},
	{"javelin", "thrown"}, {"throwing", "thrown"},
	{"sword", "one-handed"}, {"axe", "one-handed"}, {"mace", "one-handed"}, {"club", "one-handed"}, {"hammer", "one-handed"}, {"sabre", "one-handed"},
}

var (
	flatItem = regexp.MustCompile(`^(.*?)\s+(-?\d+)\s*(\(.*\))?$`)
	romans   = map[string]int{"i": 1, "ii": 2, "iii": 3}
	// startsNumber: "Strong 15" is the attribute, "Strong Gift" an ability.
	startsNumber = regexp.MustCompile(`^[-+]?\d`)
)

// StatBlockFormat implements statblock.Parser.
func (Ruleset) StatBlockFormat() statblock.Format {
	es := []statblock.Entry{
		{Labels: []string{"Race"}, Skip: "Fray does not use a creature's race"},
		{Labels: []string{"Resistance"}, Skip: "a rating for the GM, not a rule"},
		{Labels: []string{"Traits"}, Read: readTrait},
		{Labels: []string{"Abilities"}, Read: readAbility},
		{Labels: []string{"Weapons", "Weapon"}, Read: readWeapon},
		{Labels: []string{"Armor", "Armour"}, Whole: false, Read: readArmour},
		{Labels: []string{"Defense", "Defence"}, Read: func(b *statblock.Builder, it string) error {
			if _, err := strconv.Atoi(strings.TrimSpace(dropBrackets(it))); err != nil {
				return fmt.Errorf("Defense: %q is not a number", it)
			}
			b.Note("defense", strings.TrimSpace(dropBrackets(it)))
			b.Skip("Fray works Defense out from Quick and armour (and checks the Impeding of custom armour against it)")
			return nil
		}},
		{Labels: []string{"Toughness"}, Read: readNumber("toughness", "Toughness")},
		{Labels: []string{"Pain Threshold"}, MidLine: true, Read: func(b *statblock.Builder, it string) error {
			if strings.TrimSpace(it) == "-" {
				b.Set("undead", "on")
				return nil
			}
			return readNumber("painThreshold", "Pain Threshold")(b, it)
		}},
		{Labels: []string{"Corruption Threshold"}, MidLine: true, Skip: "Fray works it out from Resolute"},
		{Labels: []string{"Equipment"}, Skip: "not used in a fight"},
		{Labels: []string{"Shadow"}, Whole: true, Skip: "not used in a fight"},
		{Labels: []string{"Tactics"}, Prose: true, Skip: "advice for the GM"},
	}
	for _, a := range attributes {
		es = append(es, statblock.Entry{Labels: []string{label(a)}, Value: startsNumber, Read: readNumber("attributes."+a, label(a))})
	}
	return statblock.Format{Entries: es, Finish: finishUnder}
}

func dropBrackets(s string) string {
	if i := strings.Index(s, "("); i >= 0 {
		return s[:i]
	}
	return s
}

// readNumber reads "13 (+3)" into field.
func readNumber(field, what string) func(*statblock.Builder, string) error {
	return func(b *statblock.Builder, it string) error {
		n, err := strconv.Atoi(strings.TrimSpace(dropBrackets(it)))
		if err != nil {
			return fmt.Errorf("%s: %q is not a number", what, it)
		}
		b.Set(field, strconv.Itoa(n))
		return nil
	}
}

// slug is a book word as Fray's ids spell it: "Iron Fist" → "iron-fist".
func slug(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "-", " "))), "-")
}

// inBrackets is what the brackets of s say, split at commas.
func inBrackets(s string) []string {
	i, j := strings.Index(s, "("), strings.LastIndex(s, ")")
	if i < 0 || j < i {
		return nil
	}
	var out []string
	for _, w := range strings.Split(s[i+1:j], ",") {
		if w = slug(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

func readAbility(b *statblock.Builder, it string) error {
	name := slug(dropBrackets(it))
	if name == "-" || name == "" {
		return nil
	}
	if !slices.Contains(abilityNames, name) {
		b.Skip("an ability Fray's rules do not look at")
		return nil
	}
	for _, w := range inBrackets(it) {
		if slices.Contains(levels, w) {
			b.Set("abilities."+name, w)
			return nil
		}
	}
	b.Assume("abilities."+name, Novice, "the block gives no level (novice, adept or master)")
	return nil
}

func readTrait(b *statblock.Builder, it string) error {
	name := slug(dropBrackets(it))
	switch name {
	case "-", "":
		return nil
	case "undead":
		b.Set("undead", "on")
		return nil
	case "terrifying", "terrify":
		name = TrTerrify
	case "armored", "armoured":
		name = TrArmoured
	}
	if name != TrRobust && name != TrTerrify {
		if slices.Contains(traitNames, name) {
			b.Skip("the book gives the level; Fray's sheet wants the trait's value (enter it in the form)")
		} else {
			b.Skip("a trait Fray's rules do not look at")
		}
		return nil
	}
	for _, w := range inBrackets(it) {
		if n, ok := romans[w]; ok {
			b.Set("traits."+name, strconv.Itoa(n))
			return nil
		}
	}
	b.Assume("traits."+name, "1", "the block gives no level (I, II or III)")
	return nil
}

// readWeapon reads "Sword 5 (long, precise)": the flat damage 5 of a
// weapon whose type comes from its brackets or its name.
func readWeapon(b *statblock.Builder, it string) error {
	m := flatItem.FindStringSubmatch(it)
	if m == nil {
		return fmt.Errorf("a weapon is its name and its damage, like Sword 4")
	}
	name := strings.TrimSpace(m[1])
	dmg, _ := strconv.Atoi(m[2])
	var quals []string
	typ := ""
	for _, w := range inBrackets(m[3]) {
		switch {
		case slices.Contains(weaponTypeNames, w) && typ == "":
			typ = w
		case w == "deep-impact" || w == "precise" || w == "balanced":
			quals = append(quals, w)
		}
	}
	i := 0
	for b.Has("weapons." + strconv.Itoa(i) + ".name") {
		i++
	}
	p := "weapons." + strconv.Itoa(i) + "."
	b.Set(p+"name", name)
	if typ != "" {
		b.Set(p+"type", typ)
	} else {
		typ = "one-handed"
		low := strings.ToLower(name)
		for _, ww := range weaponWords {
			if strings.Contains(low, ww.word) {
				typ = ww.typ
				break
			}
		}
		b.Assume(p+"type", typ, "the block does not say; guessed from the name")
	}
	if len(quals) > 0 {
		b.Set(p+"qualities", strings.Join(quals, ", "))
	}
	bonus := dmg - flat(weaponTypes[typ].Die)
	if slices.Contains(quals, QualDeepImpact) {
		bonus--
	}
	if bonus != 0 {
		b.Set(p+"bonus", strconv.Itoa(bonus))
	}
	if weaponTypes[typ].Units {
		b.Assume(p+"count", "3", "the block does not say how many are carried")
	}
	return nil
}

// readArmour reads "Chain mail 4 (impeding)": flat armour 4, the book's
// light, medium or heavy when it is theirs, else custom.
func readArmour(b *statblock.Builder, it string) error {
	if s := strings.TrimSpace(it); s == "-" || s == "0" || strings.EqualFold(s, "none") {
		b.Set("armour.type", "none")
		return nil
	}
	m := flatItem.FindStringSubmatch(it)
	name, n := "", 0
	if m != nil {
		name = strings.TrimSpace(m[1])
		n, _ = strconv.Atoi(m[2])
	} else if v, err := strconv.Atoi(strings.TrimSpace(dropBrackets(it))); err == nil {
		n = v
	} else {
		return fmt.Errorf("armour is its name and its value, like Chain mail 3")
	}
	if name != "" {
		b.Set("armour.name", name)
	}
	for _, t := range []string{"light", "medium", "heavy"} {
		if flat(armourTypes[t].Die) == n {
			b.Set("armour.type", t)
			return nil
		}
	}
	if n < 1 || n > 6 {
		return fmt.Errorf("armour %d: Fray's armour is 1 to 6", n)
	}
	b.Set("armour.type", "custom")
	b.Set("armour.die", strconv.Itoa(2*n))
	return nil
}

// finishUnder works a custom armour's Impeding out from the printed
// Defense (Defense = Quick − Impeding; the book prints the modifier,
// 10 − Defense), and assumes 10 for an attribute the block lacks.
func finishUnder(b *statblock.Builder) {
	for _, a := range attributes {
		if !b.Has("attributes." + a) {
			b.Assume("attributes."+a, "10", "the block gives no readable "+label(a)+": the sheet's 10")
		}
	}
	if b.Get("armour.type") != "custom" {
		return
	}
	quick, _ := strconv.Atoi(b.Get("attributes." + Quick))
	if d, ok := b.Noted("defense"); ok {
		// A signed number (or 0) is the modifier, 10 − Defense; else
		// Defense itself.
		def, _ := strconv.Atoi(d)
		if strings.HasPrefix(d, "-") || strings.HasPrefix(d, "+") || def == 0 {
			def = 10 - def
		}
		if imp := quick - def; imp >= 0 && imp <= 10 {
			b.Set("armour.impeding", strconv.Itoa(imp))
			return
		}
	}
	b.Assume("armour.impeding", "0", "the block's Defense does not give it")
}
