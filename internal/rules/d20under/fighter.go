package d20under

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Fighter is one combatant: its sheet, what it carries, where it stands,
// its conditions and its turn ledger. Everything here changes only through
// events (Change lists, see events.go).
type Fighter struct {
	ID string `json:"id"`
	Sheet

	// Resources.
	Toughness int            `json:"toughness"`
	XP        int            `json:"xp"`
	Permanent int            `json:"permanent"` // permanent Corruption
	Temporary int            `json:"temporary"` // temporary Corruption
	Items     map[string]int `json:"items,omitempty"`
	Ammo      map[string]int `json:"ammo,omitempty"`    // counter of 3 per bow or crossbow
	Special   map[string]int `json:"special,omitempty"` // special projectiles left per weapon
	Units     map[string]int `json:"units,omitempty"`   // thrown and alchemical weapons left
	// Spent and SpentSpecial count projectiles lost this fight, for
	// reclaiming after it.
	Spent        map[string]int `json:"spent,omitempty"`
	SpentSpecial map[string]int `json:"spentSpecial,omitempty"`
	// XPSpent and CorruptionGained are what feats cost in this fight.
	XPSpent          int `json:"xpSpent,omitempty"`
	CorruptionGained int `json:"corruptionGained,omitempty"`

	// Position: a cell (grid) or moves ahead of the side's line toward
	// each other side (ladder).
	X     int            `json:"x"`
	Y     int            `json:"y"`
	Ahead map[string]int `json:"ahead,omitempty"`

	// Readiness.
	Wielded  string `json:"wielded"` // weapon id in hand
	Drawn    bool   `json:"drawn"`
	ShieldUp bool   `json:"shieldUp,omitempty"`

	// Conditions.
	Prone       bool   `json:"prone,omitempty"`
	Blinded     bool   `json:"blinded,omitempty"`
	Critical    bool   `json:"critical,omitempty"` // Critical Damage
	Roused      bool   `json:"roused,omitempty"`   // Koj
	Lame        bool   `json:"lame,omitempty"`     // a leg wound: half movement
	Winded      int    `json:"winded,omitempty"`   // turns to lose (torso)
	Unconscious int    `json:"unconscious,omitempty"`
	Dying       bool   `json:"dying,omitempty"`
	DeathFails  int    `json:"deathFails,omitempty"`
	ArmRight    bool   `json:"armRight,omitempty"`
	ArmLeft     bool   `json:"armLeft,omitempty"`
	Terrified   bool   `json:"terrified,omitempty"`
	Fearless    bool   `json:"fearless,omitempty"`
	Prepared    string `json:"prepared,omitempty"` // the item or lore
	CursedBy    string `json:"cursedBy,omitempty"`
	Cursing     string `json:"cursing,omitempty"`
	PoisonDie   int    `json:"poisonDie,omitempty"`
	PoisonTurns int    `json:"poisonTurns,omitempty"`
	// WeaponPoison is the poison on each weapon (its die), one hit's worth.
	WeaponPoison map[string]int `json:"weaponPoison,omitempty"`
	HeldBy       string         `json:"heldBy,omitempty"`
	Holding      string         `json:"holding,omitempty"`
	Caught       string         `json:"caught,omitempty"` // a trap's id
	// Cowed counts the rounds left during which this fighter refrains
	// from attacking each hero whose Steely Gaze it met.
	Cowed map[string]int `json:"cowed,omitempty"`
	// Edge marks the targets this fighter has an Advantage over by the
	// GM's ruling (terrain, height, an opening), until the round ends or
	// a Knock Out misses.
	Edge map[string]int `json:"edge,omitempty"`
	// Abomination: lost to Corruption.
	Abomination bool `json:"abomination,omitempty"`

	// This round.
	Hasty            bool   `json:"hasty,omitempty"` // took the initiative: second chance to fail
	InitBonus        int    `json:"initBonus,omitempty"`
	QuickStrike      bool   `json:"quickStrike,omitempty"`
	Plan             string `json:"plan,omitempty"` // declared for the next round
	IgnoreCorruption bool   `json:"ignoreCorruption,omitempty"`
	Resilience       int    `json:"resilience,omitempty"` // +1d4 Armour each
	PerfectDefence   bool   `json:"perfectDefence,omitempty"`
	Ready            bool   `json:"ready,omitempty"` // done declaring before the first round
	// Stances, from the fighter's turn (see stance-duration).
	FullDefence bool `json:"fullDefence,omitempty"`
	FullOffense bool `json:"fullOffense,omitempty"`

	// The turn ledger, reset when the fighter's turn starts.
	Combat     bool `json:"combat"`          // the combat action is unused
	Moves      int  `json:"moves"`           // movement actions unused
	Acted      bool `json:"acted,omitempty"` // did anything this turn
	KojTest    int  `json:"kojTest,omitempty"`
	DownAtTurn bool `json:"downAtTurn,omitempty"` // was down when its turn started
	Moving     int  `json:"moving,omitempty"`     // the move under way (steps carry it)

	shown engine.Memo[card] // the sheet's card, once shown (see State.sheet)
}

