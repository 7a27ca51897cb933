package d20duel

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// TestMain runs every scenario with the engine checking that Apply never
// writes the engine's Base.
func TestMain(m *testing.M) { enginetest.Main(m) }

// scenario drives the ruleset through the scenarios; the short names below are
// its helpers as the scenarios call them.
var scenario = enginetest.Kit[*State]{Rules: New()}

var (
	newState     = scenario.New
	do           = scenario.Do
	fail         = scenario.Fail
	assertReplay = scenario.AssertReplay
	pendingFor   = enginetest.PendingFor
	cmd          = enginetest.Cmd
	kinds        = enginetest.Kinds
	find         = enginetest.Find
	mustJSON     = enginetest.MustJSON
	gm           = engine.GMViewer()
	anaPl        = engine.PlayerViewer("ana")
)

func eq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	enginetest.Eq(t, what, got, want)
}

// The duel most scenarios use:
//   - ana, a PC (heroes): Agility 12, Close combat +1, Damage Modifier +2
//     (Grappling modifier +2); sword Strike 12 Guard 6 Grapple 6
//     Defense 4 Damage 4, dagger Strike 10 Guard 3 Grapple 10 Defense 5
//     Damage 2, a short bow (ranged, Strike 11, Damage 4); mail,
//     Coverage 12, Protection 3. With Close combat: sword Strike 13,
//     Guard 7; dagger Grapple 12, Defense 7.
//   - bront, an NPC (foes): Agility 10, Close combat 0, Damage Modifier
//     +3 (Grappling modifier +2); a two-handed axe Strike 13 Guard 5
//     Grapple 5 Defense 3 Damage 5 (8 with DM: a −3 wound unarmoured);
//     fists from the options; no armour.
//
// They start engaged at Striking distance. The GM's "hurt or distracted"
// question is off (whoever took a wound is hurt) unless a test turns it
// on, and so is the veto.
var (
	anaStats = map[string]any{
		"attributes": map[string]int{"agility": 12}, "closeCombat": 1, "damageMod": 2, "ranged": 0,
		"armor": map[string]any{"name": "Mail", "coverage": 12, "protection": 3},
		"weapons": []map[string]any{
			{"id": "sword", "name": "Sword", "strike": 12, "guard": 6, "grapple": 6, "defense": 4, "damage": 4},
			{"id": "dagger", "name": "Dagger", "strike": 10, "guard": 3, "grapple": 10, "defense": 5, "damage": 2},
			{"id": "bow", "name": "Short bow", "ranged": true, "strike": 11, "damage": 4},
		},
	}
	brontStats = map[string]any{
		"attributes": map[string]int{"agility": 10}, "closeCombat": 0, "damageMod": 3,
		"weapons": []map[string]any{
			{"id": "axe", "name": "Great axe", "strike": 13, "guard": 5, "grapple": 5, "defense": 3, "damage": 5, "hands": 2},
		},
	}
)

// spec is one combatant of a test encounter.
type spec struct {
	ID, Side   string
	PC, Hidden bool
	Stats      map[string]any
}

func (s spec) combatant() engine.CombatantSetup {
	name := strings.ToUpper(s.ID[:1]) + s.ID[1:]
	return engine.CombatantSetup{Combatant: engine.Combatant{ID: s.ID, Name: name, Side: s.Side, PC: s.PC, Hidden: s.Hidden},
		Stats: mustJSON(s.Stats)}
}

// with returns a copy of stats with the given keys replaced.
func with(stats map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range stats {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// pair is a starting engagement: a, b, distance.
type pair [3]string

func newSetup(opts map[string]string, pairs []pair, specs ...spec) engine.Setup {
	all := map[string]string{OptHurtOrDistracted: HurtWounds, OptVeto: Off}
	for k, v := range opts {
		all[k] = v
	}
	s := engine.Setup{Name: "Test", Ruleset: ID, Options: all,
		Sides: []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}}}
	for _, sp := range specs {
		s.Combatants = append(s.Combatants, sp.combatant())
	}
	var ps []map[string]string
	for _, p := range pairs {
		ps = append(ps, map[string]string{"a": p[0], "b": p[1], "distance": p[2]})
	}
	if ps != nil {
		s.Battlefield = mustJSON(map[string]any{"pairs": ps})
	}
	return s
}

