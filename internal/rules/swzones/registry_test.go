package swzones_test

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

func TestRegistry(t *testing.T) {
	rs, err := rules.Registry().Get(swzones.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs.ID() != "sw-zones" || rs.Title() != "Savage Worlds — zones" {
		t.Fatalf("got %s %q", rs.ID(), rs.Title())
	}
}

// TestMain runs every scenario with the engine checking that Apply never
// writes the engine's Base.
func TestMain(m *testing.M) { enginetest.Main(m) }
