package d20under

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// The character sheet (spec b): eight attributes, derived Toughness, Pain
// Threshold, Corruption Threshold and Defense, weapons and armour with
// their dice, abilities, monstrous traits and what a character carries.

// Attributes, in the order the sheet lists them.
const (
	Accurate   = "accurate"
	Cunning    = "cunning"
	Discreet   = "discreet"
	Persuasive = "persuasive"
	Quick      = "quick"
	Resolute   = "resolute"
	Strong     = "strong"
	Vigilant   = "vigilant"
	// Defense is not an attribute but is tested like one.
	Defense = "defense"
)

var attributes = []string{Accurate, Cunning, Discreet, Persuasive, Quick, Resolute, Strong, Vigilant}

// Weapon types and what each is (spec b: weapon dice).
type weaponType struct {
	Die        int  // damage die
	Ranged     bool // attacks at range with Accurate, never in melee
	Long       bool // the quality Long: reach, a free attack on the first turn of melee
	Heavy      bool // two-handed; no shield
	Short      bool // drawn as a free action
	Natural    bool // always ready, never drawn
	Ammo       bool // arrows or bolts on the counter of 3 (seed: Ranged Weapons)
	Units      bool // each one used up: thrown weapons, alchemical weapons
	Alchemical bool
	Label      string
}

var weaponTypes = map[string]weaponType{
	"unarmed":              {Die: 4, Natural: true, Short: true, Label: "Unarmed"},
	"natural":              {Die: 6, Natural: true, Short: true, Label: "Natural weapon"},
	"short":                {Die: 6, Short: true, Label: "Short"},
	"one-handed":           {Die: 8, Label: "One-handed"},
	"long":                 {Die: 8, Long: true, Label: "Long"},
	"heavy":                {Die: 10, Heavy: true, Label: "Heavy"},
	"bow":                  {Die: 8, Ranged: true, Ammo: true, Heavy: true, Label: "Bow"},
	"crossbow":             {Die: 10, Ranged: true, Ammo: true, Heavy: true, Label: "Crossbow"},
	"thrown":               {Die: 6, Ranged: true, Units: true, Short: true, Label: "Thrown"},
	"grenade":              {Die: 12, Ranged: true, Units: true, Alchemical: true, Short: true, Label: "Alchemical grenade"},
	"fire-tube":            {Die: 12, Ranged: true, Units: true, Alchemical: true, Heavy: true, Label: "Alchemical fire tube (portable)"},
	"fire-tube-stationary": {Die: 12, Ranged: true, Units: true, Alchemical: true, Heavy: true, Label: "Alchemical fire tube (stationary)"},
	"breaching-pot":        {Die: 12, Ranged: true, Units: true, Alchemical: true, Short: true, Label: "Breaching pot"},
}

var weaponTypeNames = []string{"unarmed", "natural", "short", "one-handed", "long", "heavy", "bow", "crossbow", "thrown",
	"grenade", "fire-tube", "fire-tube-stationary", "breaching-pot"}

// Weapon qualities Fray knows.
const (
	QualPrecise    = "precise"     // +1 Accurate
	QualBalanced   = "balanced"    // +1 Defense while wielded
	QualDeepImpact = "deep-impact" // +1 damage
)

var qualities = []string{QualPrecise, QualBalanced, QualDeepImpact}

// Projectile qualities for reclaiming (seed: Reclaiming Bolts and Arrows).
const (
	ProjPlain    = "plain"
	ProjQuality  = "quality"
	ProjMystical = "mystical"
)

// Weapon is one weapon on a sheet.
type Weapon struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Type      string   `json:"type"`
	Die       int      `json:"die"`             // damage die
	Bonus     int      `json:"bonus,omitempty"` // flat damage bonus
	Qualities []string `json:"qualities,omitempty"`
	// Projectiles is the quality of arrows or bolts, for reclaiming.
	Projectiles string `json:"projectiles,omitempty"`
}

func (w Weapon) kind() weaponType { return weaponTypes[w.Type] }

