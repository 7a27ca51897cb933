package d20tactical

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// The stat block [B, d20 Modern]: six abilities and their modifiers, base
// attack bonus, base saves, hit points, speed, the parts of Defense, and
// the seed's Dodge, Life Points and Armour Points (an armour with its
// points and a negate DC per body location).

// Sheet is a combatant's stats as the setup gives them.
type Sheet struct {
	Abilities Abilities `json:"abilities"`
	BAB       int       `json:"bab,omitempty"`
	Saves     Saves     `json:"saves,omitempty"`
	// HP is the maximum; Wounds the hit points lost before this fight
	// (carried over from the last one).
	HP     int `json:"hp"`
	Wounds int `json:"wounds,omitempty"`
	// Speed in feet (30 when absent).
	Speed        int `json:"speed,omitempty"`
	ClassDefense int `json:"classDefense,omitempty"`
	Size         int `json:"size,omitempty"`
	// Dodge is the seed's Dodge value; 0 means the combatant cannot dodge.
	Dodge int `json:"dodge,omitempty"`
	// Initiative is a bonus besides Dexterity (Improved Initiative …).
	Initiative int `json:"initiative,omitempty"`
	// LifePoints: the option's value when absent.
	LifePoints *int           `json:"lifePoints,omitempty"`
	Armor      *ArmorSheet    `json:"armor,omitempty"`
	Skills     map[string]int `json:"skills,omitempty"`
	Weapons    []WeaponSheet  `json:"weapons,omitempty"`
	// Dead: the character died in an earlier fight (carried over).
	Dead bool `json:"dead,omitempty"`
}

// Abilities are the six ability scores (10 when absent).
type Abilities struct {
	Str int `json:"str,omitempty"`
	Dex int `json:"dex,omitempty"`
	Con int `json:"con,omitempty"`
	Int int `json:"int,omitempty"`
	Wis int `json:"wis,omitempty"`
	Cha int `json:"cha,omitempty"`
}

// Saves are the base save bonuses, before ability modifiers.
type Saves struct {
	Fort int `json:"fort,omitempty"`
	Ref  int `json:"ref,omitempty"`
	Will int `json:"will,omitempty"`
}

// ArmorSheet is worn armour: its Defense bonus, its starting Armour Points
// and those left (carried over), and the DC a hit on each location must be
// rolled above to negate it (seed "Aimed Shots").
type ArmorSheet struct {
	Name    string         `json:"name,omitempty"`
	Defense int            `json:"defense"`
	Points  int            `json:"points"`
	Current *int           `json:"current,omitempty"`
	DC      map[string]int `json:"dc,omitempty"`
}

// WeaponSheet is one weapon. Range is the range increment in feet (0 for a
// melee weapon); Increments the maximum range in increments (10 for
// firearms, 5 for thrown weapons when absent).
type WeaponSheet struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Damage     string `json:"damage"`
	Range      int    `json:"range,omitempty"`
	Increments int    `json:"increments,omitempty"`
	Thrown     bool   `json:"thrown,omitempty"`
	// Reach in feet for melee weapons (5 when absent).
	Reach int `json:"reach,omitempty"`
	// Attack is a bonus to hit (a mastercraft weapon, a laser sight).
	Attack int `json:"attack,omitempty"`
	// Crit is the lowest natural roll that threatens a critical (20);
	// Fumble the highest that fumbles (1).
	Crit   int `json:"crit,omitempty"`
	Fumble int `json:"fumble,omitempty"`
	// Burst and Auto: the fire modes besides single shots (seed "Burst /
	// Automatic Fire": up to 3 and up to 5 shots).
	Burst bool `json:"burst,omitempty"`
	Auto  bool `json:"auto,omitempty"`
	// Clip is the magazine's rounds; 0 leaves ammunition uncounted.
	Clip int `json:"clip,omitempty"`
}

// Body locations of aimed shots (seed "Aimed Shots").
const (
	LocHead       = "head"
	LocFrontTorso = "front-torso"
	LocBackTorso  = "back-torso"
	LocGroin      = "groin"
	LocLeftArm    = "left-arm"
	LocRightArm   = "right-arm"
	LocLeftLeg    = "left-leg"
	LocRightLeg   = "right-leg"
)

