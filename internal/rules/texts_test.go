package rules_test

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// unreadable are what a log line or a roll card's words must not hold:
// coordinates ("reaches 5,5": a square has the board's name, "F6") and a
// bracketed formula ("[Accurate←Defense]": the roll card itemises its
// modifiers and target instead).
var unreadable = []struct {
	what string
	re   *regexp.Regexp
}{
	{"coordinates", regexp.MustCompile(`\b\d+,\d+\b`)},
	{"a bracketed formula", regexp.MustCompile(`\[[^\]]*[←=][^\]]*\]`)},
	{"a formula arrow", regexp.MustCompile(`←`)},
	// "Fighting 7 vs Parry 5: hit", "(Strength 7 vs 5)": a sentence says
	// what happened; its roll shows the numbers, in the roll cards'
	// notation (dice.Roll).
	{"bare numbers against numbers", regexp.MustCompile(`\b\d+ (?:vs\.?|against) (?:[A-Z][\w']*(?: [A-Z][\w']*)* )?[−-]?\d+\b`)},
}

// botSeeds are the dice seeds every example is played with.
var botSeeds = []uint64{1, 2, 3}

// TestBotPlayedTextsAndRefusals plays every example of every ruleset with
// a rule-blind bot (every advertised action alike, GM rulings included)
// and checks what a player reads: every event's text, every roll's
// label, modifiers and result, and what the GM's view offers along the way
// (actions, choices, decisions) read as words said at the table — no
// coordinates, no bracketed formulas, and in the log combatants and zones
// by name, never by id. None of the advertised commands the bot sends
// may be refused.
func TestBotPlayedTextsAndRefusals(t *testing.T) {
	sent, refused := map[string]int{}, map[string]int{}
	why := map[string]map[string]int{}
	for _, s := range everyExample(t) {
		id := s.Ruleset.ID()
		if why[id] == nil {
			why[id] = map[string]int{}
		}
		t.Run(s.Name, func(t *testing.T) {
			found := map[string]string{}
			for _, seed := range botSeeds {
				played := enginetest.Bot{Default: 1}.Play(t, s.Ruleset, s.Setup, seed)
				ids := rawIDs(played.Initial.Core(), engine.Project(s.Ruleset, played.Initial, engine.GMViewer()).Board)
				for _, text := range offeredTexts(t, s, played) {
					for _, p := range unreadable {
						if p.re.MatchString(text) {
							found[p.what+" in what the GM is offered"] = text
						}
					}
				}
				for _, ev := range played.Log {
					texts := []string{ev.Text}
					for _, r := range ev.Rolls {
						texts = append(texts, r.Label, r.Result)
						for _, m := range r.Mods {
							texts = append(texts, m.Label)
						}
					}
					for _, text := range texts {
						for _, p := range unreadable {
							if p.re.MatchString(text) {
								found[p.what+" in "+ev.Kind] = text
							}
						}
						for _, re := range ids {
							if re.MatchString(text) {
								found["a combatant's id in "+ev.Kind] = text
							}
						}
					}
				}
				for k, n := range played.Done {
					switch {
					case strings.HasPrefix(k, "event:"):
					case strings.HasPrefix(k, "refused:"):
						refused[id] += n
						sent[id] += n
					default:
						sent[id] += n
					}
				}
				for k, n := range played.Refusals {
					why[id][k] += n
				}
			}
			keys := make([]string, 0, len(found))
			for k := range found {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t.Errorf("%s: %q", k, found[k])
			}
		})
	}
	for id, n := range sent {
		share := float64(refused[id]) / float64(n)
		t.Logf("%s: %d of %d advertised commands refused (%.1f%%)", id, refused[id], n, 100*share)
		if refused[id] > 0 {
			var reasons []string
			for k, c := range why[id] {
				reasons = append(reasons, fmt.Sprintf("%s ×%d", k, c))
			}
			sort.Strings(reasons)
			t.Errorf("%s refuses %.1f%% of the advertised commands, want none:\n%s", id, 100*share, strings.Join(reasons, "\n"))
		}
	}
}

