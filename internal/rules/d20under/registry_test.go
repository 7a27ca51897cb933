package d20under_test

import (
	"testing"

	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/d20under"
)

func TestRegistered(t *testing.T) {
	rs, err := rules.Registry().Get(d20under.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs.ID() != "d20-under" || rs.Title() == "" {
		t.Fatalf("%s %q", rs.ID(), rs.Title())
	}
}
