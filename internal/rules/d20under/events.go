package d20under

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// Every event of this ruleset carries, besides what the log and the page
// read, the exact state changes it makes as a list of Change: Apply only
// sets what the event says, so replaying the log always rebuilds the same
// state and no rule runs twice.

// Change sets one value: a fighter's (F) or, with F empty, the
// battlefield's. K names the value (see set); V or S is the new value.
type Change struct {
	F string `json:"f,omitempty"`
	K string `json:"k"`
	V int    `json:"v,omitempty"`
	S string `json:"s,omitempty"`
}

// Event kinds of this ruleset.
const (
	KindInitiative   = "initiative"       // the base order and its tie-break dice
	KindDeclared     = "declared"         // a plan for the next round, or readiness before the first
	KindTookInit     = "take-initiative"  // the Resolute test
	KindFeat         = "feat"             // a feat paid for
	KindWaited       = "waited"           // a later slot chosen for good
	KindDelayed      = "delayed"          // this round only
	KindTurnEnded    = "turn-ended"       //
	KindTurnLost     = "turn-lost"        // unconscious, winded
	KindMoved        = "moved"            // grid or ladder
	KindStopped      = "stopped"          // a move cut short
	KindEngaged      = "engaged"          // ladder melee formed
	KindDisengaged   = "disengaged"       // ladder melee left
	KindAttack       = "attack"           // a test to hit (attack or defence roll)
	KindDamage       = "damage"           // damage against armour, and its effects
	KindLocation     = "hit-location"     //
	KindCondition    = "condition"        // prone, roused, critical, … on or off
	KindDeathTest    = "death-test"       //
	KindHealed       = "healed"           //
	KindReadied      = "readied"          // drew, switched, picked up a weapon
	KindStood        = "stood-up"         //
	KindStance       = "stance"           // Full Defence, Full Offense
	KindHold         = "hold"             // a wrestling hold made, kept or lost
	KindPushed       = "pushed"           //
	KindDisarmed     = "disarmed"         //
	KindKnockOut     = "knock-out"        //
	KindPoison       = "poison"           // a weapon poisoned, or a victim
	KindCorruption   = "corruption"       //
	KindItem         = "item"             // an elixir or cure used
	KindTrapSet      = "trap-set"         //
	KindTrap         = "trap"             // discovered, sprung, disarmed, escaped
	KindMishap       = "alchemical-risk"  //
	KindSurprise     = "surprise"         //
	KindCurse        = "curse"            //
	KindGaze         = "steely-gaze"      //
	KindTerrify      = "terrify"          //
	KindAmmo         = "ammunition"       // reclaiming after the fight
	KindDistance     = "distance"         // the GM sets a distance category
	KindAdjusted     = "adjusted"         // the GM overrides a value
	KindAdvantage    = "advantage"        // the GM grants an Advantage
	KindRegeneration = "regeneration"     //
	KindRapidFire    = "rapid-fire-check" // Koj: the Quick test
	KindAction       = "action"           // an action spent with nothing else to record
)

// Note is the data of most events: who, to whom, what, and the changes.
type Note struct {
	Fighter string   `json:"fighter,omitempty"`
	Target  string   `json:"target,omitempty"`
	What    string   `json:"what,omitempty"`
	Value   int      `json:"value,omitempty"`
	Set     []Change `json:"set,omitempty"`
}

// applied is what Apply reads from any event of this ruleset.
type applied struct {
	Set  []Change `json:"set"`
	Trap *Trap    `json:"trap"`
}

// applyEvent folds one of the ruleset's events.
func applyEvent(st *State, ev engine.Event) error {
	var a applied
	if len(ev.Data) > 0 {
		if err := json.Unmarshal(ev.Data, &a); err != nil {
			return fmt.Errorf("%s: %w", ev.Kind, err)
		}
	}
	if a.Trap != nil && ev.Kind == KindTrapSet {
		st.Traps = append(st.Traps, *a.Trap)
	}
	for _, c := range a.Set {
		if err := st.set(c); err != nil {
			return fmt.Errorf("%s: %w", ev.Kind, err)
		}
	}
	return nil
}

