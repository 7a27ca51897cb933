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
	"github.com/fray-vtt/fray/internal/rules/kit/kittest"
)

// The engine interfaces a kit ruleset implements, whatever its state.
var (
	_ engine.Ruleset = (*kit.Ruleset[*kittest.State, *kittest.Fighter])(nil)
	_ engine.Stepper = (*kit.Ruleset[*kittest.State, *kittest.Fighter])(nil)
	_ engine.Settler = (*kit.Ruleset[*kittest.State, *kittest.Fighter])(nil)
	_ engine.Boarder = (*kit.Ruleset[*kittest.State, *kittest.Fighter])(nil)
)

func started(t *testing.T) engine.State {
	t.Helper()
	setup, err := engine.DecodeSetup(kittest.Example)
	if err != nil {
		t.Fatal(err)
	}
	st, err := engine.NewEncounter(kittest.New(), "e", setup)
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
	got, err := kittest.New().Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if v := kit.Opt(got.Core(), kittest.OptHP); v != "2" {
		t.Fatalf("hp = %q", v)
	}
	if _, err := kittest.New().Decode([]byte("null")); err == nil {
		t.Fatal("a null snapshot decodes")
	}
}

// A bad event fails with the ruleset, its kind and the reason; an event
// naming no one known fails too; kinds the ruleset does not follow pass.
func TestApplyReportsABadEvent(t *testing.T) {
	rs, st := kittest.New(), started(t)
	err := rs.Apply(st, engine.Event{Kind: kittest.KindStruck, Data: json.RawMessage(`{"target":7}`)})
	if err == nil || !strings.Contains(err.Error(), "kit-skirmish: struck:") {
		t.Fatalf("bad data: %v", err)
	}
	err = rs.Apply(st, engine.NewEvent(kittest.KindStruck, "", "", kittest.Struck{Target: "nobody", HP: 1}))
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
	for name, r := range map[string]kit.Rules[*kittest.State, *kittest.Fighter]{
		"twice":      {Commands: []kit.Command[*kittest.State, *kittest.Fighter]{{Kind: "a", Decide: nop}, {Kind: "a", Decide: nop}}},
		"no handler": {Commands: []kit.Command[*kittest.State, *kittest.Fighter]{{Kind: "a"}}},
		"events twice": {Events: []kit.EventSpec[*kittest.State]{
			kit.OnEvent("e", func(*kittest.State, kit.None) error { return nil }), kit.OnEvent("e", func(*kittest.State, kit.None) error { return nil })}},
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
	_, _, err := engine.Decide(kittest.New(), started(t), engine.GMViewer(), "c", engine.NewCommand("fly", "", nil), dice.NewRoller(dice.NewFixed()))
	if fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("fly: %v", err)
	}
}

type tx = kit.Tx[*kittest.State, *kittest.Fighter]

func nop(*tx, engine.Command) error { return nil }

func newNothing(engine.Setup, engine.Base) (*kittest.State, error) { return nil, nil }

func boardNothing(*kittest.State, engine.Viewer) *board.Board { return nil }

func actionsNothing(*kittest.State, engine.Viewer) []engine.Action { return nil }
