package notify_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/notify/notifytest"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
)

// hiddenExamples names the shipped examples that hide a combatant, and
// fails for a ruleset that has none: the test covers every ruleset.
func hiddenExamples(t *testing.T) []string {
	t.Helper()
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, rs := range rules.Registry().All() {
		found := 0
		for _, ex := range exs {
			var head struct {
				Ruleset    string
				Combatants []struct{ Hidden bool }
			}
			if err := json.Unmarshal(ex.Data, &head); err != nil {
				t.Fatalf("%s: %v", ex.Name, err)
			}
			if head.Ruleset != rs.ID() {
				continue
			}
			for _, c := range head.Combatants {
				if c.Hidden {
					names = append(names, ex.Name)
					found++
					break
				}
			}
		}
		if found == 0 {
			t.Errorf("ruleset %s has no example with a hidden combatant", rs.ID())
		}
	}
	return names
}

// No notice of any kind — a webhook's body (the whole table reads it), a
// player's push message or e-mail — names a combatant hidden from its
// reader, or a sealed choice before it is revealed: every example with a
// hidden combatant, of every ruleset, is played with the GM commanding
// everyone, and everything sent is searched for the hidden combatants'
// ids and names and for the sealed answers.
func TestNoNoticeNamesAHiddenCombatantOrASealedChoice(t *testing.T) {
	for _, example := range hiddenExamples(t) {
		t.Run(example, func(t *testing.T) {
			tb := newTable(t, example)
			ctx := context.Background()
			_, st0, err := tb.play.Current(ctx, tb.enc.ID)
			if err != nil {
				t.Fatal(err)
			}
			var hidden []engine.Combatant
			for _, c := range st0.Core().Combatants {
				if c.Hidden {
					hidden = append(hidden, c)
				}
			}
			if len(hidden) == 0 {
				t.Fatal("the example hides no one")
			}
			hook, phone, smtp := newReceiver(t), notifytest.NewBrowser(t, http.StatusCreated), notifytest.NewSMTPServer(t)
			pub, priv, _ := notify.GenerateVAPIDKeys()
			svc := notify.NewService(tb.db, notify.ServiceConfig{Guard: notify.Guard{AllowPrivate: true}, EmailOffered: true, PushKey: pub})
			if _, err := svc.CreateWebhook(ctx, tb.campaign, tb.gm.ID, hook.srv.URL, notify.FormatJSON); err != nil {
				t.Fatal(err)
			}
			p256dh, auth := phone.Keys()
			if err := svc.Subscribe(ctx, tb.sam.ID, phone.Srv.URL+"/p", p256dh, auth); err != nil {
				t.Fatal(err)
			}
			_ = svc.SetEmail(ctx, tb.sam.ID, "sam@example.com")
			if err := svc.SetChannels(ctx, tb.sam.ID, tb.campaign, true, true); err != nil {
				t.Fatal(err)
			}
			mailer, _ := notify.NewSMTP("smtp://"+smtp.Addr(), "fray@example.com")
			w := notify.NewWorker(notify.WorkerConfig{Store: tb.db, Rulesets: tb.rules, Guard: notify.Guard{AllowPrivate: true},
				Mailer: mailer, Push: &notify.Pusher{PublicKey: pub, PrivateKey: priv, Contact: "mailto:ops@example.com"}})
			for round := range 4 {
				tb.playSome(t, 40, uint64(10+round))
				w.Step(ctx)
			}
			time.Sleep(100 * time.Millisecond)
			w.Step(ctx)

			evs, err := tb.db.Events(ctx, tb.enc.ID, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Until when each hidden combatant stays hidden, and the
			// sealed answers with the seqs they are secret between.
			revealed := map[string]int64{}
			type sealed struct {
				text, label string
				from, to    int64
			}
			var seals []sealed
			for _, ev := range evs {
				switch ev.Kind {
				case engine.KindRevealed:
					var d engine.Revealed
					if ev.Decode(&d) == nil && revealed[d.Combatant] == 0 {
						revealed[d.Combatant] = ev.Seq
					}
				case engine.KindDecisionSealed:
					if ev.Actor == tb.pc {
						continue // sam's own
					}
					seals = append(seals, sealed{text: ev.Text, from: ev.Seq, to: 1 << 62})
				case engine.KindDecisionsRevealed:
					var d engine.DecisionsRevealed
					_ = ev.Decode(&d)
					for i := range seals {
						for _, a := range d.Answers {
							if seals[i].to == 1<<62 && strings.Contains(seals[i].text, a.Label) && a.Label != "" {
								seals[i].to, seals[i].label = ev.Seq, a.Label
							}
						}
					}
				}
			}
			type sent struct {
				channel string
				seq     int64
				text    string
			}
			var all []sent
			for _, r := range hook.all() {
				var m notify.Message
				_ = json.Unmarshal(r.body, &m)
				all = append(all, sent{"webhook", m.Seq, string(r.body)})
			}
			for i, p := range phone.Payloads() {
				all = append(all, sent{"push", p.Seq, phone.Raw()[i]})
			}
			_, mails := smtp.Messages()
			eventNo := regexp.MustCompile(`event (\d+)`)
			for _, m := range mails {
				unfolded := strings.ReplaceAll(m, "=\r\n", "")
				var seq int64
				if sm := eventNo.FindStringSubmatch(unfolded); sm != nil {
					seq = atoi(sm[1])
				}
				all = append(all, sent{"e-mail", seq, unfolded})
			}
			if len(all) < 3 {
				t.Fatalf("only %d notices sent", len(all))
			}
			for _, s := range all {
				if s.seq == 0 {
					t.Fatalf("a %s without its seq: %s", s.channel, s.text)
				}
				for _, h := range hidden {
					if until, ok := revealed[h.ID]; ok && s.seq >= until {
						continue
					}
					if strings.Contains(s.text, h.Name) || idToken(s.text, h.ID) {
						t.Errorf("a %s at seq %d names hidden %s (%s): %s", s.channel, s.seq, h.ID, h.Name, s.text)
					}
				}
				for _, sl := range seals {
					if strings.Contains(s.text, sl.text) || (s.seq > sl.from && s.seq < sl.to && sl.label != "" && strings.Contains(s.text, sl.label)) {
						t.Errorf("a %s at seq %d gives a sealed answer away (%q): %s", s.channel, s.seq, sl.text, s.text)
					}
				}
			}
			t.Logf("%d notices checked (%d webhook, %d push, %d e-mail); hidden: %d, sealed answers: %d", len(all), len(hook.all()), len(phone.Payloads()), len(mails), len(hidden), len(seals))
		})
	}
}

func atoi(s string) int64 {
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return n
}

// idToken reports whether id occurs in s as a token: not inside a longer
// run of letters, digits, '-' and '_'.
func idToken(s, id string) bool {
	re := regexp.MustCompile(`(^|[^\pL\pN_-])` + regexp.QuoteMeta(id) + `($|[^\pL\pN_-])`)
	return re.MatchString(s)
}
