package rules_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules"
)

// Tests that hold every ruleset to what the engine, the page and the
// server expect of one. They iterate the registry and the shipped
// examples, so a new ruleset is held to them by its registration line.

// started is an example encounter ready to play: its initial state.
type started struct {
	Name    string
	Ruleset engine.Ruleset
	Setup   engine.Setup
	State   engine.State
}

// everyExample prepares every shipped example encounter the way the
// import API does: decoded strictly, checked by its ruleset.
func everyExample(tb testing.TB) []started {
	tb.Helper()
	reg := rules.Registry()
	exs, err := examples.All()
	if err != nil {
		tb.Fatal(err)
	}
	var out []started
	for _, ex := range exs {
		setup, err := engine.DecodeSetup(ex.Data)
		if err != nil {
			tb.Fatalf("%s: %v", ex.Name, err)
		}
		rs, err := reg.Get(setup.Ruleset)
		if err != nil {
			tb.Fatalf("%s: %v", ex.Name, err)
		}
		st, err := engine.NewEncounter(rs, ex.Name, setup)
		if err != nil {
			tb.Fatalf("%s: %v", ex.Name, err)
		}
		out = append(out, started{ex.Name, rs, setup, st})
	}
	return out
}

// TestEveryRulesetHasExamples: every registered ruleset ships at least
// three example encounters, named after it, and each prepares.
func TestEveryRulesetHasExamples(t *testing.T) {
	n := map[string]int{}
	for _, s := range everyExample(t) {
		if id := s.Ruleset.ID(); len(s.Name) <= len(id) || s.Name[:len(id)+1] != id+"-" {
			t.Errorf("example %s of %s is not named after its ruleset", s.Name, id)
		}
		n[s.Ruleset.ID()]++
	}
	for _, rs := range rules.Registry().All() {
		if n[rs.ID()] < 3 {
			t.Errorf("%s ships %d examples, want at least 3", rs.ID(), n[rs.ID()])
		}
	}
}

// TestCopyIsTheDecodedSnapshot plays every example encounter of every
// ruleset (and the toy ruleset) with a bot that picks among the offered
// actions and answers every decision, and checks at every step that
// engine.Copy gives exactly the state a snapshot decodes to — and that
// deciding the next command on either gives the same events and the same
// next state. Commands are decided on a Copy, and a restarted server
// decides on a decoded snapshot: the two must never tell apart.
func TestCopyIsTheDecodedSnapshot(t *testing.T) {
	starts := everyExample(t)
	toy := enginetest.Toy{}
	toySt, err := engine.NewEncounter(toy, "toy", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	starts = append(starts, started{"toy", toy, enginetest.Setup(), toySt})

	steps := 0
	for _, s := range starts {
		for game := range 3 {
			t.Run(fmt.Sprintf("%s/%d", s.Name, game), func(t *testing.T) {
				pick := rand.New(rand.NewPCG(uint64(game), 16))
				st, err := engine.Copy(s.State)
				if err != nil {
					t.Fatal(err)
				}
				for step := 0; step < 300 && st.Core().Status != engine.StatusFinished; step++ {
					steps++
					snap, err := engine.Snapshot(st)
					if err != nil {
						t.Fatal(err)
					}
					decoded, err := s.Ruleset.Decode(snap)
					if err != nil {
						t.Fatal(err)
					}
					copied, err := engine.CopyAsDecoded(st)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(copied, decoded) {
						c, _ := json.Marshal(copied)
						t.Fatalf("step %d: the copy differs from the decoded snapshot\ncopy:    %s\ndecoded: %s", step, c, snap)
					}
					cmd, ok := botCommand(s.Ruleset, st, pick)
					if !ok {
						break
					}
					seed := pick.Uint64()
					evA, nextA, errA := engine.DecideOwned(s.Ruleset, copied, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
					evB, nextB, errB := engine.DecideOwned(s.Ruleset, decoded, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
					if fmt.Sprint(errA) != fmt.Sprint(errB) {
						t.Fatalf("step %d %s: on the copy %v, on the decoded snapshot %v", step, cmd.Kind, errA, errB)
					}
					if errA != nil {
						continue // refused alike; the bot tries something else
					}
					a, b := mustJSON(t, evA), mustJSON(t, evB)
					if !bytes.Equal(a, b) && deterministic(t, s.Ruleset, snap, cmd, seed) {
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

// TestEveryRulesetDescribesItself: the example picker says in one line what
// a fight under each ruleset is like (engine.Describer).
func TestEveryRulesetDescribesItself(t *testing.T) {
	for _, rs := range rules.Registry().All() {
		d, ok := rs.(engine.Describer)
		if !ok || d.Description() == "" {
			t.Errorf("%s does not describe itself", rs.ID())
		}
	}
}

// TestReachesNameTheirDistances: what a ruleset's editor declares for
// maps (board.Editor.Reaches) names its own distances, nearest first, so
// prep's derivation from a map's paths gives only distances the ruleset
// reads.
func TestReachesNameTheirDistances(t *testing.T) {
	for _, rs := range rules.Registry().All() {
		b, ok := rs.(engine.Boarder)
		if !ok {
			continue
		}
		e := b.Editor()
		last := 0.0
		for i, r := range e.Reaches {
			if !slices.Contains(e.Distances, r.Distance) || r.Metres <= last && i > 0 || r.Metres < 0 {
				t.Errorf("%s: reach %d %+v: not one of %v, or not farther than the one before", rs.ID(), i, r, e.Distances)
			}
			last = r.Metres
		}
	}
}
