package d20tactical

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
)

// Schema implements engine.Schemaer: the stat block for generated
// editors (stats.go's Sheet).
func (Ruleset) Schema() engine.StatSchema {
	var fs []engine.StatField
	for _, a := range []struct{ name, label string }{{"str", "Strength"}, {"dex", "Dexterity"}, {"con", "Constitution"},
		{"int", "Intelligence"}, {"wis", "Wisdom"}, {"cha", "Charisma"}} {
		fs = append(fs, engine.StatField{Name: "abilities." + a.name, Label: a.label, Type: engine.FieldInt, Default: "10", Group: "Abilities"})
	}
	fs = append(fs,
		engine.StatField{Name: "hp", Label: "Hit points", Type: engine.FieldInt, Group: "Combat", Help: "The maximum."},
		engine.StatField{Name: "bab", Label: "Base attack bonus", Type: engine.FieldInt, Default: "0", Group: "Combat"},
		engine.StatField{Name: "speed", Label: "Speed (ft)", Type: engine.FieldInt, Default: "30", Group: "Combat"},
		engine.StatField{Name: "initiative", Label: "Initiative bonus", Type: engine.FieldInt, Group: "Combat", Help: "Besides Dexterity (Improved Initiative …)."},
		engine.StatField{Name: "classDefense", Label: "Class Defense bonus", Type: engine.FieldInt, Group: "Defense"},
		engine.StatField{Name: "size", Label: "Size modifier", Type: engine.FieldInt, Group: "Defense"},
		engine.StatField{Name: "dodge", Label: "Dodge", Type: engine.FieldInt, Group: "Defense", Help: "A d20 over this after a hit avoids the damage (the dodge-direction option may reverse it); empty: cannot dodge."},
		engine.StatField{Name: "saves.fort", Label: "Fortitude (base)", Type: engine.FieldInt, Group: "Saves"},
		engine.StatField{Name: "saves.ref", Label: "Reflex (base)", Type: engine.FieldInt, Group: "Saves"},
		engine.StatField{Name: "saves.will", Label: "Will (base)", Type: engine.FieldInt, Group: "Saves"},
		engine.StatField{Name: "armor.name", Label: "Armour", Type: engine.FieldText, Group: "Armour"},
		engine.StatField{Name: "armor.defense", Label: "Armour Defense bonus", Type: engine.FieldInt, Group: "Armour"},
		engine.StatField{Name: "armor.points", Label: "Armour Points (new)", Type: engine.FieldInt, Group: "Armour"},
	)
	for _, area := range armourAreas {
		fs = append(fs, engine.StatField{Name: "armor.dc." + area, Label: "Negate DC: " + area, Type: engine.FieldInt, Group: "Armour",
			Help: "An aimed hit there is negated on a d20 above this."})
	}
	fs = append(fs,
		engine.StatField{Name: "skills.jump", Label: "Jump", Type: engine.FieldInt, Group: "Skills", Help: "Empty: the Strength modifier."},
		engine.StatField{Name: "skills.treatInjury", Label: "Treat Injury", Type: engine.FieldInt, Group: "Skills", Help: "Empty: the Wisdom modifier."},
		engine.StatField{Name: "weapons", Label: "Weapon", Type: engine.FieldList, Group: "Weapons", IDFrom: "name",
			Help: "Damage like 2d6+1. Ranged weapons: the range increment in feet (maximum 10 increments, 5 thrown). Crit: the lowest natural roll that threatens (20). Clip: rounds, empty for uncounted.",
			Items: []engine.StatField{
				{Name: "name", Label: "Name", Type: engine.FieldText},
				{Name: "damage", Label: "Damage", Type: engine.FieldText},
				{Name: "range", Label: "Range increment (ft)", Type: engine.FieldInt},
				{Name: "thrown", Label: "Thrown", Type: engine.FieldBool},
				{Name: "reach", Label: "Reach (ft)", Type: engine.FieldInt},
				{Name: "attack", Label: "Attack bonus", Type: engine.FieldInt},
				{Name: "crit", Label: "Critical from", Type: engine.FieldInt},
				{Name: "fumble", Label: "Fumble up to", Type: engine.FieldInt},
				{Name: "burst", Label: "Burst (3)", Type: engine.FieldBool},
				{Name: "auto", Label: "Automatic (5)", Type: engine.FieldBool},
				{Name: "clip", Label: "Clip", Type: engine.FieldInt},
				{Name: "id", Label: "Id", Type: engine.FieldText, Help: "Empty: made from the name."},
			}},
	)
	// What outlives a fight (carry.go), where the GM edits it between
	// fights.
	for _, f := range carryFields() {
		fs = append(fs, f.StatField)
	}
	return engine.StatSchema{Fields: fs}
}

// Derive implements engine.Deriver: the numbers a stat block gives,
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