// Has reports whether the weapon has quality q.
func (w Weapon) Has(q string) bool { return slices.Contains(w.Qualities, q) }

// DamageText is "1d8+1".
func (w Weapon) DamageText() string {
	s := fmt.Sprintf("1d%d", w.Die)
	if b := w.Bonus + boolInt(w.Has(QualDeepImpact)); b > 0 {
		s += fmt.Sprintf("+%d", b)
	}
	return s
}

// unarmedWeapon is every creature's fists.
var unarmedWeapon = Weapon{ID: "unarmed", Name: "Unarmed", Type: "unarmed", Die: 4}

// Armour types (spec b).
var armourTypes = map[string]struct{ Die, Impeding int }{
	"none": {0, 0}, "light": {4, 2}, "medium": {6, 3}, "heavy": {8, 4},
}

// Armour segments (seed: Armour Segments) and their share of the suit's
// price and Impeding, in percent.
var segmentShare = map[string]int{"legs": 20, "cuirass": 40, "arms": 20, "helmet": 20,
	"left-leg": 10, "right-leg": 10, "left-arm": 10, "right-arm": 10}

var segmentNames = []string{"legs", "cuirass", "arms", "helmet", "left-leg", "right-leg", "left-arm", "right-arm"}

// Armour is a suit of armour, possibly worn in segments.
type Armour struct {
	Name     string   `json:"name,omitempty"`
	Type     string   `json:"type"`
	Die      int      `json:"die"`      // protection die (0: no armour)
	Impeding int      `json:"impeding"` // of the parts worn, rounded half up
	Segments []string `json:"segments,omitempty"`
}

// Covers reports whether the armour protects a body part.
func (a Armour) Covers(part string) bool {
	if a.Die == 0 {
		return false
	}
	if len(a.Segments) == 0 {
		return true
	}
	return slices.Contains(a.Segments, segmentOf(part)) || slices.Contains(a.Segments, part)
}

// segmentOf is the armour segment that covers a body part.
func segmentOf(part string) string {
	switch part {
	case PartRightLeg, PartLeftLeg:
		return "legs"
	case PartTorso:
		return "cuirass"
	case PartRightArm, PartLeftArm:
		return "arms"
	case PartHead:
		return "helmet"
	}
	return ""
}

// wholeParts merges a left and a right leg (or arm) into the pair and
// gives nil for the whole suit.
func wholeParts(segs []string) []string {
	for _, pair := range [][3]string{{"legs", "left-leg", "right-leg"}, {"arms", "left-arm", "right-arm"}} {
		if slices.Contains(segs, pair[1]) && slices.Contains(segs, pair[2]) || slices.Contains(segs, pair[0]) {
			segs = slices.DeleteFunc(segs, func(x string) bool { return x == pair[1] || x == pair[2] || x == pair[0] })
			segs = append(segs, pair[0])
		}
	}
	if len(segs) == 4 && !slices.ContainsFunc(segs, func(x string) bool { return strings.Contains(x, "-") }) {
		return nil // the whole suit
	}
	slices.SortFunc(segs, func(a, b string) int { return slices.Index(segmentNames, a) - slices.Index(segmentNames, b) })
	return segs
}

// segmentImpeding is the Impeding of segments of a suit: their share of
// the whole, 0.5 rounded up (seed 18).
func segmentImpeding(full int, segments []string) int {
	if len(segments) == 0 {
		return full
	}
	pct := 0
	for _, s := range segments {
		pct += segmentShare[s]
	}
	return (full*pct*2 + 100) / 200 // round half up: full*pct/100 + 0.5
}

// Ability levels.
const (
	Novice = "novice"
	Adept  = "adept"
	Master = "master"
)

var levels = []string{Novice, Adept, Master}

// Abilities Fray's rules look at.
const (
	AbAcrobatics     = "acrobatics"
	AbAlchemy        = "alchemy"
	AbMedicus        = "medicus"
	AbPolearmMastery = "polearm-mastery"
	AbPyrotechnics   = "pyrotechnics"
	AbQuickDraw      = "quick-draw"
	AbRapidFire      = "rapid-fire"
	AbSiegeExpert    = "siege-expert"
	AbTrapper        = "trapper"
)

