package d20duel

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestMain runs every scenario with the engine checking that Apply never
// writes the engine's Base.
func TestMain(m *testing.M) {
	engine.SetStrictApply(true)
	os.Exit(m.Run())
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

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
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

func newState(t *testing.T, setup engine.Setup) *State {
	t.Helper()
	st, err := engine.NewEncounter(New(), "enc-1", setup)
	if err != nil {
		t.Fatalf("NewEncounter: %v", err)
	}
	return st.(*State)
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

var (
	gm    = engine.GMViewer()
	anaPl = engine.PlayerViewer("ana")
)

// do decides cmd with the scripted faces, failing the test on an error or
// on unused faces, and checks that replaying the events onto st gives the
// same state.
func do(t *testing.T, st *State, v engine.Viewer, cmd engine.Command, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	fixed := dice.NewFixed(faces...)
	events, next, err := engine.Decide(New(), st, v, "c1", cmd, dice.NewRoller(fixed))
	if err != nil {
		t.Fatalf("%s %s: %v", cmd.Kind, cmd.Actor, err)
	}
	if n := fixed.Remaining(); n != 0 {
		t.Fatalf("%s %s: %d scripted faces unused", cmd.Kind, cmd.Actor, n)
	}
	assertReplay(t, st, events, next)
	return events, next.(*State)
}

func assertReplay(t *testing.T, initial *State, events []engine.Event, want engine.State) {
	t.Helper()
	replayed, err := engine.Clone(New(), initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(New(), replayed, events); err != nil {
		t.Fatalf("replay: %v", err)
	}
	a, _ := engine.Snapshot(replayed)
	b, _ := engine.Snapshot(want)
	if !bytes.Equal(a, b) {
		t.Fatalf("replayed state differs from decided state:\n%s\n%s", a, b)
	}
}

// fail decides cmd expecting an error with code; st must not change.
func fail(t *testing.T, st *State, v engine.Viewer, cmd engine.Command, code string) string {
	t.Helper()
	before, _ := engine.Snapshot(st)
	events, next, err := engine.Decide(New(), st, v, "c1", cmd, dice.NewRoller(dice.NewFixed()))
	if err == nil {
		t.Fatalf("%s %s: want error %s, got %d events", cmd.Kind, cmd.Actor, code, len(events))
	}
	if got := fray.ErrorCode(err); got != code {
		t.Fatalf("%s %s: want code %s, got %s (%v)", cmd.Kind, cmd.Actor, code, got, err)
	}
	if events != nil || next != nil {
		t.Fatalf("%s: an error must return no events and no state", cmd.Kind)
	}
	after, _ := engine.Snapshot(st)
	if !bytes.Equal(before, after) {
		t.Fatalf("%s: the state changed on error", cmd.Kind)
	}
	return fray.ErrorMessage(err)
}

func cmd(kind, actor string, kv ...any) engine.Command {
	fields := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		fields[kv[i].(string)] = kv[i+1]
	}
	return engine.NewCommand(kind, actor, fields)
}

// pendingFor returns the pending, unanswered decision of kind for who.
func pendingFor(t *testing.T, st *State, kind, who string) engine.Decision {
	t.Helper()
	for _, d := range st.Pending {
		if d.Kind == kind && d.For == who && !d.Answered {
			return d
		}
	}
	t.Fatalf("no pending %s decision for %s (pending: %+v)", kind, who, st.Pending)
	return engine.Decision{}
}

// answer answers who's pending decision of kind as v, with values and the
// scripted faces.
func answer(t *testing.T, st *State, v engine.Viewer, kind, who, choice string, values map[string]any, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	d := pendingFor(t, st, kind, who)
	args := map[string]any{"decision": d.ID, "choice": choice}
	if values != nil {
		args["values"] = values
	}
	return do(t, st, v, engine.NewCommand(engine.KindAnswer, "", args), faces...)
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

// kinds lists the events' kinds.
func kinds(events []engine.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Kind
	}
	return out
}

// find returns the events of kind.
func find(events []engine.Event, kind string) []engine.Event {
	var out []engine.Event
	for _, e := range events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
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

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
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
