package rules_test

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules"
)

// TestPromptsAreAskedAndAnswerable holds every shipped ruleset's
// declaration of the prompts standing orders answer (engine.Prompter) to
// what its fights ask: every example is played by a bot, and each
// decision of a declared kind must be put to a combatant (a standing order
// is a player's, and the GM's questions are no player's), every condition
// of its prompt tested on it at the state it was asked in, and — over
// the fights — every answer an order may give must be among the options
// such decisions offer. A ruleset declares at least one prompt and passes
// the turns of the fighters acting (engine.Passer).
func TestPromptsAreAskedAndAnswerable(t *testing.T) {
	type seen struct {
		asked   int
		options map[string]bool
	}
	byRuleset := map[string]map[string]*seen{}
	for _, s := range everyExample(t) {
		id := s.Ruleset.ID()
		prompts := engine.Prompts(s.Ruleset)
		if len(prompts) == 0 {
			t.Fatalf("%s declares no prompt a standing order answers", id)
		}
		if byRuleset[id] == nil {
			byRuleset[id] = map[string]*seen{}
			for _, p := range prompts {
				byRuleset[id][p.Kind] = &seen{options: map[string]bool{}}
			}
		}
		passed := false
		for _, seed := range botSeeds {
			played := enginetest.Bot{Default: 1}.Play(t, s.Ruleset, s.Setup, seed)
			st, err := engine.Copy(played.Initial)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range played.Log {
				if err := engine.Apply(s.Ruleset, st, ev); err != nil {
					t.Fatal(err)
				}
				b := st.Core()
				for _, a := range b.Acting {
					passed = passed || engine.PassKind(s.Ruleset, st, a) != ""
				}
				if ev.Kind != engine.KindDecisionOpened {
					continue
				}
				var opened engine.DecisionOpened
				if err := ev.Decode(&opened); err != nil {
					t.Fatal(err)
				}
				d := opened.Decision
				p, ok := engine.PromptOf(s.Ruleset, d.Kind)
				if !ok {
					continue
				}
				if d.For == engine.GM {
					t.Errorf("%s: %s's prompt %q is put to the GM: no standing order answers it", s.Name, id, d.Kind)
				}
				got := byRuleset[id][d.Kind]
				got.asked++
				for _, o := range d.Options {
					got.options[o.Value] = true
				}
				for _, c := range p.Conditions {
					_ = s.Ruleset.(engine.Prompter).Holds(st, d, c.Value) // tested on every one asked: no panic
				}
			}
		}
		if !passed {
			t.Errorf("%s: no fighter acting could pass its turn", s.Name)
		}
	}
	for id, prompts := range byRuleset {
		asked := 0
		for kind, got := range prompts {
			asked += got.asked
			if got.asked == 0 {
				t.Logf("%s: prompt %q never came up in the bots' fights", id, kind)
				continue
			}
			p, _ := engine.PromptOf(mustRuleset(t, id), kind)
			for _, a := range p.Answers {
				if !got.options[a.Value] {
					t.Errorf("%s: prompt %q declares the answer %q, which no decision of its kind offered (%v)", id, kind, a.Value, keys(got.options))
				}
			}
		}
		if asked == 0 {
			t.Errorf("%s: none of its prompts came up in the bots' fights", id)
		}
	}
}

func mustRuleset(t *testing.T, id string) engine.Ruleset {
	t.Helper()
	rs, err := rules.Registry().Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
