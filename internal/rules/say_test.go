package rules_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/say"
)

// TestEveryFightByWords plays every example of every registered ruleset to
// its end with a bot whose every command — the players' and the GM's,
// actions and answers — goes through words: the bot picks a command among
// those its view offers, says it with the grammar generated from that view
// (say.Sentence) and sends what say.Parse reads back. The words must read
// back as the very command the bot meant, or be refused with a reason; at
// most 2 % of all the commands may be refused for any reason (the
// ruleset's refusals included), and the fights must finish.
func TestEveryFightByWords(t *testing.T) {
	played := map[string]bool{}
	for _, s := range everyExample(t) {
		t.Run(s.Name, func(t *testing.T) {
			said, misread := 0, 0
			words := func(v engine.View, c engine.Command) (engine.Command, error) {
				text, err := say.Sentence(v, c)
				if err != nil {
					t.Fatalf("the bot's own command %s has no words: %v", c.Kind, err)
				}
				said++
				r, err := say.Parse(v, text)
				if err != nil {
					if fray.ErrorMessage(err) == "" || fray.ErrorCode(err) == fray.EINTERNAL {
						t.Fatalf("%q refused without a reason: %v", text, err)
					}
					misread++
					t.Logf("%q refused: %s", text, fray.ErrorMessage(err))
					return engine.Command{}, err
				}
				if !sameCommand(c, r.Command) {
					raw, _ := json.Marshal(c)
					got, _ := json.Marshal(r.Command)
					t.Errorf("%q read as %s, meant %s", text, got, raw)
				}
				return r.Command, nil
			}
			p := enginetest.Bot{Default: 1, Players: true, Words: words}.Play(t, s.Ruleset, s.Setup, 11)
			refused, total := 0, 0
			for k, n := range p.Done {
				switch {
				case strings.HasPrefix(k, "refused:"):
					refused += n
					total += n
				case !strings.HasPrefix(k, "event:"):
					total += n
				}
			}
			if refused*50 > total {
				t.Errorf("%d of %d commands refused (more than 2 %%): %v", refused, total, p.Refusals)
			}
			if misread > 0 {
				t.Errorf("%d of %d sentences were not read back", misread, said)
			}
			t.Logf("%d sentences said; %d of %d commands refused", said, refused, total)
			played[s.Ruleset.ID()] = true
		})
	}
	for _, rs := range rules.Registry().All() {
		if !played[rs.ID()] {
			t.Errorf("%s was not played by words", rs.ID())
		}
	}
}

// sameCommand reports whether two commands are one: kind, actor and
// arguments.
func sameCommand(a, b engine.Command) bool {
	if a.Kind != b.Kind || a.Actor != b.Actor {
		return false
	}
	var x, y map[string]any
	_ = json.Unmarshal(a.Args, &x)
	_ = json.Unmarshal(b.Args, &y)
	if len(x) == 0 && len(y) == 0 {
		return true
	}
	return reflect.DeepEqual(x, y)
}

var updateWordsDoc = flag.Bool("update-words-doc", false, "rewrite the command words of docs/playing-by-words.md from the rulesets' declarations")

// The markers around the generated part of docs/playing-by-words.md.
const (
	wordsBegin = "<!-- The words below are generated from each ruleset's declared actions, fields and questions, as bots\n" +
		"playing its examples were offered them, by go test ./internal/rules -run TestWordsDocFollowsDeclarations -update-words-doc. -->\n"
	wordsEnd = "<!-- End of the generated words. -->\n"
)

// TestWordsDocFollowsDeclarations holds the players' page on playing by
// words (docs/playing-by-words.md) to the declarations: its list of each
// ruleset's command words is the grammar say.Grammar generates from the
// views a bot's fights of the ruleset's examples offered — the players'
// and the GM's — each action kind's commonest pattern, and each question
// kind's commonest answers (rewrite it with -update-words-doc).
func TestWordsDocFollowsDeclarations(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "playing-by-words.md")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, wordsBegin), strings.Index(doc, wordsEnd)
	if begin < 0 || end < begin {
		t.Fatal("the page has no generated words between its markers")
	}
	// kind → pattern → times offered, by ruleset and by who.
	type key struct{ ruleset, who string }
	seen := map[key]map[string]map[string]int{}
	for _, s := range everyExample(t) {
		look := func(v engine.View, c engine.Command) (engine.Command, error) {
			k := key{s.Ruleset.ID(), "player"}
			if v.Viewer.GM {
				k.who = "gm"
			}
			for _, r := range say.Grammar(v) {
				kind := r.Kind
				if r.Answer {
					kind = "?" + kind
				}
				if seen[k] == nil {
					seen[k] = map[string]map[string]int{}
				}
				if seen[k][kind] == nil {
					seen[k][kind] = map[string]int{}
				}
				seen[k][kind][r.Words]++
			}
			return c, nil
		}
		enginetest.Bot{Default: 1, Players: true, Words: look}.Play(t, s.Ruleset, s.Setup, 11)
	}
	var b strings.Builder
	for _, rs := range rules.Registry().All() {
		fmt.Fprintf(&b, "\n### %s\n", rs.ID())
		for _, who := range []string{"player", "gm"} {
			kinds := seen[key{rs.ID(), who}]
			var actions, questions []string
			for kind, patterns := range kinds {
				if who == "gm" && seen[key{rs.ID(), "player"}][kind] != nil {
					continue // said by players too: listed there
				}
				best := ""
				for p, n := range patterns {
					if best == "" || n > patterns[best] || (n == patterns[best] && p < best) {
						best = p
					}
				}
				line := "- `" + best + "`"
				if strings.HasPrefix(kind, "?") {
					questions = append(questions, line+" (question `"+strings.TrimPrefix(kind, "?")+"`)")
				} else {
					actions = append(actions, line)
				}
			}
			slices.Sort(actions)
			slices.Sort(questions)
			title := "Players say"
			if who == "gm" {
				title = "The GM also says"
			}
			if len(actions) > 0 {
				fmt.Fprintf(&b, "\n%s:\n\n%s\n", title, strings.Join(actions, "\n"))
			}
			if len(questions) > 0 {
				fmt.Fprintf(&b, "\nAnd answers questions with one of their answers, as in:\n\n%s\n", strings.Join(questions, "\n"))
			}
		}
	}
	b.WriteString("\n")
	want := doc[:begin+len(wordsBegin)] + b.String() + doc[end:]
	if *updateWordsDoc {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != doc {
		t.Error("docs/playing-by-words.md's command words are not the declarations': run go test ./internal/rules -run TestWordsDocFollowsDeclarations -update-words-doc")
	}
}
