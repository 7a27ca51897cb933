package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
)

// TestCopyIsTheDecodedSnapshot plays every example encounter of every
// ruleset (and the toy ruleset) with a bot that picks among the offered
// actions and answers every decision, and checks at every step that
// engine.Copy gives exactly the state a snapshot decodes to — and that
// deciding the next command on either gives the same events and the same
// next state. Commands are decided on a Copy, and a restarted server
// decides on a decoded snapshot: the two must never tell apart.
func TestCopyIsTheDecodedSnapshot(t *testing.T) {
	reg := rules.Registry()
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	type start struct {
		name string
		rs   engine.Ruleset
		st   engine.State
	}
	var starts []start
	for _, ex := range exs {
		p, err := prep.Prepare(reg, ex.Data)
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		starts = append(starts, start{ex.Name, p.Ruleset, p.State})
	}
	toy := enginetest.Toy{}
	toySt, err := engine.NewEncounter(toy, "toy", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	starts = append(starts, start{"toy", toy, toySt})

	steps := 0
	for _, s := range starts {
		for game := range 3 {
			t.Run(fmt.Sprintf("%s/%d", s.name, game), func(t *testing.T) {
				pick := rand.New(rand.NewPCG(uint64(game), 16))
				st, err := engine.Copy(s.st)
				if err != nil {
					t.Fatal(err)
				}
				for step := 0; step < 300 && st.Core().Status != engine.StatusFinished; step++ {
					steps++
					snap, err := engine.Snapshot(st)
					if err != nil {
						t.Fatal(err)
					}
					decoded, err := s.rs.Decode(snap)
					if err != nil {
						t.Fatal(err)
					}
					copied, err := engine.Copy(st)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(copied, decoded) {
						c, _ := json.Marshal(copied)
						t.Fatalf("step %d: the copy differs from the decoded snapshot\ncopy:    %s\ndecoded: %s", step, c, snap)
					}
					cmd, ok := botCommand(s.rs, st, pick)
					if !ok {
						break
					}
					seed := pick.Uint64()
					evA, nextA, errA := engine.DecideOwned(s.rs, copied, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
					evB, nextB, errB := engine.DecideOwned(s.rs, decoded, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
					if fmt.Sprint(errA) != fmt.Sprint(errB) {
						t.Fatalf("step %d %s: on the copy %v, on the decoded snapshot %v", step, cmd.Kind, errA, errB)
					}
					if errA != nil {
						continue // refused alike; the bot tries something else
					}
					a, b := mustJSON(t, evA), mustJSON(t, evB)
					if !bytes.Equal(a, b) && deterministic(t, s.rs, snap, cmd, seed) {
						t.Fatalf("step %d %s: events differ\n%s\n%s", step, cmd.Kind, a, b)
					}
					if bytes.Equal(a, b) && !bytes.Equal(mustJSON(t, nextA), mustJSON(t, nextB)) {
						t.Fatalf("step %d %s: the same events made different states", step, cmd.Kind)
					}
					// The copy shares nothing: the state it was made from
					// is as it was.
					if again := mustJSON(t, st); !bytes.Equal(again, snap) {
						t.Fatalf("step %d %s: deciding on a copy changed the original", step, cmd.Kind)
					}
					st = nextA
				}
			})
		}
	}
	if steps < 1000 {
		t.Fatalf("only %d steps checked", steps)
	}
}

// deterministic reports whether deciding cmd twice on the decoded snapshot
// gives the same events. (d20-tactical picks among equally short paths in
// map order: a choice, not a copy's doing.)
func deterministic(t *testing.T, rs engine.Ruleset, snap []byte, cmd engine.Command, seed uint64) bool {
	t.Helper()
	var out [2][]byte
	for i := range out {
		st, err := rs.Decode(snap)
		if err != nil {
			t.Fatal(err)
		}
		ev, _, err := engine.DecideOwned(rs, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = mustJSON(t, ev)
	}
	for range 8 {
		if !bytes.Equal(out[0], out[1]) {
			return false
		}
		st, _ := rs.Decode(snap)
		ev, _, _ := engine.DecideOwned(rs, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
		out[1] = mustJSON(t, ev)
	}
	return true
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// botCommand picks a command among those the GM is offered: an answer to
// a pending decision, or any offered action (the encounter's end less
// often), with any offered field values.
func botCommand(rs engine.Ruleset, st engine.State, pick *rand.Rand) (engine.Command, bool) {
	view := engine.Project(rs, st, engine.GMViewer())
	if len(view.Pending) > 0 {
		d := view.Pending[pick.IntN(len(view.Pending))]
		args := map[string]any{"decision": d.ID}
		if len(d.Options) > 0 {
			args["choice"] = d.Options[pick.IntN(len(d.Options))].Value
		}
		if len(d.Fields) > 0 {
			args["values"] = fieldValues(pick, d.Fields)
		}
		return engine.NewCommand(engine.KindAnswer, "", args), true
	}
	actions := slices.DeleteFunc(slices.Clone(view.Actions), func(a engine.Action) bool {
		return a.Kind == engine.KindEnd && pick.IntN(20) > 0 || a.Kind == engine.KindPause
	})
	if len(actions) == 0 {
		return engine.Command{}, false
	}
	a := actions[pick.IntN(len(actions))]
	return engine.NewCommand(a.Kind, a.Actor, fieldValues(pick, a.Fields)), true
}

func fieldValues(pick *rand.Rand, fields []engine.Field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		switch f.Type {
		case engine.FieldSelect:
			if len(f.Options) > 0 {
				out[f.Name] = f.Options[pick.IntN(len(f.Options))].Value
			}
		case engine.FieldNumber:
			if f.Max > f.Min {
				out[f.Name] = f.Min + pick.IntN(f.Max-f.Min+1)
			} else {
				out[f.Name] = f.Min
			}
		case engine.FieldCheckbox:
			out[f.Name] = pick.IntN(2) == 0
		case engine.FieldString:
			out[f.Name] = []string{"", "a feint", "kick sand"}[pick.IntN(3)]
		}
	}
	return out
}

// TestCopyFollowsJSON: what JSON leaves out or normalises, Copy does too,
// and nothing is shared.
func TestCopyFollowsJSON(t *testing.T) {
	type inner struct {
		N    int
		Tags []string `json:"tags,omitempty"`
	}
	type st struct {
		engine.Base
		Kept      []string          `json:"kept"`
		Empty     []string          `json:"empty,omitempty"`
		EmptyMap  map[string]int    `json:"emptyMap,omitempty"`
		Map       map[string]*inner `json:"map"`
		Skipped   string            `json:"-"`
		hidden    int
		Raw       json.RawMessage `json:"raw"`
		RawOmit   json.RawMessage `json:"rawOmit,omitempty"`
		Spaced    json.RawMessage `json:"spaced"`
		Any       any             `json:"any"`
		Arr       [2]inner        `json:"arr"`
		Recursive *st             `json:"recursive,omitempty"`
	}
	orig := &st{
		Base:     engine.Base{Order: []string{"a", "b"}, Options: map[string]string{"x": "y"}},
		Kept:     []string{},
		Empty:    []string{},
		EmptyMap: map[string]int{},
		Map:      map[string]*inner{"k": {N: 1, Tags: []string{"t"}}},
		Skipped:  "gone",
		hidden:   7,
		Spaced:   json.RawMessage(`{ "a" : [1, 2] }`),
		Any:      inner{N: 3},
		Arr:      [2]inner{{N: 1, Tags: []string{"u"}}, {N: 2}},
	}
	orig.Recursive = &st{Kept: []string{"deep"}}
	got, err := engine.Copy(orig)
	if err != nil {
		t.Fatal(err)
	}
	c := got.(*st)
	switch {
	case c.Kept == nil || len(c.Kept) != 0:
		t.Errorf("an empty slice without omitempty must stay empty, not nil: %#v", c.Kept)
	case c.Empty != nil || c.EmptyMap != nil:
		t.Errorf("an empty omitempty slice or map must become nil: %#v %#v", c.Empty, c.EmptyMap)
	case c.Skipped != "" || c.hidden != 0:
		t.Errorf("fields JSON drops must be zero: %q %d", c.Skipped, c.hidden)
	case string(c.Raw) != "null" || c.RawOmit != nil:
		t.Errorf("a nil RawMessage becomes null unless omitempty: %q %q", c.Raw, c.RawOmit)
	case string(c.Spaced) != `{"a":[1,2]}`:
		t.Errorf("raw JSON is compacted: %s", c.Spaced)
	case !reflect.DeepEqual(c.Any, map[string]any{"N": 3.0}):
		t.Errorf("an interface holds what JSON decodes: %#v", c.Any)
	case c.Recursive == nil || c.Recursive.Kept[0] != "deep":
		t.Errorf("recursive value not copied: %#v", c.Recursive)
	}
	c.Order[0], c.Options["x"], c.Map["k"].N, c.Map["k"].Tags[0], c.Arr[0].Tags[0], c.Recursive.Kept[0] = "z", "z", 9, "z", "z", "z"
	if orig.Order[0] != "a" || orig.Options["x"] != "y" || orig.Map["k"].N != 1 || orig.Map["k"].Tags[0] != "t" ||
		orig.Arr[0].Tags[0] != "u" || orig.Recursive.Kept[0] != "deep" {
		t.Errorf("the copy shares memory with the original: %+v", orig)
	}
}

// BenchmarkCopy compares a Copy of a played sw-zones state with the JSON
// round trip it replaces.
func BenchmarkCopy(b *testing.B) {
	p, st := playedExample(b, "sw-zones-dusty-gulch", 40)
	snap, _ := engine.Snapshot(st)
	b.Logf("state: %d bytes of JSON", len(snap))
	b.Run("Copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := engine.Copy(st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("JSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, err := engine.Snapshot(st)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Ruleset.Decode(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// playedExample prepares example name and lets the bot play steps commands
// of it, for benchmarks that need a state in the middle of a fight.
func playedExample(b *testing.B, name string, steps int) (prep.Prepared, engine.State) {
	b.Helper()
	exs, err := prep.Examples()
	if err != nil {
		b.Fatal(err)
	}
	i := slices.IndexFunc(exs, func(e prep.Example) bool { return e.Name == name })
	if i < 0 {
		b.Fatalf("no example %s", name)
	}
	p, err := prep.Prepare(rules.Registry(), exs[i].Data)
	if err != nil {
		b.Fatal(err)
	}
	st := p.State
	pick := rand.New(rand.NewPCG(1, 2))
	for range steps {
		cmd, ok := botCommand(p.Ruleset, st, pick)
		if !ok {
			break
		}
		if _, next, err := engine.Decide(p.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(pick.Uint64()))); err == nil {
			st = next
		}
	}
	return p, st
}
