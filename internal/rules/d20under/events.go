package d20under

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
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

// eventKinds are the ruleset's event kinds: Apply folds each one's changes,
// and emit refuses any other, so a kind left out of this list fails the
// first test that emits it rather than being skipped at replay.
var eventKinds = []string{KindInitiative, KindDeclared, KindTookInit, KindFeat, KindWaited, KindDelayed, KindTurnEnded, KindTurnLost, KindMoved, KindStopped, KindEngaged, KindDisengaged, KindAttack, KindDamage, KindLocation, KindCondition, KindDeathTest, KindHealed, KindReadied, KindStood, KindStance, KindHold, KindPushed, KindDisarmed, KindKnockOut, KindPoison, KindCorruption, KindItem, KindTrapSet, KindTrap, KindMishap, KindSurprise, KindCurse, KindGaze, KindTerrify, KindAmmo, KindDistance, KindAdjusted, KindAdvantage, KindRegeneration, KindRapidFire, KindAction}

// applied is what Apply reads from any event of this ruleset: its
// changes, and the trap a trap-set event places.
type applied struct {
	Set  []Change `json:"set"`
	Trap *Trap    `json:"trap"`
}

// events fold the core events the ruleset follows (the round's and the
// turn's ledgers, who is out) and every event of its own, which sets
// exactly what it carries.
var events = func() []kit.EventSpec[*State] {
	out := []kit.EventSpec[*State]{
		kit.OnEvent(engine.KindRoundStarted, func(st *State, _ kit.None) error { applyRoundStarted(st); return nil }),
		kit.OnEvent(engine.KindTurnStarted, func(st *State, d engine.TurnStarted) error { applyTurnStarted(st, d.Combatant); return nil }),
		kit.OnEvent(engine.KindCombatantOut, applyOut),
	}
	for _, k := range eventKinds {
		if k != KindTrapSet {
			out = append(out, kit.OnEvent(k, applyChanges))
		}
	}
	return append(out, kit.OnEvent(KindTrapSet, func(st *State, a applied) error {
		if a.Trap != nil {
			st.Traps = append(st.Traps, *a.Trap)
		}
		return applyChanges(st, a)
	}))
}()

// declared are the ruleset's event kinds, for emit.
var declared = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range eventKinds {
		m[k] = true
	}
	return m
}()

// applyChanges folds one of the ruleset's events.
func applyChanges(st *State, a applied) error {
	for _, c := range a.Set {
		if err := st.set(c); err != nil {
			return err
		}
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

func pairKey(a, b string) string { return a + "|" + b }

// emit emits an event of the ruleset naming whom it involves. An event
// with no actor that involves a hidden combatant is secret, like one
// whose actor is hidden, so no player reads its name.
func emit(tx *Tx, kind, actor, text string, data any, with []string, rolls ...dice.Roll) error {
	if !declared[kind] {
		return fmt.Errorf("d20-under: event kind %q is not declared in kinds", kind)
	}
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
func note(tx *Tx, kind, actor, text string, n Note, rolls ...dice.Roll) error {
	var with []string
	if n.Target != "" {
		with = append(with, n.Target)
	}
	if n.Fighter != "" && n.Fighter != actor {
		with = append(with, n.Fighter)
	}
	return emit(tx, kind, actor, text, n, with, rolls...)
}