// pc reports whether the fighter is a player character.
func (s *State) pc(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.PC
}

// weapon returns the weapon in hand: the wielded one when drawn, else the
// fists (natural weapons are always ready).
func (f *Fighter) weapon() Weapon {
	w, ok := f.Sheet.Weapon(f.Wielded)
	if !ok || (!f.Drawn && !w.kind().Natural) {
		if nat, ok := f.natural(); ok {
			return nat
		}
		return unarmedWeapon
	}
	return w
}

// natural returns the fighter's natural weapon, if it has one.
func (f *Fighter) natural() (Weapon, bool) {
	for _, w := range f.Weapons {
		if w.Type == "natural" {
			return w, true
		}
	}
	return Weapon{}, false
}

// ready reports whether w can be used now: in hand (or natural), not
// barred by the shield, with ammunition or units left.
func (f *Fighter) ready(w Weapon) error {
	k := w.kind()
	if w.ID != f.weapon().ID && !k.Natural {
		return fmt.Errorf("%s is not in hand", w.Name)
	}
	if f.ShieldUp && f.Shield == "shield" && (k.Ranged || k.Heavy) {
		return fmt.Errorf("%s cannot be used with a shield", w.Name)
	}
	if k.Units && f.Units[w.ID] <= 0 {
		return fmt.Errorf("no %s left", w.Name)
	}
	return nil
}

// reach reports whether the fighter's weapon in hand has Long reach now
// (a shield, not a buckler, cancels it).
func (f *Fighter) reach() bool {
	return f.weapon().kind().Long && !(f.ShieldUp && f.Shield == "shield")
}

// defense is Quick − Impeding, +1 with a shield or buckler up, +1 with a
// balanced weapon.
func (f *Fighter) defense() int {
	d := f.Attributes[Quick] - f.Armour.Impeding
	if f.ShieldUp {
		d++
	}
	if f.weapon().Has(QualBalanced) {
		d++
	}
	return d
}

// totalCorruption is permanent plus temporary Corruption.
func (f *Fighter) totalCorruption() int { return f.Permanent + f.Temporary }

// fighting reports whether the fighter can act: neither out nor down.
func (s *State) fighting(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.Fighting()
}

// enemies reports whether a and b are on different sides.
func (s *State) enemies(a, b string) bool {
	ca, cb := s.Combatant(a), s.Combatant(b)
	return ca != nil && cb != nil && ca.Side != cb.Side
}

// side is a combatant's side id.
func (s *State) side(id string) string {
	if c := s.Combatant(id); c != nil {
		return c.Side
	}
	return ""
}

// sideName is a side's display name.
func (s *State) sideName(id string) string {
	if sd := s.Side(id); sd != nil {
		return sd.Name
	}
	return id
}

// ids returns the combatants' ids in setup order that pass keep.
func (s *State) ids(keep func(id string) bool) []string {
	var out []string
	for _, c := range s.Combatants {
		if keep(c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

// names joins combatants' names.
func (s *State) names(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = s.PublicNameOf(id)
	}
	return strings.Join(out, ", ")
}

// budget says how a fighter can pay for a feat: "xp" (a PC with
// Experience left) and "corruption" (a PC, or an NPC when NPC feats are
// on). The feat costs 1 either way.
func (s *State) budget(id string) []string {
	f := s.Fighters[id]
	var out []string
	if s.pc(id) {
		if f.XP > 0 {
			out = append(out, PayXP)
		}
		out = append(out, PayCorruption)
	} else if kit.Opt(&s.Base, OptNPCFeats) == FeatsCorruption {
		out = append(out, PayCorruption)
	}
	return out
}

// Ways to pay for a feat.
const (
	PayXP         = "xp"
	PayCorruption = "corruption"
)

func payLabel(p string) string {
	if p == PayXP {
		return "1 Experience"
	}
	return "1 permanent Corruption"
}

// enemiesOf returns the fighting enemies of id, in setup order.
func (s *State) enemiesOf(id string) []string {
	return s.ids(func(x string) bool { return s.enemies(id, x) && s.fighting(x) })
}

// alliesOf returns id's fighting allies (not id), in setup order.
func (s *State) alliesOf(id string) []string {
	return s.ids(func(x string) bool { return x != id && !s.enemies(id, x) && s.fighting(x) })
}

// cowedBy reports whether f refrains from attacking hero (Steely Gaze).
func (f *Fighter) cowedBy(hero string) bool { return f.Cowed[hero] > 0 }

// removeID returns ids without id.
func removeID(ids []string, id string) []string {
	return slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id })
}
