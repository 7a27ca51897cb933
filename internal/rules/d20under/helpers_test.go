package d20under

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestMain(m *testing.M) {
	engine.SetStrictApply(true)
	os.Exit(m.Run())
}

// spec describes one combatant of a test encounter. Attributes default to
// 10 (Quick to 10 less its place in the list, so the order is the list's
// and no tie-break is rolled); the weapon to a sword (one-handed, 1d8);
// no armour.
type spec struct {
	ID, Side   string
	PC, Hidden bool
	Attr       map[string]int
	X, Y       int
	Weapons    []map[string]any
	Armour     map[string]any
	Stats      map[string]any // further stats
	Props      map[string]any // start props
	Group      string         // ladder: a starting melee
}

func (s spec) combatant(i int, ladder bool) engine.CombatantSetup {
	attrs := map[string]int{}
	for _, a := range attributes {
		attrs[a] = 10
	}
	attrs[Quick] = 15 - i
	for k, v := range s.Attr {
		attrs[k] = v
	}
	weapons := s.Weapons
	if weapons == nil {
		weapons = []map[string]any{{"id": "sword", "name": "Sword", "type": "one-handed"}}
	}
	stats := map[string]any{"attributes": attrs, "weapons": weapons}
	if s.Armour != nil {
		stats["armour"] = s.Armour
	}
	for k, v := range s.Stats {
		stats[k] = v
	}
	start := map[string]any{}
	if !ladder {
		start["x"], start["y"] = s.X, s.Y
	}
	if s.Props != nil {
		start["props"] = s.Props
	}
	if s.Group != "" {
		start["group"] = s.Group
	}
	name := strings.ToUpper(s.ID[:1]) + s.ID[1:]
	return engine.CombatantSetup{
		Combatant: engine.Combatant{ID: s.ID, Name: name, Side: s.Side, PC: s.PC, Hidden: s.Hidden},
		Stats:     mustJSON(stats),
		Start:     mustJSON(start),
	}
}

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}

// offers are the test default: nobody is asked about free attacks or
// feats, so scenarios need no answers unless they turn offers on.
var quiet = map[string]string{OptFreeAttackOffers: OffersAuto, OptFeatOffers: OffersOff}

func withOpts(opts map[string]string) map[string]string {
	all := map[string]string{}
	for k, v := range quiet {
		all[k] = v
	}
	for k, v := range opts {
		all[k] = v
	}
	return all
}

// gridSetup is a w×h grid encounter between heroes and foes.
func gridSetup(opts map[string]string, w, h int, cells []map[string]any, specs ...spec) engine.Setup {
	bf := map[string]any{"model": "grid", "width": w, "height": h}
	if cells != nil {
		bf["cells"] = cells
	}
	s := engine.Setup{Name: "Test", Ruleset: ID, Options: withOpts(opts), Battlefield: mustJSON(bf),
		Sides: []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}}}
	for i, sp := range specs {
		s.Combatants = append(s.Combatants, sp.combatant(i, false))
	}
	return s
}

// ladderSetup is an encounter on the distance categories, heroes and foes
// at rung.
func ladderSetup(opts map[string]string, rung string, specs ...spec) engine.Setup {
	bf := map[string]any{"model": "ladder", "distances": []map[string]string{{"a": "heroes", "b": "foes", "rung": rung}}}
	s := engine.Setup{Name: "Test", Ruleset: ID, Options: withOpts(opts), Battlefield: mustJSON(bf),
		Sides: []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}}}
	for i, sp := range specs {
		s.Combatants = append(s.Combatants, sp.combatant(i, true))
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

var gm = engine.GMViewer()

// begin starts the encounter and the first round without declarations:
// the first combatant's turn.
func begin(t *testing.T, st *State, faces ...int) *State {
	t.Helper()
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	_, st = do(t, st, gm, cmd(GMBegin, ""), faces...)
	return st
}

// do decides cmd with the scripted faces, failing on an error or unused
// faces, and checks that replaying the events gives the same state.
func do(t *testing.T, st *State, v engine.Viewer, c engine.Command, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	fixed := dice.NewFixed(faces...)
	events, next, err := engine.Decide(New(), st, v, "c1", c, dice.NewRoller(fixed))
	if err != nil {
		t.Fatalf("%s %s: %v", c.Kind, c.Actor, err)
	}
	if n := fixed.Remaining(); n != 0 {
		t.Fatalf("%s %s: %d scripted faces unused", c.Kind, c.Actor, n)
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
func fail(t *testing.T, st *State, v engine.Viewer, c engine.Command, code string, faces ...int) string {
	t.Helper()
	before, _ := engine.Snapshot(st)
	events, next, err := engine.Decide(New(), st, v, "c1", c, dice.NewRoller(dice.NewFixed(faces...)))
	if err == nil {
		t.Fatalf("%s %s: want error %s, got %d events", c.Kind, c.Actor, code, len(events))
	}
	if got := fray.ErrorCode(err); got != code {
		t.Fatalf("%s %s: want code %s, got %s (%v)", c.Kind, c.Actor, code, got, err)
	}
	if events != nil || next != nil {
		t.Fatalf("%s: an error must return no events and no state", c.Kind)
	}
	after, _ := engine.Snapshot(st)
	if !bytes.Equal(before, after) {
		t.Fatalf("%s: the state changed on error", c.Kind)
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

// answer answers the pending decision of kind as v.
func answer(t *testing.T, st *State, v engine.Viewer, kind, choice string, values map[string]any, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	d := pendingKind(t, st, kind)
	args := map[string]any{"decision": d.ID, "choice": choice}
	if values != nil {
		args["values"] = values
	}
	return do(t, st, v, engine.NewCommand(engine.KindAnswer, "", args), faces...)
}

func pendingKind(t *testing.T, st *State, kind string) engine.Decision {
	t.Helper()
	for _, d := range st.Pending {
		if d.Kind == kind {
			return d
		}
	}
	t.Fatalf("no pending %s decision (pending: %+v)", kind, st.Pending)
	return engine.Decision{}
}

func kinds(events []engine.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Kind
	}
	return out
}

func find(events []engine.Event, kind string) []engine.Event {
	var out []engine.Event
	for _, e := range events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// decodeOne decodes the only event of kind into v.
func decodeOne(t *testing.T, events []engine.Event, kind string, v any) engine.Event {
	t.Helper()
	es := find(events, kind)
	if len(es) != 1 {
		t.Fatalf("want one %s event, got %d: %v", kind, len(es), kinds(events))
	}
	if err := es[0].Decode(v); err != nil {
		t.Fatal(err)
	}
	return es[0]
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// endTurns ends turns until it is id's turn.
func endTurns(t *testing.T, st *State, id string) *State {
	t.Helper()
	for i := 0; st.Current() != id; i++ {
		if i > 30 {
			t.Fatalf("never %s's turn", id)
		}
		_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
	}
	return st
}

// rollOf returns the first roll labelled with prefix in events.
func rollOf(t *testing.T, events []engine.Event, prefix string) dice.Roll {
	t.Helper()
	for _, e := range events {
		for _, r := range e.Rolls {
			if strings.HasPrefix(r.Label, prefix) {
				return r
			}
		}
	}
	t.Fatalf("no roll %q in %v", prefix, kinds(events))
	return dice.Roll{}
}

// hasMod reports whether a roll lists a modifier labelled so.
func hasMod(r dice.Roll, lbl string) (int, bool) {
	for _, m := range r.Mods {
		if strings.HasPrefix(m.Label, lbl) {
			return m.Value, true
		}
	}
	return 0, false
}
