package d20tactical

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Carry-over: what a character keeps from one fight to the next
// (sheet.Carrier).
//
// Life Points outlive the fight (the seed: they come back only at a new
// level), and so do Armour Points (the seed: repaired by the players or a
// merchant), the hit points lost (d20 heals them with rest between fights,
// which the GM records on the sheet) and death. Everything else belongs to
// one fight: posture and square, initiative, aimed-shot effects (healed
// when the GM says, at the latest when the fight is over), ammunition in
// the clip, jams, readied actions, Endurance.

// Carried stat paths.
const (
	carryWounds     = "wounds"
	carryLifePoints = "lifePoints"
	carryArmour     = "armor.current"
	carryDead       = "dead"
)

// defaultLifePoints is the life-points option's default, which a sheet
// without Life Points is taken to have.
const defaultLifePoints = 3

func carryFields() []sheet.CarryField {
	return []sheet.CarryField{
		{Field: sheet.Field{Name: carryWounds, Label: "Wounds", Type: sheet.FieldInt, Default: "0", Group: "Condition",
			Help: "Hit points lost, carried from fight to fight; lower it as the character heals."}, Min: 0, Max: 999},
		{Field: sheet.Field{Name: carryLifePoints, Label: "Life Points", Type: sheet.FieldInt, Default: fmt.Sprint(defaultLifePoints), Group: "Condition",
			Help: "Back only at a new level. Empty: the encounter's life-points option."}, Min: 0, Max: 99},
		{Field: sheet.Field{Name: carryArmour, Label: "Armour Points left", Type: sheet.FieldInt, Group: "Condition",
			Help: "Lost to criticals, fire and acid; raise it when the armour is repaired. Empty: as new."}, Min: 0, Max: 999},
		{Field: sheet.Field{Name: carryDead, Label: "Dead", Type: sheet.FieldBool, Group: "Condition",
			Help: "Died in a fight. A dead character cannot join an encounter."}},
	}
}

// CarryFields implements sheet.Carrier.
func (Ruleset) CarryFields() []sheet.CarryField { return carryFields() }

// CarryOut implements sheet.Carrier: the hit points lost, the Life Points
// and Armour Points left, and whether the character died.
func (r Ruleset) CarryOut(s engine.State, id string, stats json.RawMessage) (sheet.CarryValues, error) {
	st, f, err := r.Of(s, id)
	if err != nil {
		return nil, err
	}
	before, err := sheet.ReadCarried(carryFields(), stats)
	if err != nil {
		return nil, err
	}
	// Life Points absent from the sheet came from the option: carry the
	// fight's change onto the sheet's (default) value.
	start := kit.OptInt(&st.Base, OptLifePoints)
	if f.Sheet.LifePoints != nil {
		start = *f.Sheet.LifePoints
	}
	lp, _ := before[carryLifePoints].(int)
	armour := f.ArmorLeft
	if f.Sheet.Armor == nil {
		armour, _ = before[carryArmour].(int)
	}
	return sheet.CarryValues{
		carryWounds:     max(f.Sheet.HP-f.HP, 0),
		carryLifePoints: max(lp+f.LifePoints-start, 0),
		carryArmour:     armour,
		carryDead:       f.Dead,
	}, nil
}
