package rules_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// Advertised actions are a contract (issue 26): what the view offers is
// what a client may send. These tests play every shipped example of every
// registered ruleset with a bot that knows no rules and hold each offered
// action to it:
//
//   - no argument field is named like a key of the command's envelope,
//     which a client's form would overwrite or the server read as the
//     command's own;
//   - the form's defaults — exactly what the page sends when the user
//     changes nothing — form a command that is accepted in the state where
//     it is offered, and so does every combination of the values a form
//     offers (each value of each choice tried, with the others at random:
//     a form never offers what its ruleset refuses, see kit.Narrow);
//   - the bot, picking values among those offered, sees none of its
//     commands refused.

// envelopeKeys are the names a command's envelope, or the request around
// it, already uses.
var envelopeKeys = []string{"kind", "actor", "id", "type", "command"}

// gamesPerExample and commandsPerGame bound the sweep for CI.
const (
	gamesPerExample = 5
	commandsPerGame = 250
	// checkEvery samples the states the defaults are checked in.
	checkEvery = 2
	// combineEvery samples the states checked further: combinations of
	// the values offered are tried in one in combineEvery.
	combineEvery = 3
	// maxCombinations bounds the combinations of a form's values tried
	// in each state checked.
	maxCombinations = 12
)

// formDefaults are the arguments the page sends for fields left as they
// are (web/model.go: numberAttrs, selected, truthy; app.js buildCommand):
// a select's default, or its first option; a number's default, or its
// minimum when it is bounded, or nothing; a checkbox ticked when its
// default says so; a text its default.
func formDefaults(fields []engine.Field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		switch f.Type {
		case engine.FieldSelect:
			switch {
			case f.Default != "":
				out[f.Name] = f.Default
			case len(f.Options) > 0:
				out[f.Name] = f.Options[0].Value
			default:
				out[f.Name] = ""
			}
		case engine.FieldNumber:
			if n, err := strconv.Atoi(f.Default); err == nil {
				out[f.Name] = n
			} else if f.Min != 0 || f.Max != 0 {
				out[f.Name] = f.Min
			}
		case engine.FieldCheckbox:
			switch strings.ToLower(f.Default) {
			case "1", "true", "on", "yes":
				out[f.Name] = true
			default:
				out[f.Name] = false
			}
		default:
			out[f.Name] = f.Default
		}
	}
	return out
}

// fieldDefects are what is wrong with an action's fields whatever the
// state: a name the envelope uses, a select that offers nothing, a
// default outside what is offered.
func fieldDefects(fields []engine.Field) []string {
	var out []string
	for _, f := range fields {
		if slices.Contains(envelopeKeys, strings.ToLower(f.Name)) {
			out = append(out, fmt.Sprintf("field %q is named like an envelope key", f.Name))
		}
		switch f.Type {
		case engine.FieldSelect:
			if len(f.Options) == 0 {
				out = append(out, fmt.Sprintf("select %q offers no option", f.Name))
			} else if f.Default != "" && !slices.ContainsFunc(f.Options, func(c engine.Choice) bool { return c.Value == f.Default }) {
				out = append(out, fmt.Sprintf("select %q defaults to %q, which it does not offer", f.Name, f.Default))
			}
		case engine.FieldNumber:
			if n, err := strconv.Atoi(f.Default); f.Default != "" && (err != nil || (f.Min != 0 || f.Max != 0) && (n < f.Min || n > f.Max)) {
				out = append(out, fmt.Sprintf("number %q defaults to %q, outside %d…%d", f.Name, f.Default, f.Min, f.Max))
			}
		}
	}
	return out
}

// offerFailure is one advertised action or decision that broke the
// contract, for the report.
type offerFailure struct {
	ruleset, example, what, why string
}

