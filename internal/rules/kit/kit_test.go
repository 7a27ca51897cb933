package kit_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
)

// The engine interfaces a kit ruleset implements, whatever its state.
var (
	_ engine.Ruleset = (*kit.Ruleset[*kitskirmish.State, *kitskirmish.Fighter])(nil)
	_ engine.Stepper = (*kit.Ruleset[*kitskirmish.State, *kitskirmish.Fighter])(nil)
	_ engine.Settler = (*kit.Ruleset[*kitskirmish.State, *kitskirmish.Fighter])(nil)
	_ engine.Boarder = (*kit.Ruleset[*kitskirmish.State, *kitskirmish.Fighter])(nil)
)

func started(t *testing.T) engine.State {
	t.Helper()
	setup, err := engine.DecodeSetup(kitskirmish.Example)
	if err != nil {
		t.Fatal(err)
	}
	st, err := engine.NewEncounter(kitskirmish.New(), "e", setup)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A snapshot made before an option existed decodes with its default, so a
// ruleset reads every option as it is.
func TestDecodeFillsAMissingOption(t *testing.T) {
	st := started(t)
	st.Core().Options = nil
	raw, _ := engine.Snapshot(st)
	got, err := kitskirmish.New().Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if v := kit.Opt(got.Core(), kitskirmish.OptHP); v != "2" {
		t.Fatalf("hp = %q", v)
	}
	if _, err := kitskirmish.New().Decode([]byte("null")); err == nil {
		t.Fatal("a null snapshot decodes")
	}
}

// A bad event fails with the ruleset, its kind and the reason; an event
// naming no one known fails too; kinds the ruleset does not follow pass.
func TestApplyReportsABadEvent(t *testing.T) {
	rs, st := kitskirmish.New(), started(t)
	err := rs.Apply(st, engine.Event{Kind: kitskirmish.KindStruck, Data: json.RawMessage(`{"target":7}`)})
	if err == nil || !strings.Contains(err.Error(), "kit-skirmish: struck:") {
		t.Fatalf("bad data: %v", err)
	}
	err = rs.Apply(st, engine.NewEvent(kitskirmish.KindStruck, "", "", kitskirmish.Struck{Target: "nobody", HP: 1}))
	if err == nil || !strings.Contains(err.Error(), `no fighter "nobody"`) {
		t.Fatalf("unknown fighter: %v", err)
	}
	if err := rs.Apply(st, engine.Event{Kind: "something-else"}); err != nil {
		t.Fatal(err)
	}
}

// Commands, steps, decisions and events are declared once each: a kind
// declared twice, or a command without a handler, is refused at once.
func TestDeclaredOnce(t *testing.T) {
	for name, r := range map[string]kit.Rules[*kitskirmish.State, *kitskirmish.Fighter]{
		"twice":      {Commands: []kit.Command[*kitskirmish.State, *kitskirmish.Fighter]{{Kind: "a", Decide: nop}, {Kind: "a", Decide: nop}}},
		"no handler": {Commands: []kit.Command[*kitskirmish.State, *kitskirmish.Fighter]{{Kind: "a"}}},
		"events twice": {Events: []kit.EventSpec[*kitskirmish.State]{
			kit.OnEvent("e", func(*kitskirmish.State, kit.None) error { return nil }), kit.OnEvent("e", func(*kitskirmish.State, kit.None) error { return nil })}},
		"incomplete": {},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: kit.New accepted it", name)
				}
			}()
			if name != "incomplete" {
				r.ID, r.Title, r.New, r.Board, r.Actions = "x", "X", newNothing, boardNothing, actionsNothing
			}
			kit.New(r)
		}()
	}
	// A kind no command declares is unknown: the engine reads the kinds
	// from the same declarations.
	_, _, err := engine.Decide(kitskirmish.New(), started(t), engine.GMViewer(), "c", engine.NewCommand("fly", "", nil), dice.NewRoller(dice.NewFixed()))
	if fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("fly: %v", err)
	}
}

type tx = kit.Tx[*kitskirmish.State, *kitskirmish.Fighter]

func nop(*tx, engine.Command) error { return nil }

func newNothing(engine.Setup, engine.Base) (*kitskirmish.State, error) { return nil, nil }

func boardNothing(*kitskirmish.State, engine.Viewer) *board.Board { return nil }

func actionsNothing(*kitskirmish.State, engine.Viewer) []engine.Action { return nil }
