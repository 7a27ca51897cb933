package swzones

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Attributes every fighter has, in the order the sheet lists them.
var attributes = []string{"agility", "smarts", "spirit", "strength", "vigor"}

// Skills the core rolls.
const (
	skillFighting  = "fighting"
	skillShooting  = "shooting"
	skillAthletics = "athletics" // SWADE's throwing skill
	skillThrowing  = "throwing"  // SWD's
)

// skillNames are skills stat blocks commonly list; their labels are made
// once (see traitLabels). Any other skill works as well.
var skillNames = []string{
	skillFighting, skillShooting, skillAthletics, skillThrowing, "notice", "intimidation", "taunt",
	"stealth", "persuasion", "healing", "riding", "survival", "spellcasting", "faith", "focus",
	"psionics", "performance", "repair", "research", "thievery", "boating", "driving", "piloting",
}

// TraitDie is an attribute or skill: a die from d4 to d12, plus a bonus for
// traits beyond d12 (d12+1, d12+2, …).
type TraitDie struct {
	Sides int `json:"sides"`
	Bonus int `json:"bonus,omitempty"`
}

// untrained is the die of a skill a fighter lacks: d4−2.
var untrained = TraitDie{Sides: 4, Bonus: -2}

func (d TraitDie) String() string {
	if d.Bonus == 0 {
		if s, ok := dieNames[d.Sides]; ok {
			return s // every sheet shows every die on every update: no allocation
		}
	}
	s := "d" + strconv.Itoa(d.Sides)
	if d.Bonus > 0 {
		s += "+"
	}
	if d.Bonus != 0 {
		s += strconv.Itoa(d.Bonus)
	}
	return s
}

var dieNames = map[int]string{4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12"}

// half is the die's contribution to Parry and Toughness: half its sides,
// plus half any bonus beyond d12 (d12+1 gives 6, d12+2 gives 7).
func (d TraitDie) half() int { return d.Sides/2 + d.Bonus/2 }

var diePattern = regexp.MustCompile(`^d(4|6|8|10|12)(?:\+([1-9]))?$`)

// ParseDie reads "d4" … "d12", or "d12+N" for traits beyond d12.
func ParseDie(s string) (TraitDie, error) {
	m := diePattern.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return TraitDie{}, fmt.Errorf("%q is not a trait die (d4, d6, d8, d10, d12 or d12+N)", s)
	}
	sides, _ := strconv.Atoi(m[1])
	d := TraitDie{Sides: sides}
	if m[2] != "" {
		if sides != 12 {
			return TraitDie{}, fmt.Errorf("%q: only d12 takes a bonus", s)
		}
		d.Bonus, _ = strconv.Atoi(m[2])
	}
	return d, nil
}

// Damage is a damage expression: the wielder's Strength die (melee and
// thrown weapons), weapon dice and a flat modifier. "Str+d8" is
// {Str, [8], 0}; "2d6+1" is {false, [6, 6], 1}.
type Damage struct {
	Str  bool  `json:"str,omitempty"`
	Dice []int `json:"dice,omitempty"`
	Mod  int   `json:"mod,omitempty"`
}

var damageTerm = regexp.MustCompile(`^(?:(str)|([1-9]?)d(4|6|8|10|12)|([0-9]{1,2}))$`)

