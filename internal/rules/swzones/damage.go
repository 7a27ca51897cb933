package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Damage against Toughness:
//   - below Toughness: no effect;
//   - Toughness or more: Shaken; a fighter already Shaken takes a wound
//     instead (Shaken twice → a wound);
//   - each raise (full 4 over Toughness): a wound, and Shaken.
// Wounds cost −1 each to trait rolls, at most −3. An Extra is out at the
// first wound; a Wild Card takes three and is Incapacitated by the next,
// then rolls Vigor: critical failure dies, failure is Bleeding Out, success
// is stable.

// Harm is what a damage roll did to its target.
type Harm struct {
	Total     int `json:"total"`
	Toughness int `json:"toughness"`          // the target's Toughness, armour included
	Obstacle  int `json:"obstacle,omitempty"` // Armour of the cover the shot went through, added to Toughness
	Raises    int `json:"raises"`
	// What happened: Shaken (newly), and wounds inflicted.
	Shaken bool `json:"shaken,omitempty"`
	Wounds int  `json:"wounds,omitempty"`
	// The target's condition after the harm.
	ShakenAfter   bool `json:"shakenAfter"`
	WoundsAfter   int  `json:"woundsAfter"`
	Incapacitated bool `json:"incapacitated,omitempty"`
	// Deferred is set on a hit whose victim is being asked whether to Soak:
	// nothing is applied until the harm event that follows the decision.
	Deferred bool `json:"deferred,omitempty"`
	Soaked   int  `json:"soaked,omitempty"` // wounds cancelled by a Soak roll
}

// rollDamage rolls an attack's damage — the attacker's Strength die when
// the weapon adds it, the weapon's dice, a d6 on a raise, all acing, plus
// the weapon's and the Joker's bonus — and works out the harm to t.
func rollDamage(r *dice.Roller, a, t *Fighter, w Weapon, raise bool, obstacle, bonus int) (dice.Roll, Harm) {
	roll := dice.Roll{Label: "Damage", Who: a.ID, Compare: dice.AtLeast}
	mod := w.Damage.Mod + bonus
	addMod := func(label string, v int) {
		if v != 0 {
			roll.Mods = append(roll.Mods, dice.Mod{Label: label, Value: v})
		}
	}
	addMod(w.Name, w.Damage.Mod)
	addMod("the Drop", bonus)
	if w.Damage.Str {
		str := a.Attributes["strength"]
		d := r.Ace(str.Sides)
		d.Role = "Strength"
		roll.Dice = append(roll.Dice, d)
		mod += str.Bonus
		addMod("Strength bonus", str.Bonus)
	}
	for _, sides := range w.Damage.Dice {
		roll.Dice = append(roll.Dice, r.Ace(sides))
	}
	if raise {
		d := r.Ace(6)
		d.Role = "raise"
		roll.Dice = append(roll.Dice, d)
	}
	if a.Joker() {
		mod += 2
		addMod("joker", 2)
	}
	total := mod
	for _, d := range roll.Dice {
		total += d.Total()
	}
	h := harm(t, total, t.Toughness()+obstacle)
	h.Toughness, h.Obstacle = t.Toughness(), obstacle
	roll.Mod, roll.Total, roll.Target = mod, total, t.Toughness()+obstacle
	roll.Result, roll.Outcome = harmResult(h), dice.OutcomeOf(h.Deferred || h.Incapacitated || h.Wounds > 0 || h.Shaken)
	return roll, h
}

// harm works out what damage total does to t against toughness.
func harm(t *Fighter, total, toughness int) Harm {
	h := Harm{Total: total, Toughness: toughness, ShakenAfter: t.Shaken, WoundsAfter: t.Wounds}
	if total < toughness {
		return h
	}
	h.Raises = (total - toughness) / 4
	switch {
	case h.Raises > 0:
		h.Wounds = h.Raises
	case t.Shaken:
		h.Wounds = 1
	default:
		h.Shaken = true
	}
	h.ShakenAfter = true
	limit := t.MaxWounds()
	if t.Wounds+h.Wounds > limit {
		h.Incapacitated = true
	}
	h.WoundsAfter = min(t.Wounds+h.Wounds, max(limit, 1))
	return h
}

// soakHarm is h with soaked wounds cancelled. Cancelling every wound also
// cancels the Shaken the hit caused; a fighter Shaken before stays Shaken.
func soakHarm(t *Fighter, h Harm, soaked int) Harm {
	out := h
	out.Deferred = false
	out.Soaked = min(max(soaked, 0), h.Wounds)
	out.Wounds = h.Wounds - out.Soaked
	if out.Soaked == 0 {
		return out
	}
	if out.Wounds == 0 {
		out.ShakenAfter, out.Incapacitated, out.WoundsAfter = t.Shaken, false, t.Wounds
		return out
	}
	limit := t.MaxWounds()
	out.ShakenAfter = true
	out.Incapacitated = t.Wounds+out.Wounds > limit
	out.WoundsAfter = min(t.Wounds+out.Wounds, max(limit, 1))
	return out
}

