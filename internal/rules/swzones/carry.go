package swzones

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Carry-over: what a character keeps from one fight to the next
// (sheet.Carrier).
//
// Wounds outlive the fight: Savage Worlds heals them with the Healing skill
// or natural healing between fights, which the GM records on the character
// sheet. Incapacitation and death outlive it too. Everything else belongs
// to one fight and resets: Shaken, the action card, zone and melee, prone,
// grapples, Hold, The Drop and the turn ledger. Bennies refill at the start
// of every game session in Savage Worlds; Fray has no sessions, so every
// encounter starts with the sheet's Bennies (a GM running two fights in one
// session lowers them on the sheet or in the draft). sw-zones does not track
// Fatigue, so there is none to carry.

// Carried stat paths.
const (
	carryWounds        = "wounds"
	carryIncapacitated = "incapacitated"
	carryDead          = "dead"
)

// carryFields are the carried values, also offered by the stat editor in
// the "Condition" group.
func carryFields() []sheet.CarryField {
	return []sheet.CarryField{
		{Field: sheet.Field{Name: carryWounds, Label: "Wounds", Type: sheet.FieldInt, Default: "0", Group: "Condition",
			Help: "0–3. Carried from fight to fight; lower it when the character heals."}, Min: 0, Max: 3},
		{Field: sheet.Field{Name: carryIncapacitated, Label: "Incapacitated", Type: sheet.FieldBool, Group: "Condition",
			Help: "Ended a fight Incapacitated. Such a character cannot join an encounter until you clear this."}},
		{Field: sheet.Field{Name: carryDead, Label: "Dead", Type: sheet.FieldBool, Group: "Condition",
			Help: "Died in a fight. A dead character cannot join an encounter."}},
	}
}

// conditionFields are the carried values as stat schema fields.
func conditionFields() []sheet.Field {
	var out []sheet.Field
	for _, f := range carryFields() {
		out = append(out, f.Field)
	}
	return out
}

// CarryFields implements sheet.Carrier.
func (Ruleset) CarryFields() []sheet.CarryField { return carryFields() }

// CarryOut implements sheet.Carrier: the fighter's wounds, whether they
// ended Incapacitated, and whether they died.
func (r Ruleset) CarryOut(s engine.State, id string, _ json.RawMessage) (sheet.CarryValues, error) {
	_, f, err := r.Of(s, id)
	if err != nil {
		return nil, err
	}
	return sheet.CarryValues{
		carryWounds:        f.Wounds,
		carryIncapacitated: f.Incapacitated,
		carryDead:          f.Status == "dead",
	}, nil
}

// carriedSetup is the carried part of a combatant's "stats" in the setup
// document; statsSetup embeds it.
type carriedSetup struct {
	Wounds        int  `json:"wounds"`
	Incapacitated bool `json:"incapacitated"`
	Dead          bool `json:"dead"`
}

// apply gives a fighter the condition their stats carry.
func (c carriedSetup) apply(f *Fighter) error {
	if c.Wounds < 0 || c.Wounds > 3 {
		return fmt.Errorf("wounds must be 0–3")
	}
	f.Wounds = c.Wounds
	f.Incapacitated = c.Incapacitated || c.Dead
	if c.Dead {
		f.Status = "dead"
	}
	return nil
}

// fitToFight refuses a combatant whose stats say they were Incapacitated
// or killed in an earlier fight: a stat block may record that, but an
// encounter cannot start with them.
func fitToFight(c engine.CombatantSetup, f *Fighter) error {
	switch {
	case f.Status == "dead":
		return fray.Errorf(fray.EINVALID, "combatant %q (%s) is dead: leave them out, or clear Dead on their sheet", c.ID, c.Name)
	case f.Incapacitated:
		return fray.Errorf(fray.EINVALID, "combatant %q (%s) is Incapacitated since an earlier fight: clear Incapacitated on their sheet once they recover, or leave them out", c.ID, c.Name)
	}
	return nil
}
