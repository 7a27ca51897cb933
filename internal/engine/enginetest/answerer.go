package enginetest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// AssertGMAnswers checks the one policy for a question to a combatant the
// GM keeps hidden (engine.Base.Answerer): decision d, opened by events, is
// the GM's to answer. Its events are secret, so players — other than one
// who commands the hidden combatant, who sees its own character's events
// — read nothing of it and wait on "the GM"; and no player, not even that
// one, is asked it or may answer it. The GM answers in the test that
// called.
func AssertGMAnswers(t testing.TB, rs engine.Ruleset, st engine.State, events []engine.Event, d engine.Decision, players ...engine.Viewer) {
	t.Helper()
	b := st.Core()
	c := b.Combatant(d.For)
	if c == nil || !c.Hidden {
		t.Fatalf("decision %s (%s) is not about a hidden combatant: for %q", d.ID, d.Kind, d.For)
	}
	if got := b.Answerer(d); got != engine.GM {
		t.Errorf("%s: answered by %q, want the GM", d.Kind, got)
	}
	opened := slices.IndexFunc(events, func(ev engine.Event) bool {
		var o engine.DecisionOpened
		return ev.Kind == engine.KindDecisionOpened && ev.Decode(&o) == nil && o.Decision.ID == d.ID
	})
	if opened < 0 {
		t.Fatalf("%s: no event opened it", d.Kind)
	}
	if !events[opened].Secret || strings.Contains(events[opened].Text, c.Name) {
		t.Errorf("%s: the question is not secret, or names %s: %+v", d.Kind, c.Name, events[opened])
	}
	for _, v := range append(players, engine.PlayerViewer(c.ID)) {
		view := engine.Project(rs, st, v)
		if slices.ContainsFunc(view.Pending, func(p engine.Decision) bool { return p.ID == d.ID }) {
			t.Errorf("%s: player %v is asked it", d.Kind, v.Controls)
		}
		if !slices.Contains(view.Waiting, "the GM") || slices.Contains(view.Waiting, c.Name) {
			t.Errorf("%s: player %v waits on %v, want the GM", d.Kind, v.Controls, view.Waiting)
		}
		if !v.CanCommand(c.ID) {
			seen, _ := json.Marshal(engine.FilterEvents(st, v, events[opened:opened+1]))
			if strings.Contains(string(seen), d.ID) {
				t.Errorf("%s: player %v reads the question: %s", d.Kind, v.Controls, seen)
			}
		}
		answer := engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": d.Options[0].Value})
		_, _, err := engine.Decide(rs, st, v, "policy", answer, dice.NewRoller(dice.NewFixed()))
		if code := fray.ErrorCode(err); code != fray.ENOTFOUND && code != fray.EFORBIDDEN {
			t.Errorf("%s: player %v answers it: %v", d.Kind, v.Controls, err)
		}
	}
}
