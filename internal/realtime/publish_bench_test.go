package realtime

import (
	"syscall"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/tabletest"
)

// BenchmarkPublish measures the hub's side of one update: building and
// queueing the frames of 6 clients (the GM and the example's player
// characters in turn, as cmd/loadgen connects them) over the first 60
// commands of a bot-played fight of sw-zones-dusty-gulch. "json" clients
// are loadgen's default (the GM with its projection, players with events);
// "page" clients are encounter pages (html=1). Their ns/op, run after each
// other in one process, give the page path's cost as a ratio to the JSON
// path's without the network, PostgreSQL or a load generator in the way:
//
//	go test ./internal/realtime -run '^$' -bench Publish -benchtime 20x -count 3
func BenchmarkPublish(b *testing.B) {
	updates := recordFight(b, "sw-zones-dusty-gulch", 60)
	for _, mode := range []string{"json", "page"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				hub := pageHub(Config{})
				var clients []*client
				for i := range 6 {
					v := engine.GMViewer()
					if i > 0 && len(updates.pcs) > 0 {
						v = engine.PlayerViewer(updates.pcs[(i-1)%len(updates.pcs)])
					}
					clients = append(clients, queued(hub, v, mode == "page", mode == "json" && i == 0))
				}
				for _, u := range updates.list {
					hub.Publish(u)
					hub.settle(u.EncounterID)
					for _, c := range clients {
						c.queuedFrames()
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(updates.list))/1e3, "µs/update")
			// CPU time rather than wall time: on a shared machine it is the
			// steadier of the two (garbage collection included).
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N*len(updates.list))/1e3, "cpu-µs/update")
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

type recorded struct {
	pcs  []string
	list []play.Update
}

// recordFight plays up to n commands of an example (tabletest.Play: its
// tactics, with the table's talk and the stage among them) and keeps each
// command's update (with a copy of the state after it).
func recordFight(b testing.TB, name string, n int) recorded {
	b.Helper()
	for _, tb := range tabletest.Tables(b) {
		if tb.Name != name {
			continue
		}
		r := recorded{pcs: tb.PCs}
		tabletest.Play(b, tb, n, func(events []engine.Event, next engine.State) {
			kept, err := engine.Copy(next)
			if err != nil {
				b.Fatal(err)
			}
			r.list = append(r.list, play.Update{EncounterID: "e", Ruleset: tb.RS, State: kept, Events: events, Seq: next.Core().Seq})
		})
		// A short fight (a grid example re-tuned to a few rounds) may end
		// before n/2 commands; one that stopped otherwise is a broken bot.
		finished := len(r.list) > 0 && r.list[len(r.list)-1].State.Core().Status == engine.StatusFinished
		if len(r.list) < n/2 && !finished || len(r.list) < 10 {
			b.Fatalf("only %d commands played", len(r.list))
		}
		return r
	}
	b.Fatalf("no example %s", name)
	return recorded{}
}
