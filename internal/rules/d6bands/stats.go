package d6bands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// The stat block (a combatant's "stats" in the setup). Skills are target
// numbers: a check succeeds when its dice sum to at most the skill. The
// seed names Acrobatics, Athletics, Swimming, Stealth, Perception, Tactics,
// Archery, Firearms and Crossbows; Fray adds Willpower (Terror checks),
// Medicine (first aid) and whatever skills the weapons name.
//
//	{"skills": {"firearms": 14, "melee": 12, "stealth": 11},
//	 "attributes": {"agility": 12, "vigor": 11},
//	 "toughness": 10, "armor": 2, "blood": 10, "defense": 3, "initiative": 10, "bulk": 1,
//	 "mount": {"name": "Warhorse", "toughness": 14},
//	 "weapons": [{"name": "Arquebus", "skill": "firearms", "damage": "3D+2",
//	              "optimal": "close/distant", "class": "firearm", "reload": 6}]}

// Sheet is a combatant's statistics.
type Sheet struct {
	Skills     map[string]int `json:"skills"`
	Attributes map[string]int `json:"attributes,omitempty"`
	// Toughness is the wound threshold: damage of Toughness or more is a
	// Serious wound, of lethal-threshold × Toughness a Lethal one.
	Toughness int `json:"toughness"`
	Armor     int `json:"armor,omitempty"`
	// Blood is how much blood loss knocks the combatant out.
	Blood int `json:"blood"`
	// Defense is the Defense Pool: dice a round to spend against melee
	// attacks and shots in close contact.
	Defense    int      `json:"defense"`
	Initiative int      `json:"initiative"`
	Bulk       int      `json:"bulk,omitempty"`
	Mount      *Mount   `json:"mount,omitempty"`
	Weapons    []Weapon `json:"weapons,omitempty"`
	// Condition is what the character carries from earlier fights
	// (carry.go); the encounter's state keeps it as wounds and blood loss.
	Condition Condition `json:"-"`
}

// Mount is a rider's mount: a shot that misses the rider by 3 or less hits
// it. A Serious wound or worse brings it down and the rider falls prone.
type Mount struct {
	Name      string `json:"name"`
	Toughness int    `json:"toughness"`
	Armor     int    `json:"armor,omitempty"`
}

// Weapon classes. Only firearms and crossbows gain from aiming three rounds.
const (
	ClassFirearm  = "firearm"
	ClassCrossbow = "crossbow"
	ClassBow      = "bow"
	ClassThrown   = "thrown"
	ClassMelee    = "melee"
	ClassOther    = "other"
)

var weaponClasses = []string{ClassFirearm, ClassCrossbow, ClassBow, ClassThrown, ClassMelee, ClassOther}

// Weapon is one weapon on a sheet.
type Weapon struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Skill  string `json:"skill"`
	Damage Dice   `json:"damage"`
	// Optimal are the ranged weapon's optimal bands (one or two, 0 Very
	// Close … 4 Very Far); none for a melee weapon.
	Optimal []int  `json:"optimal,omitempty"`
	Long    bool   `json:"long,omitempty"`   // a long melee weapon reaches anyone in the same band
	Area    bool   `json:"area,omitempty"`   // a burst, explosive or area weapon: area fire
	Terror  int    `json:"terror,omitempty"` // the Terror check its area fire causes, in D
	Class   string `json:"class,omitempty"`
	Reload  int    `json:"reload,omitempty"` // actions to reload after a shot; 0: none needed
}

// Ranged reports whether w shoots.
func (w Weapon) Ranged() bool { return len(w.Optimal) > 0 }

// Extreme is the difficulty of a shot at Extreme range with w, 0 when it
// cannot shoot that far: 5D with a Very Far optimal range, 6D with Far.
func (w Weapon) Extreme() int {
	switch {
	case slices.Contains(w.Optimal, BandVeryFar):
		return 5
	case slices.Contains(w.Optimal, BandFar):
		return 6
	}
	return 0
}

// LongAim reports whether aiming three rounds helps w (firearms and
// crossbows only).
func (w Weapon) LongAim() bool { return w.Class == ClassFirearm || w.Class == ClassCrossbow }

// Unarmed is the weapon everyone has.
var Unarmed = Weapon{ID: "unarmed", Name: "Unarmed", Skill: "unarmed", Damage: Dice{N: 1}, Class: ClassMelee}

// Dice is a damage roll: N open-ended dice plus Bonus, written "2D+1".
type Dice struct {
	N     int `json:"n"`
	Bonus int `json:"bonus,omitempty"`
}

func (d Dice) String() string {
	switch {
	case d.Bonus > 0:
		return fmt.Sprintf("%dD+%d", d.N, d.Bonus)
	case d.Bonus < 0:
		return fmt.Sprintf("%dD%d", d.N, d.Bonus)
	}
	return fmt.Sprintf("%dD", d.N)
}

