package rules_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// TestEveryLogLineSaysWhoDidWhat plays every example of every ruleset
// with the advertised-actions bot (clientPick) and reads each event's
// line as the log shows it: none is empty — the log would show the bare
// kind ("acted") — and one a combatant caused names someone in the fight.
func TestEveryLogLineSaysWhoDidWhat(t *testing.T) {
	for _, s := range everyExample(t) {
		pick := rand.New(rand.NewPCG(3, 41))
		roller := dice.NewRoller(dice.NewSeeded(3))
		all, st, err := engine.Decide(s.Ruleset, s.State, engine.GMViewer(), "start", engine.NewCommand(engine.KindStart, "", nil), roller)
		if err != nil {
			t.Fatalf("%s: start: %v", s.Name, err)
		}
		for step := 0; step < 200 && st.Core().Status == engine.StatusRunning; step++ {
			cmd, _, ok := clientPick(pick, engine.Project(s.Ruleset, st, engine.GMViewer()))
			if !ok {
				break
			}
			private, err := engine.Copy(st)
			if err != nil {
				t.Fatal(err)
			}
			if evs, next, err := engine.DecideOwned(s.Ruleset, private, engine.GMViewer(), "c"+strconv.Itoa(step), cmd, roller, nil); err == nil {
				st, all = next, append(all, evs...)
			}
		}
		seen := map[string]bool{}
		for _, ev := range all {
			why := ""
			switch c := st.Core().Combatant(ev.Actor); {
			case strings.TrimSpace(ev.Text) == "" || ev.Text == ev.Kind:
				why = "has no line: the log shows its kind"
			case c != nil && !namesSomeone(st.Core(), ev.Text):
				why = "names no one in the fight"
			}
			if why != "" && !seen[ev.Kind+why] {
				seen[ev.Kind+why] = true
				t.Errorf("%s (%s): a %s event by %s %s: %q", s.Ruleset.ID(), s.Name, ev.Kind, ev.Actor, why, ev.Text)
			}
		}
	}
}

func namesSomeone(b *engine.Base, text string) bool {
	for _, c := range b.Combatants {
		if strings.Contains(text, c.Name) {
			return true
		}
	}
	return strings.Contains(text, "GM")
}
