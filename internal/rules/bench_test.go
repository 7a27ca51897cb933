package rules_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/proof"
)

// BenchmarkCopy compares a Copy of a played sw-zones state with the JSON
// round trip it replaces.
func BenchmarkCopy(b *testing.B) {
	p, st := playedExample(b, "sw-zones-dusty-gulch", 40)
	snap, _ := engine.Snapshot(st)
	b.Logf("state: %d bytes of JSON", len(snap))
	b.Run("Copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := engine.Copy(st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("JSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, err := engine.Snapshot(st)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Ruleset.Decode(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// playedExample prepares example name and lets the bot play steps commands
// of it, for benchmarks that need a state in the middle of a fight.
func playedExample(b *testing.B, name string, steps int) (started, engine.State) {
	b.Helper()
	exs := everyExample(b)
	i := slices.IndexFunc(exs, func(e started) bool { return e.Name == name })
	if i < 0 {
		b.Fatalf("no example %s", name)
	}
	p := exs[i]
	st := p.State
	pick := rand.New(rand.NewPCG(1, 2))
	for range steps {
		cmd, ok := botCommand(p.Ruleset, st, pick)
		if !ok {
			break
		}
		if _, next, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(pick.Uint64()))); err == nil {
			st = next
		}
	}
	return p, st
}

// BenchmarkProjectView is what publishing one update costs per kind of
// client: a viewer's projection of a sw-zones fight in progress, and that
// projection encoded as JSON for its frame (what the hub does for the GM's
// view=1 client and for each player character's).
func BenchmarkProjectView(b *testing.B) {
	p, st := playedExample(b, "sw-zones-dusty-gulch", 40)
	viewers := map[string]engine.Viewer{"GM": engine.GMViewer()}
	for _, c := range st.Core().Combatants {
		if c.PC {
			viewers["PC"] = engine.PlayerViewer(c.ID)
			break
		}
	}
	for name, v := range viewers {
		raw, _ := json.Marshal(engine.Project(p.Ruleset, st, v))
		b.Run(name+"/Project", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				engine.Project(p.Ruleset, st, v)
			}
		})
		b.Run(name+"/Marshal", func(b *testing.B) {
			view := engine.Project(p.Ruleset, st, v)
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := json.Marshal(view); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCommandProof is what the fairness scheme adds to a command on
// the server's side, as a same-run pair over the same commands of a
// sw-zones fight in progress: deciding each (the engine's Decide, with its
// dice) and encoding its events as they are stored, with plain seeded dice
// and no chain ("plain"), against provable dice (Derived: HMAC-SHA256 per
// face block, the commitment checks) and the events' chain (salts,
// canonical JSON, digests and links; "provable"). The database append,
// which neither changes, is left out, so the ratio is an upper bound of
// the share of a command's CPU. docs/performance.md, "The JSON path and PostgreSQL".
func BenchmarkCommandProof(b *testing.B) {
	p, st := playedExample(b, "sw-zones-dusty-gulch", 40)
	pick := rand.New(rand.NewPCG(7, 7))
	var cmds []engine.Command
	for len(cmds) < 32 {
		cmd, ok := botCommand(p.Ruleset, st, pick)
		if !ok {
			b.Fatal("no command")
		}
		if _, _, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(1))); err == nil {
			cmd.Entropy = "0123456789abcdef0123456789abcdef"
			cmds = append(cmds, cmd)
		}
	}
	head := proof.Genesis("bench")
	secret := dice.TestSeed(1)
	run := func(b *testing.B, roller func() *dice.Roller, chain bool) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			cmd := cmds[i%len(cmds)]
			i++
			events, _, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, roller())
			if err != nil {
				b.Fatal(err)
			}
			bodies := make([][]byte, len(events))
			for j, ev := range events {
				if bodies[j], err = json.Marshal(ev); err != nil {
					b.Fatal(err)
				}
			}
			if chain {
				if _, err := proof.Extend(head, events[0].Seq, bodies); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("plain", func(b *testing.B) {
		run(b, func() *dice.Roller { return dice.NewRoller(dice.NewSeeded(1)) }, false)
	})
	b.Run("provable", func(b *testing.B) {
		src := dice.NewDerived(secret) // one per encounter, as the server keeps it
		run(b, func() *dice.Roller { return dice.NewRoller(src) }, true)
	})
	// The chain alone over the same commands' events, encoded once.
	var bodies [][][]byte
	for _, cmd := range cmds {
		events, _, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewDerived(secret)))
		if err != nil {
			b.Fatal(err)
		}
		var enc [][]byte
		for _, ev := range events {
			body, err := json.Marshal(ev)
			if err != nil {
				b.Fatal(err)
			}
			enc = append(enc, body)
		}
		bodies = append(bodies, enc)
	}
	b.Run("chain", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := proof.Extend(head, 1, bodies[i%len(bodies)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkProjectFight is BenchmarkProjectView over a whole bot-played
// fight of one example of each ruleset rather than one moment of it,
// projected the way the server does: each command's state is a fresh copy
// (Decide copies), so whatever a state keeps once shown is built again for
// each; "GM" is the GM's view of each of the first 120 states (the JSON
// mode's one view per command), "GM+PC" that and a player character's
// view after it (a page client's). The examples other than sw-zones' have
// a hidden combatant, which the bot never reveals, so a player's view
// passes through the engine's veil. Besides wall time per pass it reports
// the process's CPU time per view while projecting (garbage collection
// included), the steadier figure on a shared machine:
//
//	go test ./internal/rules -run '^$' -bench ProjectFight -benchtime 30x -benchmem
func BenchmarkProjectFight(b *testing.B) {
	for _, name := range projectFightExamples {
		b.Run(name, func(b *testing.B) { benchmarkProjectFight(b, name) })
	}
}

// projectFightExamples are BenchmarkProjectFight's fights: one per
// ruleset, the ones with hidden combatants where a ruleset has one.
var projectFightExamples = []string{
	"sw-zones-dusty-gulch", "d20-duel-old-bridge", "d20-tactical-rooftop-crossfire",
	"d20-under-karvosti-road", "d6-bands-kessel-ford",
}

func benchmarkProjectFight(b *testing.B, example string) {
	p, st := playedExample(b, example, 0)
	var states []engine.State
	pick := rand.New(rand.NewPCG(1, 2))
	for range 120 {
		states = append(states, st)
		cmd, ok := botCommand(p.Ruleset, st, pick)
		for tries := 0; ok && cmd.Kind == engine.KindReveal && tries < 20; tries++ {
			cmd, ok = botCommand(p.Ruleset, st, pick) // keep the hidden hidden
		}
		if !ok || cmd.Kind == engine.KindReveal {
			break
		}
		if _, next, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(pick.Uint64()))); err == nil {
			st = next
		}
	}
	var pc engine.Viewer
	for _, c := range st.Core().Combatants {
		if c.PC {
			pc = engine.PlayerViewer(c.ID)
			break
		}
	}
	for _, run := range []struct {
		name    string
		viewers []engine.Viewer
	}{{"GM", []engine.Viewer{engine.GMViewer()}}, {"GM+PC", []engine.Viewer{engine.GMViewer(), pc}}} {
		b.Run(run.name, func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			views := 0
			for b.Loop() {
				b.StopTimer()
				fresh := make([]engine.State, len(states))
				for i, st := range states {
					var err error
					if fresh[i], err = engine.Copy(st); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				cpu0 := processCPU()
				for _, st := range fresh {
					for _, v := range run.viewers {
						engine.Project(p.Ruleset, st, v)
					}
				}
				cpu += processCPU() - cpu0
				views += len(fresh) * len(run.viewers)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(views)/1e3, "cpu-µs/view")
		})
	}
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
