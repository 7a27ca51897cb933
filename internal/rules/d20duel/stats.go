package d20duel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// The sheet (spec b, "Stats"): Attributes 1–20, Agility among them; skill
// modifiers (Close combat, which may be negative, and Ranged); the Damage
// Modifier; per weapon Strike and Guard (to which Close combat is added),
// Grapple and Defense (to which the Grappling modifier is added) and
// damage; armour with a Coverage 1–20 and the points it takes off damage;
// wounds with their penalties.

// Attributes every sheet has, 1–20 (10 when left out).
var attributes = []string{"strength", "agility", "endurance", "perception", "intellect", "will"}

// Wound locations: where a blow lands. Disarm aims at an arm, Immobilize at
// a leg, every other attack at the head or torso.
const (
	LocBody = "body"
	LocArm  = "arm"
	LocLeg  = "leg"
)

// Wound is one wound. Penalty is 1–3 (a −1 … −3 wound) or Mortal, a
// would-kill wound; Round the round it was taken in (0: before the
// fight), InExchange whether in that round's exchange of blows; Effect
// what came of it ("disarmed", "fallen", "crippled").
type Wound struct {
	Penalty    int    `json:"penalty"`
	Location   string `json:"location"`
	Round      int    `json:"round,omitempty"`
	InExchange bool   `json:"exchange,omitempty"`
	Effect     string `json:"effect,omitempty"`
}

// Mortal is the penalty recorded for a would-kill wound.
const Mortal = 4

// Effects of wounds.
const (
	EffectDisarmed = "disarmed"
	EffectFallen   = "fallen"
	EffectCrippled = "crippled"
)

// Weapon is one weapon on a sheet. A ranged weapon has only Strike,
// Damage and Auto; Auto is how many attacks it makes at once (at least 1).
type Weapon struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Strike  int    `json:"strike"`
	Guard   int    `json:"guard"`
	Grapple int    `json:"grapple"`
	Defense int    `json:"defense"`
	Damage  int    `json:"damage"`
	Hands   int    `json:"hands,omitempty"`
	Unarmed bool   `json:"unarmed,omitempty"`
	Ranged  bool   `json:"ranged,omitempty"`
	Auto    int    `json:"auto,omitempty"`
}

// attacks is how many attack rolls the weapon makes at once.
func (w Weapon) attacks() int { return max(w.Auto, 1) }

// Armor is the armour a fighter wears: Coverage 1–20 (a hitting die at or
// below it meets the armour) and Protection, the damage it stops.
type Armor struct {
	Name       string `json:"name,omitempty"`
	Coverage   int    `json:"coverage"`
	Protection int    `json:"protection"`
}

// Fighter is one combatant's sheet and condition.
type Fighter struct {
	ID          string         `json:"id"`
	Attributes  map[string]int `json:"attributes"`
	CloseCombat int            `json:"closeCombat"`
	Ranged      int            `json:"ranged"`
	DamageMod   int            `json:"damageMod"`
	Armor       Armor          `json:"armor"`
	Weapons     []Weapon       `json:"weapons"`
	Wounds      []Wound        `json:"wounds,omitempty"`
	// Dropped are the ids of weapons knocked away (Disarm).
	Dropped []string `json:"dropped,omitempty"`
	// Traits are lasting traits, such as a crippled limb.
	Traits []string `json:"traits,omitempty"`
	// DriveBack is the GM's secret count of blows that will only drive
	// this fighter back (the cinematic option).
	DriveBack int `json:"driveBack,omitempty"`

	shown engine.Memo[card] // the sheet's card, once shown (see sheetSections)
}

// statsDoc is a sheet as the setup writes it.
type statsDoc struct {
	Attributes  map[string]int `json:"attributes"`
	CloseCombat int            `json:"closeCombat"`
	Ranged      int            `json:"ranged"`
	DamageMod   int            `json:"damageMod"`
	Armor       *Armor         `json:"armor"`
	Weapons     []Weapon       `json:"weapons"`
	carriedSetup
}

