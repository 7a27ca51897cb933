package swzones

import (
	"encoding/json"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
)

// commonSkills are the skills the stat block editor offers.
var commonSkills = []string{
	"athletics", "battle", "boating", "common knowledge", "driving", "faith", "fighting", "focus",
	"gambling", "healing", "intimidation", "notice", "persuasion", "piloting", "psionics", "repair",
	"research", "riding", "shooting", "spellcasting", "stealth", "survival", "taunt", "thievery", "throwing",
}

func dieChoices(optional bool) []engine.Choice {
	var cs []engine.Choice
	if optional {
		cs = append(cs, engine.Choice{Value: "", Label: "—"})
	}
	for _, d := range []string{"d4", "d6", "d8", "d10", "d12", "d12+1", "d12+2", "d12+3"} {
		cs = append(cs, engine.Choice{Value: d, Label: d})
	}
	return cs
}

// Schema describes a sw-zones stat block for generated editors. Powers,
// area templates and garrottes are kept only in imported setup files.
func (Ruleset) Schema() sheet.Schema {
	var fs []sheet.Field
	fs = append(fs,
		sheet.Field{Name: "wildCard", Label: "Wild Card", Type: sheet.FieldBool, PCDefault: "true", Group: "Character",
			Help: "Wild Cards take three wounds and roll a Wild Die. Every player character is one."},
		sheet.Field{Name: "bennies", Label: "Bennies", Type: sheet.FieldInt, Group: "Character", Help: "Empty: 3 for player characters, 2 for other Wild Cards, 0 for Extras."},
		sheet.Field{Name: "armor", Label: "Armor", Type: sheet.FieldInt, Group: "Character", Default: "0"},
	)
	fs = append(fs, conditionFields()...)
	for _, a := range attributes {
		fs = append(fs, sheet.Field{Name: "attributes." + a, Label: traitLabel(a), Type: sheet.FieldDie, Choices: dieChoices(false), Default: "d6", Group: "Attributes"})
	}
	for _, s := range commonSkills {
		fs = append(fs, sheet.Field{Name: "skills." + s, Label: traitLabel(s), Type: sheet.FieldDie, Choices: dieChoices(true), Group: "Skills"})
	}
	fs = append(fs, sheet.Field{Name: "weapons", Label: "Weapon", Type: sheet.FieldList, Group: "Weapons", IDFrom: "name",
		Help: "Damage like Str+d6 or 2d6+1; range (Short/Medium/Long in inches) like 12/24/48 for ranged and thrown weapons.",
		Items: []sheet.Field{
			{Name: "name", Label: "Name", Type: sheet.FieldText},
			{Name: "damage", Label: "Damage", Type: sheet.FieldText},
			{Name: "range", Label: "Range", Type: sheet.FieldText},
			{Name: "thrown", Label: "Thrown", Type: sheet.FieldBool},
			{Name: "id", Label: "Id", Type: sheet.FieldText, Help: "Empty: made from the name."},
		}})
	return sheet.Schema{Fields: fs}
}

// Derive computes Parry and Toughness of a stat block, validating it as
// setup would.
func (Ruleset) Derive(stats json.RawMessage) (map[string]string, error) {
	f, err := parseFighter("stats", false, stats, RoundNearest, "")
	if err != nil {
		return nil, err
	}
	t := strconv.Itoa(f.Toughness())
	if f.Armor > 0 {
		t += " (" + strconv.Itoa(f.Armor) + ")"
	}
	return map[string]string{"Parry": strconv.Itoa(f.Parry()), "Toughness": t}, nil
}
