package d20duel

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
)

// Schema implements engine.Schemaer: the stat block for generated editors.
func (Ruleset) Schema() engine.StatSchema {
	var fs []engine.StatField
	for _, a := range attributes {
		fs = append(fs, engine.StatField{Name: "attributes." + a, Label: attrLabel(a), Type: engine.FieldInt, Default: "10", Group: "Attributes",
			Help: "1–20."})
	}
	fs = append(fs,
		engine.StatField{Name: "closeCombat", Label: "Close combat", Type: engine.FieldInt, Default: "0", Group: "Skills",
			Help: "Added to Strike and Guard, and to the Grappling modifier; may be negative."},
		engine.StatField{Name: "ranged", Label: "Ranged", Type: engine.FieldInt, Default: "0", Group: "Skills", Help: "Added to ranged weapons' Strike."},
		engine.StatField{Name: "damageMod", Label: "Damage Modifier", Type: engine.FieldInt, Default: "0", Group: "Skills",
			Help: "Added to melee damage; half of it, rounded up, goes into the Grappling modifier."},
		engine.StatField{Name: "armor.name", Label: "Armour", Type: engine.FieldText, Group: "Armour"},
		engine.StatField{Name: "armor.coverage", Label: "Coverage", Type: engine.FieldInt, Group: "Armour",
			Help: "1–20: a hitting die at or below it meets the armour."},
		engine.StatField{Name: "armor.protection", Label: "Protection", Type: engine.FieldInt, Group: "Armour", Help: "Damage the armour stops."},
		engine.StatField{Name: "weapons", Label: "Weapon", Type: engine.FieldList, Group: "Weapons", IDFrom: "name",
			Help: "Strike and Guard get Close combat added, Grapple and Defense the Grappling modifier. Without an unarmed weapon the fighter gets Fists from the options.",
			Items: []engine.StatField{
				{Name: "name", Label: "Name", Type: engine.FieldText},
				{Name: "strike", Label: "Strike", Type: engine.FieldInt},
				{Name: "guard", Label: "Guard", Type: engine.FieldInt},
				{Name: "grapple", Label: "Grapple", Type: engine.FieldInt},
				{Name: "defense", Label: "Defense", Type: engine.FieldInt},
				{Name: "damage", Label: "Damage", Type: engine.FieldInt},
				{Name: "hands", Label: "Hands", Type: engine.FieldInt, Help: "1 or 2."},
				{Name: "unarmed", Label: "Unarmed", Type: engine.FieldBool},
				{Name: "ranged", Label: "Ranged", Type: engine.FieldBool},
				{Name: "auto", Label: "Auto", Type: engine.FieldInt, Help: "Attacks at once (Auto)."},
				{Name: "id", Label: "Id", Type: engine.FieldText, Help: "Empty: made from the name."},
			}},
	)
	for _, f := range carryFields() {
		fs = append(fs, f.StatField)
	}
	return engine.StatSchema{Fields: fs}
}

// Derive implements engine.Deriver: the Grappling modifier and each
// weapon's numbers with the fighter's modifiers, validating the block as
// setup would.
func (Ruleset) Derive(stats json.RawMessage) (map[string]string, error) {
	b := engine.Base{Options: map[string]string{}}
	f, err := parseFighter(&b, "stats", stats)
	if err != nil {
		return nil, err
	}
	out := map[string]string{"Grappling modifier": signed(f.GrapplingMod())}
	for _, w := range f.Weapons {
		if w.Ranged {
			out[w.Name] = fmt.Sprintf("Strike %d · Damage %d", w.Strike+f.Ranged, w.Damage)
			continue
		}
		out[w.Name] = fmt.Sprintf("Strike %d · Guard %d · Grapple %d · Defense %d · Damage %d", w.Strike+f.CloseCombat,
			w.Guard+f.CloseCombat, w.Grapple+f.GrapplingMod(), w.Defense+f.GrapplingMod(), w.Damage+f.DamageMod)
	}
	if p := f.penalty(&b, 0); p > 0 {
		out["Wound penalty"] = fmt.Sprintf("−%d", p)
	}
	if len(f.Traits) > 0 {
		out["Traits"] = strings.Join(f.Traits, "; ")
	}
	return out, nil
}
