package d20duel_test

import (
	"testing"

	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/d20duel"
)

// TestRegistry: the ruleset is registered, and every example encounter
// prepares through the same path the demo and the import API take.
func TestRegistry(t *testing.T) {
	rs, err := rules.Registry().Get(d20duel.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs.ID() != "d20-duel" {
		t.Fatalf("got %s", rs.ID())
	}
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range exs {
		if len(ex.Name) > 9 && ex.Name[:9] == "d20-duel-" {
			n++
			if _, err := prep.Prepare(rules.Registry(), ex.Data); err != nil {
				t.Errorf("%s: %v", ex.Name, err)
			}
		}
	}
	if n < 3 {
		t.Fatalf("%d d20-duel examples", n)
	}
}
