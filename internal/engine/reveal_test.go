package engine_test

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// revealer is the toy with one more command: "ambush", by which a hidden
// combatant gives itself away (Tx.Reveal).
type revealer struct{ enginetest.Toy }

func (r revealer) Commands() []engine.CommandSpec {
	return append(r.Toy.Commands(), engine.CommandSpec{Kind: "ambush"})
}

func (r revealer) Decide(tx *engine.Tx, cmd engine.Command) error {
	if cmd.Kind == "ambush" {
		return tx.Reveal(cmd.Actor, "")
	}
	return r.Toy.Decide(tx, cmd)
}

func TestRulesetReveal(t *testing.T) {
	rs := revealer{}
	st, err := engine.NewEncounter(rs, "e1", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	initial := st
	var log []engine.Event
	play := func(v engine.Viewer, kind, actor string) error {
		events, next, err := engine.Decide(rs, st, v, "c", engine.NewCommand(kind, actor, nil), dice.NewRoller(dice.NewFixed()))
		if err == nil {
			st, log = next, append(log, events...)
		}
		return err
	}
	if err := play(engine.GMViewer(), engine.KindStart, ""); err != nil {
		t.Fatal(err)
	}
	hero := engine.PlayerViewer("hero")
	if engine.Visible(st, hero, "spy") {
		t.Fatal("the spy starts visible")
	}
	if err := play(engine.GMViewer(), "ambush", "spy"); err != nil {
		t.Fatal(err)
	}
	if !engine.Visible(st, hero, "spy") || st.Core().Combatant("spy").Hidden {
		t.Fatal("the spy is still hidden")
	}
	last := log[len(log)-1]
	if last.Kind != engine.KindRevealed || last.Secret || !slices.Contains(last.Involves, "spy") {
		t.Fatalf("reveal event = %+v", last)
	}
	if _, ok := engine.VisibleEvent(st, hero, last); !ok {
		t.Fatal("the player does not see the reveal")
	}
	// Revealing someone already seen is a ruleset bug, not a move.
	if err := play(engine.GMViewer(), "ambush", "spy"); err == nil {
		t.Fatal("revealed twice")
	}
	replayed, _ := engine.Clone(rs, initial)
	if err := engine.Replay(rs, replayed, log); err != nil {
		t.Fatal(err)
	}
	if replayed.Core().Combatant("spy").Hidden {
		t.Fatal("replay lost the reveal")
	}
}