// ParseDamage reads a damage expression such as "Str+d6", "Str", "2d6+1",
// "3d6" or "Str+d8-1".
func ParseDamage(s string) (Damage, error) {
	var d Damage
	expr := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	if expr == "" {
		return d, fmt.Errorf("damage is empty")
	}
	sign := 1
	for _, term := range splitTerms(expr) {
		if term == "+" || term == "-" {
			if term == "-" {
				sign = -1
			} else {
				sign = 1
			}
			continue
		}
		m := damageTerm.FindStringSubmatch(term)
		if m == nil {
			return Damage{}, fmt.Errorf("damage %q: cannot read %q (use Str, NdX with X in 4–12, or a number)", s, term)
		}
		switch {
		case m[1] != "":
			if d.Str || sign < 0 {
				return Damage{}, fmt.Errorf("damage %q: Str may appear once, added", s)
			}
			d.Str = true
		case m[3] != "":
			if sign < 0 {
				return Damage{}, fmt.Errorf("damage %q: dice cannot be subtracted", s)
			}
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			sides, _ := strconv.Atoi(m[3])
			for range n {
				d.Dice = append(d.Dice, sides)
			}
		default:
			n, _ := strconv.Atoi(m[4])
			d.Mod += sign * n
		}
	}
	if !d.Str && len(d.Dice) == 0 {
		return Damage{}, fmt.Errorf("damage %q rolls no dice", s)
	}
	if len(d.Dice) > 6 {
		return Damage{}, fmt.Errorf("damage %q rolls more than 6 dice", s)
	}
	return d, nil
}

// splitTerms splits "str+d6-1" into "str", "+", "d6", "-", "1".
func splitTerms(expr string) []string {
	var out []string
	start := 0
	for i, r := range expr {
		if r == '+' || r == '-' {
			if i > start {
				out = append(out, expr[start:i])
			}
			out = append(out, string(r))
			start = i + 1
		}
	}
	if start < len(expr) {
		out = append(out, expr[start:])
	}
	return out
}

func (d Damage) String() string {
	b := make([]byte, 0, 16)
	if d.Str {
		b = append(b, "Str"...)
	}
	for i := 0; i < len(d.Dice); {
		j := i
		for j < len(d.Dice) && d.Dice[j] == d.Dice[i] {
			j++
		}
		if len(b) > 0 {
			b = append(b, '+')
		}
		if j-i > 1 {
			b = strconv.AppendInt(b, int64(j-i), 10)
		}
		b = append(b, 'd')
		b = strconv.AppendInt(b, int64(d.Dice[i]), 10)
		i = j
	}
	if d.Mod > 0 {
		b = append(b, '+')
	}
	if d.Mod != 0 {
		b = strconv.AppendInt(b, int64(d.Mod), 10)
	}
	return string(b)
}

// Weapon is one weapon on a fighter's sheet. A weapon with a range is a
// ranged weapon (shot, or thrown when Thrown); one without is a melee weapon.
type Weapon struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Damage Damage `json:"damage"`
	// RangeInches is the range as printed, Short/Medium/Long in tabletop
	// inches; Range is the same converted to zones by the seed's rule.
	RangeInches []int `json:"rangeInches,omitempty"`
	Range       []int `json:"range,omitempty"`
	Thrown      bool  `json:"thrown,omitempty"`
	// Template is the area the weapon covers ("small", "medium", "large",
	// "cone" or "jet"), for grenades, launchers and flamethrowers; area
	// weapons are used with the area command, never fight or shoot.
	Template string `json:"template,omitempty"`
	// Garrotte marks a garrotte: used to grapple at −4, it then gives +4
	// Strength on opposed rolls against the victim.
	Garrotte bool `json:"garrotte,omitempty"`
}

// Ranged reports whether the weapon attacks at range with shoot.
func (w Weapon) Ranged() bool { return len(w.Range) == 3 && w.Template == "" }

// Area reports whether the weapon covers a template.
func (w Weapon) Area() bool { return w.Template != "" }

// unarmed is the weapon every fighter has in melee.
var unarmed = Weapon{ID: "unarmed", Name: "Unarmed", Damage: Damage{Str: true}}

