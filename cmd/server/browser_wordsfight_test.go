package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/say"
	"github.com/fray-vtt/fray/internal/testdb"
)

// typeSentence types text into the page's command line as a person at the
// keyboard does — "/" to reach it, the words, Enter — and returns the
// line's answer and whether it was a refusal.
func typeSentence(t *testing.T, page context.Context, text string) (answer string, refused bool) {
	t.Helper()
	var class string
	steps(t, page,
		chromedp.Evaluate(`document.getElementById('words-answer').textContent = ''`, nil),
		chromedp.KeyEvent("/"),
		chromedp.Poll(`document.activeElement && document.activeElement.id === 'words-input'`, nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.KeyEvent(text),
		chromedp.KeyEvent(kb.Enter),
		chromedp.Poll(`document.getElementById('words-answer').textContent !== ''`, nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.Text("#words-answer", &answer, chromedp.ByQuery),
		chromedp.AttributeValue("#words-answer", "class", &class, nil, chromedp.ByQuery))
	return answer, strings.Contains(class, "refused")
}

// caughtUp waits until page has applied every update up to seq.
func caughtUp(t *testing.T, page context.Context, seq int64) {
	t.Helper()
	steps(t, page, chromedp.Poll(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.seq) >= %d`, seq), nil,
		chromedp.WithPollingTimeout(patience.Hang())))
}

// readOut waits until page's words have read out every entry of its log:
// words.js reads 50 ms after the last change, so an entry that landed
// just before a check would otherwise be heard inside the window the check
// opens next.
func readOut(t *testing.T, page context.Context) {
	t.Helper()
	steps(t, page, chromedp.Poll(`(() => {
		const seqs = Array.from(document.querySelectorAll('li[id^="ev-"][data-spoken]:not(.undone)'), (li) => Number(li.id.slice(3)));
		return Number(document.getElementById('encounter').dataset.announced) >= Math.max(0, ...seqs);
	})()`, nil, chromedp.WithPollingTimeout(patience.Hang())))
}

// TestBrowserEveryFightByWords plays one whole fight of every ruleset —
// its first example — where every command of the player is typed into the
// encounter page's command line in Chromium, the bot choosing each
// sentence from the grammar generated from the player's own view
// (say.Sentence of a command the view advertises). The GM's commands go
// through the same words over the API (POST …/say); every other example
// of every ruleset is played by words over the API alone, by
// TestEveryFightBySay. The fights finish with at most 2 % of the
// sentences refused, each refusal with a reason.
//
// In the d20-duel fight the GM answers its fighters' sealed stances before
// the player, and until the reveal the player's page — its accessibility
// tree and its announcements — holds no text of that choice.
func TestBrowserEveryFightByWords(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "11"})
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	browser := newBrowser(t)
	// One GM and one player for every ruleset: sign-ups are rate-limited.
	gm, player := srv.signup("pagefight-gm"), srv.signup("pagefight-player")
	started := time.Now()
	done := map[string]bool{}
	typedAll := 0
	for i, ex := range exs {
		if done[ex.Ruleset] {
			continue
		}
		done[ex.Ruleset] = true
		t.Run(ex.Ruleset, func(t *testing.T) {
			s := *srv
			s.t = t
			pc := setupPC(t, ex.Data)
			f := newWordsFightAs(t, &s, gm, player, ex.Data, pc, uint64(100+i))
			page := tab(t, browser)
			login(t, page, srv.URL, f.player.Name)
			steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+f.id),
				chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
			ear := &listener{seen: map[int64]bool{}}
			typed, said, sealedChecked := 0, 0, 0
			refused := map[string]int{}
			f.say(f.gm, "start encounter")
			for step := 0; ; step++ {
				gv := f.srv.viewAs(f.gm, f.id)
				if gv.Status == engine.StatusFinished {
					break
				}
				if step > 3000 {
					t.Fatalf("not finished after %d sentences", step)
				}
				pv := f.srv.viewAs(f.player, f.id)
				if slices.ContainsFunc(pv.Committed, func(c engine.Committed) bool { return c.Reveal }) {
					patience.Until(t, "the held answers to be revealed", func() bool { return f.srv.viewAs(f.gm, f.id).Seq != gv.Seq })
					continue
				}
				if d, ok := sealedBeforePlayer(gv, pv); ok {
					// The GM answers first: the player's page is then read
					// until the reveal waits on the player alone.
					f.sealedUnseen(page, ear, gv, d)
					sealedChecked++
					said++
					continue
				}
				if len(pv.Pending) > 0 || (pv.Attention != nil && len(pv.Actions) > 0) {
					text := f.sentence(pv)
					if text == "" {
						t.Fatalf("nothing to say, though the table waits on the player: %+v", pv.Attention)
					}
					said++
					typed++
					if answer, no := typeSentence(t, page, text); no {
						if answer == "" {
							t.Fatalf("%q typed on the page was refused without a reason", text)
						}
						refused[fmt.Sprintf("%q: %s", text, answer)]++
					}
					continue
				}
				text := f.sentence(gv)
				if text == "" {
					patience.Until(t, "the table to move", func() bool { return f.srv.viewAs(f.gm, f.id).Seq != gv.Seq })
					continue
				}
				said++
				if r := f.sayOrRefuse(f.gm, text); r.Message != "" {
					refused[fmt.Sprintf("%q: %s", text, r.Message)]++
				}
			}
			if n := total(refused); n*50 > said {
				t.Errorf("%d of %d sentences refused, more than 2 %%: %v", n, said, refused)
			}
			if typed < 3 {
				t.Errorf("the player typed %d sentences: the fight was not the page's", typed)
			}
			if ex.Ruleset == "d20-duel" && sealedChecked == 0 {
				t.Error("the GM never answered a sealed choice before the player: nothing sealed was checked")
			}
			typedAll += typed
			t.Logf("%s: %d sentences, %d typed on the page, %d refused, %d sealed answers of the GM's kept from the player's page",
				ex.Name, said, typed, total(refused), sealedChecked)
		})
	}
	for _, rs := range rules.Registry().All() {
		if !done[rs.ID()] {
			t.Errorf("no fight of %s was played on the page", rs.ID())
		}
	}
	t.Logf("%d sentences typed on the page in %s", typedAll, time.Since(started).Round(time.Second))
}

// sayOrRefuse sends text as u: a refusal (with its reason in Message) is
// returned, a server error or a refusal without a reason fails the test.
func (f *wordsFight) sayOrRefuse(u *apiUser, text string) sayReply {
	f.t.Helper()
	var reply sayReply
	f.step++
	code := f.srv.call(u, "POST", "/api/encounters/"+f.id+"/say", map[string]any{"id": fmt.Sprint("b", f.step), "text": text}, &reply)
	switch {
	case code == http.StatusOK && reply.Answer != "":
		return reply
	case code >= 400 && code < 500 && reply.Message != "" && reply.Code != "internal":
		return reply
	}
	f.t.Fatalf("%s said %q: %d %+v", u.Name, text, code, reply)
	return reply
}

// sealedBeforePlayer finds a sealed decision the GM answers (for one of
// its fighters) whose group has a decision of the player's still open:
// answered now, its choice is the GM's secret until the player answers.
func sealedBeforePlayer(gv, pv engine.View) (engine.Decision, bool) {
	for _, d := range gv.Pending {
		if !d.Sealed || d.Answered || gv.Viewer.PlayerOwned(d.For) {
			continue
		}
		if slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.Group == d.Group && !p.Answered }) {
			return d, true
		}
	}
	return engine.Decision{}, false
}

// sealedUnseen has the GM answer sealed decision d in words, then reads
// the player's page once it has every update. The player's own question
// lists the same options, and the status that reads it out changes when
// the GM has answered; so what is checked is that the page never names
// the GM's choice more often than an option it did not choose — in the
// announcements since, and in the accessibility tree, against what it
// named before — and never holds the GM's secret line of it.
func (f *wordsFight) sealedUnseen(page context.Context, ear *listener, gv engine.View, d engine.Decision) {
	t := f.t
	t.Helper()
	caughtUp(t, page, f.srv.viewAs(f.player, f.id).Seq)
	readOut(t, page)
	ear.listen(t, page)
	heard := len(ear.heard)
	choice := d.Options[f.rng.IntN(len(d.Options))]
	label := d.Label(choice.Value)
	counts := func(texts []string) map[string]int {
		n := map[string]int{}
		for _, text := range texts {
			for _, o := range d.Options {
				n[o.Label] += strings.Count(text, o.Label)
			}
		}
		return n
	}
	names := func(tr axTree) []string {
		var out []string
		for _, node := range tr.nodes {
			if !node.Ignored {
				out = append(out, axString(node.Name))
			}
		}
		return out
	}
	was := counts(names(readAXTree(t, page)))
	one := gv
	one.Pending, one.Actions = []engine.Decision{d}, nil
	args := map[string]any{"decision": d.ID, "choice": choice.Value}
	if len(d.Fields) > 0 {
		args["values"] = enginetest.Values(f.rng, d.Fields)
	}
	text, err := say.Sentence(one, engine.NewCommand(engine.KindAnswer, "", args))
	if err != nil {
		t.Fatal(err)
	}
	reply := f.say(f.gm, text)
	secret := ""
	for _, ev := range reply.Events {
		if ev.Kind == engine.KindDecisionSealed {
			secret = ev.Text
		}
	}
	if secret == "" || !strings.Contains(secret, label) {
		t.Fatalf("the GM's sealed answer %q made no secret line with its choice: %+v", text, reply)
	}
	pv := f.srv.viewAs(f.player, f.id)
	if !slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.Group == d.Group && !p.Answered }) {
		t.Fatalf("the GM's answer %q did not leave the player's stance to answer", text)
	}
	caughtUp(t, page, pv.Seq)
	// Whatever of the GM's answer reached the player has been read out.
	var log struct{ Events []engine.Event }
	f.srv.call(f.player, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", f.id, gv.Seq), nil, &log)
	if n := len(log.Events); n > 0 {
		steps(t, page, chromedp.Poll(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.announced) >= %d`, log.Events[n-1].Seq), nil,
			chromedp.WithPollingTimeout(patience.Hang())))
	}
	tr := ear.listen(t, page)
	now := counts(names(tr))
	said := counts(ear.heard[heard:])
	for _, o := range d.Options {
		if o.Label == label {
			continue
		}
		if said[label] > said[o.Label] {
			t.Errorf("before the reveal the player heard the GM's sealed choice %q: %q", label, ear.heard[heard:])
		}
		if now[label]-was[label] > now[o.Label]-was[o.Label] {
			t.Errorf("before the reveal the player's page names the GM's sealed choice %q %d more times, the option %q %d", label, now[label]-was[label], o.Label, now[o.Label]-was[o.Label])
		}
	}
	for _, name := range names(tr) {
		if strings.Contains(name, secret) {
			t.Errorf("before the reveal the player's page reads the GM's sealed answer: %q", name)
		}
	}
	for _, line := range ear.heard[heard:] {
		if strings.Contains(line, secret) {
			t.Errorf("before the reveal the player heard the GM's sealed answer: %q", line)
		}
	}
}

