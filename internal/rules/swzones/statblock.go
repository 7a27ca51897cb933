package swzones

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/statblock"
)

// The Savage Worlds book's stat block, as its bestiary prints it:
//
//	Orc Chieftain (Wild Card)
//	Attributes: Agility d8, Smarts d6, Spirit d8, Strength d10, Vigor d10
//	Skills: Fighting d10, Intimidation d8, Notice d6, Shooting d6
//	Pace: 6; Parry: 7; Toughness: 10 (3)
//	Hindrances: Mean
//	Edges: Brawny, Sweep
//	Gear: Plate corselet (+3), great axe (Str+d10, AP 2).
//	Special Abilities:
//	• Infravision: Halves penalties for dark lighting.
//
// Wild Cards are marked in the name line (a skull in the book: "(WC)",
// "(Wild Card)" or ☠ in a copy).

var (
	swDamage = regexp.MustCompile(`(?i)(?:str(?:\s*[+-]\s*\d*d\d+)*|\d*d\d+(?:\s*[+-]\s*\d*d\d+)*)(?:\s*[+-]\s*\d+)?`)
	swRange  = regexp.MustCompile(`\b(\d+/\d+/\d+)\b`)
	swBonus  = regexp.MustCompile(`^([A-Za-z][A-Za-z /]*?)\s*\+(\d+)\b`)
	wcMarks  = []string{"(wild card)", "(wc)", "☠", "[wc]"}
	swArmour = regexp.MustCompile(`^\(\s*\+(\d+)\s*\)$`) // "(+2)"
)

// StatBlockFormat implements statblock.Parser.
func (Ruleset) StatBlockFormat() statblock.Format {
	return statblock.Format{
		Entries: []statblock.Entry{
			{Labels: []string{"Attributes"}, Read: readTrait("attributes", attributes)},
			{Labels: []string{"Skills"}, Read: readTrait("skills", commonSkills)},
			{Labels: []string{"Pace"}, Skip: "sw-zones moves by zones (2 Movement a turn), not by Pace"},
			{Labels: []string{"Parry"}, Skip: "Fray works Parry out from Fighting"},
			{Labels: []string{"Toughness"}, Read: readToughness},
			{Labels: []string{"Hindrances"}, Skip: "Fray does not model Hindrances"},
			{Labels: []string{"Edges"}, Skip: "Fray does not model Edges"},
			{Labels: []string{"Gear"}, Read: readGear},
			{Labels: []string{"Special Abilities"}, Whole: true, Read: readAbility},
			{Labels: []string{"Powers"}, Skip: "powers need an imported setup file"},
			{Labels: []string{"Power Points"}, Skip: "powers need an imported setup file"},
			{Labels: []string{"Treasure"}, Skip: "not used in a fight"},
			{Labels: []string{"Bennies"}, Read: func(b *statblock.Builder, it string) error {
				n, err := strconv.Atoi(strings.TrimSpace(it))
				if err != nil {
					return fmt.Errorf("Bennies: %q is not a number", it)
				}
				b.Set("bennies", strconv.Itoa(n))
				return nil
			}},
		},
		Finish: finishSW,
	}
}

// readTrait reads "Agility d8" into group.agility; a trait the form does
// not offer is skipped.
func readTrait(group string, offered []string) func(*statblock.Builder, string) error {
	return func(b *statblock.Builder, it string) error {
		it = strings.TrimSpace(dropParens(it))
		i := strings.LastIndex(it, " ")
		if i < 0 {
			return fmt.Errorf("expected a trait and a die, like Fighting d8")
		}
		name, die := strings.ToLower(strings.TrimSpace(it[:i])), strings.TrimSpace(it[i+1:])
		d, err := ParseDie(die)
		if err != nil {
			return err
		}
		if !slices.Contains(offered, name) {
			b.Skip(fmt.Sprintf("%q is not a trait on Fray's sw-zones sheet", name))
			return nil
		}
		b.Set(group+"."+name, d.String())
		return nil
	}
}

func dropParens(s string) string {
	for {
		i := strings.Index(s, "(")
		j := strings.Index(s, ")")
		if i < 0 || j < i {
			return s
		}
		s = s[:i] + s[j+1:]
	}
}