// Locations lists the aimed-shot locations in the order offered.
var Locations = []string{LocHead, LocFrontTorso, LocBackTorso, LocGroin, LocLeftArm, LocRightArm, LocLeftLeg, LocRightLeg}

// armourAreas are the keys of ArmorSheet.DC: the area of armour that covers
// a location.
var armourAreas = []string{"head", "torso", "groin", "arms", "legs"}

func armourArea(loc string) string {
	switch loc {
	case LocHead:
		return "head"
	case LocFrontTorso, LocBackTorso:
		return "torso"
	case LocGroin:
		return "groin"
	case LocLeftArm, LocRightArm:
		return "arms"
	}
	return "legs"
}

func locationName(loc string) string {
	switch loc {
	case LocFrontTorso:
		return "front torso"
	case LocBackTorso:
		return "back torso"
	}
	return strings.ReplaceAll(loc, "-", " ")
}

// Fighter is a combatant in play: its sheet and everything the fight
// changes.
type Fighter struct {
	ID    string `json:"id"`
	Sheet Sheet  `json:"sheet"`

	// Position on the grid and posture (seed "Movement").
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Posture string `json:"posture"`

	// Harm: hit points, Life Points, Armour Points left.
	HP         int  `json:"hp"`
	LifePoints int  `json:"lifePoints"`
	ArmorLeft  int  `json:"armorLeft"`
	Stable     bool `json:"stable,omitempty"`
	Dead       bool `json:"dead,omitempty"`

	Weapons []*Weapon `json:"weapons"`
	// Dropped: a head shot made it drop what it held (seed "Head").
	Dropped bool `json:"dropped,omitempty"`
	// Effects of aimed shots: which arms and legs are hit (with the round
	// each lapses, 0 until healed), and a groin hit's lost action.
	Hurt  []Hurt `json:"hurt,omitempty"`
	Groin bool   `json:"groin,omitempty"`

	// The turn: initiative, what is left to spend, and the states a turn
	// sets or clears.
	Init       int    `json:"init"`
	Budget     Budget `json:"budget"`
	FlatFooted bool   `json:"flatFooted,omitempty"`
	Surprised  bool   `json:"surprised,omitempty"`
	Charging   bool   `json:"charging,omitempty"`
	RunStreak  int    `json:"runStreak,omitempty"`
	Ran        bool   `json:"ran,omitempty"`
	WindedTill int    `json:"windedTill,omitempty"`
	Ready      *Ready `json:"ready,omitempty"`
	// Cover is the GM's ruling on this combatant's cover, until it moves.
	Cover *Cover `json:"cover,omitempty"`
}

// Hurt is an arm or a leg hit by an aimed shot; Until is the last round
// it lasts, 0 until the GM clears it.
type Hurt struct {
	Location string `json:"location"`
	Until    int    `json:"until,omitempty"`
}

// Weapon is a weapon in play: its sheet, rounds left, and whether it jammed
// or was ruined by a backfire.
type Weapon struct {
	WeaponSheet
	Ammo   int  `json:"ammo"`
	Jammed bool `json:"jammed,omitempty"`
	Ruined bool `json:"ruined,omitempty"`
}

// Ranged reports whether the weapon attacks at range.
func (w *Weapon) Ranged() bool { return w.Range > 0 }

// MaxRange is the weapon's maximum range in feet.
func (w *Weapon) MaxRange() int {
	n := w.Increments
	if n <= 0 {
		n = 10
		if w.Thrown {
			n = 5
		}
	}
	return w.Range * n
}

// ReachFeet is a melee weapon's reach.
func (w *Weapon) ReachFeet() int {
	if w.Reach > 0 {
		return w.Reach
	}
	return 5
}

// MaxShots is the most shots one attack may fire: 5 on automatic, 3 in
// bursts, else 1.
func (w *Weapon) MaxShots() int {
	switch {
	case w.Auto:
		return MaxAuto
	case w.Burst:
		return MaxBurst
	}
	return 1
}

