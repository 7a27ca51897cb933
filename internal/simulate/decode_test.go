package simulate_test

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/simulate"
)

// TestCopiedDataIsDecodedData: every event every ruleset emits in its
// tactics' fights of every example, applied while emitted, has its data
// copied rather than decoded, and every copy is exactly (reflect.DeepEqual,
// nil and empty told apart) what decoding the event's JSON gives — the
// engine checks each one with SetCheckDecode and fails the fight at the
// first difference.
func TestCopiedDataIsDecodedData(t *testing.T) {
	engine.SetCheckDecode(true)
	defer engine.SetCheckDecode(false)
	for _, ex := range everyExample(t) {
		s, err := simulate.New(ex.rs, ex.setup, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if _, err := s.Fight(simulate.RunSeed(7, i)); err != nil {
				t.Fatalf("%s fight %d: %v", ex.name, i, err)
			}
		}
	}
	counts := engine.DecodeCounts()
	var kinds []string
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		t.Logf("%-28s copied %6d decoded %6d", k, counts[k][0], counts[k][1])
	}
}
