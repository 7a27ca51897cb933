package rules_test

import (
	"encoding/json"
	"reflect"
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