var abilityNames = []string{AbAcrobatics, AbAlchemy, AbMedicus, AbPolearmMastery, AbPyrotechnics, AbQuickDraw, AbRapidFire, AbSiegeExpert, AbTrapper}

// Monstrous traits Fray's rules look at; values are the book's flat
// numbers (rolled by option trait-values) or levels (Robust, Terrify).
const (
	TrArmoured      = "armoured"       // +N armour
	TrNaturalWeapon = "natural-weapon" // +N damage with natural weapons
	TrRegeneration  = "regeneration"   // heals N at the start of its turn
	TrRobust        = "robust"         // level I–III: Hold and Tackle
	TrTerrify       = "terrify"        // level: may Terrify
)

var traitNames = []string{TrArmoured, TrNaturalWeapon, TrRegeneration, TrRobust, TrTerrify}

// Items a character may carry in a fight.
const (
	ItemHerbalCure     = "herbal-cure"
	ItemAntidote       = "antidote"
	ItemWeakPoison     = "weak-poison"
	ItemModeratePoison = "moderate-poison"
	ItemStrongPoison   = "strong-poison"
	ItemMechanicalTrap = "mechanical-trap"
	ItemAlchemicalMine = "alchemical-mine"
)

var itemNames = []string{ItemHerbalCure, ItemAntidote, ItemWeakPoison, ItemModeratePoison, ItemStrongPoison, ItemMechanicalTrap, ItemAlchemicalMine}

// Mystical powers Fray runs (seed 19's clarifications).
const (
	PowerCurse = "curse"
	PowerQuake = "quake"
)

var powerNames = []string{PowerCurse, PowerQuake}

// Sheet is what a combatant's stat block says: fixed for the encounter.
type Sheet struct {
	Attributes map[string]int `json:"attributes"`
	// MaxToughness and PainThreshold are derived unless the block sets
	// them; PainThreshold 0 means none (undead).
	MaxToughness  int               `json:"maxToughness"`
	PainThreshold int               `json:"painThreshold"`
	Armour        Armour            `json:"armour"`
	Shield        string            `json:"shield,omitempty"` // "", "shield" or "buckler"
	Weapons       []Weapon          `json:"weapons"`
	Abilities     map[string]string `json:"abilities,omitempty"`
	Traits        map[string]int    `json:"traits,omitempty"`
	Powers        []string          `json:"powers,omitempty"`
	Tradition     bool              `json:"tradition,omitempty"` // a mystical tradition: 1 Corruption per power
	Koj           bool              `json:"koj,omitempty"`
	Familiar      string            `json:"familiar,omitempty"` // the combatant that shares its damage
}

// Level returns the sheet's level in an ability: 0 none, 1 novice, 2 adept, 3 master.
func (s *Sheet) Level(ability string) int {
	return slices.Index(levels, s.Abilities[ability]) + 1
}

// Trait returns a monstrous trait's value (0 without it).
func (s *Sheet) Trait(name string) int { return s.Traits[name] }

// Weapon returns the sheet's weapon with id; "unarmed" is always there.
func (s *Sheet) Weapon(id string) (Weapon, bool) {
	for _, w := range s.Weapons {
		if w.ID == id {
			return w, true
		}
	}
	if id == unarmedWeapon.ID {
		return unarmedWeapon, true
	}
	return Weapon{}, false
}

// CorruptionThreshold is ⌈Resolute/2⌉.
func (s *Sheet) CorruptionThreshold() int { return (s.Attributes[Resolute] + 1) / 2 }

// --- the stat block in a setup document ---