// duel returns ana and bront engaged at distance, started: their stance
// decisions wait.
func duel(t *testing.T, opts map[string]string, distance string) *State {
	t.Helper()
	st := newState(t, newSetup(opts, []pair{{"ana", "bront", distance}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", Stats: brontStats}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	if len(st.Pending) != 2 {
		t.Fatalf("want two stance decisions, got %+v", st.Pending)
	}
	return st
}

// answer answers who's pending decision of kind as v, with values and the
// scripted faces.
func answer(t *testing.T, st *State, v engine.Viewer, kind, who, choice string, values map[string]any, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	return scenario.Answer(t, st, v, pendingFor(t, st, kind, who), choice, values, faces...)
}

// stance is what one fighter declares: stance, and optionally weapon, aim
// and target.
type stance struct {
	Stance, Weapon, Aim, Target string
}

func (s stance) values() map[string]any {
	v := map[string]any{}
	if s.Weapon != "" {
		v["weapon"] = s.Weapon
	}
	if s.Aim != "" {
		v["aim"] = s.Aim
	}
	if s.Target != "" {
		v["target"] = s.Target
	}
	return v
}

// choose answers the stance decisions of the fighters in order (the GM
// answering for all); the faces go to the last answer, which reveals and
// resolves the exchange. It returns the last answer's events.
func choose(t *testing.T, st *State, order []string, stances map[string]stance, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	var events []engine.Event
	for i, id := range order {
		s := stances[id]
		var f []int
		if i == len(order)-1 {
			f = faces
		}
		events, st = answer(t, st, gm, DecStance, id, s.Stance, s.values(), f...)
	}
	return events, st
}

func attacks(t *testing.T, events []engine.Event) []Attack {
	t.Helper()
	var out []Attack
	for _, e := range find(events, KindAttack) {
		var a Attack
		if err := e.Decode(&a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// attackBy returns the only attack by attacker in events.
func attackBy(t *testing.T, events []engine.Event, attacker string) Attack {
	t.Helper()
	var found []Attack
	for _, a := range attacks(t, events) {
		if a.Attacker == attacker {
			found = append(found, a)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want 1 attack by %s, got %d: %v", attacker, len(found), kinds(events))
	}
	return found[0]
}

// rollOf returns the roll of the event of kind by who.
func rollOf(t *testing.T, events []engine.Event, kind, who string) dice.Roll {
	t.Helper()
	for _, e := range find(events, kind) {
		for _, r := range e.Rolls {
			if r.Who == who {
				return r
			}
		}
	}
	t.Fatalf("no %s roll by %s in %v", kind, who, kinds(events))
	return dice.Roll{}
}

func modValue(r dice.Roll, label string) (int, bool) {
	for _, m := range r.Mods {
		if m.Label == label {
			return m.Value, true
		}
	}
	return 0, false
}

func distanceOf(st *State, a, b string) string {
	if e := st.engagement(a, b); e != nil {
		return e.Distance
	}
	return Apart
}

func hasKind(events []engine.Event, kind string) bool {
	return slices.Contains(kinds(events), kind)
}

type boardCondition = board.Condition

// tokenOf returns the token of id.
func tokenOf(ts []board.Token, id string) board.Token {
	for _, t := range ts {
		if t.ID == id {
			return t
		}
	}
	return board.Token{}
}

// optionsWith is every option at its default but those of opts.
func optionsWith(opts map[string]string) map[string]string { return enginetest.Options(New(), opts) }

// sheetSection is the section of t's sheet with title.
func sheetSection(t board.Token, title string) []board.Stat {
	for _, s := range t.Sheet {
		if s.Title == title {
			return s.Stats
		}
	}
	return nil
}

// statOf is the value of t's stat label, "" when it shows none.
func statOf(t board.Token, label string) string {
	for _, s := range t.Stats {
		if s.Label == label {
			return s.Value
		}
	}
	return ""
}

// nextExchange reports whether the round is over and the next exchange's
// stances are all that wait.
func nextExchange(st *State) bool {
	for _, d := range st.Pending {
		if d.Kind != DecStance {
			return false
		}
	}
	return len(st.Pending) > 0 && st.Exchange != nil && st.Exchange.Round == st.Round && len(st.Exchange.Declared) == 0
}
