package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// fordTable is the goblin ford example with two players: one plays Brak
// (in melee with two goblins), the other Lyra.
type fordTable struct {
	gm, brak, lyra *apiUser
	campaign, id   string
}

func (s *testServer) fordTable() fordTable {
	s.t.Helper()
	ft := fordTable{gm: s.signup("gamemaster"), brak: s.signup("brak-player"), lyra: s.signup("lyra-player")}
	gm := s.withUser(ft.gm)
	var camp struct{ ID string }
	if code := gm.do("POST", "/api/campaigns", map[string]string{"name": "Ford"}, &camp); code != http.StatusCreated {
		s.t.Fatalf("campaign: %d", code)
	}
	ft.campaign = camp.ID
	ex, err := prep.ExampleNamed("sw-zones-goblin-ford")
	if err != nil {
		s.t.Fatal(err)
	}
	var created struct{ ID string }
	if code := gm.do("POST", "/api/campaigns/"+ft.campaign+"/encounters", ex.Data, &created); code != http.StatusCreated {
		s.t.Fatalf("import: %d", code)
	}
	ft.id = created.ID
	for pc, u := range map[string]*apiUser{"brak": ft.brak, "lyra": ft.lyra} {
		var inv struct{ URL string }
		gm.do("POST", "/api/campaigns/"+ft.campaign+"/invites", nil, &inv)
		if code := s.withUser(u).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != 200 {
			s.t.Fatalf("join: %d", code)
		}
		if code := gm.do("PUT", "/api/campaigns/"+ft.campaign+"/characters/"+pc, map[string]string{"user": u.ID}, nil); code != 200 {
			s.t.Fatalf("assign %s: %d", pc, code)
		}
	}
	return ft
}

// untilBrak starts the encounter and ends turns (the GM's and Lyra's) until
// Brak acts.
func (s *testServer) untilBrak(ft fordTable) {
	s.t.Helper()
	if code, e := s.command(ft.gm, ft.id, "start", map[string]any{"kind": "start"}); code != 200 {
		s.t.Fatalf("start: %d %+v", code, e)
	}
	for i := 0; i < 20; i++ {
		v, _ := s.withUser(ft.gm).view(ft.id, "")
		if v.Current == "brak" {
			return
		}
		who := ft.gm
		if v.Current == "lyra" {
			who = ft.lyra
		}
		if code, e := s.command(who, ft.id, fmt.Sprint("end-", i), map[string]any{"kind": "end-turn", "actor": v.Current}); code != 200 {
			s.t.Fatalf("end %s's turn: %d %+v", v.Current, code, e)
		}
	}
	s.t.Fatal("Brak never got a turn")
}

// onScreenCard reads the newest roll card and whether it is wholly in the
// viewport.
const onScreenCard = `(() => { const cs = document.querySelectorAll('#cards .card'); if (!cs.length) return '';
	const c = cs[cs.length - 1], r = c.getBoundingClientRect();
	return c.id + (r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth ? ' on-screen ' : ' off-screen ') + c.textContent.replace(/\s+/g, ' ') })()`

// holdCards rests the pointer on the roll cards' tray, as a player reading
// them would: they stay until it leaves. Without it a card leaves on its
// own after a few seconds, which a loaded machine's checks can outlast.
var holdCards = chromedp.Evaluate(`document.getElementById('cards-tray').dispatchEvent(new PointerEvent('pointerenter'))`, nil)

// releaseCards takes the pointer off the tray again: the cards leave on
// their own.
var releaseCards = chromedp.Evaluate(`document.getElementById('cards-tray').dispatchEvent(new PointerEvent('pointerleave'))`, nil)

