package d20duel

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Schema implements sheet.Schemaer: the stat block for generated editors.
func (Ruleset) Schema() sheet.Schema {
	var fs []sheet.Field
	for _, a := range attributes {
		fs = append(fs, sheet.Field{Name: "attributes." + a, Label: attrLabel(a), Type: sheet.FieldInt, Default: "10", Group: "Attributes",
			Help: "1–20."})
	}
	fs = append(fs,
		sheet.Field{Name: "closeCombat", Label: "Close combat", Type: sheet.FieldInt, Default: "0", Group: "Skills",
			Help: "Added to Strike and Guard, and to the Grappling modifier; may be negative."},
		sheet.Field{Name: "ranged", Label: "Ranged", Type: sheet.FieldInt, Default: "0", Group: "Skills", Help: "Added to ranged weapons' Strike."},
		sheet.Field{Name: "damageMod", Label: "Damage Modifier", Type: sheet.FieldInt, Default: "0", Group: "Skills",
			Help: "Added to melee damage; half of it, rounded up, goes into the Grappling modifier."},
		sheet.Field{Name: "armor.name", Label: "Armour", Type: sheet.FieldText, Group: "Armour"},
		sheet.Field{Name: "armor.coverage", Label: "Coverage", Type: sheet.FieldInt, Group: "Armour",
			Help: "1–20: a hitting die at or below it meets the armour."},
		sheet.Field{Name: "armor.protection", Label: "Protection", Type: sheet.FieldInt, Group: "Armour", Help: "Damage the armour stops."},
		sheet.Field{Name: "weapons", Label: "Weapon", Type: sheet.FieldList, Group: "Weapons", IDFrom: "name",
			Help: "Strike and Guard get Close combat added, Grapple and Defense the Grappling modifier. Without an unarmed weapon the fighter gets Fists from the options.",
			Items: []sheet.Field{
				{Name: "name", Label: "Name", Type: sheet.FieldText},
				{Name: "strike", Label: "Strike", Type: sheet.FieldInt},
				{Name: "guard", Label: "Guard", Type: sheet.FieldInt},
				{Name: "grapple", Label: "Grapple", Type: sheet.FieldInt},
				{Name: "defense", Label: "Defense", Type: sheet.FieldInt},
				{Name: "damage", Label: "Damage", Type: sheet.FieldInt},
				{Name: "hands", Label: "Hands", Type: sheet.FieldInt, Help: "1 or 2."},
				{Name: "unarmed", Label: "Unarmed", Type: sheet.FieldBool},
				{Name: "ranged", Label: "Ranged", Type: sheet.FieldBool},
				{Name: "auto", Label: "Auto", Type: sheet.FieldInt, Help: "Attacks at once (Auto)."},
				{Name: "id", Label: "Id", Type: sheet.FieldText, Help: "Empty: made from the name."},
			}},
	)
	for _, f := range carryFields() {
		fs = append(fs, f.Field)
	}
	return sheet.Schema{Fields: fs}
}

// Derive implements sheet.Deriver: the Grappling modifier and each
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
