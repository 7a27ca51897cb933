package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/say"
	"github.com/fray-vtt/fray/internal/testdb"
)

// sayReply is POST /api/encounters/{id}/say's answer, or its refusal.
type sayReply struct {
	Said, Answer  string
	Seq           int64
	Events        []engine.Event
	Code, Message string
}

// TestEveryFightBySay plays every example encounter of every ruleset over
// the real server with every command said in words: the player (who owns
// the example's first player character) and the GM each pick a command
// among those their own view advertises, as a rule-blind client does,
// write it with the grammar generated from that view (say.Sentence) and
// send the sentence to POST /api/encounters/{id}/say — sealed answers
// too, which the server commits to for the player and reveals once all
// have answered. Every fight must finish; at most 2 % of the sentences
// may be refused, each refusal with a reason and never a server error;
// and each accepted sentence answers with what it was read as.
func TestEveryFightBySay(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "9"})
	gm, player := srv.signup("say-gm"), srv.signup("say-player")
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]bool{}
	byPlayer, sealed := 0, 0
	for i, ex := range exs {
		t.Run(ex.Name, func(t *testing.T) {
			s := *srv
			s.t = t
			var created struct{ ID, Campaign string }
			if code := s.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
				t.Fatalf("import: %d", code)
			}
			var setup engine.Setup
			if err := json.Unmarshal(ex.Data, &setup); err != nil {
				t.Fatal(err)
			}
			pc := ""
			for _, c := range setup.Combatants {
				if c.PC && pc == "" {
					pc = c.ID
				}
			}
			s.join(gm, created.Campaign, player, pc)
			rng := rand.New(rand.NewPCG(uint64(i), 46))
			said, refused := 0, map[string]int{}
			for step := 0; ; step++ {
				v := s.viewAs(gm, created.ID)
				if v.Status == engine.StatusFinished {
					break
				}
				if step > 3000 {
					t.Fatalf("not finished after %d sentences", step)
				}
				// The player speaks when anything waits on them; the GM
				// leaves the player's questions to the player.
				who, view := player, s.viewAs(player, created.ID)
				if slices.ContainsFunc(view.Committed, func(c engine.Committed) bool { return c.Reveal }) {
					// The server reveals the player's sealed answers it holds
					// (its steward, soon): the table waits for that.
					patience.Until(t, "the held answers to be revealed", func() bool { return s.viewAs(gm, created.ID).Seq != v.Seq })
					continue
				}
				if len(view.Pending) == 0 && (view.Attention == nil || len(view.Actions) == 0) {
					who, view = gm, v
					// Not the fallback for answers not revealed: the steward reveals them.
					view.Actions = slices.DeleteFunc(view.Actions, func(a engine.Action) bool { return a.Kind == engine.KindRevealTimeout })
					view.Pending = slices.DeleteFunc(view.Pending, func(d engine.Decision) bool { return v.Viewer.PlayerOwned(d.For) })
				}
				cmd := contractPick(rng, view, nil)
				if cmd == nil {
					// Only sealed answers the server holds wait: the steward reveals them.
					patience.Until(t, "the held answers to be revealed", func() bool { return s.viewAs(gm, created.ID).Seq != v.Seq })
					continue
				}
				raw, _ := json.Marshal(cmd)
				c, err := engine.DecodeCommand(raw)
				if err != nil {
					t.Fatal(err)
				}
				text, err := say.Sentence(view, c)
				if err != nil {
					t.Fatalf("%s has no words in its own view: %v", raw, err)
				}
				said++
				var reply sayReply
				code := s.call(who, "POST", "/api/encounters/"+created.ID+"/say", map[string]any{"id": fmt.Sprint("w", step), "text": text}, &reply)
				switch {
				case code == http.StatusOK && reply.Said != "" && reply.Answer != "":
					if who == player {
						byPlayer++
						if strings.Contains(reply.Answer, "Sealed until everyone has answered") {
							sealed++
						}
					}
				case code >= 400 && code < 500 && reply.Message != "" && reply.Code != "internal":
					refused[fmt.Sprintf("%q: %s", text, reply.Message)]++
				default:
					t.Fatalf("%s said %q: %d %+v", who.Name, text, code, reply)
				}
			}
			if n := total(refused); n*50 > said {
				t.Errorf("%d of %d sentences refused, more than 2 %%: %v", n, said, refused)
			}
			t.Logf("%s: %d sentences, %d refused", ex.Name, said, total(refused))
			played[ex.Ruleset] = true
		})
	}
	for _, rs := range rules.Registry().All() {
		if !played[rs.ID()] {
			t.Errorf("no example of %s was played by words", rs.ID())
		}
	}
	if byPlayer < 100 || sealed == 0 {
		t.Errorf("the player said %d sentences, %d of them sealed answers: the test plays the GM's fight alone", byPlayer, sealed)
	}
	t.Logf("the player said %d sentences, %d sealed answers", byPlayer, sealed)
}

// TestSayAnswers: what the say endpoint answers besides commands — the
// table's questions, completions, refusals — changes nothing, and a
// refusal is the page's.
func TestSayAnswers(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "9"})
	gm := srv.signup("say-answers-gm")
	ex, err := prep.ExampleNamed("sw-zones-dusty-gulch")
	if err != nil {
		t.Skip(err)
	}
	var created struct{ ID string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	base := "/api/encounters/" + created.ID + "/say"
	seq := srv.viewAs(gm, created.ID).Seq
	for text, want := range map[string]string{
		"status":             "The encounter has not started.",
		"describe the board": "",
		"help":               "You may say: start encounter",
	} {
		var reply sayReply
		if code := srv.call(gm, "POST", base, map[string]string{"text": text}, &reply); code != http.StatusOK || !strings.Contains(reply.Answer, want) || reply.Said != "" {
			t.Errorf("%q: %d %+v", text, code, reply)
		}
	}
	var reply sayReply
	if code := srv.call(gm, "POST", base, map[string]string{"text": "fly to the moon"}, &reply); code != http.StatusUnprocessableEntity && code != http.StatusBadRequest || reply.Message == "" {
		t.Errorf("nonsense: %d %+v", code, reply)
	}
	if srv.viewAs(gm, created.ID).Seq != seq {
		t.Fatal("a question or a refusal changed the encounter")
	}
	var comp struct{ Completions []string }
	if code := srv.call(gm, "GET", base+"?text=sta", nil, &comp); code != http.StatusOK || !slices.Contains(comp.Completions, "start encounter") {
		t.Errorf("completions: %d %v", code, comp)
	}
	if code := srv.call(gm, "POST", base, map[string]string{"text": "start encounter"}, &reply); code != http.StatusOK || reply.Said != "Start encounter" || len(reply.Events) == 0 {
		t.Fatalf("start: %d %+v", code, reply)
	}
	if srv.viewAs(gm, created.ID).Status != engine.StatusRunning {
		t.Fatal("said, not done")
	}
}
