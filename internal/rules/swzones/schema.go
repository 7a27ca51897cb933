package swzones

import (
	"encoding/json"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
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
func (Ruleset) Schema() engine.StatSchema {
	var fs []engine.StatField
	fs = append(fs,
		engine.StatField{Name: "wildCard", Label: "Wild Card", Type: engine.FieldBool, Group: "Character", Help: "Wild Cards take three wounds and roll a Wild Die."},
		engine.StatField{Name: "bennies", Label: "Bennies", Type: engine.FieldInt, Group: "Character", Help: "Empty: 3 for player characters, 2 for other Wild Cards, 0 for Extras."},
		engine.StatField{Name: "armor", Label: "Armor", Type: engine.FieldInt, Group: "Character", Default: "0"},
	)
	fs = append(fs, conditionFields()...)
	for _, a := range attributes {
		fs = append(fs, engine.StatField{Name: "attributes." + a, Label: traitLabel(a), Type: engine.FieldDie, Choices: dieChoices(false), Default: "d6", Group: "Attributes"})
	}
	for _, s := range commonSkills {
		fs = append(fs, engine.StatField{Name: "skills." + s, Label: traitLabel(s), Type: engine.FieldDie, Choices: dieChoices(true), Group: "Skills"})
	}
	fs = append(fs, engine.StatField{Name: "weapons", Label: "Weapon", Type: engine.FieldList, Group: "Weapons", IDFrom: "name",
		Help: "Damage like Str+d6 or 2d6+1; range (Short/Medium/Long in inches) like 12/24/48 for ranged and thrown weapons.",
		Items: []engine.StatField{
			{Name: "name", Label: "Name", Type: engine.FieldText},
			{Name: "damage", Label: "Damage", Type: engine.FieldText},
			{Name: "range", Label: "Range", Type: engine.FieldText},
			{Name: "thrown", Label: "Thrown", Type: engine.FieldBool},
			{Name: "id", Label: "Id", Type: engine.FieldText, Help: "Empty: made from the name."},
		}})
	return engine.StatSchema{Fields: fs}
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