// TestOfferedActionsKeepTheirContract plays every example of every
// ruleset, five games each (five dice seeds), and at every other state
// submits each offered action with the form's defaults (on a copy) — and
// in one of three, in combinations of the values it offers — and each
// pending decision with its default answer; every one must be accepted.
// The bot itself plays with random offered values, and none of them may
// be refused.
func TestOfferedActionsKeepTheirContract(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every example five times")
	}
	var failures []offerFailure
	sent, refused := map[string]int{}, map[string]int{}
	refusals := map[string]map[string]int{}
	for _, s := range append(everyExample(t), walledMaps(t)...) {
		id := s.Ruleset.ID()
		if refusals[id] == nil {
			refusals[id] = map[string]int{}
		}
		for game := range gamesPerExample {
			seed := uint64(game + 1)
			pick := rand.New(rand.NewPCG(seed, 26))
			roller := dice.NewRoller(dice.NewSeeded(seed))
			_, st, err := engine.Decide(s.Ruleset, s.State, engine.GMViewer(), "start", engine.NewCommand(engine.KindStart, "", nil), roller)
			if err != nil {
				t.Fatalf("%s: start: %v", s.Name, err)
			}
			seen := map[string]bool{} // each defect once per game
			fail := func(what, why string) {
				if k := what + why; !seen[k] {
					seen[k] = true
					failures = append(failures, offerFailure{id, s.Name, what, why})
				}
			}
			for step := 0; step < commandsPerGame && st.Core().Status == engine.StatusRunning; step++ {
				view := engine.Project(s.Ruleset, st, engine.GMViewer())
				if step%checkEvery == 0 {
					checkOffers(t, s.Ruleset, st, view, seed+uint64(step), fail)
				}
				cmd, what, ok := clientPick(pick, view)
				if !ok {
					t.Fatalf("%s game %d step %d: nothing offered", s.Name, game, step)
				}
				private, err := engine.Copy(st)
				if err != nil {
					t.Fatal(err)
				}
				_, next, err := engine.DecideOwned(s.Ruleset, private, engine.GMViewer(), "c"+strconv.Itoa(step), cmd, roller, nil)
				sent[id]++
				if err != nil {
					if fray.ErrorCode(err) == fray.EINTERNAL {
						raw, _ := json.Marshal(cmd)
						t.Fatalf("%s game %d: offered %s %s answered an internal error: %v", s.Name, game, what, raw, err)
					}
					refused[id]++
					refusals[id][what+": "+fray.ErrorMessage(err)]++
					continue
				}
				st = next
			}
		}
	}
	byRuleset := map[string][]offerFailure{}
	for _, f := range failures {
		byRuleset[f.ruleset] = append(byRuleset[f.ruleset], f)
	}
	ids := make([]string, 0, len(sent))
	for id := range sent {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		for _, f := range byRuleset[id] {
			t.Errorf("%s (%s): %s: %s", id, f.example, f.what, f.why)
		}
		rate := float64(refused[id]) / float64(sent[id])
		t.Logf("%s: %d of %d bot commands refused (%.1f%%)", id, refused[id], sent[id], 100*rate)
		if refused[id] > 0 {
			t.Errorf("%s: %d of %d advertised commands refused, want none: %v", id, refused[id], sent[id], refusals[id])
		}
	}
}

// checkOffers submits, on copies of st, every action view offers with the
// form's defaults and in combinations of the values it offers, and every
// pending decision with its default answer, and reports each refusal and
// each field defect through fail.
func checkOffers(t *testing.T, rs engine.Ruleset, st engine.State, view engine.View, seed uint64, fail func(what, why string)) {
	t.Helper()
	pick := rand.New(rand.NewPCG(seed, 47))
	try := func(cmd engine.Command) error {
		private, err := engine.Copy(st)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = engine.DecideOwned(rs, private, engine.GMViewer(), "defaults", cmd, dice.NewRoller(dice.NewSeeded(seed)), nil)
		return err
	}
	for _, a := range view.Actions {
		if a.Kind == engine.KindRewind {
			continue // needs an event to go back to; not a form's default
		}
		what := a.Kind
		if a.Actor != "" {
			what += " by " + a.Actor
		}
		for _, d := range fieldDefects(a.Fields) {
			fail(what, d)
		}
		cmd := engine.NewCommand(a.Kind, a.Actor, formDefaults(a.Fields))
		if err := try(cmd); err != nil {
			raw, _ := json.Marshal(cmd.Args)
			fail(what, fmt.Sprintf("its defaults %s were refused: %v", raw, err))
		}
		if seed%combineEvery != 0 {
			continue
		}
		for _, args := range combinations(a.Fields, pick) {
			if err := try(engine.NewCommand(a.Kind, a.Actor, args)); err != nil {
				raw, _ := json.Marshal(args)
				fail(what, fmt.Sprintf("it offers %s, which was refused: %v", raw, err))
			}
		}
	}
	for _, d := range view.Pending {
		if d.Default == "" || d.Answered {
			continue // needs a real answer, or has one
		}
		for _, defect := range fieldDefects(d.Fields) {
			fail("answer "+d.Kind, defect)
		}
		args := map[string]any{"decision": d.ID, "choice": d.Default}
		if len(d.Fields) > 0 {
			args["values"] = formDefaults(d.Fields)
		}
		if err := try(engine.NewCommand(engine.KindAnswer, "", args)); err != nil {
			fail("answer "+d.Kind, fmt.Sprintf("its default answer was refused: %v", err))
		}
	}
}

