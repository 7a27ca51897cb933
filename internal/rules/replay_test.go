package rules_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules"
)

// stored is an encounter's log as an earlier build of Fray stored it: the
// initial state, every event of a fight a bot played, and the state those
// events folded to then.
type stored struct {
	Initial json.RawMessage `json:"initial"`
	Events  []engine.Event  `json:"events"`
	Final   json.RawMessage `json:"final"`
}

// TestStoredLogsReplay replays logs stored by the build before the ruleset
// kit (testdata/replay, two examples per ruleset, played by a bot from a
// fixed seed; a ruleset shipped since stores its own with -store-replay
// when it is registered): every ruleset folds them to exactly the state
// that build did, byte for byte. A change to how a ruleset reads its events — the kit's
// typed appliers, d20-under's declared values — that would read an old
// event differently fails here.
func TestStoredLogsReplay(t *testing.T) {
	engine.SetStrictApply(true)
	defer engine.SetStrictApply(false)
	if *storeReplay {
		storeMissingLogs(t)
	}
	files, err := filepath.Glob("testdata/replay/*.json.gz")
	if err != nil || len(files) < 2*len(rules.Registry().All()) {
		t.Fatalf("want two stored logs per ruleset, got %v (%v)", files, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json.gz"), func(t *testing.T) {
			log := readStored(t, file)
			var head struct{ Ruleset string }
			if err := json.Unmarshal(log.Initial, &head); err != nil {
				t.Fatal(err)
			}
			rs, err := rules.Registry().Get(head.Ruleset)
			if err != nil {
				t.Fatal(err)
			}
			initial, err := rs.Decode(log.Initial)
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.Replay(rs, initial, log.Events); err != nil {
				t.Fatal(err)
			}
			raw, err := engine.Snapshot(initial)
			if err != nil {
				t.Fatal(err)
			}
			// Every part of the state the earlier build had must come out
			// byte for byte; a part the engine added since (its record of
			// who was hidden when) is left out of the comparison.
			var got, want map[string]json.RawMessage
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(log.Final, &want); err != nil {
				t.Fatal(err)
			}
			// An option a ruleset added since is in the state, with the
			// value that keeps the encounter as it began; every option the
			// earlier build had must come out as it was.
			var gotOpts map[string]string
			if err := json.Unmarshal(got["options"], &gotOpts); err != nil {
				t.Fatal(err)
			}
			var wantOpts map[string]string
			if err := json.Unmarshal(want["options"], &wantOpts); err != nil {
				t.Fatal(err)
			}
			for k, w := range wantOpts {
				if gotOpts[k] != w {
					t.Fatalf("option %s replays as %q, want %q", k, gotOpts[k], w)
				}
			}
			delete(want, "options")
			for k, w := range want {
				var wc bytes.Buffer
				if err := json.Compact(&wc, w); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got[k], wc.Bytes()) {
					t.Fatalf("%d events replay to another %s:\ngot  %s\nwant %s", len(log.Events), k, got[k], wc.Bytes())
				}
			}
		})
	}
}

var storeReplay = flag.Bool("store-replay", false, "store two bot-played logs (testdata/replay) of each ruleset that has fewer")

// storeMissingLogs gives a ruleset registered since the logs were stored
// its two: its first two examples, played by a bot from a fixed seed with
// this build. From then on they hold its later builds to how this one
// reads its events.
func storeMissingLogs(t *testing.T) {
	have := map[string]int{}
	files, _ := filepath.Glob("testdata/replay/*.json.gz")
	for _, file := range files {
		var head struct{ Ruleset string }
		if err := json.Unmarshal(readStored(t, file).Initial, &head); err != nil {
			t.Fatal(err)
		}
		have[head.Ruleset]++
	}
	for _, s := range everyExample(t) {
		id := s.Ruleset.ID()
		if have[id] >= 2 {
			continue
		}
		have[id]++
		p := enginetest.Bot{Default: 1}.Play(t, s.Ruleset, s.Setup, 1)
		var log stored
		var err error
		if log.Initial, err = engine.Snapshot(p.Initial); err != nil {
			t.Fatal(err)
		}
		if log.Final, err = engine.Snapshot(p.Final); err != nil {
			t.Fatal(err)
		}
		log.Events = p.Log
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if err := json.NewEncoder(zw).Encode(log); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "replay", s.Name+".json.gz"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readStored(t testing.TB, file string) stored {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var s stored
	if err := json.NewDecoder(zr).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkReplayStored folds each stored sw-zones log (testdata/replay)
// into a copy of its initial state: what Apply costs per event.
func BenchmarkReplayStored(b *testing.B) {
	files, _ := filepath.Glob("testdata/replay/sw-zones-*.json.gz")
	rs, _ := rules.Registry().Get("sw-zones")
	type fight struct {
		initial engine.State
		events  []engine.Event
	}
	var fights []fight
	n := 0
	for _, file := range files {
		log := readStored(b, file)
		initial, err := rs.Decode(log.Initial)
		if err != nil {
			b.Fatal(err)
		}
		fights = append(fights, fight{initial, log.Events})
		n += len(log.Events)
	}
	b.ReportAllocs()
	b.ReportMetric(float64(n), "events/op")
	for b.Loop() {
		for _, f := range fights {
			st, err := engine.Copy(f.initial)
			if err != nil {
				b.Fatal(err)
			}
			if err := engine.Replay(rs, st, f.events); err != nil {
				b.Fatal(err)
			}
		}
	}
}