// Seed numbers of burst and automatic fire.
const (
	MaxBurst = 3
	MaxAuto  = 5
)

// unarmed is the strike everyone has: it does not threaten (no attacks of
// opportunity), as in d20.
var unarmed = Weapon{WeaponSheet: WeaponSheet{ID: "unarmed", Name: "Unarmed strike", Damage: "1d3"}}

// Weapon returns the fighter's weapon with id (the unarmed strike too).
func (f *Fighter) Weapon(id string) *Weapon {
	for _, w := range f.Weapons {
		if w.ID == id {
			return w
		}
	}
	if id == unarmed.ID {
		u := unarmed
		return &u
	}
	return nil
}

// Postures (seed "Crouch", "Prone"; spec d: heights 1, ½, ¼).
const (
	Standing = "standing"
	Crouched = "crouched"
	Prone    = "prone"
)

// height is a posture's height in quarters of a standing body.
func height(posture string) int {
	switch posture {
	case Crouched:
		return 2
	case Prone:
		return 1
	}
	return 4
}

// mod is an ability modifier: ⌊(score − 10) / 2⌋.
func mod(score int) int {
	d := score - 10
	if d < 0 {
		return -((-d + 1) / 2)
	}
	return d / 2
}

func (a Abilities) withDefaults() Abilities {
	for _, p := range []*int{&a.Str, &a.Dex, &a.Con, &a.Int, &a.Wis, &a.Cha} {
		if *p == 0 {
			*p = 10
		}
	}
	return a
}

// StrMod … are the fighter's ability modifiers.
func (f *Fighter) StrMod() int { return mod(f.Sheet.Abilities.Str) }
func (f *Fighter) DexMod() int { return mod(f.Sheet.Abilities.Dex) }
func (f *Fighter) ConMod() int { return mod(f.Sheet.Abilities.Con) }

// Fort, Ref and Will are the saves.
func (f *Fighter) Fort() int { return f.Sheet.Saves.Fort + f.ConMod() }
func (f *Fighter) Ref() int  { return f.Sheet.Saves.Ref + f.DexMod() }
func (f *Fighter) Will() int { return f.Sheet.Saves.Will + mod(f.Sheet.Abilities.Wis) }

// Speed is the base speed less 10 ft per leg hit (seed "Legs"); 0 means
// only 5 ft per full round.
func (f *Fighter) Speed() int {
	s := f.Sheet.Speed
	if s <= 0 {
		s = 30
	}
	return max(s-10*f.hurtCount("leg"), 0)
}

// hurtCount counts the arms ("arm") or legs ("leg") hit.
func (f *Fighter) hurtCount(part string) int {
	n := 0
	for _, h := range f.Hurt {
		if strings.HasSuffix(h.Location, part) {
			n++
		}
	}
	return n
}

// Down reports whether the fighter is dying, stable or dead.
func (f *Fighter) Down() bool { return f.HP < 0 || f.Dead }

// Disabled reports whether the fighter is at exactly 0 hit points.
func (f *Fighter) Disabled() bool { return f.HP == 0 && !f.Dead }

// ArmorUseful reports whether the armour still counts: worn and not at 0
// Armour Points (seed "Armor Points").
func (f *Fighter) ArmorUseful() bool { return f.Sheet.Armor != nil && f.ArmorLeft > 0 }

// ArmorWorn reports whether the armour is below half its starting points:
// Defense −1 (seed: "under half (round down)").
func (f *Fighter) ArmorWorn() bool {
	a := f.Sheet.Armor
	return a != nil && f.ArmorLeft > 0 && f.ArmorLeft < a.Points/2
}

// DefenseParts are the parts of a fighter's Defense against one attack,
// each with its source, for the roll card.
func (f *Fighter) DefenseParts() []Mod {
	parts := []Mod{{Source: "base", Value: 10}}
	if dex := f.DexMod(); dex != 0 && !(f.FlatFooted && dex > 0) {
		parts = append(parts, Mod{Source: "Dexterity", Value: dex})
	}
	if f.Sheet.ClassDefense != 0 {
		parts = append(parts, Mod{Source: "class", Value: f.Sheet.ClassDefense})
	}
	if f.ArmorUseful() && f.Sheet.Armor.Defense != 0 {
		parts = append(parts, Mod{Source: "armour", Value: f.Sheet.Armor.Defense})
		if f.ArmorWorn() {
			parts = append(parts, Mod{Source: "armour below half its points", Value: -1})
		}
	}
	if f.Sheet.Size != 0 {
		parts = append(parts, Mod{Source: "size", Value: f.Sheet.Size})
	}
	return parts
}

