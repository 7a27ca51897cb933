package rules_test

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules"
)

// Refusals say why (issue 41): a player told no is told the reason in the
// game's terms — out of range and how far the weapon reaches, no line of
// sight, not adjacent, whose turn it is, what is missing. The page asks
// the rules for the same reason (engine.Refusal) the API's error gives.

var (
	// placesOnly is a refusal that only says where people stand ("Rat:
	// Q8. Dex Malone: E7. 12 squares across…").
	placesOnly = regexp.MustCompile(`^(?:[^:.]+: [A-Z]{1,2}[0-9]+\.\s*)+|squares across`)
	// ownSide tells an actor it is on its own side.
	ownSide = regexp.MustCompile(`^(.+) is on (.+)'s side`)
)

// reasonless says what is wrong with refusal msg, or "" when it names a
// reason; ids are the combatants' ids, which a player never reads.
func reasonless(msg string, ids []string) string {
	switch {
	case strings.TrimSpace(msg) == "":
		return "says nothing"
	case strings.Contains(msg, "not available now"):
		return "says only that it is not available"
	case placesOnly.MatchString(msg):
		return "says where people stand, not why"
	}
	if m := ownSide.FindStringSubmatch(msg); m != nil && m[1] == m[2] {
		return "tells the actor it is on its own side"
	}
	for _, id := range ids {
		if strings.Contains(msg, strconv.Quote(id)) {
			return "names a combatant by its id, not its name"
		}
	}
	return ""
}

func TestReasonless(t *testing.T) {
	ids := []string{"rat"}
	for msg, bad := range map[string]bool{
		"Rat: Q8. Dex Malone: E7. 12 squares across and 3 up or down from each other.": true,
		"that action is not available now":                                             true,
		`no combatant "rat" in the fight`:                                              true,
		"Rat is on Rat's side":                                                         true,
		"":                                                                             true,
		"Rat is out of range: the knife reaches 50 ft":                                 false,
		"it is not Rat's turn":                                                         false,
		"Rat is on Dex Malone's side":                                                  false,
	} {
		if got := reasonless(msg, ids) != ""; got != bad {
			t.Errorf("%q: reasonless %v, want %v", msg, got, bad)
		}
	}
}

// TestRefusalsSayWhy plays every example of every ruleset with the
// advertised-actions bot (clientPick) and, in every third state, sends
// what a player's page may send and the rules refuse: each offered action
// with every combatant it does not offer as its target (a token clicked
// on the board), and each action offered a step before that is offered no
// more (a form from a page the table has moved past). Every refusal must
// name a reason, as engine.Refusal — what the page shows — says it.
func TestRefusalsSayWhy(t *testing.T) {
	counts := map[string]int{}
	for _, s := range everyExample(t) {
		id := s.Ruleset.ID()
		pick := rand.New(rand.NewPCG(1, 41))
		roller := dice.NewRoller(dice.NewSeeded(1))
		_, st, err := engine.Decide(s.Ruleset, s.State, engine.GMViewer(), "start", engine.NewCommand(engine.KindStart, "", nil), roller)
		if err != nil {
			t.Fatalf("%s: start: %v", s.Name, err)
		}
		var ids []string
		for _, c := range st.Core().Combatants {
			ids = append(ids, c.ID)
		}
		seen := map[string]bool{}
		var prev engine.View
		for step := 0; step < 120 && st.Core().Status == engine.StatusRunning; step++ {
			view := engine.Project(s.Ruleset, st, engine.GMViewer())
			try := func(what string, cmd engine.Command) {
				err := engine.Refusal(s.Ruleset, st, engine.GMViewer(), cmd)
				if err == nil {
					return
				}
				counts[id]++
				msg := fray.ErrorMessage(err)
				if fray.ErrorCode(err) == fray.EINTERNAL {
					t.Errorf("%s: %s: an internal error: %v", s.Name, what, err)
				} else if why := reasonless(msg, ids); why != "" && !seen[what+msg] {
					seen[what+msg] = true
					t.Errorf("%s (%s): %s is refused with %q, which %s", id, s.Name, what, msg, why)
				}
			}
			if step%3 == 0 {
				for _, a := range view.Actions {
					for _, f := range a.Fields {
						if !f.Target {
							continue
						}
						for _, c := range view.Combatants {
							if slices.ContainsFunc(f.Options, func(o engine.Choice) bool { return o.Value == c.ID }) {
								continue
							}
							args := formDefaults(a.Fields)
							args[f.Name] = c.ID
							try(a.Kind+" at "+c.ID, engine.NewCommand(a.Kind, a.Actor, args))
						}
					}
				}
				for _, a := range prev.Actions {
					if !slices.ContainsFunc(view.Actions, func(b engine.Action) bool { return b.Kind == a.Kind && b.Actor == a.Actor }) {
						try(a.Kind+" offered no more", engine.NewCommand(a.Kind, a.Actor, formDefaults(a.Fields)))
					}
				}
			}
			prev = view
			cmd, _, ok := clientPick(pick, view)
			if !ok {
				break
			}
			private, err := engine.Copy(st)
			if err != nil {
				t.Fatal(err)
			}
			if _, next, err := engine.DecideOwned(s.Ruleset, private, engine.GMViewer(), "c"+strconv.Itoa(step), cmd, roller, nil); err == nil {
				st = next
			}
		}
	}
	for _, rs := range rules.Registry().All() {
		t.Logf("%s: %d refusals read", rs.ID(), counts[rs.ID()])
		if counts[rs.ID()] == 0 {
			t.Errorf("%s: the bot met no refusal to read", rs.ID())
		}
	}
}
