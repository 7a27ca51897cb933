package swzones

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// spec describes one combatant for a test encounter. Attributes default to
// d6; Fighting and Shooting to d6; the weapons to a sword (Str+d6) and a
// pistol (2d6, 12/24/48 → 2/4/8 zones).
type spec struct {
	ID, Side, Zone string
	WC, PC, Hidden bool
	Attr, Skills   map[string]string
	Armor          int
	Weapons        []map[string]any
	Powers         []map[string]any
	Bennies        *int
}

func (s spec) combatant() engine.CombatantSetup {
	attrs := map[string]string{"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"}
	for k, v := range s.Attr {
		attrs[k] = v
	}
	skills := map[string]string{"fighting": "d6", "shooting": "d6"}
	for k, v := range s.Skills {
		if v == "" {
			delete(skills, k)
		} else {
			skills[k] = v
		}
	}
	weapons := s.Weapons
	if weapons == nil {
		weapons = []map[string]any{
			{"id": "sword", "name": "Sword", "damage": "Str+d6"},
			{"id": "pistol", "name": "Pistol", "damage": "2d6", "range": "12/24/48"},
		}
	}
	stats := map[string]any{"wildCard": s.WC, "attributes": attrs, "skills": skills, "armor": s.Armor, "weapons": weapons}
	if s.Bennies != nil {
		stats["bennies"] = *s.Bennies
	}
	if s.Powers != nil {
		stats["powers"] = s.Powers
	}
	name := strings.ToUpper(s.ID[:1]) + s.ID[1:]
	return engine.CombatantSetup{
		Combatant: engine.Combatant{ID: s.ID, Name: name, Side: s.Side, PC: s.PC, Hidden: s.Hidden},
		Stats:     mustJSON(stats),
		Start:     mustJSON(map[string]string{"zone": s.Zone}),
	}
}

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}

// chain is a battlefield of zones z1–z2–…–zn in a line, with melees given
// as [zone, member, member, …].
func chain(n int, covers map[string]string, melees ...[]string) json.RawMessage {
	var zones []map[string]any
	for i := 1; i <= n; i++ {
		z := map[string]any{"id": fmt.Sprintf("z%d", i), "name": fmt.Sprintf("Zone %d", i)}
		if i > 1 {
			z["adjacent"] = []string{fmt.Sprintf("z%d", i-1)}
		}
		if c, ok := covers[z["id"].(string)]; ok {
			z["props"] = map[string]any{PropCover: c}
		}
		zones = append(zones, z)
	}
	var ms []map[string]any
	for i, m := range melees {
		ms = append(ms, map[string]any{"id": fmt.Sprintf("m%d", i+1), "zone": m[0], "members": m[1:]})
	}
	return mustJSON(map[string]any{"zones": zones, "melees": ms})
}

// newSetup builds a test encounter. Benny prompts (rerolls and Soak) are off
// unless opts turns them on, so the core's scenarios need no answers.
func newSetup(opts map[string]string, battlefield json.RawMessage, specs ...spec) engine.Setup {
	all := map[string]string{OptRerollOffers: OffersOff, OptSoakOffers: OffersOff}
	for k, v := range opts {
		all[k] = v
	}
	opts = all
	s := engine.Setup{
		Name: "Test", Ruleset: ID, Options: opts, Battlefield: battlefield,
		Sides: []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "goblins", Name: "Goblins"}},
	}
	for _, sp := range specs {
		s.Combatants = append(s.Combatants, sp.combatant())
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

// dealFaces returns the die faces that deal cards, in order, from deck.
func dealFaces(deck []string, cards ...string) []int {
	remaining := slices.Clone(deck)
	var faces []int
	for _, c := range cards {
		i := slices.Index(remaining, c)
		if i < 0 {
			panic("card not in deck: " + c)
		}
		faces = append(faces, i+1)
		remaining = slices.Delete(remaining, i, i+1)
	}
	return faces
}

// startWith starts the encounter dealing cards to the fighters not out, in
// combatant order, then rolls extra (e.g. a Shaken recovery).
func startWith(t *testing.T, st *State, cards []string, extra ...int) ([]engine.Event, *State) {
	t.Helper()
	faces := append(dealFaces(st.Deck.Remaining, cards...), extra...)
	return do(t, st, engine.GMViewer(), engine.NewCommand(engine.KindStart, "", nil), faces...)
}

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
func fail(t *testing.T, st *State, v engine.Viewer, cmd engine.Command, code string, faces ...int) string {
	t.Helper()
	before, _ := engine.Snapshot(st)
	events, next, err := engine.Decide(New(), st, v, "c1", cmd, dice.NewRoller(dice.NewFixed(faces...)))
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

var gm = engine.GMViewer()

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

// one returns the only attack in events.
func one(t *testing.T, events []engine.Event) Attack {
	t.Helper()
	as := attacks(t, events)
	if len(as) != 1 {
		t.Fatalf("want 1 attack, got %d: %v", len(as), kinds(events))
	}
	return as[0]
}

func modValue(mods []Mod, source string) (int, bool) {
	for _, m := range mods {
		if m.Source == source {
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

func intp(n int) *int { return &n }

// answer answers the pending decision of kind (the only one of that kind)
// as v, with the scripted faces.
func answer(t *testing.T, st *State, v engine.Viewer, kind, choice string, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	d := pendingKind(t, st, kind)
	return do(t, st, v, engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": choice}), faces...)
}

// pendingKind returns the first pending decision of kind.
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

// one decodes the only event of kind in events into v.
func decodeOne(t *testing.T, events []engine.Event, kind string, v any) {
	t.Helper()
	es := find(events, kind)
	if len(es) != 1 {
		t.Fatalf("want one %s event, got %d: %v", kind, len(es), kinds(events))
	}
	if err := es[0].Decode(v); err != nil {
		t.Fatal(err)
	}
}

// optionValues lists a decision's option values.
func optionValues(d engine.Decision) string {
	var out []string
	for _, o := range d.Options {
		out = append(out, o.Value)
	}
	return strings.Join(out, " ")
}