type statsSetup struct {
	Attributes    map[string]int    `json:"attributes"`
	Toughness     int               `json:"toughness"`
	PainThreshold *int              `json:"painThreshold"`
	Undead        bool              `json:"undead"`
	Armour        *armourSetup      `json:"armour"`
	Shield        string            `json:"shield"`
	Weapons       []weaponSetup     `json:"weapons"`
	Abilities     map[string]string `json:"abilities"`
	Traits        map[string]int    `json:"traits"`
	Powers        string            `json:"powers"`
	Tradition     bool              `json:"tradition"`
	Koj           bool              `json:"koj"`
	Familiar      string            `json:"familiar"`
	// Resources that outlive a fight.
	XP          int              `json:"xp"`
	Corruption  *corruptionSetup `json:"corruption"`
	Damage      int              `json:"damage"`
	Items       map[string]int   `json:"items"`
	Dead        bool             `json:"dead"`
	Abomination bool             `json:"abomination"`
	Critical    bool             `json:"critical"`
	Ammunition  string           `json:"ammunition"`
}

type corruptionSetup struct {
	Permanent int `json:"permanent"`
	Temporary int `json:"temporary"`
}

type armourSetup struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Die      int    `json:"die"`
	Impeding *int   `json:"impeding"`
	Segments string `json:"segments"`
}