// combinations are combinations of the values fields offer, for a form
// with more than one choice: each value of each select (and either state
// of each checkbox, and a number's bounds) at least once, the others at
// random, and a few more at random — at most maxCombinations.
func combinations(fields []engine.Field, pick *rand.Rand) []map[string]any {
	var axes [][]any
	for _, f := range fields {
		var vs []any
		switch f.Type {
		case engine.FieldSelect:
			for _, o := range f.Options {
				vs = append(vs, o.Value)
			}
		case engine.FieldNumber:
			if f.Min != 0 || f.Max != 0 {
				vs = []any{f.Min, f.Max}
			}
		case engine.FieldCheckbox:
			vs = []any{false, true}
		}
		axes = append(axes, vs)
	}
	choices := 0
	for _, vs := range axes {
		if len(vs) > 1 {
			choices++
		}
	}
	if choices < 2 {
		return nil // one choice alone: the bot and the defaults try it
	}
	random := func() map[string]any {
		args := formDefaults(fields)
		for i, vs := range axes {
			if len(vs) > 0 {
				args[fields[i].Name] = vs[pick.IntN(len(vs))]
			}
		}
		return args
	}
	var out []map[string]any
	for i, vs := range axes {
		for _, v := range vs {
			if len(out) == maxCombinations {
				return out
			}
			args := random()
			args[fields[i].Name] = v
			out = append(out, args)
		}
	}
	for len(out) < maxCombinations {
		out = append(out, random())
	}
	return out
}

// clientPick is a client that knows no rules: it answers a pending decision
// (any option) or takes any offered action but the lifecycle's, with
// values among those offered.
func clientPick(pick *rand.Rand, view engine.View) (engine.Command, string, bool) {
	actions := slices.DeleteFunc(slices.Clone(view.Actions), func(a engine.Action) bool {
		switch a.Kind {
		case engine.KindStart, engine.KindPause, engine.KindResume, engine.KindRewind, engine.KindRevealEvent:
			return true
		case engine.KindEnd:
			return pick.IntN(40) > 0
		}
		return false
	})
	var pending []engine.Decision
	for _, d := range view.Pending {
		if !d.Answered {
			pending = append(pending, d)
		}
	}
	if len(pending) > 0 && (len(actions) == 0 || pick.IntN(10) < 8) {
		d := pending[pick.IntN(len(pending))]
		args := map[string]any{"decision": d.ID, "choice": d.Options[pick.IntN(len(d.Options))].Value}
		if len(d.Fields) > 0 {
			args["values"] = enginetest.Values(pick, d.Fields, "", "a feint")
		}
		return engine.NewCommand(engine.KindAnswer, "", args), "answer " + d.Kind, true
	}
	if len(actions) == 0 {
		return engine.Command{}, "", false
	}
	a := actions[pick.IntN(len(actions))]
	return engine.NewCommand(a.Kind, a.Actor, enginetest.Values(pick, a.Fields, "", "a feint")), a.Kind, true
}

// walledMaps are battlemaps with walls and doors between squares imported
// onto every grid ruleset's board (as `server map` does), so that the
// contract holds where walls stand between squares: the house (rooms,
// a closed door, an open one: one map square a square) and, for a grid
// of larger squares, a map split by a wall with a closed and an open door
// that falls on the sides of its squares. Only those whose grid keeps
// some edges are played.
func walledMaps(tb testing.TB) []started {
	tb.Helper()
	house, err := uvtt.Parse(context.Background(), uvtttest.House().JSON())
	if err != nil {
		tb.Fatal(err)
	}
	pt := func(x, y float64) uvtt.Point { return uvtt.Point{X: x, Y: y} }
	wall := func(ps ...uvtt.Point) uvtt.Wall { return uvtt.Wall{Points: ps, Sight: true} }
	split := &uvtt.Map{Width: 80, Height: 60, Walls: []uvtt.Wall{wall(pt(0, 0), pt(80, 0), pt(80, 60), pt(0, 60), pt(0, 0)),
		wall(pt(40, 0), pt(40, 20)), wall(pt(40, 21), pt(40, 40)), wall(pt(40, 41), pt(40, 60))},
		Portals: []uvtt.Portal{{A: pt(40, 20), B: pt(40, 21), Closed: true}, {A: pt(40, 40), B: pt(40, 41)}}}
	var out []started
	for _, rs := range rules.Registry().All() {
		for name, m := range map[string]*uvtt.Map{"house": house, "split": split} {
			setup, _, err := prep.MapSetup(rs, m, rs.ID()+"-"+name+"-map", "", battlemap.Options{})
			if err != nil {
				continue // no grid, or the map is too large for it
			}
			if bf, err := board.Read(setup.Battlefield); err != nil || len(bf.Edges) == 0 {
				continue
			}
			st, err := engine.NewEncounter(rs, setup.Name, setup)
			if err != nil {
				tb.Fatalf("%s: %v", setup.Name, err)
			}
			out = append(out, started{setup.Name, rs, setup, st})
		}
	}
	if len(out) < 3 {
		tb.Fatalf("%d walled maps, want one at least for each grid ruleset", len(out))
	}
	return out
}
