package d6bands

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Carry-over: what a character keeps from one fight to the next
// (sheet.Carrier).
//
// Wounds outlive the fight — how many of each level, and how many of the
// Serious and Lethal ones still bleed (not bandaged) — and so do the blood
// lost and death. The base game heals them between fights, which the GM
// records on the sheet. Everything else belongs to one fight and resets:
// the Defense Pool (it refills every round anyway), actions, initiative,
// position and contact, prone, dash, aim, stealth, Terror, the GM's
// rulings, and the weapons' loading (every weapon starts a fight loaded, a
// jam cleared between fights). A rider's mount is part of the sheet: a
// mount brought down is the GM's to take off it.

// Carried stat paths.
const (
	carryLight     = "wounds.light"
	carrySerious   = "wounds.serious"
	carryLethal    = "wounds.lethal"
	carryBleeding  = "wounds.bleeding"
	carryBloodLoss = "bloodLoss"
	carryDead      = "dead"
)

// maxCarriedWounds bounds each carried count.
const maxCarriedWounds = 20

// carryFields are the carried values, also offered by the stat editor in
// the "Condition" group.
func carryFields() []sheet.CarryField {
	count := func(name, label, help string) sheet.CarryField {
		return sheet.CarryField{Field: sheet.Field{Name: name, Label: label, Type: sheet.FieldInt, Default: "0", Group: "Condition",
			Help: help}, Min: 0, Max: maxCarriedWounds}
	}
	return []sheet.CarryField{
		count(carryLight, "Light wounds", "Each lowers every skill (light-wound-penalty)."),
		count(carrySerious, "Serious wounds", "Each lowers every skill (serious-wound-penalty) and bleeds unless bandaged."),
		count(carryLethal, "Lethal wounds", "Each lowers every skill (lethal-wound-penalty) and bleeds unless bandaged; a second kills."),
		count(carryBleeding, "Wounds still bleeding", "How many of the Serious and Lethal wounds are not bandaged (the worst bleed first). Set 0 once they are tended."),
		{Field: sheet.Field{Name: carryBloodLoss, Label: "Blood lost", Type: sheet.FieldInt, Default: "0", Group: "Condition",
			Help: "Blood lost in earlier fights; at Blood the character is unconscious and cannot join an encounter. Lower it as they recover."}, Min: 0, Max: 120},
		{Field: sheet.Field{Name: carryDead, Label: "Dead", Type: sheet.FieldBool, Group: "Condition",
			Help: "Died in a fight. A dead character cannot join an encounter."}},
	}
}

// CarryFields implements sheet.Carrier.
func (Ruleset) CarryFields() []sheet.CarryField { return carryFields() }

// CarryOut implements sheet.Carrier: the fighter's wounds, the blood it
// lost and whether it died.
func (r Ruleset) CarryOut(s engine.State, id string, _ json.RawMessage) (sheet.CarryValues, error) {
	_, f, err := r.Of(s, id)
	if err != nil {
		return nil, err
	}
	bleedingWounds := 0
	for _, w := range f.Wounds {
		if (w.Level == WoundSerious || w.Level == WoundLethal) && !w.Bandaged {
			bleedingWounds++
		}
	}
	return sheet.CarryValues{
		carryLight:     min(f.count(WoundLight), maxCarriedWounds),
		carrySerious:   min(f.count(WoundSerious), maxCarriedWounds),
		carryLethal:    min(f.count(WoundLethal), maxCarriedWounds),
		carryBleeding:  min(bleedingWounds, maxCarriedWounds),
		carryBloodLoss: min(f.BloodLoss, 120),
		carryDead:      f.Status == "dead",
	}, nil
}

// Condition is the carried part of a stat block: the state a character
// comes into a fight in.
type Condition struct {
	Wounds struct {
		Light    int `json:"light"`
		Serious  int `json:"serious"`
		Lethal   int `json:"lethal"`
		Bleeding int `json:"bleeding"`
	} `json:"wounds"`
	BloodLoss int  `json:"bloodLoss"`
	Dead      bool `json:"dead"`
}

// check validates a carried condition.
func (c Condition) check() error {
	w := c.Wounds
	for what, n := range map[string]int{"light": w.Light, "serious": w.Serious, "lethal": w.Lethal, "bleeding": w.Bleeding} {
		if n < 0 || n > maxCarriedWounds {
			return fmt.Errorf("wounds.%s must be 0–%d, not %d", what, maxCarriedWounds, n)
		}
	}
	if c.BloodLoss < 0 || c.BloodLoss > 120 {
		return fmt.Errorf("bloodLoss must be 0–120, not %d", c.BloodLoss)
	}
	return nil
}

// carriedWounds are the wounds a condition brings into a fight: Lethal
// first, then Serious, then Light; the first Bleeding of the Serious and
// Lethal ones bleed, the others are bandaged. Their damage is unknown (0).
func carriedWounds(b *engine.Base, c Condition) []Wound {
	var out []Wound
	left := c.Wounds.Bleeding
	add := func(n int, level string, rate int) {
		for range n {
			w := Wound{Level: level, Bleed: rate}
			if rate > 0 {
				w.Bandaged = left <= 0
				left--
			}
			out = append(out, w)
		}
	}
	add(c.Wounds.Lethal, WoundLethal, kit.OptInt(b, OptBleedLethal))
	add(c.Wounds.Serious, WoundSerious, kit.OptInt(b, OptBleedSerious))
	add(c.Wounds.Light, WoundLight, 0)
	return out
}

// fitToFight refuses a combatant whose sheet says it died or lies
// unconscious since an earlier fight: a sheet may record that, but an
// encounter cannot start with them.
func fitToFight(b *engine.Base, c engine.CombatantSetup, f *Fighter) error {
	switch {
	case f.Condition.Dead || f.count(WoundLethal) >= kit.OptInt(b, OptLethalOut):
		return fray.Errorf(fray.EINVALID, "combatant %q (%s) is dead: leave them out, or clear Dead and their Lethal wounds on their sheet", c.ID, c.Name)
	case f.BloodLoss >= f.Blood:
		return fray.Errorf(fray.EINVALID, "combatant %q (%s) is unconscious from blood loss since an earlier fight: lower Blood lost on their sheet once they recover, or leave them out", c.ID, c.Name)
	}
	return nil
}