func applyHarm(t *Fighter, h Harm) {
	if h.Deferred {
		return
	}
	if h.ShakenAfter && !t.Shaken {
		t.Hold = false // a fighter who is Shaken loses their Hold
	}
	t.Shaken = h.ShakenAfter
	t.Wounds = h.WoundsAfter
	if h.Incapacitated {
		t.Incapacitated = true
	}
}

func harmResult(h Harm) string {
	switch {
	case h.Deferred:
		return woundWord(h.Wounds) + ", Soak?"
	case h.Incapacitated:
		return "incapacitated"
	case h.Wounds == 1:
		return "1 wound"
	case h.Wounds > 1:
		return fmt.Sprintf("%d wounds", h.Wounds)
	case h.Shaken:
		return "Shaken"
	case h.Soaked > 0 && h.ShakenAfter:
		return "Shaken"
	}
	return "no effect"
}

func harmText(st *State, t *Fighter, h Harm) string {
	against := fmt.Sprintf("Toughness %d", h.Toughness)
	if h.Obstacle > 0 {
		against = fmt.Sprintf("Toughness %d + cover Armour %d", h.Toughness, h.Obstacle)
	}
	text := fmt.Sprintf("%d damage against %s", h.Total, against)
	name := st.NameOf(t.ID)
	switch {
	case h.Deferred:
		return fmt.Sprintf("%s — %s would take %s", text, name, woundWord(h.Wounds))
	case h.Incapacitated:
		return fmt.Sprintf("%s — %s is incapacitated", text, name)
	case h.Wounds > 0 && h.Raises == 0:
		return fmt.Sprintf("%s — %s, already Shaken, takes a wound", text, name)
	case h.Wounds > 0:
		return fmt.Sprintf("%s — %s takes %s and is Shaken", text, name, harmResult(h))
	case h.Shaken:
		return fmt.Sprintf("%s — %s is Shaken", text, name)
	}
	return text + " — no effect"
}

// Incapacitation is the data of an incapacitation-roll event.
type Incapacitation struct {
	Fighter string `json:"fighter"`
	Mods    []Mod  `json:"mods"`   // modifiers to the Vigor roll
	Status  string `json:"status"` // "dead", "bleeding out" or "stable"
}

// incapacitate follows up a fighter's incapacitation: a Wild Card rolls
// Vigor (wound penalties apply), then the fighter is out.
func incapacitate(tx *Tx, t *Fighter) error {
	st := tx.State
	reason := "incapacitated"
	if t.WildCard {
		c := check(t, "vigor", TargetNumber)
		o := rollTrait(tx.Dice, c)
		status := "stable"
		switch {
		case o.CritFail:
			status = "dead"
		case !o.Success:
			status = "bleeding out"
		}
		text := fmt.Sprintf("%s rolls Vigor against the wounds: %d (%s) — %s.", st.NameOf(t.ID), o.Total, o.Roll.Result, status)
		if err := tx.Emits(KindIncapacitation, t.ID, text, Incapacitation{Fighter: t.ID, Mods: nonNil(o.Mods), Status: status}, o.Roll); err != nil {
			return err
		}
		reason = "incapacitated, " + status
	}
	return tx.TakeOut(t.ID, reason, fmt.Sprintf("%s is out of the fight (%s).", st.NameOf(t.ID), reason))
}

// Bleeding is the data of a bleeding-out event: a Bleeding Out fighter's
// Vigor roll at the start of a round.
type Bleeding struct {
	Fighter string `json:"fighter"`
	Mods    []Mod  `json:"mods"`
	Status  string `json:"status"` // "dead", "bleeding out" or "stable"
}

// bleedOut rolls Vigor for every Bleeding Out fighter at the start of a
// round: failure dies; success stabilises, or with bleeding-out "raise"
// only a raise does.
func bleedOut(tx *Tx) error {
	st := tx.State
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if !c.Out || f.Status != "bleeding out" {
			continue
		}
		o := rollTrait(tx.Dice, check(f, "vigor", TargetNumber))
		status := "dead"
		switch {
		case o.Success && (o.Raises > 0 || kit.Opt(&st.Base, OptBleedingOut) == BleedSuccess):
			status = "stable"
		case o.Success:
			status = "bleeding out"
		}
		text := fmt.Sprintf("%s is Bleeding Out: Vigor %d (%s) — %s.", st.NameOf(f.ID), o.Total, o.Roll.Result, status)
		if err := tx.Emits(KindBleeding, f.ID, text, Bleeding{Fighter: f.ID, Mods: nonNil(o.Mods), Status: status}, o.Roll); err != nil {
			return err
		}
	}
	return nil
}

func applyIncapacitation(st *State, d Incapacitation) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Status = d.Status
	return nil
}