// set applies one change.
func (s *State) set(c Change) error {
	if c.F == "" {
		return s.setField(c)
	}
	f := s.Fighters[c.F]
	if f == nil {
		return fmt.Errorf("no fighter %q", c.F)
	}
	key, sub, _ := strings.Cut(c.K, ":")
	b := c.V != 0
	switch key {
	case "toughness":
		f.Toughness = c.V
	case "xp":
		f.XP = c.V
	case "xp-spent":
		f.XPSpent = c.V
	case "permanent":
		f.Permanent = c.V
	case "gained":
		f.CorruptionGained = c.V
	case "temporary":
		f.Temporary = c.V
	case "combat":
		f.Combat = b
	case "moves":
		f.Moves = c.V
	case "acted":
		f.Acted = b
	case "x":
		f.X = c.V
	case "y":
		f.Y = c.V
	case "ahead":
		f.Ahead = setInt(f.Ahead, sub, c.V, true)
	case "wielded":
		f.Wielded = c.S
	case "drawn":
		f.Drawn = b
	case "shield-up":
		f.ShieldUp = b
	case "prone":
		f.Prone = b
	case "blinded":
		f.Blinded = b
	case "critical":
		f.Critical = b
	case "roused":
		f.Roused = b
	case "lame":
		f.Lame = b
	case "winded":
		f.Winded = c.V
	case "unconscious":
		f.Unconscious = c.V
	case "dying":
		f.Dying = b
	case "death-fails":
		f.DeathFails = c.V
	case "arm-right":
		f.ArmRight = b
	case "arm-left":
		f.ArmLeft = b
	case "terrified":
		f.Terrified = b
	case "fearless":
		f.Fearless = b
	case "prepared":
		f.Prepared = c.S
	case "cursed-by":
		f.CursedBy = c.S
	case "cursing":
		f.Cursing = c.S
	case "poison-die":
		f.PoisonDie = c.V
	case "poison-turns":
		f.PoisonTurns = c.V
	case "weapon-poison":
		f.WeaponPoison = setInt(f.WeaponPoison, sub, c.V, false)
	case "held-by":
		f.HeldBy = c.S
	case "holding":
		f.Holding = c.S
	case "caught":
		f.Caught = c.S
	case "cowed":
		f.Cowed = setInt(f.Cowed, sub, c.V, false)
	case "edge":
		f.Edge = setInt(f.Edge, sub, c.V, false)
	case "abomination":
		f.Abomination = b
	case "hasty":
		f.Hasty = b
	case "init-bonus":
		f.InitBonus = c.V
	case "quick-strike":
		f.QuickStrike = b
	case "plan":
		f.Plan = c.S
	case "ignore-corruption":
		f.IgnoreCorruption = b
	case "resilience":
		f.Resilience = c.V
	case "perfect-defence":
		f.PerfectDefence = b
	case "ready":
		f.Ready = b
	case "full-defence":
		f.FullDefence = b
	case "full-offense":
		f.FullOffense = b
	case "koj-test":
		f.KojTest = c.V
	case "moving":
		f.Moving = c.V
	case "ammo":
		f.Ammo = setInt(f.Ammo, sub, c.V, true)
	case "special":
		f.Special = setInt(f.Special, sub, c.V, true)
	case "units":
		f.Units = setInt(f.Units, sub, c.V, true)
	case "spent":
		f.Spent = setInt(f.Spent, sub, c.V, false)
	case "spent-special":
		f.SpentSpecial = setInt(f.SpentSpecial, sub, c.V, false)
	case "item":
		f.Items = setInt(f.Items, sub, c.V, false)
	default:
		return fmt.Errorf("unknown value %q", c.K)
	}
	return nil
}