type weaponSetup struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Die         int    `json:"die"`
	Bonus       int    `json:"bonus"`
	Qualities   string `json:"qualities"`
	Ammo        *int   `json:"ammo"`
	Special     int    `json:"special"`
	Count       *int   `json:"count"`
	Projectiles string `json:"projectiles"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// decodeStrict decodes raw into v strictly (strictjson.Unmarshal):
// unknown fields and fields named in another case are refused.
func decodeStrict(raw json.RawMessage, v any) error { return strictjson.Unmarshal(raw, v) }

// parsed is a stat block read: the sheet and the resources it starts with.
type parsed struct {
	Sheet      Sheet
	XP         int
	Permanent  int
	Temporary  int
	Damage     int
	Items      map[string]int
	Ammo       map[string]int // counter per bow or crossbow
	Special    map[string]int // special projectiles per weapon
	Units      map[string]int // thrown and alchemical weapons left
	Undead     bool
	Corruption bool // the block named its corruption
	// Carried over from earlier fights (carry.go).
	Dead, Abomination, Critical bool
}

// parseStats reads a combatant's stats.
func parseStats(id string, raw json.RawMessage) (*parsed, error) {
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINVALID, "combatant %q: "+format, append([]any{id}, args...)...)
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, bad("needs stats (the eight attributes)")
	}
	var s statsSetup
	if err := decodeStrict(raw, &s); err != nil {
		return nil, bad("stats: %v", err)
	}
	p := &parsed{Items: map[string]int{}, Ammo: map[string]int{}, Special: map[string]int{}, Units: map[string]int{}}
	sh := &p.Sheet
	sh.Attributes = map[string]int{}
	for name, v := range s.Attributes {
		key := strings.ToLower(strings.TrimSpace(name))
		if !slices.Contains(attributes, key) {
			return nil, bad("%q is not an attribute (%s)", name, strings.Join(attributes, ", "))
		}
		if v < 1 || v > 20 {
			return nil, bad("%s must be 1–20 (characters have 5–15)", key)
		}
		sh.Attributes[key] = v
	}
	for _, a := range attributes {
		if _, ok := sh.Attributes[a]; !ok {
			return nil, bad("needs %s", a)
		}
	}
	strong := sh.Attributes[Strong]
	sh.MaxToughness = max(strong, 10)
	if s.Toughness != 0 {
		if s.Toughness < 1 || s.Toughness > 99 {
			return nil, bad("toughness must be 1–99")
		}
		sh.MaxToughness = s.Toughness
	}
	sh.PainThreshold = (strong + 1) / 2
	if s.PainThreshold != nil {
		if *s.PainThreshold < 0 || *s.PainThreshold > 50 {
			return nil, bad("painThreshold must be 0–50 (0: none)")
		}
		sh.PainThreshold = *s.PainThreshold
	}
	if s.Undead {
		sh.PainThreshold = 0
		p.Undead = true
	}
	sh.Armour = Armour{Type: "none"}
	if a := s.Armour; a != nil {
		t := strings.ToLower(a.Type)
		if t == "" {
			t = "none"
		}
		base, known := armourTypes[t]
		switch {
		case t == "custom":
			if a.Die < 2 || a.Die > 12 || a.Impeding == nil {
				return nil, bad("custom armour needs a die (2–12) and impeding")
			}
			base.Die, base.Impeding = a.Die, *a.Impeding
		case !known:
			return nil, bad("armour type %q must be none, light, medium, heavy or custom", a.Type)
		}
		if a.Impeding != nil && t != "custom" {
			base.Impeding = *a.Impeding
		}
		if base.Impeding < 0 || base.Impeding > 10 {
			return nil, bad("armour impeding must be 0–10")
		}
		var segs []string
		for _, part := range splitList(a.Segments) {
			if _, ok := segmentShare[part]; !ok {
				return nil, bad("armour segment %q must be one of %s", part, strings.Join(segmentNames, ", "))
			}
			if !slices.Contains(segs, part) {
				segs = append(segs, part)
			}
		}
		segs = wholeParts(segs)
		sh.Armour = Armour{Name: strings.TrimSpace(a.Name), Type: t, Die: base.Die, Impeding: segmentImpeding(base.Impeding, segs), Segments: segs}
	}
	switch s.Shield {
	case "", "none":
	case "shield", "buckler":
		sh.Shield = s.Shield
	default:
		return nil, bad("shield %q must be shield, buckler or none", s.Shield)
	}
	if len(s.Weapons) > 12 {
		return nil, bad("has more than 12 weapons")
	}
	seen := map[string]bool{}
	for i, ws := range s.Weapons {
		if !idPattern.MatchString(ws.ID) || ws.ID == unarmedWeapon.ID {
			return nil, bad("weapon %d: id %q must be lower-case letters, digits, '-' or '_' (not \"unarmed\")", i+1, ws.ID)
		}
		if seen[ws.ID] {
			return nil, bad("weapon id %q is used twice", ws.ID)
		}
		seen[ws.ID] = true
		kind, ok := weaponTypes[ws.Type]
		if !ok {
			return nil, bad("weapon %s: type %q must be one of %s", ws.ID, ws.Type, strings.Join(weaponTypeNames, ", "))
		}
		w := Weapon{ID: ws.ID, Name: strings.TrimSpace(ws.Name), Type: ws.Type, Die: kind.Die, Bonus: ws.Bonus}
		if w.Name == "" {
			w.Name = ws.ID
		}
		if ws.Die != 0 {
			if !slices.Contains([]int{4, 6, 8, 10, 12}, ws.Die) {
				return nil, bad("weapon %s: die must be 4, 6, 8, 10 or 12", ws.ID)
			}
			w.Die = ws.Die
		}
		if ws.Bonus < -3 || ws.Bonus > 10 {
			return nil, bad("weapon %s: bonus must be −3 to 10", ws.ID)
		}
		for _, q := range splitList(ws.Qualities) {
			if !slices.Contains(qualities, q) {
				return nil, bad("weapon %s: quality %q must be one of %s", ws.ID, q, strings.Join(qualities, ", "))
			}
			if !w.Has(q) {
				w.Qualities = append(w.Qualities, q)
			}
		}
		switch {
		case kind.Ammo:
			n := 3
			if ws.Ammo != nil {
				n = *ws.Ammo
			}
			if n < 0 || n > 3 {
				return nil, bad("weapon %s: ammo is a counter of 0–3", ws.ID)
			}
			p.Ammo[w.ID] = n
			if ws.Special < 0 || ws.Special > 99 {
				return nil, bad("weapon %s: special projectiles must be 0–99", ws.ID)
			}
			p.Special[w.ID] = ws.Special
			w.Projectiles = ProjPlain
			if ws.Projectiles != "" {
				if !slices.Contains([]string{ProjPlain, ProjQuality, ProjMystical}, ws.Projectiles) {
					return nil, bad("weapon %s: projectiles must be plain, quality or mystical", ws.ID)
				}
				w.Projectiles = ws.Projectiles
			}
		case kind.Units:
			n := 1
			if ws.Count != nil {
				n = *ws.Count
			}
			if n < 0 || n > 99 {
				return nil, bad("weapon %s: count must be 0–99", ws.ID)
			}
			p.Units[w.ID] = n
		}
		if !kind.Ammo && (ws.Ammo != nil || ws.Special != 0 || ws.Projectiles != "") {
			return nil, bad("weapon %s: only bows and crossbows count ammunition", ws.ID)
		}
		if !kind.Units && ws.Count != nil {
			return nil, bad("weapon %s: only thrown and alchemical weapons have a count", ws.ID)
		}
		sh.Weapons = append(sh.Weapons, w)
	}
	sh.Abilities = map[string]string{}
	for name, level := range s.Abilities {
		if !slices.Contains(abilityNames, name) {
			return nil, bad("ability %q must be one of %s", name, strings.Join(abilityNames, ", "))
		}
		switch level {
		case "", "none":
			continue
		case Novice, Adept, Master:
			sh.Abilities[name] = level
		default:
			return nil, bad("ability %s: level %q must be novice, adept or master", name, level)
		}
	}
	sh.Traits = map[string]int{}
	for name, v := range s.Traits {
		if !slices.Contains(traitNames, name) {
			return nil, bad("trait %q must be one of %s", name, strings.Join(traitNames, ", "))
		}
		limit := 10
		if name == TrRobust || name == TrTerrify {
			limit = 3
		}
		if v < 0 || v > limit {
			return nil, bad("trait %s must be 0–%d", name, limit)
		}
		if v > 0 {
			sh.Traits[name] = v
		}
	}
	for _, pw := range splitList(s.Powers) {
		if !slices.Contains(powerNames, pw) {
			return nil, bad("power %q must be one of %s", pw, strings.Join(powerNames, ", "))
		}
		if !slices.Contains(sh.Powers, pw) {
			sh.Powers = append(sh.Powers, pw)
		}
	}
	sh.Tradition, sh.Koj = s.Tradition, s.Koj
	if s.Familiar != "" {
		if s.Familiar == id {
			return nil, bad("cannot be its own familiar")
		}
		sh.Familiar = s.Familiar
	}
	if s.XP < 0 || s.XP > 9999 {
		return nil, bad("xp must be 0–9999")
	}
	p.XP = s.XP
	if c := s.Corruption; c != nil {
		if c.Permanent < 0 || c.Permanent > 99 || c.Temporary < 0 || c.Temporary > 99 {
			return nil, bad("corruption must be 0–99")
		}
		p.Permanent, p.Temporary, p.Corruption = c.Permanent, c.Temporary, true
	}
	if s.Damage < 0 || s.Damage > sh.MaxToughness {
		return nil, bad("damage must be 0–%d (its Toughness)", sh.MaxToughness)
	}
	p.Damage = s.Damage
	if err := readAmmunition(s.Ammunition, sh, p); err != nil {
		return nil, bad("%v", err)
	}
	p.Dead, p.Abomination, p.Critical = s.Dead, s.Abomination, s.Critical
	for name, n := range s.Items {
		if !slices.Contains(itemNames, name) {
			return nil, bad("item %q must be one of %s", name, strings.Join(itemNames, ", "))
		}
		if n < 0 || n > 99 {
			return nil, bad("item %s: count must be 0–99", name)
		}
		if n > 0 {
			p.Items[name] = n
		}
	}
	return p, nil
}

// splitList reads "a, b c" as ["a", "b", "c"], lower-case.
func splitList(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// label is a name as the sheet shows it: "Accurate", "Siege expert".
func label(name string) string {
	if name == "" {
		return ""
	}
	return strings.ToUpper(name[:1]) + strings.ReplaceAll(name[1:], "-", " ")
}