// Fighter is one combatant's Savage Worlds sheet, position and condition.
type Fighter struct {
	ID         string              `json:"id"`
	WildCard   bool                `json:"wildCard"`
	Attributes map[string]TraitDie `json:"attributes"`
	Skills     map[string]TraitDie `json:"skills"`
	Armor      int                 `json:"armor"`
	Weapons    []Weapon            `json:"weapons"`
	Powers     []Power             `json:"powers,omitempty"`
	Bennies    int                 `json:"bennies"`

	Zone  string `json:"zone"`
	Melee string `json:"melee,omitempty"`

	Shaken        bool   `json:"shaken,omitempty"`
	Wounds        int    `json:"wounds,omitempty"`
	Incapacitated bool   `json:"incapacitated,omitempty"`
	Status        string `json:"status,omitempty"` // after incapacitation: "dead", "bleeding out", "stable"

	Card string `json:"card,omitempty"` // this round's action card

	Prone bool   `json:"prone,omitempty"`
	Hold  bool   `json:"hold,omitempty"` // on Hold: may interrupt
	Grip  *Grip  `json:"grip,omitempty"` // held in a grapple
	Drop  string `json:"drop,omitempty"` // has The Drop on this fighter (GM-granted)

	// The turn ledger, reset when the fighter's turn starts.
	MP              int `json:"mp"`                        // Movement points left
	Actions         int `json:"actions,omitempty"`         // actions taken
	Declared        int `json:"declared,omitempty"`        // actions declared with the first one
	RecoveryPenalty int `json:"recoveryPenalty,omitempty"` // −2 after a recovery from Shaken without a raise
	// Defend is the Parry bonus of a Defend taken on the fighter's last
	// turn; it lasts until their next turn starts, and while it is set on
	// their own turn they may take no other action.
	Defend int `json:"defend,omitempty"`
	// Spent is the Movement spent this turn on moving, engaging and
	// disengaging; Running must be declared before any.
	Spent int `json:"spent,omitempty"`
	// Ran is set once the fighter made a Running roll this turn; RunPenalty
	// is then −2 on every other action, less Refund, the Movement points
	// given up to cancel it (at most 2).
	Ran        bool `json:"ran,omitempty"`
	RunPenalty int  `json:"runPenalty,omitempty"`
	Refund     int  `json:"refund,omitempty"`
	Rose       bool `json:"rose,omitempty"`  // rose from prone this turn: −2 on Running
	Spoke      bool `json:"spoke,omitempty"` // tried to speak through a garrotte this turn

	shown engine.Memo[card] // the fighter's card, once shown (see card)
}

// resetLedger clears the turn ledger, leaving mp Movement points.
func (f *Fighter) resetLedger(mp int) {
	f.MP, f.Actions, f.Declared, f.RecoveryPenalty = mp, 0, 0, 0
	f.Spent, f.Ran, f.RunPenalty, f.Refund, f.Rose, f.Spoke = 0, false, 0, 0, false, false
}

// Grip is how a grappled fighter is held.
type Grip struct {
	By       string `json:"by"`    // the grappler
	Level    string `json:"level"` // "entangled" or "bound"
	Garrotte bool   `json:"garrotte,omitempty"`
}

// Grip levels.
const (
	Entangled = "entangled"
	Bound     = "bound"
)

// Trait returns the fighter's die in an attribute or skill; a missing skill
// is untrained, d4−2.
func (f *Fighter) Trait(name string) TraitDie {
	if d, ok := f.Attributes[name]; ok {
		return d
	}
	if d, ok := f.Skills[name]; ok {
		return d
	}
	return untrained
}

// Parry is 2 + half Fighting (2 without the skill).
func (f *Fighter) Parry() int {
	if d, ok := f.Skills[skillFighting]; ok {
		return 2 + d.half()
	}
	return 2
}

// Toughness is 2 + half Vigor + Armour.
func (f *Fighter) Toughness() int { return 2 + f.Attributes["vigor"].half() + f.Armor }

// MaxWounds is how many wounds the fighter can take and keep fighting: 3 for
// Wild Cards, none for Extras.
func (f *Fighter) MaxWounds() int {
	if f.WildCard {
		return 3
	}
	return 0
}

// WoundPenalty is −1 per wound, at most −3.
func (f *Fighter) WoundPenalty() int { return -min(f.Wounds, 3) }

// Weapon returns the fighter's weapon with id; "unarmed" is always there.
func (f *Fighter) Weapon(id string) (Weapon, bool) {
	for _, w := range f.Weapons {
		if w.ID == id {
			return w, true
		}
	}
	if id == unarmed.ID {
		return unarmed, true
	}
	return Weapon{}, false
}