var dicePattern = regexp.MustCompile(`^(\d{1,2})\s*(?:[dD]6?|[tT]6)\s*(?:([+-])\s*(\d{1,2}))?$`)

// ParseDice reads "2D", "3D+2", "1D-1", "2d6+1" or Eon's "2T6+1".
func ParseDice(s string) (Dice, error) {
	m := dicePattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Dice{}, fmt.Errorf("damage %q must look like 2D+1", s)
	}
	n, _ := strconv.Atoi(m[1])
	if n < 1 || n > 12 {
		return Dice{}, fmt.Errorf("damage %q: 1 to 12 dice", s)
	}
	d := Dice{N: n}
	if m[3] != "" {
		d.Bonus, _ = strconv.Atoi(m[3])
		if m[2] == "-" {
			d.Bonus = -d.Bonus
		}
	}
	return d, nil
}

// sheetDoc is the stats JSON as written.
type sheetDoc struct {
	Skills     map[string]int `json:"skills"`
	Attributes map[string]int `json:"attributes"`
	Toughness  *int           `json:"toughness"`
	Armor      int            `json:"armor"`
	Blood      *int           `json:"blood"`
	Defense    *int           `json:"defense"`
	Initiative *int           `json:"initiative"`
	Bulk       int            `json:"bulk"`
	Mount      *struct {
		Name      string `json:"name"`
		Toughness int    `json:"toughness"`
		Armor     int    `json:"armor"`
	} `json:"mount"`
	Condition
	Weapons []struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Skill   string `json:"skill"`
		Damage  string `json:"damage"`
		Optimal string `json:"optimal"`
		Long    bool   `json:"long"`
		Area    bool   `json:"area"`
		Terror  int    `json:"terror"`
		Class   string `json:"class"`
		Reload  int    `json:"reload"`
	} `json:"weapons"`
}

// Defaults of an empty stat block.
const (
	DefaultToughness  = 10
	DefaultDefense    = 2
	DefaultInitiative = 10
	DefaultAttribute  = 10
)

