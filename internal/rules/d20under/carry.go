package d20under

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Carry-over: what a character keeps from one fight to the next
// (sheet.Carrier).
//
//   - Experience left and permanent Corruption: feats spent in the fight
//     are gone for good (the issue: "XP and permanent Corruption spent in
//     a fight outlive it").
//   - Temporary Corruption fades at the end of the scene: it carries as 0.
//   - Damage: Toughness lost and not healed (natural healing, one point a
//     day, is the GM's to record between fights).
//   - Death and the fall to Corruption.
//   - Critical Damage, when option critical-damage-ends is "healed".
//   - Ammunition: a quiver's counter "stays as it is" unless there was time
//     to search (seed 7), special projectiles and thrown or alchemical
//     weapons used up — one text, "bow=2, bow.special=1, grenade=0".
//   - Items used up: herbal cures, antidotes, poisons, traps.
//
// Everything else belongs to one fight and resets: position, prone,
// wounded limbs and lameness ("for the rest of the scene"), poison,
// holds, curses, stances, Roused, Prepared and Fearless (the scene), the
// turn ledger.

// Carried stat paths.
const (
	carryXP          = "xp"
	carryPermanent   = "corruption.permanent"
	carryTemporary   = "corruption.temporary"
	carryDamage      = "damage"
	carryDead        = "dead"
	carryAbomination = "abomination"
	carryCritical    = "critical"
	carryAmmunition  = "ammunition"
)

func carryFields() []sheet.CarryField {
	out := []sheet.CarryField{
		{Field: sheet.Field{Name: carryXP, Label: "Experience", Type: sheet.FieldInt, Default: "0", Group: "Resources",
			Help: "Unspent, for feats (1 each)."}, Min: 0, Max: 9999},
		{Field: sheet.Field{Name: carryPermanent, Label: "Permanent Corruption", Type: sheet.FieldInt, Default: "0", Group: "Resources",
			Help: "Feats paid in Corruption add to it."}, Min: 0, Max: 99},
		{Field: sheet.Field{Name: carryTemporary, Label: "Temporary Corruption", Type: sheet.FieldInt, Default: "0", Group: "Resources",
			Help: "Fades at the end of the scene: 0 after a fight."}, Min: 0, Max: 99},
		{Field: sheet.Field{Name: carryDamage, Label: "Damage taken", Type: sheet.FieldInt, Default: "0", Group: "Resources",
			Help: "Toughness lost and not yet healed; lower it as the character heals (1 a day)."}, Min: 0, Max: 99},
		{Field: sheet.Field{Name: carryDead, Label: "Dead", Type: sheet.FieldBool, Group: "Condition",
			Help: "Died in a fight. A dead character cannot join an encounter."}},
		{Field: sheet.Field{Name: carryAbomination, Label: "Lost to Corruption", Type: sheet.FieldBool, Group: "Condition",
			Help: "Became an abomination. Such a character cannot join an encounter."}},
		{Field: sheet.Field{Name: carryCritical, Label: "Critical Damage", Type: sheet.FieldBool, Group: "Condition",
			Help: "A second chance to fail every test until healed (kept between fights when critical-damage-ends is \"healed\")."}},
		{Field: sheet.Field{Name: carryAmmunition, Label: "Ammunition", Type: sheet.FieldText, Group: "Resources",
			Help: "Counters and counts left, e.g. \"bow=2, bow.special=1, grenade=0\"; empty: as the weapons say."}},
	}
	for _, it := range itemNames {
		out = append(out, sheet.CarryField{Field: sheet.Field{Name: "items." + it, Label: label(it), Type: sheet.FieldInt,
			Default: "0", Group: "Items"}, Min: 0, Max: 99})
	}
	return out
}

// CarryFields implements sheet.Carrier.
func (Ruleset) CarryFields() []sheet.CarryField { return carryFields() }

// CarryOut implements sheet.Carrier.
func (r Ruleset) CarryOut(s engine.State, id string, _ json.RawMessage) (sheet.CarryValues, error) {
	st, f, err := r.Of(s, id)
	if err != nil {
		return nil, err
	}
	c := st.Combatant(id)
	out := sheet.CarryValues{
		carryXP:          f.XP,
		carryPermanent:   f.Permanent,
		carryTemporary:   0,
		carryDamage:      f.MaxToughness - f.Toughness,
		carryDead:        c.Out && !f.Abomination && (f.Toughness <= 0 || f.DeathFails >= DeathFailures),
		carryAbomination: f.Abomination,
		carryCritical:    f.Critical && kit.Opt(&st.Base, OptCriticalEnds) == EndsHealed,
		carryAmmunition:  ammunitionText(f),
	}
	for _, it := range itemNames {
		out["items."+it] = f.Items[it]
	}
	return out, nil
}

// ammunitionText writes what is left of each counted weapon.
func ammunitionText(f *Fighter) string {
	var parts []string
	for _, w := range f.Weapons {
		k := w.kind()
		switch {
		case k.Ammo:
			parts = append(parts, fmt.Sprintf("%s=%d", w.ID, f.Ammo[w.ID]), fmt.Sprintf("%s.special=%d", w.ID, f.Special[w.ID]))
		case k.Units:
			parts = append(parts, fmt.Sprintf("%s=%d", w.ID, f.Units[w.ID]))
		}
	}
	return strings.Join(parts, ", ")
}

// readAmmunition applies a sheet's carried ammunition to its counters.
func readAmmunition(text string, sh *Sheet, p *parsed) error {
	for _, entry := range strings.Split(text, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		key, val, ok := strings.Cut(entry, "=")
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if !ok || err != nil || n < 0 || n > 99 {
			return fmt.Errorf("ammunition %q: want weapon=count", entry)
		}
		id, special := strings.CutSuffix(strings.TrimSpace(key), ".special")
		i := slices.IndexFunc(sh.Weapons, func(w Weapon) bool { return w.ID == id })
		if i < 0 {
			return fmt.Errorf("ammunition: no weapon %q", id)
		}
		k := sh.Weapons[i].kind()
		switch {
		case k.Ammo && special:
			p.Special[id] = n
		case k.Ammo:
			if n > AmmoCounter {
				return fmt.Errorf("ammunition: %s's counter is 0–3", id)
			}
			p.Ammo[id] = n
		case k.Units && !special:
			p.Units[id] = n
		default:
			return fmt.Errorf("ammunition: %s counts no %s", id, key)
		}
	}
	return nil
}

// fitToFight refuses a combatant whose sheet says it died or fell to
// Corruption: a sheet may record that, but a fight cannot start with it.
func fitToFight(id string, p *parsed) error {
	switch {
	case p.Dead:
		return fray.Errorf(fray.EINVALID, "combatant %q is dead: leave them out, or clear Dead on their sheet", id)
	case p.Abomination:
		return fray.Errorf(fray.EINVALID, "combatant %q was lost to Corruption: leave them out, or clear it on their sheet", id)
	}
	return nil
}