// setField applies a change to the battlefield.
func (s *State) setField(c Change) error {
	key, sub, _ := strings.Cut(c.K, ":")
	switch key {
	case "engage": // S "a|b"
		a, b, _ := strings.Cut(c.S, "|")
		s.Melee = slices.DeleteFunc(s.Melee, func(p Pair) bool { return p.has(a) && p.has(b) })
		if c.V != 0 {
			s.Melee = append(s.Melee, Pair{A: a, B: b})
		}
	case "gap": // S "sideA|sideB"
		a, b, _ := strings.Cut(c.S, "|")
		if s.Ladder == nil {
			return fmt.Errorf("no ladder")
		}
		s.Ladder.setGap(a, b, c.V)
	case "order":
		s.Initiative = splitIDs(c.S)
	case "tiebreak":
		if s.Tiebreak == nil {
			s.Tiebreak = map[string]int{}
		}
		s.Tiebreak[sub] = c.V
	case "trap-known": // sub trap id, S side
		t := s.trap(sub)
		if t == nil {
			return fmt.Errorf("no trap %q", sub)
		}
		if !slices.Contains(t.KnownBy, c.S) {
			t.KnownBy = append(t.KnownBy, c.S)
		}
	case "trap-victim":
		t := s.trap(sub)
		if t == nil {
			return fmt.Errorf("no trap %q", sub)
		}
		t.Victim = c.S
	case "trap-gone":
		s.Traps = slices.DeleteFunc(s.Traps, func(t Trap) bool { return t.ID == sub })
	case "trap-count":
		s.TrapCount = c.V
	case "reclaim-asked":
		s.ReclaimAsked = c.V != 0
	case "surprised":
		s.Surprised = splitIDs(c.S)
	case "surprise-tried":
		s.SurpriseTried = c.V != 0
	case "ambush":
		s.Ambush = c.S
	case "phase":
		s.Phase = c.S
	default:
		return fmt.Errorf("unknown battlefield value %q", c.K)
	}
	return nil
}

func setInt(m map[string]int, key string, v int, keepZero bool) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	if v == 0 && !keepZero {
		delete(m, key)
	} else {
		m[key] = v
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

func splitIDs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// Change builders.
func setV(id, key string, v int) Change   { return Change{F: id, K: key, V: v} }
func setS(id, key, v string) Change       { return Change{F: id, K: key, S: v} }
func setB(id, key string, on bool) Change { return Change{F: id, K: key, V: boolInt(on)} }
func fieldS(key, v string) Change         { return Change{K: key, S: v} }
func fieldV(key string, v int) Change     { return Change{K: key, V: v} }
func keyOf(key, sub string) string        { return key + ":" + sub }
func pairKey(a, b string) string          { return a + "|" + b }
func engageChange(a, b string, on bool) Change {
	return Change{K: "engage", S: pairKey(a, b), V: boolInt(on)}
}

// emit emits an event of the ruleset naming whom it involves. An event
// with no actor that involves a hidden combatant is secret, like one
// whose actor is hidden, so no player reads its name.
func emit(tx *engine.Tx, kind, actor, text string, data any, with []string, rolls ...dice.Roll) error {
	ev := engine.NewEvent(kind, actor, text, data, rolls...).With(with...)
	if actor == "" {
		for _, id := range with {
			if c := tx.Base().Combatant(id); c != nil && c.Hidden {
				ev.Secret = true
			}
		}
	}
	return tx.Emit(ev)
}

// note emits a Note event.
func note(tx *engine.Tx, kind, actor, text string, n Note, rolls ...dice.Roll) error {
	var with []string
	if n.Target != "" {
		with = append(with, n.Target)
	}
	if n.Fighter != "" && n.Fighter != actor {
		with = append(with, n.Fighter)
	}
	return emit(tx, kind, actor, text, n, with, rolls...)
}
