package d20tactical

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/sheet"
)

// Schema implements sheet.Schemaer: the stat block for generated
// editors (stats.go's Sheet).
func (Ruleset) Schema() sheet.Schema {
	var fs []sheet.Field
	for _, a := range []struct{ name, label string }{{"str", "Strength"}, {"dex", "Dexterity"}, {"con", "Constitution"},
		{"int", "Intelligence"}, {"wis", "Wisdom"}, {"cha", "Charisma"}} {
		fs = append(fs, sheet.Field{Name: "abilities." + a.name, Label: a.label, Type: sheet.FieldInt, Default: "10", Group: "Abilities"})
	}
	fs = append(fs,
		sheet.Field{Name: "hp", Label: "Hit points", Type: sheet.FieldInt, Group: "Combat", Help: "The maximum."},
		sheet.Field{Name: "bab", Label: "Base attack bonus", Type: sheet.FieldInt, Default: "0", Group: "Combat"},
		sheet.Field{Name: "speed", Label: "Speed (ft)", Type: sheet.FieldInt, Default: "30", Group: "Combat"},
		sheet.Field{Name: "initiative", Label: "Initiative bonus", Type: sheet.FieldInt, Group: "Combat", Help: "Besides Dexterity (Improved Initiative …)."},
		sheet.Field{Name: "classDefense", Label: "Class Defense bonus", Type: sheet.FieldInt, Group: "Defense"},
		sheet.Field{Name: "size", Label: "Size modifier", Type: sheet.FieldInt, Group: "Defense"},
		sheet.Field{Name: "dodge", Label: "Dodge", Type: sheet.FieldInt, Group: "Defense", Help: "A d20 over this after a hit avoids the damage (the dodge-direction option may reverse it); empty: cannot dodge."},
		sheet.Field{Name: "saves.fort", Label: "Fortitude (base)", Type: sheet.FieldInt, Group: "Saves"},
		sheet.Field{Name: "saves.ref", Label: "Reflex (base)", Type: sheet.FieldInt, Group: "Saves"},
		sheet.Field{Name: "saves.will", Label: "Will (base)", Type: sheet.FieldInt, Group: "Saves"},
		sheet.Field{Name: "armor.name", Label: "Armour", Type: sheet.FieldText, Group: "Armour"},
		sheet.Field{Name: "armor.defense", Label: "Armour Defense bonus", Type: sheet.FieldInt, Group: "Armour"},
		sheet.Field{Name: "armor.points", Label: "Armour Points (new)", Type: sheet.FieldInt, Group: "Armour"},
	)
	for _, area := range armourAreas {
		fs = append(fs, sheet.Field{Name: "armor.dc." + area, Label: "Negate DC: " + area, Type: sheet.FieldInt, Group: "Armour",
			Help: "An aimed hit there is negated on a d20 above this."})
	}
	fs = append(fs,
		sheet.Field{Name: "skills.jump", Label: "Jump", Type: sheet.FieldInt, Group: "Skills", Help: "Empty: the Strength modifier."},
		sheet.Field{Name: "skills.treatInjury", Label: "Treat Injury", Type: sheet.FieldInt, Group: "Skills", Help: "Empty: the Wisdom modifier."},
		sheet.Field{Name: "weapons", Label: "Weapon", Type: sheet.FieldList, Group: "Weapons", IDFrom: "name",
			Help: "Damage like 2d6+1. Ranged weapons: the range increment in feet (maximum 10 increments, 5 thrown). Crit: the lowest natural roll that threatens (20). Clip: rounds, empty for uncounted.",
			Items: []sheet.Field{
				{Name: "name", Label: "Name", Type: sheet.FieldText},
				{Name: "damage", Label: "Damage", Type: sheet.FieldText},
				{Name: "range", Label: "Range increment (ft)", Type: sheet.FieldInt},
				{Name: "thrown", Label: "Thrown", Type: sheet.FieldBool},
				{Name: "reach", Label: "Reach (ft)", Type: sheet.FieldInt},
				{Name: "attack", Label: "Attack bonus", Type: sheet.FieldInt},
				{Name: "crit", Label: "Critical from", Type: sheet.FieldInt},
				{Name: "fumble", Label: "Fumble up to", Type: sheet.FieldInt},
				{Name: "burst", Label: "Burst (3)", Type: sheet.FieldBool},
				{Name: "auto", Label: "Automatic (5)", Type: sheet.FieldBool},
				{Name: "clip", Label: "Clip", Type: sheet.FieldInt},
				{Name: "id", Label: "Id", Type: sheet.FieldText, Help: "Empty: made from the name."},
			}},
	)
	// What outlives a fight (carry.go), where the GM edits it between
	// fights.
	for _, f := range carryFields() {
		fs = append(fs, f.Field)
	}
	return sheet.Schema{Fields: fs}
}

// Derive implements sheet.Deriver: the numbers a stat block gives,
// validated as setup would.
func (Ruleset) Derive(stats json.RawMessage) (map[string]string, error) {
	s, err := parseSheet(stats)
	if err != nil {
		return nil, err
	}
	f := newFighter("stats", s, defaultLifePoints)
	lp := "the encounter's option"
	if s.LifePoints != nil {
		lp = strconv.Itoa(*s.LifePoints)
	}
	out := map[string]string{
		"Defense":     strconv.Itoa(f.Defense()),
		"HP":          fmt.Sprintf("%d of %d", f.HP, s.HP),
		"Initiative":  fmt.Sprintf("%+d", f.DexMod()+s.Initiative),
		"Melee":       fmt.Sprintf("%+d", s.BAB+f.StrMod()),
		"Ranged":      fmt.Sprintf("%+d", s.BAB+f.DexMod()),
		"Saves":       fmt.Sprintf("Fort %+d, Ref %+d, Will %+d", f.Fort(), f.Ref(), f.Will()),
		"Speed":       fmt.Sprintf("%d ft (run %d ft)", f.Speed(), RunMultiplier*f.Speed()),
		"Life Points": lp,
	}
	if a := s.Armor; a != nil {
		out["Armour Points"] = fmt.Sprintf("%d of %d", f.ArmorLeft, a.Points)
	}
	if s.Dead {
		out["Condition"] = "dead"
	} else if status(f) != "" {
		out["Condition"] = status(f)
	}
	return out, nil
}
