package simulate_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/simulate"
)

var updateLengths = flag.Bool("update-lengths", false, "rewrite examples/lengths.json from this build")

// MaxGridRounds is the longest a shipped grid example may run, in median
// rounds by the engine's own odds: a fight for one evening (issue 41).
const MaxGridRounds = 8

// TestExampleLengths plays every shipped example as the picker's figure
// was measured (examples.LengthFights fights seeded with
// examples.LengthSeed): the median rounds must be the figure
// examples/lengths.json gives the picker, and no grid example's may pass
// MaxGridRounds. After a deliberate change of an example, the rules or
// the tactics, rewrite the file with
//
//	go test ./internal/simulate -run ExampleLengths -update-lengths
func TestExampleLengths(t *testing.T) {
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]examples.Example{}
	for _, ex := range exs {
		stored[ex.Name] = ex
	}
	measured := map[string]float64{}
	for _, ex := range everyExample(t) {
		r, err := simulate.Run(context.Background(), ex.rs, ex.setup, simulate.Options{Runs: examples.LengthFights, Seed: examples.LengthSeed})
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		measured[ex.name] = r.Rounds
		s := stored[ex.name]
		t.Logf("%s: %s (grid %v)", ex.name, r.Length, s.Grid)
		if s.Grid && r.Rounds > MaxGridRounds {
			t.Errorf("%s: a grid example runs %g rounds (the median of %d fights), more than %d", ex.name, r.Rounds, r.Runs, MaxGridRounds)
		}
		if !*updateLengths && s.Rounds != r.Rounds {
			t.Errorf("%s: the picker says %g rounds, the engine's odds %g (if meant: -update-lengths)", ex.name, s.Rounds, r.Rounds)
		}
	}
	if *updateLengths {
		raw, err := json.MarshalIndent(measured, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "examples", "lengths.json"), append(raw, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
