package rules_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules"
)

// The marks of the hidden combatant each example gets (see hiddenSetup).
const (
	lurkerCombatant = "xqlurker"
	lurkerName      = "Vantablack Ossery"
	lurkerStat      = "Umbrafel"
)

var lurkerMarks = regexp.MustCompile(`(?i)` + lurkerCombatant + `|` + lurkerName + `|` + lurkerStat)

// TestProjectionsKeepHiddenCombatants plays every example of every
// registered ruleset, with a hidden combatant in it, and checks at every
// step that what the ruleset itself projects for a player — its Board (its
// one projection) and its Actions, before the engine's filter veils the
// view —
// names no combatant the player may not see. The engine's filter would
// take such a mention out of the view; this test keeps the rulesets from
// relying on it.
func TestProjectionsKeepHiddenCombatants(t *testing.T) {
	reg := rules.Registry()
	names, err := fs.Glob(examples.Encounters, "encounters/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range reg.All() {
		swept := 0
		for i, name := range names {
			raw, _ := fs.ReadFile(examples.Encounters, name)
			var setup engine.Setup
			if err := json.Unmarshal(raw, &setup); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if setup.Ruleset != rs.ID() {
				continue
			}
			swept++
			t.Run(strings.TrimSuffix(strings.TrimPrefix(name, "encounters/"), ".json"), func(t *testing.T) {
				playHidden(t, rs, hiddenSetup(t, rs, setup), uint64(i))
			})
		}
		if swept == 0 {
			t.Errorf("ruleset %s has no example to sweep", rs.ID())
		}
	}
}

// hiddenSetup gives setup a hidden combatant carrying the marks: its own,
// renamed, or a clone of a combatant of another side than the first PC's
// (an NPC if there is one), where it stands or, if that is refused, with
// no start.
func hiddenSetup(t *testing.T, rs engine.Ruleset, setup engine.Setup) engine.Setup {
	t.Helper()
	cs := setup.Combatants
	if i := slices.IndexFunc(cs, func(c engine.CombatantSetup) bool { return c.Hidden }); i >= 0 {
		old := cs[i].ID
		raw, _ := json.Marshal(setup)
		raw = []byte(strings.ReplaceAll(string(raw), `"`+old+`"`, `"`+lurkerCombatant+`"`))
		var renamed engine.Setup
		if err := json.Unmarshal(raw, &renamed); err != nil {
			t.Fatal(err)
		}
		renamed.Combatants[i].Name, renamed.Combatants[i].Stats = lurkerName, markStats(t, renamed.Combatants[i].Stats)
		return renamed
	}
	pc := slices.IndexFunc(cs, func(c engine.CombatantSetup) bool { return c.PC })
	src := slices.IndexFunc(cs, func(c engine.CombatantSetup) bool { return !c.PC && c.Side != cs[pc].Side })
	if src < 0 {
		src = slices.IndexFunc(cs, func(c engine.CombatantSetup) bool { return c.Side != cs[pc].Side })
	}
	starts := []json.RawMessage{cs[src].Start}
	var at map[string]any
	if json.Unmarshal(cs[src].Start, &at) == nil {
		for _, axis := range []string{"x", "y"} {
			if n, ok := at[axis].(float64); ok {
				for _, d := range []float64{1, -1, 2, -2} {
					moved := maps.Clone(at)
					moved[axis] = n + d
					raw, _ := json.Marshal(moved)
					starts = append(starts, raw)
				}
			}
		}
	}
	var errs []error
	for _, start := range append(starts, nil) {
		clone := cs[src]
		clone.ID, clone.Name, clone.Hidden, clone.PC, clone.Start = lurkerCombatant, lurkerName, true, false, start
		clone.Stats = markStats(t, clone.Stats)
		s := setup
		s.Combatants = append(slices.Clone(cs), clone)
		_, err := engine.NewEncounter(rs, "enc", s)
		if err == nil {
			return s
		}
		errs = append(errs, err)
	}
	t.Fatalf("no setup with a hidden clone is accepted: %v", errs)
	return setup
}