// Defense is the fighter's Defense before cover and charging.
func (f *Fighter) Defense() int { return sumMods(f.DefenseParts()) }

// Mod is one modifier and its source.
type Mod struct {
	Source string `json:"source"`
	Value  int    `json:"value"`
}

func sumMods(ms []Mod) int {
	t := 0
	for _, m := range ms {
		t += m.Value
	}
	return t
}

// Dice is a damage expression: N dice of Sides, plus Bonus.
type Dice struct {
	N     int `json:"n"`
	Sides int `json:"sides"`
	Bonus int `json:"bonus,omitempty"`
}

var diceRe = regexp.MustCompile(`^(\d*)d(\d+)\s*(?:([+-])\s*(\d+))?$`)

// ParseDice reads "2d6", "d8+1", "1d4-1" or a flat "3".
func ParseDice(s string) (Dice, error) {
	s = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 100 {
		return Dice{Bonus: n}, nil
	}
	m := diceRe.FindStringSubmatch(s)
	if m == nil {
		return Dice{}, fmt.Errorf("damage %q is not like 2d6+1", s)
	}
	d := Dice{N: 1}
	if m[1] != "" {
		d.N, _ = strconv.Atoi(m[1])
	}
	d.Sides, _ = strconv.Atoi(m[2])
	if m[4] != "" {
		d.Bonus, _ = strconv.Atoi(m[4])
		if m[3] == "-" {
			d.Bonus = -d.Bonus
		}
	}
	if d.N < 1 || d.N > 20 || d.Sides < 2 || d.Sides > 100 || d.Bonus < -50 || d.Bonus > 100 {
		return Dice{}, fmt.Errorf("damage %q is out of bounds (1–20 dice of 2–100 sides)", s)
	}
	return d, nil
}

// decodeStrict decodes raw into v strictly (strictjson.Unmarshal):
// unknown fields and fields named in another case are refused.
func decodeStrict(raw []byte, v any) error { return strictjson.Unmarshal(raw, v) }

var idRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// parseSheet reads and validates a stat block.
func parseSheet(raw json.RawMessage) (Sheet, error) {
	var s Sheet
	if len(raw) == 0 || string(raw) == "null" {
		return s, fray.Errorf(fray.EINVALID, "stats are missing (hp at least)")
	}
	if err := decodeStrict(raw, &s); err != nil {
		return s, fray.Errorf(fray.EINVALID, "stats: %v", err)
	}
	s.Abilities = s.Abilities.withDefaults()
	for _, a := range []int{s.Abilities.Str, s.Abilities.Dex, s.Abilities.Con, s.Abilities.Int, s.Abilities.Wis, s.Abilities.Cha} {
		if a < 1 || a > 40 {
			return s, fray.Errorf(fray.EINVALID, "ability scores run from 1 to 40")
		}
	}
	bad := func(what string, v, lo, hi int) error {
		if v < lo || v > hi {
			return fray.Errorf(fray.EINVALID, "%s must be between %d and %d", what, lo, hi)
		}
		return nil
	}
	checks := []error{
		bad("hp", s.HP, 1, 999), bad("wounds", s.Wounds, 0, 999), bad("bab", s.BAB, -5, 30),
		bad("speed", s.Speed, 0, 200), bad("classDefense", s.ClassDefense, -10, 30), bad("size", s.Size, -8, 8),
		bad("dodge", s.Dodge, 0, 20), bad("initiative", s.Initiative, -10, 30),
		bad("saves.fort", s.Saves.Fort, -5, 30), bad("saves.ref", s.Saves.Ref, -5, 30), bad("saves.will", s.Saves.Will, -5, 30),
	}
	if s.Speed%5 != 0 {
		checks = append(checks, fray.Errorf(fray.EINVALID, "speed must be a multiple of 5 ft"))
	}
	if s.LifePoints != nil {
		checks = append(checks, bad("lifePoints", *s.LifePoints, 0, 99))
	}
	if a := s.Armor; a != nil {
		checks = append(checks, bad("armor.defense", a.Defense, 0, 30), bad("armor.points", a.Points, 0, 999))
		if a.Current != nil {
			checks = append(checks, bad("armor.current", *a.Current, 0, a.Points))
		}
		for area, dc := range a.DC {
			if !slices.Contains(armourAreas, area) {
				checks = append(checks, fray.Errorf(fray.EINVALID, "armor.dc: no location %q (head, torso, groin, arms, legs)", area))
			}
			checks = append(checks, bad("armor.dc."+area, dc, 0, 40))
		}
	}
	for name, v := range s.Skills {
		checks = append(checks, bad("skills."+name, v, -10, 50))
	}
	seen := map[string]bool{unarmed.ID: true}
	for i := range s.Weapons {
		w := &s.Weapons[i]
		if w.Name == "" {
			return s, fray.Errorf(fray.EINVALID, "weapon %d needs a name", i+1)
		}
		if w.ID == "" {
			w.ID = sheet.UniqueSlug(w.Name, seen)
		}
		if !idRe.MatchString(w.ID) {
			return s, fray.Errorf(fray.EINVALID, "weapon id %q must be lower-case letters, digits and dashes", w.ID)
		}
		if seen[w.ID] {
			return s, fray.Errorf(fray.EINVALID, "weapon id %q is used twice (or reserved)", w.ID)
		}
		seen[w.ID] = true
		if _, err := ParseDice(w.Damage); err != nil {
			return s, fray.Errorf(fray.EINVALID, "weapon %s: %v", w.Name, err)
		}
		checks = append(checks, bad("range of "+w.Name, w.Range, 0, 2000), bad("increments of "+w.Name, w.Increments, 0, 20),
			bad("reach of "+w.Name, w.Reach, 0, 20), bad("attack bonus of "+w.Name, w.Attack, -10, 10),
			bad("critical range of "+w.Name, w.Crit, 0, 20), bad("fumble range of "+w.Name, w.Fumble, 0, 5),
			bad("clip of "+w.Name, w.Clip, 0, 500))
		if w.Range%5 != 0 || w.Reach%5 != 0 {
			checks = append(checks, fray.Errorf(fray.EINVALID, "weapon %s: range and reach are multiples of 5 ft", w.Name))
		}
		if w.Crit != 0 && w.Crit < 15 {
			checks = append(checks, fray.Errorf(fray.EINVALID, "weapon %s: a critical range starts at 15 at the lowest", w.Name))
		}
		if (w.Burst || w.Auto) && w.Range == 0 {
			checks = append(checks, fray.Errorf(fray.EINVALID, "weapon %s: burst and automatic fire need a ranged weapon", w.Name))
		}
	}
	for _, err := range checks {
		if err != nil {
			return s, err
		}
	}
	if s.Wounds >= s.HP+10 {
		return s, fray.Errorf(fray.EINVALID, "wounds %d would leave the character dead (hp %d)", s.Wounds, s.HP)
	}
	return s, nil
}

// newFighter builds a fighter in play from a sheet.
func newFighter(id string, s Sheet, lifePoints int) *Fighter {
	f := &Fighter{ID: id, Sheet: s, Posture: Standing, HP: s.HP - s.Wounds, LifePoints: lifePoints}
	if s.LifePoints != nil {
		f.LifePoints = *s.LifePoints
	}
	if a := s.Armor; a != nil {
		f.ArmorLeft = a.Points
		if a.Current != nil {
			f.ArmorLeft = *a.Current
		}
	}
	for _, w := range s.Weapons {
		f.Weapons = append(f.Weapons, &Weapon{WeaponSheet: w, Ammo: w.Clip})
	}
	if f.HP < 0 {
		f.Stable = true // came in bleeding but tended between fights
	}
	return f
}
