package swzones

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/foundry"
	"github.com/fray-vtt/fray/internal/statblock"
)

// The Savage Worlds Adventure Edition system for Foundry ("swade"), as
// its actor data model stores a character or non-player character:
// attributes as system.attributes.<name>.die {sides, modifier}, Wild
// Cards as the "character" type or system.wildcard, bennies and wounds,
// and skills, weapons and armour as items (skill: system.die; weapon:
// system.damage "@str+d6", system.range; armor: system.armor).
// docs/prep.md has the table of Fray field ← Foundry path.

// FoundrySystem implements foundry.Mapper.
func (Ruleset) FoundrySystem() string { return "swade" }

// swadeDie is a trait die of the swade data model: "d8", "d12+2".
func swadeDie(sides, mod int) (string, bool) {
	s := "d" + strconv.Itoa(sides)
	if mod > 0 && sides == 12 {
		s += "+" + strconv.Itoa(mod)
	}
	d, err := ParseDie(s)
	return d.String(), err == nil
}

// FromFoundry implements foundry.Mapper.
func (Ruleset) FromFoundry(a *foundry.Actor, b *statblock.Builder) {
	switch a.Type {
	case "character":
		b.From("type")
		b.Set("wildCard", "on")
	default:
		if wc, ok := a.Bool("system.wildcard"); ok {
			b.From("system.wildcard")
			b.Set("wildCard", map[bool]string{true: "on", false: ""}[wc])
		} else {
			b.From("system.wildcard")
			b.Assume("wildCard", "", "the actor does not say it is a Wild Card: an Extra")
		}
	}
	for _, attr := range attributes {
		p := "system.attributes." + attr
		sides, ok := a.Int(p + ".die.sides")
		mod, _ := a.Int(p + ".die.modifier")
		a.Value(p + ".wild-die.sides") // Fray's Wild Die is a d6
		b.From(p + ".die")
		if d, good := swadeDie(sides, mod); ok && good {
			b.Set("attributes."+attr, d)
		} else {
			b.Assume("attributes."+attr, "d6", "no trait die there: the sheet's d6")
		}
	}
	if wc := b.Get("wildCard"); wc == "on" {
		if n, ok := a.Int("system.bennies.max"); ok {
			b.From("system.bennies.max")
			b.Set("bennies", strconv.Itoa(n))
		}
	}
	if n, ok := a.Int("system.wounds.value"); ok && n > 0 {
		b.From("system.wounds.value")
		b.Set(carryWounds, strconv.Itoa(n))
	}
	armor := 0
	if n, ok := a.Int("system.stats.toughness.armor"); ok && n > 0 {
		b.From("system.stats.toughness.armor")
		armor = n
	}
	for _, it := range a.Items("armor") {
		n, ok := it.Int("system.armor")
		if !ok {
			continue
		}
		it.Use()
		if n > armor {
			b.From(it.Path("system.armor"))
			armor = n
		}
	}
	if armor > 0 {
		b.Set("armor", strconv.Itoa(armor))
	}
	for _, it := range a.Items("skill") {
		name := strings.ToLower(strings.TrimSpace(it.Name))
		if !slices.Contains(commonSkills, name) {
			continue // listed as not mapped
		}
		sides, ok := it.Int("system.die.sides")
		mod, _ := it.Int("system.die.modifier")
		if d, good := swadeDie(sides, mod); ok && good {
			it.Use()
			it.Value("system.wild-die.sides")
			b.From(it.Path("system.die"))
			b.Set("skills."+name, d)
		}
	}
	i := 0
	for _, it := range a.Items("weapon") {
		raw, _ := it.String("system.damage")
		dmg := strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(raw)), " ", ""), "@str", "Str")
		if _, err := ParseDamage(dmg); err != nil {
			continue // listed as not mapped
		}
		it.Use()
		p := "weapons." + strconv.Itoa(i) + "."
		i++
		b.From(it.Path("name"))
		b.Set(p+"name", it.Name)
		b.From(it.Path("system.damage"))
		b.Set(p+"damage", dmg)
		if r, _ := it.String("system.range"); strings.Count(r, "/") == 2 {
			b.From(it.Path("system.range"))
			b.Set(p+"range", strings.ReplaceAll(r, " ", ""))
			if strings.HasPrefix(dmg, "Str") {
				b.Assume(p+"thrown", "on", "a ranged weapon that adds Strength is thrown")
			}
		}
	}
}