// readToughness takes the armour in brackets ("7 (2)"); Toughness itself
// Fray works out from Vigor.
func readToughness(b *statblock.Builder, it string) error {
	i := strings.Index(it, "(")
	j := strings.Index(it, ")")
	if _, err := strconv.Atoi(strings.TrimSpace(dropParens(it))); err != nil {
		return fmt.Errorf("Toughness: %q is not a number", it)
	}
	if i < 0 || j < i {
		b.Skip("Fray works Toughness out from Vigor and armour")
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(it[i+1 : j]))
	if err != nil {
		return fmt.Errorf("Toughness: the armour in brackets, %q, is not a number", it[i+1:j])
	}
	b.Set("armor", strconv.Itoa(n))
	return nil
}

// readGear reads one item of gear: a weapon when it gives a damage.
func readGear(b *statblock.Builder, it string) error {
	name, inner := it, ""
	if i := strings.Index(it, "("); i >= 0 {
		name, inner = strings.TrimSpace(it[:i]), it[i:]
	}
	if w, ok := weaponOf(name, inner); ok {
		addWeapon(b, w)
		return nil
	}
	if m := swArmour.FindStringSubmatch(strings.TrimSpace(inner)); m != nil {
		if !b.Has("armor") {
			b.Set("armor", m[1])
			return nil
		}
		b.Skip("armour: the Toughness line gave it")
		return nil
	}
	b.Skip("gear that is not a weapon")
	return nil
}

// readAbility reads one special ability: "Claws: Str+d6" is a weapon,
// "Armor +2: thick hide" armour; the rest Fray does not model.
func readAbility(b *statblock.Builder, it string) error {
	name, text, _ := strings.Cut(it, ":")
	name = strings.TrimSpace(name)
	if m := swBonus.FindStringSubmatch(name); m != nil && strings.EqualFold(strings.TrimSpace(m[1]), "armor") {
		if !b.Has("armor") {
			b.Set("armor", m[2])
		} else {
			b.Skip("armour: the Toughness line gave it")
		}
		return nil
	}
	if loc := swDamage.FindStringIndex(strings.TrimSpace(text)); loc != nil && loc[0] == 0 {
		if w, ok := weaponOf(name, text); ok {
			addWeapon(b, w)
			return nil
		}
	}
	b.Skip("a special ability Fray does not model")
	return nil
}

type swWeapon struct{ name, damage, rng string }

// weaponOf finds a damage (and a range) in a weapon's description.
func weaponOf(name, text string) (swWeapon, bool) {
	if name == "" {
		return swWeapon{}, false
	}
	for _, m := range swDamage.FindAllString(text, -1) {
		dmg := strings.ReplaceAll(m, " ", "")
		if _, err := ParseDamage(dmg); err != nil {
			continue
		}
		if strings.EqualFold(dmg[:min(3, len(dmg))], "str") {
			dmg = "Str" + dmg[3:]
		}
		w := swWeapon{name: strings.ToUpper(name[:1]) + name[1:], damage: dmg}
		if r := swRange.FindString(text); r != "" {
			w.rng = r
		}
		return w, true
	}
	return swWeapon{}, false
}

func addWeapon(b *statblock.Builder, w swWeapon) {
	i := 0
	for b.Has("weapons." + strconv.Itoa(i) + ".name") {
		i++
	}
	p := "weapons." + strconv.Itoa(i) + "."
	b.Set(p+"name", w.name)
	b.Set(p+"damage", w.damage)
	if w.rng != "" {
		b.Set(p+"range", w.rng)
		if strings.HasPrefix(w.damage, "Str") {
			b.Assume(p+"thrown", "on", "a ranged weapon that adds Strength is thrown")
		}
	}
}

// finishSW gives every attribute the block did not give a d6, and reads
// the Wild Card mark off the name.
func finishSW(b *statblock.Builder) {
	for _, a := range attributes {
		if !b.Has("attributes." + a) {
			b.Assume("attributes."+a, "d6", "the block gives no readable "+traitLabel(a)+": the sheet's d6")
		}
	}
	name := b.Name()
	low := strings.ToLower(name)
	for _, m := range wcMarks {
		if i := strings.Index(low, m); i >= 0 {
			b.SetName(strings.TrimSpace(name[:i] + name[i+len(m):]))
			b.Set("wildCard", "on")
			return
		}
	}
	b.Assume("wildCard", "", "the name is not marked as a Wild Card ((WC), (Wild Card) or ☠): an Extra")
}