// ParseSheet reads and validates a stat block.
func ParseSheet(raw json.RawMessage) (Sheet, error) {
	var doc sheetDoc
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil {
			return Sheet{}, fmt.Errorf("stats: %v", err)
		}
	}
	s := Sheet{Skills: map[string]int{}, Attributes: map[string]int{}, Armor: doc.Armor, Bulk: doc.Bulk,
		Toughness: DefaultToughness, Defense: DefaultDefense, Initiative: DefaultInitiative, Condition: doc.Condition}
	if err := s.Condition.check(); err != nil {
		return Sheet{}, err
	}
	for name, v := range doc.Skills {
		key := skillKey(name)
		if key == "" {
			return Sheet{}, fmt.Errorf("skill %q needs a name", name)
		}
		if v < 0 || v > 40 {
			return Sheet{}, fmt.Errorf("skill %s must be 0–40, not %d", name, v)
		}
		s.Skills[key] = v
	}
	for _, a := range []string{"agility", "vigor"} {
		s.Attributes[a] = DefaultAttribute
	}
	for name, v := range doc.Attributes {
		key := skillKey(name)
		if key != "agility" && key != "vigor" {
			return Sheet{}, fmt.Errorf("attribute %q: only agility and vigor are used", name)
		}
		if v < 0 || v > 40 {
			return Sheet{}, fmt.Errorf("attribute %s must be 0–40, not %d", name, v)
		}
		s.Attributes[key] = v
	}
	if doc.Toughness != nil {
		s.Toughness = *doc.Toughness
	}
	if s.Toughness < 1 || s.Toughness > 40 {
		return Sheet{}, fmt.Errorf("toughness must be 1–40, not %d", s.Toughness)
	}
	s.Blood = s.Toughness
	if doc.Blood != nil {
		s.Blood = *doc.Blood
	}
	if s.Blood < 1 || s.Blood > 60 {
		return Sheet{}, fmt.Errorf("blood must be 1–60, not %d", s.Blood)
	}
	if doc.Defense != nil {
		s.Defense = *doc.Defense
	}
	if doc.Initiative != nil {
		s.Initiative = *doc.Initiative
	}
	for what, v := range map[string]int{"armor": s.Armor, "defense": s.Defense, "bulk": s.Bulk} {
		if v < 0 || v > 20 {
			return Sheet{}, fmt.Errorf("%s must be 0–20, not %d", what, v)
		}
	}
	if s.Initiative < 0 || s.Initiative > 40 {
		return Sheet{}, fmt.Errorf("initiative must be 0–40, not %d", s.Initiative)
	}
	if m := doc.Mount; m != nil {
		if m.Toughness < 1 || m.Toughness > 40 || m.Armor < 0 || m.Armor > 20 {
			return Sheet{}, fmt.Errorf("mount: toughness 1–40 and armor 0–20")
		}
		name := strings.TrimSpace(m.Name)
		if name == "" {
			name = "Mount"
		}
		s.Mount = &Mount{Name: name, Toughness: m.Toughness, Armor: m.Armor}
	}
	used := map[string]bool{Unarmed.ID: true}
	for i, wd := range doc.Weapons {
		w := Weapon{ID: wd.ID, Name: strings.TrimSpace(wd.Name), Skill: skillKey(wd.Skill), Long: wd.Long, Area: wd.Area,
			Terror: wd.Terror, Class: strings.ToLower(strings.TrimSpace(wd.Class)), Reload: wd.Reload}
		if w.Name == "" {
			return Sheet{}, fmt.Errorf("weapon %d needs a name", i+1)
		}
		if w.ID == "" {
			w.ID = sheet.UniqueSlug(w.Name, used)
		}
		if used[w.ID] {
			return Sheet{}, fmt.Errorf("weapon id %q is used twice", w.ID)
		}
		used[w.ID] = true
		d, err := ParseDice(wd.Damage)
		if err != nil {
			return Sheet{}, fmt.Errorf("weapon %s: %v", w.Name, err)
		}
		w.Damage = d
		if strings.TrimSpace(wd.Optimal) != "" {
			if w.Optimal, err = parseBands(wd.Optimal); err != nil {
				return Sheet{}, fmt.Errorf("weapon %s: %v", w.Name, err)
			}
		}
		if w.Skill == "" {
			if w.Ranged() {
				return Sheet{}, fmt.Errorf("weapon %s needs a skill (archery, firearms, crossbows, …)", w.Name)
			}
			w.Skill = "melee"
		}
		if w.Class == "" {
			w.Class = ClassOther
			if !w.Ranged() {
				w.Class = ClassMelee
			}
		}
		if !slices.Contains(weaponClasses, w.Class) {
			return Sheet{}, fmt.Errorf("weapon %s: class %q must be one of %s", w.Name, w.Class, strings.Join(weaponClasses, ", "))
		}
		switch {
		case w.Area && !w.Ranged():
			return Sheet{}, fmt.Errorf("weapon %s: area fire needs an optimal range", w.Name)
		case w.Long && w.Ranged():
			return Sheet{}, fmt.Errorf("weapon %s: only melee weapons are long", w.Name)
		case w.Reload < 0 || w.Reload > 30:
			return Sheet{}, fmt.Errorf("weapon %s: reload must be 0–30 actions", w.Name)
		case w.Terror < 0 || w.Terror > 8:
			return Sheet{}, fmt.Errorf("weapon %s: terror must be 0–8 dice", w.Name)
		}
		s.Weapons = append(s.Weapons, w)
	}
	return s, nil
}

// skillKey normalises a skill name: "Firearms" → "firearms".
func skillKey(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(name)), " ")
}

// skillName is a skill's display name: "firearms" → "Firearms".
func skillName(key string) string {
	if key == "" {
		return key
	}
	return strings.ToUpper(key[:1]) + key[1:]
}

// Skill returns the value of a skill, the untrained value when the sheet
// lacks it.
func (s *Sheet) Skill(b *engine.Base, key string) int {
	if v, ok := s.Skills[key]; ok {
		return v
	}
	return kit.OptInt(b, OptUntrained)
}

// Weapon returns the weapon with id (Unarmed included), or nil.
func (s *Sheet) Weapon(id string) *Weapon {
	if id == Unarmed.ID {
		w := Unarmed
		return &w
	}
	for i := range s.Weapons {
		if s.Weapons[i].ID == id {
			return &s.Weapons[i]
		}
	}
	return nil
}

// MeleeWeapons are the weapons used in close contact, Unarmed last.
func (s *Sheet) MeleeWeapons() []Weapon {
	var out []Weapon
	for _, w := range s.Weapons {
		if !w.Ranged() {
			out = append(out, w)
		}
	}
	return append(out, Unarmed)
}

// Derive implements sheet.Deriver: the numbers a GM checks while
// writing a stat block.
func (Ruleset) Derive(stats json.RawMessage) (map[string]string, error) {
	s, err := ParseSheet(stats)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%v", err)
	}
	return map[string]string{
		"Wounds":       fmt.Sprintf("Serious from %d damage, Lethal from %d (default thresholds)", s.Toughness, s.Toughness*2),
		"Blood":        fmt.Sprintf("out at %d lost, dead at %d (default)", s.Blood, s.Blood*2),
		"Defense Pool": fmt.Sprintf("%dD a round", s.Defense),
	}, nil
}