// offeredTexts are the words of what the GM's view offers after each
// command of a played fight: the actions' labels, their fields' choices,
// the decisions' prompts and options, and the actions' help.
func offeredTexts(t *testing.T, s started, played enginetest.Played) []string {
	t.Helper()
	st, err := engine.Copy(played.Initial)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	add := func(text string) {
		if !seen[text] {
			seen[text] = true
			out = append(out, text)
		}
	}
	for i, ev := range played.Log {
		if err := engine.Apply(s.Ruleset, st, ev); err != nil {
			t.Fatal(err)
		}
		if i+1 < len(played.Log) && played.Log[i+1].Command == ev.Command {
			continue // the middle of a command: no one sees this state
		}
		v := engine.Project(s.Ruleset, st, engine.GMViewer())
		for _, a := range v.Actions {
			add(a.Label)
			add(a.Help)
			for _, f := range a.Fields {
				for _, o := range f.Options {
					add(o.Label)
				}
			}
		}
		for _, d := range v.Pending {
			add(d.Prompt)
			for _, o := range d.Options {
				add(o.Label)
			}
		}
	}
	return out
}

// rawIDs are patterns for the ids of b's combatants and of the board's
// zones that are not words of a name (an id "thug" is no leak in "Axe
// thug", nor "yard" in "The yard").
func rawIDs(b *engine.Base, bd *board.Board) []*regexp.Regexp {
	var names, ids []string
	for _, c := range b.Combatants {
		names = append(names, strings.ToLower(c.Name))
		ids = append(ids, c.ID)
	}
	for _, s := range b.Sides {
		names = append(names, strings.ToLower(s.Name))
	}
	if bd != nil && bd.Zones != nil {
		for _, a := range bd.Zones.Areas {
			names = append(names, strings.ToLower(a.Name))
			ids = append(ids, a.ID)
		}
	}
	var out []*regexp.Regexp
	for _, id := range ids {
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.ToLower(id)) + `\b`)
		if slices.ContainsFunc(names, word.MatchString) {
			continue
		}
		out = append(out, regexp.MustCompile(`\b`+regexp.QuoteMeta(id)+`\b`))
	}
	return out
}

// The scan's patterns find what they are for, and pass a sentence.
func TestUnreadablePatterns(t *testing.T) {
	b := &engine.Base{Combatants: []engine.Combatant{{ID: "thug", Name: "Axe thug"}, {ID: "g2", Name: "Goblin archer"}}}
	ids := rawIDs(b, &board.Board{Zones: &board.ZoneMap{Areas: []board.Area{{ID: "z3", Name: "Courtyard"}, {ID: "yard", Name: "The yard"}}}})
	for _, tc := range []struct {
		text       string
		unreadable bool
	}{
		{"The sniper reaches 43,2.", true},
		{"Attack [Accurate←Defense]", true},
		{"g2 hits Ana.", true},
		{"Ana runs to z3.", true},
		{"Ana runs to The yard.", false},
		{"Axe thug hits Goblin archer; Ana reaches F6.", false},
		{"Attack: Accurate against Defense", false},
		{"Brak hits Gob (Fighting 7 vs Parry 5): hit", true},
		{"Brak pushes Gob (Strength 7 vs 5)", true},
		{"missed (3 against −2)", true},
		{"Shooting against 4, range in zones.", false},
		{"Fighting d8 against Parry.", false},
	} {
		got := false
		for _, p := range unreadable {
			got = got || p.re.MatchString(tc.text)
		}
		for _, re := range ids {
			got = got || re.MatchString(tc.text)
		}
		if got != tc.unreadable {
			t.Errorf("%q: unreadable %v, want %v", tc.text, got, tc.unreadable)
		}
	}
}
