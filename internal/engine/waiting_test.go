package engine_test

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

// rulingToy is the toy with one more GM command, "aside", that the GM may
// issue while decisions wait (CommandSpec.WhileWaiting): it logs a note and
// changes nothing the pending work depends on.
type rulingToy struct{ enginetest.Toy }

func (r rulingToy) Commands() []engine.CommandSpec {
	return append(r.Toy.Commands(), engine.CommandSpec{Kind: "aside", GM: true, WhileWaiting: true})
}

func (r rulingToy) Decide(tx *engine.Tx, cmd engine.Command) error {
	if cmd.Kind == "aside" {
		if err := cmd.NoArgs(); err != nil {
			return err
		}
		return tx.Emits("note", "", "An aside from the GM.", nil)
	}
	return r.Toy.Decide(tx, cmd)
}

func (r rulingToy) Actions(st engine.State, v engine.Viewer) []engine.Action {
	out := r.Toy.Actions(st, v)
	if v.GM {
		out = append(out, engine.Action{Kind: "aside", Label: "Aside"})
	}
	return out
}

func actionKinds(v engine.View) []string {
	var out []string
	for _, a := range v.Actions {
		out = append(out, a.Kind)
	}
	return out
}

// TestGMCommandWhileWaiting: while a sealed choice waits, a GM command
// declared WhileWaiting is accepted and offered, every other command is
// refused as pending and not offered, a player is still refused, and the
// choice resolves afterwards as usual.
func TestGMCommandWhileWaiting(t *testing.T) {
	rs := rulingToy{}
	st, err := engine.NewEncounter(rs, "e1", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	initial := st
	var log []engine.Event
	do := func(v engine.Viewer, kind, actor string, args map[string]any) ([]engine.Event, error) {
		events, next, err := engine.Decide(rs, st, v, "c", engine.NewCommand(kind, actor, args), dice.NewRoller(dice.NewFixed()))
		if err == nil {
			st, log = next, append(log, events...)
		}
		return events, err
	}
	if _, err := do(gm, "start", "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := do(heroPl, "duel", "hero", map[string]any{"target": "orc"}); err != nil {
		t.Fatal(err)
	}
	gmView := engine.Project(rs, st, gm)
	if got := actionKinds(gmView); !slices.Contains(got, "aside") || slices.Contains(got, "weather") {
		t.Fatalf("GM actions while waiting: %v", got)
	}
	if _, err := do(gm, "weather", "", map[string]any{"weather": "fair"}); fray.ErrorCode(err) != fray.EPENDING {
		t.Fatalf("weather while waiting: %v", err)
	}
	if _, err := do(heroPl, "aside", "", nil); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player's aside: %v", err)
	}
	events, err := do(gm, "aside", "", nil)
	if err != nil || len(events) != 1 || events[0].Kind != "note" {
		t.Fatalf("aside while waiting: %v %v", kinds(events), err)
	}
	pending := st.Core().Pending
	if len(pending) != 2 {
		t.Fatalf("the aside touched the pending decisions: %+v", pending)
	}
	for _, d := range pending {
		if _, err := do(gm, "answer", "", map[string]any{"decision": d.ID, "choice": "careful"}); err != nil {
			t.Fatal(err)
		}
	}
	if st.Core().Waiting() || !slices.Contains(kinds(log), "clash") {
		t.Fatalf("the choice did not resolve: %v", kinds(log))
	}
	if got := actionKinds(engine.Project(rs, st, gm)); !slices.Contains(got, "weather") || !slices.Contains(got, "aside") {
		t.Fatalf("GM actions after the choice: %v", got)
	}
	replayed, _ := engine.Clone(rs, initial)
	if err := engine.Replay(rs, replayed, log); err != nil {
		t.Fatal(err)
	}
	if a, b := snap(t, replayed), snap(t, st); a != b {
		t.Fatalf("replay differs:\n%s\n%s", a, b)
	}
}
