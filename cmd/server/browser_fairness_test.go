package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/testdb"
)

// awaitPromise lets chromedp.Evaluate wait for a promise's value.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// TestBrowserSealedStances: two players answer the duel's sealed stance
// on their real pages. Each page sends only a commitment and keeps the
// answer; until both have answered, nothing the server keeps — the GM's
// whole log included — holds either stance. Then both pages reveal on
// their own, the server checks the reveals against the commitments, and
// the log's revealed answers open the commitments it kept.
func TestBrowserSealedStances(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "3"})
	gm, pa, pb := srv.signup("seal-gm"), srv.signup("seal-aldric"), srv.signup("seal-mirela")
	ex, err := prep.ExampleNamed("d20-duel-dawn-duel")
	if err != nil {
		t.Fatal(err)
	}
	var enc struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &enc); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	srv.join(gm, enc.Campaign, pa, "aldric")
	srv.join(gm, enc.Campaign, pb, "mirela")
	if code := srv.call(gm, "POST", "/api/encounters/"+enc.ID+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil); code != http.StatusOK {
		t.Fatalf("start: %d", code)
	}
	gmLog := func() []json.RawMessage {
		var page struct{ Events []json.RawMessage }
		if code := srv.call(gm, "GET", "/api/encounters/"+enc.ID+"/events?since=0", nil, &page); code != http.StatusOK {
			t.Fatalf("events: %d", code)
		}
		return page.Events
	}
	actx := tab(t, newBrowser(t))
	bctx := tab(t, newBrowser(t))
	login(t, actx, srv.URL, pa.Name)
	login(t, bctx, srv.URL, pb.Name)
	pages := []struct {
		name   string
		ctx    context.Context
		choice string
	}{{"aldric", actx, "defensive"}, {"mirela", bctx, "default"}}
	option := `document.querySelector('#pending form.decision[data-sealed] button[name="choice"][value="%s"]')`
	for _, p := range pages {
		var ok bool
		steps(t, p.ctx, chromedp.Navigate(srv.URL+"/encounters/"+enc.ID),
			chromedp.WaitVisible(`#pending form.decision[data-sealed]`, chromedp.ByQuery),
			chromedp.Poll(`document.getElementById('conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())),
			chromedp.Evaluate(fmt.Sprintf(option+` !== null`, p.choice), &ok))
		if !ok {
			t.Fatalf("%s's page offers no sealed %q", p.name, p.choice)
		}
	}
	// Aldric answers: the server holds his commitment, never his stance.
	var kept, shown string
	steps(t, actx, chromedp.Evaluate(fmt.Sprintf(option+`.click()`, "defensive"), nil),
		chromedp.WaitVisible(`#pending .committed[data-commitment]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#pending .committed').dataset.commitment`, &kept),
		chromedp.Text(`#pending .committed`, &shown, chromedp.ByQuery))
	raw, _ := json.Marshal(gmLog())
	all := string(raw)
	if !strings.Contains(all, kept) || strings.Contains(all, `"choice":"defensive"`) || strings.Contains(all, engine.KindDecisionSealed) {
		t.Fatalf("before the reveal the GM's log must hold the commitment %q and not the stance:\n%s", kept, all)
	}
	if !strings.Contains(shown, "Defensive") {
		t.Errorf("Aldric's page does not tell him what he chose: %q", shown)
	}
	// Mirela answers: both pages reveal on their own.
	steps(t, bctx, chromedp.Evaluate(fmt.Sprintf(option+`.click()`, "default"), nil))
	for _, p := range pages {
		steps(t, p.ctx, chromedp.Poll(`[...document.querySelectorAll('#log li.entry')].some(li => li.textContent.includes('Revealed:'))`, nil,
			chromedp.WithPollingTimeout(patience.Hang())))
		var left int
		steps(t, p.ctx, chromedp.Evaluate(`Object.keys(localStorage).filter(k => k.startsWith('fray-sealed:')).length`, &left))
		if left != 0 {
			t.Errorf("%s's page still keeps %d sealed answers after revealing", p.name, left)
		}
	}
	rep, fail := proof.CheckSealed(gmLog())
	if fail != nil || rep.Committed != 2 || rep.Revealed != 2 {
		t.Fatalf("sealed answers in the log: %+v, %v", rep, fail)
	}

	// The page's SHA-256 without crypto.subtle (plain http off localhost)
	// agrees with the browser's.
	var agree bool
	steps(t, actx, chromedp.Evaluate(`(async () => {
  const p = window.frayProof;
  for (const n of [0, 1, 55, 56, 63, 64, 65, 200]) {
    const b = crypto.getRandomValues(new Uint8Array(n));
    if (p.hex(p.plainSHA256(b)) !== p.hex(new Uint8Array(await crypto.subtle.digest('SHA-256', b)))) return false;
  }
  return true;
})()`, &agree, awaitPromise))
	if !agree {
		t.Error("the page's plain SHA-256 disagrees with crypto.subtle")
	}
}

// TestBrowserHeadWarning: a player's page shows the history's fingerprint
// (the head's first 12 digits, as `server verify` prints it) and keeps the
// heads it showed. While the history only grows, reloading warns of
// nothing; once someone with the database rewrites an event and chains
// the log again — a consistent history, but another one — the page warns
// that the history it saw is gone. The replay page's check verifies the
// player's export in the page before, and refuses it after.
func TestBrowserHeadWarning(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServerEnv(t, dbURL, map[string]string{"FRAY_DICE_SEED": "5"})
	gm, pl := srv.signup("head-gm"), srv.signup("head-player")
	ex, err := prep.ExampleNamed("d20-duel-dawn-duel")
	if err != nil {
		t.Fatal(err)
	}
	var enc struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &enc); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	srv.join(gm, enc.Campaign, pl, "aldric")
	step := 0
	play := func(n int) {
		rng := rand.New(rand.NewPCG(uint64(step), 1))
		for range n {
			v := srv.viewAs(gm, enc.ID)
			if cmd := contractPick(rng, v, nil); cmd != nil && v.Status != engine.StatusFinished {
				srv.call(gm, "POST", "/api/encounters/"+enc.ID+"/commands", map[string]any{"id": fmt.Sprint("h", step), "command": cmd}, nil)
			}
			step++
		}
	}
	head := func() string {
		var chain struct{ Heads []struct{ Link string } }
		if code := srv.call(gm, "GET", "/api/encounters/"+enc.ID+"/chain", nil, &chain); code != http.StatusOK || len(chain.Heads) == 0 {
			t.Fatalf("chain: %d %+v", code, chain)
		}
		return chain.Heads[len(chain.Heads)-1].Link
	}
	play(3)
	ctx := tab(t, newBrowser(t))
	login(t, ctx, srv.URL, pl.Name)
	shown := func() (fingerprint, warning string) {
		steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+enc.ID),
			chromedp.WaitReady(`#fingerprint`, chromedp.ByID),
			chromedp.Poll(`!document.getElementById('fingerprint').hidden`, nil, chromedp.WithPollingTimeout(patience.Hang())),
			chromedp.Evaluate(`document.getElementById('fingerprint-code').textContent`, &fingerprint),
			chromedp.Evaluate(`document.getElementById('chain-warning').hidden ? '' : document.getElementById('chain-warning').textContent`, &warning))
		return fingerprint, warning
	}
	before := head()
	if fp, warning := shown(); fp != before[:12] || warning != "" {
		t.Fatalf("fingerprint %q (want %q), warning %q", fp, before[:12], warning)
	}
	play(3) // the history grows: nothing to warn of
	if fp, warning := shown(); fp != head()[:12] || fp == before[:12] || warning != "" {
		t.Fatalf("after more play: fingerprint %q, warning %q", fp, warning)
	}
	// The replay page's check: the player's export verifies in the page.
	checked := func() (result, text string) {
		steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+enc.ID+"/replay"),
			chromedp.WaitVisible(`#check-button`, chromedp.ByID),
			chromedp.Click(`#check-button`, chromedp.ByID),
			chromedp.Poll(`['ok', 'bad', 'error'].includes(document.getElementById('check-result').dataset.result)`, nil, chromedp.WithPollingTimeout(patience.Hang())),
			chromedp.Evaluate(`document.getElementById('check-result').dataset.result`, &result),
			chromedp.Text(`#check-result`, &text, chromedp.ByID))
		return result, text
	}
	if result, text := checked(); result != "ok" || !strings.Contains(text, head()[:12]) {
		t.Fatalf("the replay page's check: %s %q", result, text)
	}
	// Someone with the database rewrites event 2 and chains the log again.
	c, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(context.Background(), `
		UPDATE events SET body = jsonb_set(body, '{text}', '"Nothing to see."'), salt = NULL, digest = NULL, link = NULL
		WHERE encounter_id = $1::uuid AND seq >= 2`, enc.ID); err != nil {
		t.Fatal(err)
	}
	after := head() // chains the log anew
	if after == before {
		t.Fatal("the rewrite kept the head")
	}
	fp, warning := shown()
	if fp != after[:12] || !strings.Contains(warning, "has changed") || !strings.Contains(warning, before[:12]) {
		t.Fatalf("after the rewrite: fingerprint %q, warning %q", fp, warning)
	}
	// The rewritten export is consistent, but not the history the page saw.
	if result, text := checked(); result != "bad" || !strings.Contains(text, before[:12]) {
		t.Fatalf("the replay page's check after the rewrite: %s %q", result, text)
	}
}
