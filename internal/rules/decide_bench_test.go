package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// BenchmarkDecide is what the rules cost per command: deciding, on a copy,
// each of 30 commands a bot takes in a sw-zones fight in progress (the
// GM's: actions and answers), one after the other from the states they
// were taken in.
func BenchmarkDecide(b *testing.B) {
	p, st := playedExample(b, "sw-zones-dusty-gulch", 20)
	type step struct {
		st   engine.State
		cmd  engine.Command
		seed uint64
	}
	var steps []step
	pick := rand.New(rand.NewPCG(3, 4))
	for len(steps) < 30 {
		cmd, ok := botCommand(p.Ruleset, st, pick)
		if !ok {
			b.Fatal("nothing offered")
		}
		if cmd.Kind == engine.KindEnd || cmd.Kind == engine.KindRewind || cmd.Kind == engine.KindReveal {
			continue
		}
		seed := pick.Uint64()
		_, next, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)))
		if err != nil {
			continue
		}
		steps = append(steps, step{st, cmd, seed})
		st = next
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range steps {
			if _, _, err := engine.Decide(p.Ruleset, s.st, engine.GMViewer(), "c", s.cmd, dice.NewRoller(dice.NewSeeded(s.seed))); err != nil {
				b.Fatal(err)
			}
		}
	}
}