// TestBrowserTable: Brak's player targets a goblin by clicking its token
// and attacks, on a desktop and then on a phone; each time the roll card,
// modifiers labelled, is on their screen without scrolling, and the other
// player's browser shows the same card live. Chat and a free roll reach
// everyone; a GM whisper reaches only its player, in the page and on the
// socket. Ending the encounter asks first.
func TestBrowserTable(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	ft := base.fordTable()
	base.untilBrak(ft)
	enc := "/encounters/" + ft.id

	desk, phone, lyra, gm := tab(t, newBrowser(t)), tab(t, newPhone(t)), tab(t, newBrowser(t)), tab(t, newBrowser(t))
	login(t, desk, base.URL, ft.brak.Name)
	login(t, phone, base.URL, ft.brak.Name)
	login(t, lyra, base.URL, ft.lyra.Name)
	login(t, gm, base.URL, ft.gm.Name)
	live := waitJS(`document.querySelector('#conn').dataset.state === 'live'`)
	for _, ctx := range []context.Context{desk, phone, lyra, gm} {
		steps(t, ctx, chromedp.Navigate(base.URL+enc), live)
	}
	// A socket of Lyra's player, to see everything the server sends her.
	lyraSock := base.withUser(ft.lyra).dial(ft.id, "html=1")
	lyraSock.read()
	for _, ctx := range []context.Context{desk, phone, lyra} {
		steps(t, ctx, holdCards)
	}

	// Desktop: click Goblin 1 on the map; Fight opens with it as the target.
	steps(t, desk, chromedp.Click(`.zmap [data-token="goblin-1"]`, chromedp.ByQuery),
		waitJS(`document.getElementById('act-brak-fight-d').open && document.getElementById('act-brak-fight-target').value === 'goblin-1'`),
		chromedp.SetValue("#act-brak-fight-actions", "2", chromedp.ByID),
		chromedp.Click("#act-brak-fight-go", chromedp.ByID),
		waitJS(`document.querySelectorAll('#cards .card.mine').length > 0`))
	// The player's own token is marked "mine" on the board and in the
	// roster — by the page (the server draws one board for every viewer
	// who sees the same tokens), after the update as on loading; the GM's
	// page marks none.
	const marked = `Array.from(document.querySelectorAll('#battlefield .mine')).map(e => e.dataset.token || e.id).join(' ')`
	var mine, gmMine string
	steps(t, desk, chromedp.Evaluate(marked, &mine))
	steps(t, gm, chromedp.Evaluate(marked, &gmMine))
	if mine != "brak tok-brak" || gmMine != "" {
		t.Errorf("marked mine: %q on Brak's player's page, %q on the GM's", mine, gmMine)
	}
	var card string
	steps(t, desk, chromedp.Evaluate(onScreenCard, &card))
	for _, want := range []string{"on-screen", "Brak attacks Goblin 1", "Fighting", "multi-action −2", "Wild Die"} {
		if !strings.Contains(card, want) {
			t.Errorf("desktop card %q lacks %q", card, want)
		}
	}
	cardID := strings.Fields(card)[0]
	// The other player sees the same card, live.
	steps(t, lyra, waitJS(fmt.Sprintf(`!!document.getElementById(%q)`, cardID)))
	var lyraCard string
	steps(t, lyra, chromedp.Evaluate(fmt.Sprintf(`document.getElementById(%q).textContent.replace(/\s+/g, ' ')`, cardID), &lyraCard))
	if !strings.Contains(lyraCard, "multi-action −2") || strings.Contains(lyraCard, "mine") {
		t.Errorf("Lyra's card %q", lyraCard)
	}
	// Whatever the attack asked (a reroll, a Soak), the answers keep it as
	// it is.
	base.settleQuestions(ft)

	// Phone: the Board tab, a tap on Goblin 2 (or whoever is left), Fight.
	v, raw := base.withUser(ft.brak).view(ft.id, "")
	target := ""
	for _, a := range actionsOf(t, raw) {
		if a.Kind == "fight" && a.Actor == "brak" {
			target = a.Fields[0].Options[0].Value
		}
	}
	if v.Current != "brak" || target == "" {
		t.Fatalf("Brak cannot fight a second time (current %q): %s", v.Current, raw)
	}
	// The phone, which did not attack, holds Fight as the server now
	// offers it, though its form is not built yet (still inert in its
	// template): the same fields, the same targets.
	var inert struct{ Fields, Targets []string }
	steps(t, phone, waitJS(`!!document.querySelector('#act-brak-fight-d template')`),
		chromedp.Evaluate(`(() => { const c = document.querySelector('#act-brak-fight-d template').content;
  return { Fields: [...c.querySelectorAll('[name]')].map(e => e.name).filter(n => n !== 'kind' && n !== 'actor'),
    Targets: [...c.querySelectorAll('select[data-target] option')].map(o => o.value) }; })()`, &inert))
	var wantFields, wantTargets []string
	for _, a := range actionsOf(t, raw) {
		if a.Kind == "fight" && a.Actor == "brak" {
			for _, f := range a.Fields {
				wantFields = append(wantFields, f.Name)
			}
			for _, o := range a.Fields[0].Options {
				wantTargets = append(wantTargets, o.Value)
			}
		}
	}
	if !slices.Equal(inert.Fields, wantFields) || !slices.Equal(inert.Targets, wantTargets) {
		t.Errorf("the phone's Fight is not the one the server offers now: fields %v targets %v, the server's %v %v", inert.Fields, inert.Targets, wantFields, wantTargets)
	}
	// (The first attack's card is on the phone too: dismiss it first.)
	steps(t, phone, waitJS(`document.getElementById('tabs') && !document.getElementById('tabs').hidden`),
		chromedp.Evaluate(`document.querySelectorAll('#cards .card-close').forEach(b => b.click())`, nil),
		waitJS(`document.querySelectorAll('#cards .card').length === 0`),
		chromedp.Click("#tab-board", chromedp.ByID),
		chromedp.Click(fmt.Sprintf(`.zmap [data-token=%q]`, target), chromedp.ByQuery))
	steps(t, phone,
		waitJS(`document.getElementById('encounter').dataset.tab === 'act' && document.getElementById('act-brak-fight-d').open`))
	// The opened action's button is where a finger can tap it: on the
	// screen and not under the tabs.
	var tappable bool
	steps(t, phone, chromedp.Evaluate(`(() => { const b = document.getElementById('act-brak-fight-go'), r = b.getBoundingClientRect();
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return !!at && b.contains(at); })()`, &tappable))
	if !tappable {
		t.Error("the phone's Fight button opened by tapping a token is not where a tap reaches it (off the screen or under the tabs)")
	}
	steps(t, phone, chromedp.Click("#act-brak-fight-go", chromedp.ByID))
	steps(t, phone, waitJS(`document.querySelectorAll('#cards .card.mine').length > 0`),
		chromedp.Evaluate(onScreenCard, &card))
	for _, want := range []string{"on-screen", "Brak attacks", "multi-action −2"} {
		if !strings.Contains(card, want) {
			t.Errorf("phone card %q lacks %q", card, want)
		}
	}
	steps(t, lyra, waitJS(fmt.Sprintf(`!!document.getElementById(%q)`, strings.Fields(card)[0])))

	// Chat: Brak's player says something and rolls; everyone reads both.
	steps(t, desk, chromedp.SendKeys("#chat-text", "For the ford!", chromedp.ByID), chromedp.Click("#chat-send", chromedp.ByID),
		waitJS(`document.getElementById('chat-text').value === ''`),
		chromedp.SendKeys("#chat-text", "/roll 2d6+1 courage", chromedp.ByID), chromedp.Click("#chat-send", chromedp.ByID))
	for _, ctx := range []context.Context{lyra, gm, desk} {
		steps(t, ctx, waitJS(`[...document.querySelectorAll('#chat li')].some(li => li.textContent.includes('For the ford!'))`),
			waitJS(`[...document.querySelectorAll('#chat li.roll')].some(li => li.textContent.includes('2d6+1 for courage'))`))
	}
	// The GM whispers to Brak: Brak's player reads it, Lyra's never gets it.
	steps(t, gm, chromedp.SetValue("#chat-to", "brak", chromedp.ByID), chromedp.SendKeys("#chat-text", "You spot a rope bridge.", chromedp.ByID),
		chromedp.Click("#chat-send", chromedp.ByID))
	steps(t, desk, waitJS(`[...document.querySelectorAll('#chat li.whisper')].some(li => li.textContent.includes('rope bridge'))`))
	steps(t, gm, chromedp.SetValue("#chat-to", "", chromedp.ByID), chromedp.SendKeys("#chat-text", "Next!", chromedp.ByID),
		chromedp.Click("#chat-send", chromedp.ByID))
	steps(t, lyra, waitJS(`[...document.querySelectorAll('#chat li')].some(li => li.textContent.includes('Next!'))`))
	var lyraPage string
	steps(t, lyra, chromedp.Evaluate(`document.documentElement.outerHTML`, &lyraPage))
	if strings.Contains(lyraPage, "rope bridge") {
		t.Fatal("Lyra's page shows the GM's whisper to Brak")
	}
	for {
		m := lyraSock.read()
		raw, _ := json.Marshal(m)
		if strings.Contains(string(raw), "rope bridge") {
			t.Fatal("Lyra's socket received the GM's whisper to Brak")
		}
		if strings.Contains(string(raw), "Next!") {
			break
		}
	}
	if p := base.get(ft.lyra, enc+"/log"); strings.Contains(string(p.body), "rope bridge") || !strings.Contains(string(p.body), "For the ford!") {
		t.Fatal("Lyra's log page shows the whisper, or not the chat")
	}

	// Ending the encounter asks first: the first click only opens the
	// question. A chat line sent after it comes back once the server has
	// handled it, and the server handles a socket's commands in order: by
	// then, whatever the click sent has been handled too.
	steps(t, gm, chromedp.Click("#act-end-open", chromedp.ByID), waitJS(`document.getElementById('act-end-d').open`),
		chromedp.SendKeys("#chat-text", "Any last words?", chromedp.ByID), chromedp.Click("#chat-send", chromedp.ByID),
		waitJS(`[...document.querySelectorAll('#chat li')].some(li => li.textContent.includes('Any last words?'))`))
	if v, _ := base.withUser(ft.gm).view(ft.id, ""); v.Status != "running" {
		t.Fatalf("opening End encounter ended it: %s", v.Status)
	}
	steps(t, gm, chromedp.Click("#act-end-go", chromedp.ByID), waitJS(`document.getElementById('status').textContent.includes('Finished')`))
	if v, _ := base.withUser(ft.gm).view(ft.id, ""); v.Status != "finished" {
		t.Fatalf("after confirming: %s", v.Status)
	}
}

