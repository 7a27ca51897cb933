package swzones

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// scenario drives the ruleset through the scenarios; the short names below are
// its helpers as the scenarios call them.
var scenario = enginetest.Kit[*State]{Rules: New()}

var (
	newState     = scenario.New
	do           = scenario.Do
	fail         = scenario.Fail
	assertReplay = scenario.AssertReplay
	pendingKind  = enginetest.PendingKind
	cmd          = enginetest.Cmd
	kinds        = enginetest.Kinds
	find         = enginetest.Find
	decodeOne    = enginetest.DecodeOne
	mustJSON     = enginetest.MustJSON
	gm           = engine.GMViewer()
)

func eq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	enginetest.Eq(t, what, got, want)
}

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

func intp(n int) *int { return &n }

// answer answers the pending decision of kind (the first of that kind) as
// v, with the scripted faces.
func answer(t *testing.T, st *State, v engine.Viewer, kind, choice string, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	return scenario.AnswerKind(t, st, v, kind, choice, nil, faces...)
}

// optionValues lists a decision's option values.
func optionValues(d engine.Decision) string {
	var out []string
	for _, o := range d.Options {
		out = append(out, o.Value)
	}
	return strings.Join(out, " ")
}

// view is what v sees of st: the board, the ruleset's one projection.
func view(st *State, v engine.Viewer) *board.Board { return engine.Project(New(), st, v).Board }

// tokenOf is b's token for id; ok is false when b shows none.
func tokenOf(b *board.Board, id string) (board.Token, bool) {
	for _, t := range b.Tokens {
		if t.ID == id {
			return t, true
		}
	}
	return board.Token{}, false
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

// factOf is the value of b's fact label, "" when it shows none.
func factOf(b *board.Board, label string) string {
	for _, s := range b.Facts {
		if s.Label == label {
			return s.Value
		}
	}
	return ""
}

// sheetStat is stat label of section title on t's sheet.
func sheetStat(t board.Token, title, label string) (board.Stat, bool) {
	for _, s := range t.Sheet {
		if s.Title == title {
			for _, st := range s.Stats {
				if st.Label == label {
					return st, true
				}
			}
		}
	}
	return board.Stat{}, false
}

// sheetLen is how many stats section title of t's sheet has.
func sheetLen(t board.Token, title string) int {
	for _, s := range t.Sheet {
		if s.Title == title {
			return len(s.Stats)
		}
	}
	return 0
}

// conditionOf is t's condition id; ok is false when it has none.
func conditionOf(t board.Token, id string) (board.Condition, bool) {
	for _, c := range t.Conditions {
		if c.ID == id {
			return c, true
		}
	}
	return board.Condition{}, false
}