// TestBrowserReadOutOnlyMine: "Read out only what concerns me". Two tabs
// of the same player follow a fight, one with the option off, one with it
// ticked: the first reads out every event of the player's log, in order;
// the second only those about a character the player controls (its actor,
// one it involves or who rolled for it — say.Concerns), in order — and
// fewer than the first, though some.
func TestBrowserReadOutOnlyMine(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "12"})
	ex, err := prep.ExampleNamed("sw-zones-dusty-gulch")
	if err != nil {
		t.Fatal(err)
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
	f := newWordsFight(t, srv, "mine", ex.Data, pc, 12)
	f.say(f.gm, "start encounter")
	browser := newBrowser(t)
	open := func() context.Context {
		page := tab(t, browser)
		login(t, page, srv.URL, f.player.Name)
		steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+f.id),
			chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
		return page
	}
	all, mine := open(), open()
	var ticked, off bool
	steps(t, mine, chromedp.Click("#announce-mine", chromedp.ByQuery), chromedp.Evaluate(`document.getElementById('announce-mine').checked`, &ticked))
	steps(t, all, chromedp.Evaluate(`document.getElementById('announce-mine').checked`, &off))
	if !ticked || off {
		t.Fatalf("the option is %v in the tab that ticked it, %v in the other", ticked, off)
	}
	from := f.srv.viewAs(f.player, f.id).Seq
	earAll, earMine := &listener{seen: map[int64]bool{}}, &listener{seen: map[int64]bool{}}
	for range 15 {
		if f.srv.viewAs(f.gm, f.id).Status == engine.StatusFinished {
			break
		}
		ok := f.gmPlays(4)
		earAll.listen(t, all)
		earMine.listen(t, mine)
		if ok {
			if text := f.sentence(f.srv.viewAs(f.player, f.id)); text != "" {
				f.say(f.player, text)
			}
		}
	}
	var log struct{ Events []engine.Event }
	f.srv.call(f.player, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", f.id, from), nil, &log)
	if len(log.Events) == 0 {
		t.Fatal("no events to hear")
	}
	last := log.Events[len(log.Events)-1].Seq
	var wantAll, wantMine []int64
	for _, ev := range log.Events {
		wantAll = append(wantAll, ev.Seq)
		if slices.Contains(say.Concerns(ev), pc) {
			wantMine = append(wantMine, ev.Seq)
		}
	}
	heard := func(page context.Context, ear *listener) []int64 {
		steps(t, page, chromedp.Poll(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.announced) >= %d`, last), nil,
			chromedp.WithPollingTimeout(patience.Hang())))
		ear.listen(t, page)
		var seqs []int64
		for _, seq := range ear.seqs {
			if seq != 0 {
				seqs = append(seqs, seq)
			}
		}
		return seqs
	}
	if got := heard(all, earAll); !slices.Equal(got, wantAll) {
		t.Errorf("with the option off the page read out events %v, the player's log is %v", got, wantAll)
	}
	if got := heard(mine, earMine); !slices.Equal(got, wantMine) {
		t.Errorf("with only what concerns them the page read out events %v, those about %s are %v", got, pc, wantMine)
	}
	if len(wantMine) == 0 || len(wantMine) == len(wantAll) {
		t.Fatalf("%d of %d events concern the player's character: the test tells nothing apart", len(wantMine), len(wantAll))
	}
	t.Logf("%d events read out with the option off, %d with it on", len(wantAll), len(wantMine))
}