// settleQuestions answers every pending question with its last option
// (keep the roll, take the wound), as whoever it is for.
func (s *testServer) settleQuestions(ft fordTable) {
	s.t.Helper()
	for i := 0; i < 10; i++ {
		_, raw := s.withUser(ft.gm).view(ft.id, "")
		var v struct {
			Pending []struct {
				ID, For string
				Options []struct{ Value string }
			}
		}
		_ = json.Unmarshal(raw, &v)
		if len(v.Pending) == 0 {
			return
		}
		d := v.Pending[0]
		who := ft.gm
		switch d.For {
		case "brak":
			who = ft.brak
		case "lyra":
			who = ft.lyra
		}
		if code, e := s.command(who, ft.id, fmt.Sprint("answer-", d.ID), map[string]any{"kind": "answer", "decision": d.ID,
			"choice": d.Options[len(d.Options)-1].Value}); code != 200 {
			s.t.Fatalf("answer %s: %d %+v", d.ID, code, e)
		}
	}
	s.t.Fatal("the questions never end")
}

type actionOf struct {
	Kind, Actor string
	Fields      []struct {
		Name    string
		Options []struct{ Value string }
	}
}

func actionsOf(t *testing.T, raw []byte) []actionOf {
	var v struct{ Actions []actionOf }
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v.Actions
}
