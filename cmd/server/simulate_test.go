package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/simulate"
)

// TestSimulateCommand: `server simulate FILE` prints the odds of a setup
// document's fight without a database — the same with the same seed —
// or them as JSON; a missing file or a bad number of runs fails.
func TestSimulateCommand(t *testing.T) {
	env := func(string) string { return "" }
	file := "../../examples/encounters/sw-zones-goblin-ford.json"
	var out, again strings.Builder
	if err := run(context.Background(), []string{"simulate", file, "-runs", "20", "-seed", "9"}, env, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Goblin ambush at the ford (sw-zones): 20 fights, seed 9", "95 % interval", "Heroes", "Grishnak the chief", "Median length"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(context.Background(), []string{"simulate", file, "-runs", "20", "-seed", "9"}, env, &again); err != nil || again.String() != out.String() {
		t.Errorf("the same seed again: %v\n%s", err, again.String())
	}
	var js strings.Builder
	if err := run(context.Background(), []string{"simulate", file, "-runs", "5", "-json"}, env, &js); err != nil {
		t.Fatal(err)
	}
	var r simulate.Result
	if err := json.Unmarshal([]byte(js.String()), &r); err != nil || r.Runs != 5 || r.Seed == 0 || len(r.Sides) != 2 {
		t.Errorf("JSON: %v %+v", err, r)
	}
	for _, args := range [][]string{{"simulate"}, {"simulate", "/nonexistent.json"}, {"simulate", file, "-runs", "0"},
		{"simulate", file, "-runs", "100000"}, {"simulate", "../../README.md"}} {
		if err := run(context.Background(), args, env, io.Discard); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}
