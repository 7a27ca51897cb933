package simulate_test

import (
	"context"
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
// cmd/server; $GOGC wins). Beside the usual ns/op it reports cpu-s/op, the
// CPU time the process spent (user and system, the collector's included)
// — the figure the 2-second budget is about, and one that other work on a
// busy machine inflates less than the wall clock. Run it with
// -benchtime=1x for one simulation of each:
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
			before := cpuTime(b)
			for i := 0; b.Loop(); i++ {
				if _, err := simulate.Run(context.Background(), rs, setup, simulate.Options{Seed: uint64(i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime(b)-before).Seconds()/float64(b.N), "cpu-s/op")
		})
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
