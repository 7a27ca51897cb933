package simulate_test

import (
	"context"
	"crypto/sha256"
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/simulate"
)

// BenchmarkExamples simulates each shipped example encounter 200 times
// (the default), as the GM's Simulate button does, with the garbage
// collector tuned as the server binary tunes it (GOGC 400, see
// cmd/server; $GOGC wins). One op is one simulation of 200 fights.
//
// Beside ns/op it reports, in CPU time of the whole process (user and
// system, the collector's included), which other work on a busy machine
// inflates less than the wall clock:
//
//   - cpu-s/op: a simulation's CPU time, the figure the 2-second target
//     is about;
//   - fights/cpu-s: fights played per second of CPU;
//   - x-yardstick: a simulation's CPU time over the yardstick's, a fixed
//     piece of work that has nothing to do with Fray (SHA-256 over 64 MiB)
//     run right after each simulation: a same-run ratio, which holds
//     however loaded the machine is and whichever machine runs it.
//
// Run it with -benchtime=1x for one simulation of each:
//
//	go test ./internal/simulate -run '^$' -bench Examples -benchtime=1x
func BenchmarkExamples(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	reg := rules.Registry()
	exs, err := examples.All()
	if err != nil {
		b.Fatal(err)
	}
	for _, ex := range exs {
		setup, err := engine.DecodeSetup(ex.Data)
		if err != nil {
			b.Fatal(err)
		}
		rs, err := reg.Get(setup.Ruleset)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(ex.Name, func(b *testing.B) {
			var simulating, measuring time.Duration
			for i := 0; b.Loop(); i++ {
				start := cpuTime(b)
				if _, err := simulate.Run(context.Background(), rs, setup, simulate.Options{Seed: uint64(i)}); err != nil {
					b.Fatal(err)
				}
				mid := cpuTime(b)
				yardstick()
				simulating += mid - start
				measuring += cpuTime(b) - mid
			}
			n := float64(b.N)
			b.ReportMetric(simulating.Seconds()/n, "cpu-s/op")
			b.ReportMetric(simulate.DefaultRuns*n/simulating.Seconds(), "fights/cpu-s")
			b.ReportMetric(float64(simulating)/float64(measuring), "x-yardstick")
		})
	}
}

// yardstick is a fixed piece of CPU work with nothing of Fray in it:
// SHA-256 over 64 MiB, in 1 MiB blocks.
func yardstick() {
	block := make([]byte, 1<<20)
	for range 64 {
		sum := sha256.Sum256(block)
		block[0] = sum[0]
	}
}

// cpuTime is the CPU time the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkYardstick is the yardstick alone, to turn x-yardstick back
// into seconds on a given machine.
func BenchmarkYardstick(b *testing.B) {
	for b.Loop() {
		yardstick()
	}
}