// MeleeWeapons lists the weapons usable with Fighting, unarmed last unless
// the sheet names its own.
func (f *Fighter) MeleeWeapons() []Weapon {
	var out []Weapon
	for _, w := range f.Weapons {
		if !w.Ranged() && !w.Area() {
			out = append(out, w)
		}
	}
	if _, own := f.ownWeapon(unarmed.ID); !own {
		out = append(out, unarmed)
	}
	return out
}

// RangedWeapons lists the weapons usable at range.
func (f *Fighter) RangedWeapons() []Weapon {
	var out []Weapon
	for _, w := range f.Weapons {
		if w.Ranged() {
			out = append(out, w)
		}
	}
	return out
}

func (f *Fighter) ownWeapon(id string) (Weapon, bool) {
	for _, w := range f.Weapons {
		if w.ID == id {
			return w, true
		}
	}
	return Weapon{}, false
}

// Joker reports whether the fighter drew a Joker this round.
func (f *Fighter) Joker() bool { return isJoker(f.Card) }

// --- setup parsing ---

// statsSetup is a combatant's "stats" in the setup document.
type statsSetup struct {
	WildCard   bool              `json:"wildCard"`
	Attributes map[string]string `json:"attributes"`
	Skills     map[string]string `json:"skills"`
	Armor      int               `json:"armor"`
	Weapons    []weaponSetup     `json:"weapons"`
	Powers     []powerSetup      `json:"powers"`
	Bennies    *int              `json:"bennies"`
	carriedSetup
}

type weaponSetup struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Damage   string `json:"damage"`
	Range    string `json:"range"`
	Thrown   bool   `json:"thrown"`
	Template string `json:"template"`
	Garrotte bool   `json:"garrotte"`
}

var (
	weaponID  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)
	skillName = regexp.MustCompile(`^[a-z][a-z -]{0,31}$`)
)

// decodeStrict decodes raw into v strictly (strictjson.Unmarshal):
// unknown fields and fields named in another case are refused.
func decodeStrict(raw json.RawMessage, v any) error { return strictjson.Unmarshal(raw, v) }

