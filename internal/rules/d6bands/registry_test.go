package d6bands_test

import (
	"testing"

	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/d6bands"
)

func TestRegistered(t *testing.T) {
	rs, err := rules.Registry().Get(d6bands.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs.ID() != "d6-bands" {
		t.Errorf("id %q", rs.ID())
	}
}
