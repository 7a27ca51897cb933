package d20under

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

func TestMain(m *testing.M) { enginetest.Main(m) }

// scenario drives the ruleset through the scenarios; the short names below are
// its helpers as the scenarios call them.
var scenario = enginetest.Kit[*State]{Rules: New()}

var (
	newState     = scenario.New
	do           = scenario.Do
	fail         = scenario.Fail
	answer       = scenario.AnswerKind
	assertReplay = scenario.AssertReplay
	pendingKind  = enginetest.PendingKind
	rollOf       = enginetest.RollLabelled
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

// begin starts the encounter and the first round without declarations:
// the first combatant's turn.
func begin(t *testing.T, st *State, faces ...int) *State {
	t.Helper()
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	_, st = do(t, st, gm, cmd(GMBegin, ""), faces...)
	return st
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

// hasMod reports whether a roll lists a modifier labelled so.
func hasMod(r dice.Roll, lbl string) (int, bool) {
	for _, m := range r.Mods {
		if strings.HasPrefix(m.Label, lbl) {
			return m.Value, true
		}
	}
	return 0, false
}

// tokenOf is b's token for id; ok is false when b shows none.
func tokenOf(b *board.Board, id string) (board.Token, bool) {
	for _, t := range b.Tokens {
		if t.ID == id {
			return t, true
		}
	}
	return board.Token{}, false
}

// tokenSheet is the sheet b shows of id.
func tokenSheet(b *board.Board, id string) []board.Section {
	t, _ := tokenOf(b, id)
	return t.Sheet
}

// knownTraps counts the traps b shows.
func knownTraps(b *board.Board) int {
	n := 0
	if b.Grid != nil {
		for _, c := range b.Grid.Cells {
			for _, f := range c.Features {
				if strings.HasPrefix(f, "Trap: ") {
					n++
				}
			}
		}
	}
	for _, note := range b.Notes {
		if strings.Contains(note, " lies before ") {
			n++
		}
	}
	return n
}