// parseFighter builds a fighter from a combatant's stats; pc decides the
// default number of Bennies.
func parseFighter(id string, pc bool, raw json.RawMessage, rounding, gaps string) (*Fighter, error) {
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINVALID, "combatant %q: "+format, append([]any{id}, args...)...)
	}
	if len(raw) == 0 {
		return nil, bad("needs stats")
	}
	var s statsSetup
	if err := decodeStrict(raw, &s); err != nil {
		return nil, bad("stats: %v", err)
	}
	f := &Fighter{ID: id, WildCard: s.WildCard, Attributes: map[string]TraitDie{}, Skills: map[string]TraitDie{}, Weapons: []Weapon{}}
	for name, die := range s.Attributes {
		key := strings.ToLower(name)
		if !isAttribute(key) {
			return nil, bad("%q is not an attribute (agility, smarts, spirit, strength, vigor)", name)
		}
		d, err := ParseDie(die)
		if err != nil {
			return nil, bad("%s: %v", key, err)
		}
		if _, dup := f.Attributes[key]; dup {
			return nil, bad("attribute %s is given twice", key)
		}
		f.Attributes[key] = d
	}
	for _, a := range attributes {
		if _, ok := f.Attributes[a]; !ok {
			return nil, bad("needs a %s die", a)
		}
	}
	for name, die := range s.Skills {
		key := strings.ToLower(strings.TrimSpace(name))
		if !skillName.MatchString(key) {
			return nil, bad("skill name %q must be letters (up to 32)", name)
		}
		if isAttribute(key) {
			return nil, bad("%q is an attribute, not a skill", name)
		}
		d, err := ParseDie(die)
		if err != nil {
			return nil, bad("skill %s: %v", key, err)
		}
		if _, dup := f.Skills[key]; dup {
			return nil, bad("skill %s is given twice", key)
		}
		f.Skills[key] = d
	}
	if s.Armor < 0 || s.Armor > 20 {
		return nil, bad("armor must be 0–20")
	}
	f.Armor = s.Armor
	if err := s.carriedSetup.apply(f); err != nil {
		return nil, bad("%v", err)
	}
	switch {
	case s.Bennies != nil:
		if *s.Bennies < 0 || *s.Bennies > 10 {
			return nil, bad("bennies must be 0–10")
		}
		f.Bennies = *s.Bennies
	case s.WildCard && pc:
		f.Bennies = 3
	case s.WildCard:
		f.Bennies = 2
	}
	if len(s.Weapons) > 12 {
		return nil, bad("has more than 12 weapons")
	}
	seen := map[string]bool{}
	for i, ws := range s.Weapons {
		if !weaponID.MatchString(ws.ID) {
			return nil, bad("weapon %d: id %q must be lower-case letters, digits, '-' or '_'", i+1, ws.ID)
		}
		if seen[ws.ID] {
			return nil, bad("weapon id %q is used twice", ws.ID)
		}
		seen[ws.ID] = true
		w := Weapon{ID: ws.ID, Name: strings.TrimSpace(ws.Name), Thrown: ws.Thrown, Template: strings.ToLower(ws.Template), Garrotte: ws.Garrotte}
		if w.Name == "" {
			w.Name = ws.ID
		}
		if w.Template != "" && !slices.Contains(templates, w.Template) {
			return nil, bad("weapon %s: template %q must be small, medium, large, cone or jet", ws.ID, ws.Template)
		}
		if burst(w.Template) && ws.Range == "" {
			return nil, bad("weapon %s: a %s burst needs a range", ws.ID, w.Template)
		}
		if w.Garrotte && (ws.Range != "" || w.Template != "") {
			return nil, bad("weapon %s: a garrotte is a melee weapon", ws.ID)
		}
		dmg, err := ParseDamage(ws.Damage)
		if err != nil {
			return nil, bad("weapon %s: %v", ws.ID, err)
		}
		w.Damage = dmg
		if ws.Range != "" {
			in, err := ParseRange(ws.Range)
			if err != nil {
				return nil, bad("weapon %s: %v", ws.ID, err)
			}
			w.RangeInches = in
			w.Range = ConvertRange(in, rounding)
		} else if ws.Thrown {
			return nil, bad("weapon %s is thrown but has no range", ws.ID)
		}
		if w.Damage.Str && (w.Area() || (w.Ranged() && !w.Thrown)) {
			return nil, bad("weapon %s: only melee and thrown weapons add Str", ws.ID)
		}
		f.Weapons = append(f.Weapons, w)
	}
	if len(s.Powers) > 12 {
		return nil, bad("has more than 12 powers")
	}
	for i, ps := range s.Powers {
		if !weaponID.MatchString(ps.ID) {
			return nil, bad("power %d: id %q must be lower-case letters, digits, '-' or '_'", i+1, ps.ID)
		}
		if seen[ps.ID] {
			return nil, bad("id %q is used twice among weapons and powers", ps.ID)
		}
		seen[ps.ID] = true
		p, err := parsePower(ps, f.Attributes["smarts"], gaps)
		if err != nil {
			return nil, bad("power %s: %v", ps.ID, err)
		}
		f.Powers = append(f.Powers, p)
	}
	return f, nil
}

func isAttribute(name string) bool {
	for _, a := range attributes {
		if a == name {
			return true
		}
	}
	return false
}

// traitLabel is a trait's name as the sheet and log show it: "Fighting".
func traitLabel(name string) string {
	if l, ok := traitLabels[name]; ok {
		return l
	}
	if name == "" {
		return ""
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// traitLabels holds the labels of the traits every sheet shows, made once.
var traitLabels = func() map[string]string {
	m := map[string]string{}
	for _, name := range append(slices.Clone(attributes), skillNames...) {
		m[name] = strings.ToUpper(name[:1]) + name[1:]
	}
	return m
}()
