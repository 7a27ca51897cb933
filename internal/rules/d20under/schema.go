package d20under

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
)

func selectOf(values ...string) []engine.Choice {
	out := []engine.Choice{{Value: "", Label: "—"}}
	for _, v := range values {
		out = append(out, engine.Choice{Value: v, Label: label(v)})
	}
	return out
}

// Schema implements sheet.Schemaer: the stat block for generated
// editors. Mystical powers, familiars and monstrous traits are there too;
// every field may be left empty for the rules' defaults.
func (Ruleset) Schema() sheet.Schema {
	var fs []sheet.Field
	for _, a := range attributes {
		fs = append(fs, sheet.Field{Name: "attributes." + a, Label: label(a), Type: sheet.FieldInt, Default: "10", Group: "Attributes",
			Help: "5–15 for characters, summing to 80."})
	}
	fs = append(fs,
		sheet.Field{Name: "toughness", Label: "Toughness", Type: sheet.FieldInt, Group: "Derived", Help: "Empty: Strong, at least 10."},
		sheet.Field{Name: "painThreshold", Label: "Pain Threshold", Type: sheet.FieldInt, Group: "Derived", Help: "Empty: half Strong, rounded up; 0: none."},
		sheet.Field{Name: "undead", Label: "Undead (no Pain Threshold)", Type: sheet.FieldBool, Group: "Derived"},
		sheet.Field{Name: "armour.type", Label: "Armour", Type: sheet.FieldDie, Choices: selectOf("none", "light", "medium", "heavy", "custom"), Group: "Armour",
			Help: "Light 1d4 (Impeding 2), medium 1d6 (3), heavy 1d8 (4)."},
		sheet.Field{Name: "armour.name", Label: "Armour name", Type: sheet.FieldText, Group: "Armour"},
		sheet.Field{Name: "armour.die", Label: "Custom armour die", Type: sheet.FieldInt, Group: "Armour"},
		sheet.Field{Name: "armour.impeding", Label: "Impeding (whole suit)", Type: sheet.FieldInt, Group: "Armour"},
		sheet.Field{Name: "armour.segments", Label: "Segments worn", Type: sheet.FieldText, Group: "Armour",
			Help: "Empty: the whole suit. Else some of legs, cuirass, arms, helmet (20/40/20/20% of Impeding), or one leg or arm (left-leg … 10%)."},
		sheet.Field{Name: "shield", Label: "Shield", Type: sheet.FieldDie, Choices: selectOf("shield", "buckler"), Group: "Armour"},
		sheet.Field{Name: "weapons", Label: "Weapon", Type: sheet.FieldList, Group: "Weapons", IDFrom: "name",
			Help: "Types: unarmed 1d4, natural 1d6, short 1d6, one-handed 1d8, long 1d8, heavy 1d10, bow 1d8, crossbow 1d10, thrown 1d6, alchemical 1d12.",
			Items: []sheet.Field{
				{Name: "name", Label: "Name", Type: sheet.FieldText},
				{Name: "type", Label: "Type", Type: sheet.FieldDie, Choices: selectOf(weaponTypeNames...)},
				{Name: "die", Label: "Die (if not the type's)", Type: sheet.FieldInt},
				{Name: "bonus", Label: "Damage bonus", Type: sheet.FieldInt},
				{Name: "qualities", Label: "Qualities", Type: sheet.FieldText, Help: "precise, balanced, deep-impact"},
				{Name: "ammo", Label: "Ammunition (0–3)", Type: sheet.FieldInt},
				{Name: "special", Label: "Special projectiles", Type: sheet.FieldInt},
				{Name: "projectiles", Label: "Projectiles", Type: sheet.FieldDie, Choices: selectOf(ProjPlain, ProjQuality, ProjMystical)},
				{Name: "count", Label: "Count (thrown, alchemical)", Type: sheet.FieldInt},
				{Name: "id", Label: "Id", Type: sheet.FieldText, Help: "Empty: made from the name."},
			}},
	)
	for _, a := range abilityNames {
		fs = append(fs, sheet.Field{Name: "abilities." + a, Label: label(a), Type: sheet.FieldDie, Choices: selectOf(levels...), Group: "Abilities"})
	}
	fs = append(fs,
		sheet.Field{Name: "koj", Label: "Koj (code of honour)", Type: sheet.FieldBool, Group: "Abilities",
			Help: "Novice Rapid Fire only, until roused."},
		sheet.Field{Name: "powers", Label: "Mystical powers", Type: sheet.FieldText, Group: "Mysticism", Help: "curse, quake"},
		sheet.Field{Name: "tradition", Label: "Mystical tradition", Type: sheet.FieldBool, Group: "Mysticism", Help: "1 Corruption per power instead of 1d4."},
		sheet.Field{Name: "familiar", Label: "Familiar or companion (combatant id)", Type: sheet.FieldText, Group: "Mysticism"},
	)
	for _, t := range traitNames {
		fs = append(fs, sheet.Field{Name: "traits." + t, Label: label(t), Type: sheet.FieldInt, Group: "Monstrous traits",
			Help: "The book's value (rolled as 1d(2N)); Robust and Terrify: the level, 1–3."})
	}
	// The carried values (carry.go): resources, condition and items.
	for _, c := range carryFields() {
		fs = append(fs, c.Field)
	}
	return sheet.Schema{Fields: fs}
}

// Derive implements sheet.Deriver: the derived values of a stat block,
// validating it as setup would.
func (Ruleset) Derive(stats json.RawMessage) (map[string]string, error) {
	p, err := parseStats("stats", stats)
	if err != nil {
		return nil, err
	}
	f := newFighter("stats", p)
	sum := 0
	for _, a := range attributes {
		sum += f.Attributes[a]
	}
	t := strconv.Itoa(f.MaxToughness)
	if f.Toughness != f.MaxToughness {
		t = fmt.Sprintf("%d of %d", f.Toughness, f.MaxToughness)
	}
	out := map[string]string{
		"Toughness":            t,
		"Pain Threshold":       painWords(f.PainThreshold),
		"Corruption Threshold": strconv.Itoa(f.CorruptionThreshold()),
		"Defense":              strconv.Itoa(f.defense()),
		"Armour":               armourWords(f.Armour),
		"Attributes":           fmt.Sprintf("%d (characters: 80)", sum),
	}
	switch {
	case p.Dead:
		out["Condition"] = "dead"
	case p.Abomination:
		out["Condition"] = "lost to Corruption"
	case p.Critical:
		out["Condition"] = "Critical Damage"
	}
	return out, nil
}
