package d20tactical_test

import (
	"testing"

	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/d20tactical"
)

func TestRegistry(t *testing.T) {
	rs, err := rules.Registry().Get(d20tactical.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs.ID() != "d20-tactical" || rs.Title() == "" {
		t.Fatalf("got %s %q", rs.ID(), rs.Title())
	}
}
