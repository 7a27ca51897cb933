package d20under

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/foundry"
	"github.com/fray-vtt/fray/internal/statblock"
)

// The Symbaroum system for Foundry ("symbaroum"), as its actor data model
// (player and monster) stores a sheet: attributes as
// system.attributes.<name>.value, Toughness and Pain Threshold as
// system.health.toughness {max, value, threshold}, Corruption as
// system.health.corruption {permanent, temporary}, and abilities, traits,
// weapons and armour as items (levels as system.novice/adept/master
// .isActive; a weapon's system.reference, baseDamage, bonusDamage and
// qualities; armour's system.baseProtection and impeding). docs/prep.md
// has the table of Fray field ← Foundry path.

// FoundrySystem implements foundry.Mapper.
func (Ruleset) FoundrySystem() string { return "symbaroum" }

// foundryWeapon is the weapon type of a weapon's system.reference.
var foundryWeapon = map[string]string{"unarmed": "unarmed", "short": "short", "1handed": "one-handed", "long": "long",
	"heavy": "heavy", "thrown": "thrown", "natural": "natural"}

// levelOf is the highest level of an ability or trait item.
func levelOf(it foundry.Item) string {
	out := ""
	for _, l := range levels {
		if on, _ := it.Bool("system." + l + ".isActive"); on {
			out = l
		}
	}
	return out
}

// dieOf reads "1d8" (or "d8").
func dieOf(s string) (int, bool) {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "1")
	n, err := strconv.Atoi(strings.TrimPrefix(s, "d"))
	return n, err == nil && strings.HasPrefix(s, "d")
}

// FromFoundry implements foundry.Mapper.
func (Ruleset) FromFoundry(a *foundry.Actor, b *statblock.Builder) {
	for _, attr := range attributes {
		p := "system.attributes." + attr + ".value"
		b.From(p)
		if n, ok := a.Int(p); ok {
			b.Set("attributes."+attr, strconv.Itoa(n))
		} else {
			b.Assume("attributes."+attr, "10", "no value there: the sheet's 10")
		}
	}
	tmax, hasMax := a.Int("system.health.toughness.max")
	if hasMax && tmax > 0 {
		b.From("system.health.toughness.max")
		b.Set("toughness", strconv.Itoa(tmax))
		if v, ok := a.Int("system.health.toughness.value"); ok && v < tmax {
			b.From("system.health.toughness.value")
			b.Set(carryDamage, strconv.Itoa(tmax-v))
		}
	}
	if n, ok := a.Int("system.health.toughness.threshold"); ok && n > 0 {
		b.From("system.health.toughness.threshold")
		b.Set("painThreshold", strconv.Itoa(n))
	}
	for _, c := range []struct{ path, field string }{{"system.health.corruption.permanent", carryPermanent}, {"system.health.corruption.temporary", carryTemporary}} {
		if n, ok := a.Int(c.path); ok && n > 0 {
			b.From(c.path)
			b.Set(c.field, strconv.Itoa(n))
		}
	}
	for _, it := range a.Items("ability") {
		name := slug(it.Name)
		if !slices.Contains(abilityNames, name) {
			continue // listed as not mapped
		}
		if l := levelOf(it); l != "" {
			it.Use()
			b.From(it.Path("system." + l + ".isActive"))
			b.Set("abilities."+name, l)
		}
	}
	for _, it := range a.Items("trait") {
		name := slug(it.Name)
		switch name {
		case "undead":
			it.Use()
			b.From(it.Path("name"))
			b.Set("undead", "on")
		case TrRobust, "terrifying", TrTerrify:
			if name == "terrifying" {
				name = TrTerrify
			}
			if l := levelOf(it); l != "" {
				it.Use()
				b.From(it.Path("system." + l + ".isActive"))
				b.Set("traits."+name, strconv.Itoa(slices.Index(levels, l)+1))
			}
		}
	}
	i := 0
	for _, it := range a.Items("weapon") {
		ref, _ := it.String("system.reference")
		base, _ := it.String("system.baseDamage")
		die, okDie := dieOf(base)
		typ, ok := foundryWeapon[ref]
		if ref == "ranged" && okDie {
			typ, ok = map[bool]string{true: "crossbow", false: "bow"}[die >= 10], true
		}
		if !ok {
			continue // listed as not mapped
		}
		it.Use()
		p := "weapons." + strconv.Itoa(i) + "."
		i++
		b.From(it.Path("name"))
		b.Set(p+"name", it.Name)
		b.From(it.Path("system.reference"))
		b.Set(p+"type", typ)
		if okDie && die != weaponTypes[typ].Die {
			b.From(it.Path("system.baseDamage"))
			b.Set(p+"die", strconv.Itoa(die))
		}
		if bonus, _ := it.String("system.bonusDamage"); bonus != "" {
			if n, err := strconv.Atoi(strings.TrimPrefix(strings.ReplaceAll(bonus, " ", ""), "+")); err == nil && n != 0 {
				b.From(it.Path("system.bonusDamage"))
				b.Set(p+"bonus", strconv.Itoa(n))
			}
		}
		var quals []string
		for _, q := range []struct{ path, q string }{{"precise", QualPrecise}, {"balanced", QualBalanced}, {"deepImpact", QualDeepImpact}} {
			if on, _ := it.Bool("system.qualities." + q.path); on {
				quals = append(quals, q.q)
			}
		}
		if len(quals) > 0 {
			b.From(it.Path("system.qualities"))
			b.Set(p+"qualities", strings.Join(quals, ", "))
		}
		if weaponTypes[typ].Units {
			n, ok := it.Int("system.number")
			if !ok || n < 1 {
				n = 1
			}
			b.From(it.Path("system.number"))
			b.Set(p+"count", strconv.Itoa(n))
		}
	}
	for _, it := range a.Items("armor") {
		prot, _ := it.String("system.baseProtection")
		die, ok := dieOf(prot)
		if !ok {
			continue // listed as not mapped
		}
		it.Use()
		b.From(it.Path("name"))
		b.Set("armour.name", it.Name)
		b.From(it.Path("system.baseProtection"))
		imp, _ := it.Int("system.impeding")
		typ := "custom"
		for _, t := range []string{"light", "medium", "heavy"} {
			if armourTypes[t].Die == die && armourTypes[t].Impeding == imp {
				typ = t
			}
		}
		b.Set("armour.type", typ)
		if typ == "custom" {
			b.Set("armour.die", strconv.Itoa(die))
			b.From(it.Path("system.impeding"))
			b.Set("armour.impeding", strconv.Itoa(imp))
		}
		break // one suit
	}
}
