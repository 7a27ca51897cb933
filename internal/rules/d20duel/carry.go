package d20duel

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Carry-over: what a character keeps from one fight to the next
// (sheet.Carrier).
//
// Wounds outlive the fight, each with its penalty and where it is: a −3
// arm or leg wound keeps the arm useless or the fighter on the ground
// until it heals, which the GM records on the sheet between fights. The
// sheet keeps them as counts by location and level (numbers, so a healing
// entered between fights and a later fight's new wounds add up). A wound
// that would kill outlives it too (Mortal), and so do Traits such as a
// crippled limb. Everything else belongs to one fight: distances and
// stances, weapons knocked away (picked up afterwards), the cinematic
// count.

// Carried stat paths besides the wound counts.
const (
	carryMortal = "mortal"
	carryTraits = "traits"
)

// woundLevels are the sheet's names of the −1, −2 and −3 wounds.
var woundLevels = []struct {
	key     string
	penalty int
}{{"light", 1}, {"serious", 2}, {"grave", 3}}

// woundLocations are the places a wound may be, in the sheet's order.
var woundLocations = []string{LocBody, LocArm, LocLeg}

// maxWoundCount bounds each count on the sheet.
const maxWoundCount = 10

// woundPath is the stats path of the count of wounds of penalty at loc.
func woundPath(loc, level string) string { return "wounds." + loc + "." + level }

// carryFields are the carried values, also offered by the stat editor in
// the "Condition" group.
func carryFields() []sheet.CarryField {
	var out []sheet.CarryField
	for _, loc := range woundLocations {
		for _, l := range woundLevels {
			help := ""
			if l.penalty == 3 && loc == LocArm {
				help = "Each keeps an arm useless until it heals."
			}
			if l.penalty == 3 && loc == LocLeg {
				help = "Keeps the fighter on the ground until it heals."
			}
			out = append(out, sheet.CarryField{Field: sheet.Field{
				Name: woundPath(loc, l.key), Label: fmt.Sprintf("−%d %s wounds", l.penalty, locationWords[loc]),
				Type: sheet.FieldInt, Default: "0", Group: "Condition", Help: help}, Min: 0, Max: maxWoundCount})
		}
	}
	return append(out,
		sheet.CarryField{Field: sheet.Field{Name: carryMortal, Label: "Mortally wounded", Type: sheet.FieldBool, Group: "Condition",
			Help: "Took a wound that would kill. Such a character cannot join an encounter until you clear this."}},
		sheet.CarryField{Field: sheet.Field{Name: carryTraits, Label: "Traits", Type: sheet.FieldText, Group: "Condition",
			Help: "Lasting traits, separated by semicolons: “Crippled arm; Scarred”."}},
	)
}

// CarryFields implements sheet.Carrier.
func (Ruleset) CarryFields() []sheet.CarryField { return carryFields() }

// CarryOut implements sheet.Carrier: the fighter's wounds by location and
// level, whether one would kill, and the Traits.
func (r Ruleset) CarryOut(s engine.State, id string, _ json.RawMessage) (sheet.CarryValues, error) {
	_, f, err := r.Of(s, id)
	if err != nil {
		return nil, err
	}
	out := sheet.CarryValues{carryMortal: f.mortal(), carryTraits: strings.Join(f.Traits, "; ")}
	for _, loc := range woundLocations {
		for _, l := range woundLevels {
			out[woundPath(loc, l.key)] = 0
		}
	}
	for _, w := range f.Wounds {
		if w.Penalty >= Mortal {
			continue
		}
		p := woundPath(w.Location, woundLevels[w.Penalty-1].key)
		out[p] = min(out[p].(int)+1, maxWoundCount)
	}
	return out, nil
}

// woundCounts are a location's wounds on the sheet.
type woundCounts struct {
	Light   int `json:"light"`
	Serious int `json:"serious"`
	Grave   int `json:"grave"`
}

// carriedSetup is the carried part of a combatant's "stats"; statsDoc
// embeds it.
type carriedSetup struct {
	Wounds *struct {
		Body woundCounts `json:"body"`
		Arm  woundCounts `json:"arm"`
		Leg  woundCounts `json:"leg"`
	} `json:"wounds"`
	Mortal bool   `json:"mortal"`
	Traits string `json:"traits"`
}

// apply gives a fighter the wounds and Traits its sheet carries.
func (c carriedSetup) apply(f *Fighter) error {
	if c.Wounds != nil {
		for _, x := range []struct {
			loc    string
			counts woundCounts
		}{{LocBody, c.Wounds.Body}, {LocArm, c.Wounds.Arm}, {LocLeg, c.Wounds.Leg}} {
			for i, n := range []int{x.counts.Light, x.counts.Serious, x.counts.Grave} {
				if err := within(fmt.Sprintf("−%d %s wounds", i+1, locationWords[x.loc]), n, 0, maxWoundCount); err != nil {
					return err
				}
				for range n {
					w := Wound{Penalty: i + 1, Location: x.loc}
					if w.Penalty == 3 && x.loc != LocBody {
						w.Effect = map[string]string{LocArm: EffectDisarmed, LocLeg: EffectFallen}[x.loc]
					}
					f.Wounds = append(f.Wounds, w)
				}
			}
		}
	}
	if c.Mortal {
		f.Wounds = append(f.Wounds, Wound{Penalty: Mortal, Location: LocBody})
	}
	if len(c.Traits) > 200 {
		return fmt.Errorf("traits are longer than 200 characters")
	}
	for _, t := range strings.Split(c.Traits, ";") {
		if t = strings.TrimSpace(t); t != "" {
			f.Traits = append(f.Traits, t)
		}
	}
	return nil
}

// fitToFight refuses a combatant whose sheet says a wound would kill them,
// or whose wounds already add up to a collapse: a sheet may record that,
// but a fight cannot start with them.
func fitToFight(b *engine.Base, c engine.CombatantSetup, f *Fighter) error {
	if f.mortal() {
		return fray.Errorf(fray.EINVALID, "combatant %q (%s) took a wound that would kill: leave them out, or clear Mortally wounded on their sheet", c.ID, c.Name)
	}
	if n := kit.OptInt(b, OptCollapseAt); n > 0 && f.totalPenalty() >= n {
		return fray.Errorf(fray.EINVALID, "combatant %q (%s) has wounds of −%d, enough to collapse (−%d): heal some first, or leave them out", c.ID, c.Name, f.totalPenalty(), n)
	}
	return nil
}