// fists is the unarmed attack of a sheet that lists none.
func fists(b *engine.Base) Weapon {
	return Weapon{ID: "fists", Name: "Fists", Unarmed: true, Hands: 1,
		Strike: kit.OptInt(b, OptFistsStrike), Guard: kit.OptInt(b, OptFistsGuard), Grapple: kit.OptInt(b, OptFistsGrapple),
		Defense: kit.OptInt(b, OptFistsDefense), Damage: kit.OptInt(b, OptFistsDamage)}
}

// decodeStrict decodes raw into v strictly (strictjson.Unmarshal):
// unknown fields and fields named in another case are refused.
func decodeStrict(raw json.RawMessage, v any) error { return strictjson.Unmarshal(raw, v) }

func within(what string, n, lo, hi int) error {
	if n < lo || n > hi {
		return fmt.Errorf("%s must be between %d and %d, not %d", what, lo, hi, n)
	}
	return nil
}

// parseFighter reads a combatant's stats. Errors are EINVALID and name the
// combatant.
func parseFighter(b *engine.Base, id string, raw json.RawMessage) (*Fighter, error) {
	f, err := readFighter(b, id, raw)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "combatant %q: stats: %v", id, err)
	}
	return f, nil
}

func readFighter(b *engine.Base, id string, raw json.RawMessage) (*Fighter, error) {
	var doc statsDoc
	if len(raw) > 0 && string(raw) != "null" {
		if err := decodeStrict(raw, &doc); err != nil {
			return nil, err
		}
	}
	f := &Fighter{ID: id, Attributes: map[string]int{}, CloseCombat: doc.CloseCombat, Ranged: doc.Ranged, DamageMod: doc.DamageMod}
	for name, v := range doc.Attributes {
		if !slices.Contains(attributes, name) {
			return nil, fmt.Errorf("unknown attribute %q (known: %s)", name, strings.Join(attributes, ", "))
		}
		if err := within(attrLabel(name), v, 1, 20); err != nil {
			return nil, err
		}
	}
	for _, name := range attributes {
		f.Attributes[name] = 10
		if v, ok := doc.Attributes[name]; ok {
			f.Attributes[name] = v
		}
	}
	for _, c := range []struct {
		what string
		n    int
	}{{"closeCombat", f.CloseCombat}, {"ranged", f.Ranged}, {"damageMod", f.DamageMod}} {
		if err := within(c.what, c.n, -10, 10); err != nil {
			return nil, err
		}
	}
	if doc.Armor != nil {
		f.Armor = *doc.Armor
		if err := within("armor coverage", f.Armor.Coverage, 0, 20); err != nil {
			return nil, err
		}
		if err := within("armor protection", f.Armor.Protection, 0, 20); err != nil {
			return nil, err
		}
		if len(f.Armor.Name) > 60 {
			return nil, fmt.Errorf("armor name is longer than 60 characters")
		}
	}
	used := map[string]bool{}
	unarmed := false
	for i, w := range doc.Weapons {
		w.Name = strings.TrimSpace(w.Name)
		if w.Name == "" || len(w.Name) > 60 {
			return nil, fmt.Errorf("weapon %d needs a name of at most 60 characters", i+1)
		}
		if w.ID == "" {
			w.ID = sheet.UniqueSlug(w.Name, used)
		}
		if used[w.ID] {
			return nil, fmt.Errorf("weapon id %q is used twice", w.ID)
		}
		used[w.ID] = true
		for _, c := range []struct {
			what string
			n    int
		}{{"strike", w.Strike}, {"guard", w.Guard}, {"grapple", w.Grapple}, {"defense", w.Defense}} {
			if err := within(w.Name+" "+c.what, c.n, 0, 30); err != nil {
				return nil, err
			}
		}
		if err := within(w.Name+" damage", w.Damage, 0, 40); err != nil {
			return nil, err
		}
		if w.Hands == 0 {
			w.Hands = 1
		}
		if err := within(w.Name+" hands", w.Hands, 1, 2); err != nil {
			return nil, err
		}
		if err := within(w.Name+" auto", w.Auto, 0, 10); err != nil {
			return nil, err
		}
		if w.Unarmed && w.Ranged {
			return nil, fmt.Errorf("%s cannot be both unarmed and ranged", w.Name)
		}
		unarmed = unarmed || w.Unarmed
		f.Weapons = append(f.Weapons, w)
	}
	if !unarmed {
		w := fists(b)
		w.ID = sheet.UniqueSlug("fists", used)
		f.Weapons = append(f.Weapons, w)
	}
	if err := doc.carriedSetup.apply(f); err != nil {
		return nil, err
	}
	return f, nil
}