// markStats adds the stat mark to every "name" in a stat block.
func markStats(t *testing.T, stats json.RawMessage) json.RawMessage {
	t.Helper()
	if len(stats) == 0 {
		return stats
	}
	var v any
	if err := json.Unmarshal(stats, &v); err != nil {
		t.Fatal(err)
	}
	var mark func(v any)
	mark = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "name" {
					x[k] = s + " " + lurkerStat
				} else {
					mark(e)
				}
			}
		case []any:
			for _, e := range x {
				mark(e)
			}
		}
	}
	mark(v)
	out, _ := json.Marshal(v)
	return out
}

// playHidden plays the encounter as the GM (never revealing anyone) and
// checks each player's raw projections after every command.
func playHidden(t *testing.T, rs engine.Ruleset, setup engine.Setup, seed uint64) {
	t.Helper()
	st, err := engine.NewEncounter(rs, "enc", setup)
	if err != nil {
		t.Fatal(err)
	}
	roller := dice.NewRoller(dice.NewSeeded(seed))
	pick := rand.New(rand.NewPCG(seed, 24))
	var viewers []engine.Viewer
	for _, c := range st.Core().Combatants {
		if c.PC {
			viewers = append(viewers, engine.PlayerViewer(c.ID))
		}
	}
	viewers = append(viewers, engine.Viewer{}) // a member with no character
	check := func(step int) {
		t.Helper()
		if c := st.Core().Combatant(lurkerCombatant); c == nil || !c.Hidden {
			return
		}
		for _, v := range viewers {
			parts := map[string]any{"Actions": rs.Actions(st, v)}
			if bd, ok := rs.(engine.Boarder); ok {
				parts["Board"] = bd.Board(st, v)
			}
			for part, p := range parts {
				raw, err := json.Marshal(p)
				if err != nil {
					t.Fatal(err)
				}
				if loc := lurkerMarks.FindIndex(raw); loc != nil {
					t.Fatalf("step %d: %s's %s for %v names the hidden combatant: …%s…", step, rs.ID(), part, v.Controls,
						raw[max(0, loc[0]-200):min(len(raw), loc[1]+100)])
				}
			}
		}
	}
	check(0)
	cmd := engine.NewCommand(engine.KindStart, "", nil)
	for step := 1; step <= 300 && st.Core().Status != engine.StatusFinished; step++ {
		if cmd.Kind == "" {
			view := engine.Project(rs, st, engine.GMViewer())
			view.Actions = slices.DeleteFunc(view.Actions, func(a engine.Action) bool {
				return a.Kind == engine.KindReveal || a.Kind == engine.KindRevealEvent || a.Kind == engine.KindEnd ||
					a.Kind == engine.KindRewind || a.Kind == engine.KindPause || strings.HasPrefix(a.Kind, "chat") || a.Kind == engine.KindFreeRoll
			})
			cmd = botPick(pick, view)
		}
		_, next, err := engine.Decide(rs, st, engine.GMViewer(), fmt.Sprint("c", step), cmd, roller)
		cmd = engine.Command{}
		if err != nil {
			continue
		}
		st = next
		check(step)
	}
}

// botPick answers a pending decision or takes an offered action, at random.
func botPick(pick *rand.Rand, v engine.View) engine.Command {
	if len(v.Pending) > 0 {
		d := v.Pending[pick.IntN(len(v.Pending))]
		args := map[string]any{"decision": d.ID, "choice": d.Options[pick.IntN(len(d.Options))].Value}
		if len(d.Fields) > 0 {
			args["values"] = enginetest.Values(pick, d.Fields)
		}
		return engine.NewCommand(engine.KindAnswer, "", args)
	}
	if len(v.Actions) == 0 {
		return engine.Command{Kind: "none"}
	}
	a := v.Actions[pick.IntN(len(v.Actions))]
	return engine.NewCommand(a.Kind, a.Actor, enginetest.Values(pick, a.Fields))
}
