package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/kit/kittest"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestANewRulesetIsOnePackage: a ruleset made with the kit alone (package
// kittest, which Fray does not ship) and registered with one line is
// listed, imported, played to its end through the HTTP API by a client
// that knows no rules, and played on the encounter page in a real browser
// — drawn under its position model, its actions the page's own forms —
// with no code of its own anywhere but its package.
func TestANewRulesetIsOnePackage(t *testing.T) {
	t.Cleanup(rules.Register(kittest.New()))
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "5"})
	gm := srv.signup("kit-gm")

	var listed []struct{ ID string }
	if code := srv.call(gm, "GET", "/api/rulesets", nil, &listed); code != http.StatusOK ||
		!slices.ContainsFunc(listed, func(r struct{ ID string }) bool { return r.ID == kittest.ID }) {
		t.Fatalf("rulesets: %d %v", code, listed)
	}
	importIt := func() string {
		var created struct{ ID string }
		if code := srv.call(gm, "POST", "/api/encounters", kittest.Example, &created); code != http.StatusCreated {
			t.Fatalf("import: %d", code)
		}
		return created.ID
	}

	// The HTTP API: a client picking only what the server offers plays the
	// example to its end.
	id := importIt()
	rng := rand.New(rand.NewPCG(1, 2))
	for step := 0; ; step++ {
		v := srv.viewAs(gm, id)
		if v.Status == engine.StatusFinished {
			if v.Outcome == nil || v.Outcome.Winner == "" {
				t.Fatalf("the fight ended with no winner: %+v", v.Outcome)
			}
			break
		}
		if step > 1000 {
			t.Fatal("not finished after 1000 commands")
		}
		cmd := contractPick(rng, v, nil)
		if cmd == nil {
			t.Fatalf("nothing offered (status %s)", v.Status)
		}
		if cmd["kind"] == kittest.CmdHeal {
			continue // the GM's healing would only draw the fight out
		}
		var reply struct{ Code, Message string }
		code := srv.call(gm, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": fmt.Sprint("k", step), "command": cmd}, &reply)
		if code != http.StatusOK && (code >= 500 || reply.Message == "") {
			t.Fatalf("%v: %d %+v", cmd, code, reply)
		}
	}

	// The page: the board under the zones model with every token, Start
	// and Strike from the page's own forms, the log updating live.
	id = importIt()
	ctx := tab(t, newBrowser(t))
	login(t, ctx, srv.URL, gm.Name)
	var drawn, tokens int
	steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#act-start-go", chromedp.ByID),
		chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.Evaluate(`document.querySelectorAll('#battlefield.model-zones').length`, &drawn),
		chromedp.Evaluate(`new Set([...document.querySelectorAll('#battlefield [data-token]')].map(e => e.dataset.token)).size`, &tokens))
	if drawn != 1 || tokens != 4 {
		t.Fatalf("board drawn %d, %d tokens", drawn, tokens)
	}
	steps(t, ctx, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"),
		chromedp.WaitVisible("#act-ana-strike-open", chromedp.ByID), chromedp.Click("#act-ana-strike-open", chromedp.ByID),
		chromedp.Click("#act-ana-strike-go", chromedp.ByID), logHas("Ana strikes"))
	if v := srv.viewAs(gm, id); v.Round != 1 || v.Seq < 4 {
		t.Fatalf("after the page's strike: round %d, seq %d", v.Round, v.Seq)
	}
}