// attrLabel is an attribute's display name.
func attrLabel(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// GrapplingMod is the seed's Grappling modifier: half the Damage Modifier,
// rounded up, plus Close combat (DM 3, CC −1 → 1).
func (f *Fighter) GrapplingMod() int { return ceilHalf(f.DamageMod) + f.CloseCombat }

// ceilHalf is n/2 rounded up (towards +∞): 3 → 2, −3 → −1.
func ceilHalf(n int) int {
	if n >= 0 {
		return (n + 1) / 2
	}
	return -((-n) / 2)
}

// weapon returns the weapon with id, or nil.
func (f *Fighter) weapon(id string) *Weapon {
	for i := range f.Weapons {
		if f.Weapons[i].ID == id {
			return &f.Weapons[i]
		}
	}
	return nil
}

// armsDisabled counts the arms a −3 Disarm wound (or a crippled arm)
// makes useless.
func (f *Fighter) armsDisabled() int {
	n := 0
	for _, w := range f.Wounds {
		if w.Location == LocArm && w.Penalty >= 3 {
			n++
		}
	}
	return min(n, 2)
}

// Fallen reports whether a −3 Immobilize wound (or a crippled leg) keeps
// the fighter on the ground.
func (f *Fighter) Fallen() bool {
	return slices.ContainsFunc(f.Wounds, func(w Wound) bool { return w.Location == LocLeg && w.Penalty >= 3 })
}

// mortal reports whether the fighter took a would-kill wound.
func (f *Fighter) mortal() bool {
	return slices.ContainsFunc(f.Wounds, func(w Wound) bool { return w.Penalty >= Mortal })
}

// usable reports whether the fighter can use weapon w now: not knocked
// away, and a two-handed weapon needs both arms.
func (f *Fighter) usable(w Weapon) bool {
	if slices.Contains(f.Dropped, w.ID) {
		return false
	}
	if w.Unarmed {
		return true
	}
	return f.armsDisabled()+w.Hands <= 2
}

// meleeWeapons are the weapons the fighter can fight with in an
// engagement now; the unarmed attack is always among them.
func (f *Fighter) meleeWeapons() []Weapon {
	var out []Weapon
	for _, w := range f.Weapons {
		if !w.Ranged && f.usable(w) {
			out = append(out, w)
		}
	}
	return out
}

// rangedWeapons are the weapons the fighter can shoot with now.
func (f *Fighter) rangedWeapons() []Weapon {
	var out []Weapon
	for _, w := range f.Weapons {
		if w.Ranged && f.usable(w) {
			out = append(out, w)
		}
	}
	return out
}

// held are the weapons a Disarm can knock away: usable, not unarmed.
func (f *Fighter) held() []Weapon {
	var out []Weapon
	for _, w := range f.Weapons {
		if !w.Unarmed && f.usable(w) {
			out = append(out, w)
		}
	}
	return out
}

// guardWeapon is the weapon a fighter defends with when no exchange
// declared one: its first usable melee weapon.
func (f *Fighter) guardWeapon() Weapon {
	ws := f.meleeWeapons()
	return ws[0] // the unarmed attack is always usable
}

// penalty is the fighter's wound penalty (a positive number), leaving
// out the wounds taken in exchange skip (0: none left out): blows within
// one exchange land together.
func (f *Fighter) penalty(b *engine.Base, skip int) int {
	sum, worst := 0, 0
	for _, w := range f.Wounds {
		if skip > 0 && w.InExchange && w.Round == skip {
			continue
		}
		p := min(w.Penalty, 3)
		sum += p
		worst = max(worst, p)
	}
	if kit.Opt(b, OptWoundStacking) == StackWorst {
		return worst
	}
	return sum
}

// totalPenalty adds up every wound, whatever the stacking: what a
// collapse counts.
func (f *Fighter) totalPenalty() int {
	sum := 0
	for _, w := range f.Wounds {
		sum += min(w.Penalty, 3)
	}
	return sum
}
