package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestRulesetTables opens an example encounter of every registered
// ruleset, one for each position model its examples use, in the real
// page, a few advertised actions into the fight, as the GM at desktop and
// phone sizes: the board is drawn for the ruleset's position model
// (not the plain list), every visible combatant is on it, and axe-core
// finds no violations. FRAY_SCREENSHOTS=DIR keeps each page's picture
// (ruleset-<example>.png, and -phone.png, as docs/screenshots has them) at
// 1440×900 and 390×844, the fight played on until a roll card shows.
func TestRulesetTables(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "3"})
	gm := srv.signup("table-gm")
	api := srv.withUser(gm)
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	// One page for each ruleset and each position model its examples use
	// (d20-under's grid and distance ladder), the model read from the view.
	seen := map[string]bool{}
	type page struct{ name, id, model string }
	var pages []page
	for i, ex := range exs {
		var created struct{ ID string }
		if code := api.do("POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
			t.Fatalf("import %s: %d", ex.Name, code)
		}
		var v engine.View
		api.do("GET", "/api/encounters/"+created.ID, nil, &v)
		if v.Board == nil || v.Board.Model == "" {
			t.Fatalf("%s: the view has no board model", ex.Name)
		}
		model := v.Board.Model
		if seen[ex.Ruleset+" "+model] {
			continue
		}
		seen[ex.Ruleset+" "+model], seen[ex.Ruleset] = true, true
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		for step := 0; step < 12; step++ {
			api.do("GET", "/api/encounters/"+created.ID, nil, &v)
			if v.Status == engine.StatusFinished {
				break
			}
			if cmd := contractPick(rng, v, nil); cmd != nil {
				api.do("POST", "/api/encounters/"+created.ID+"/commands", map[string]any{"id": fmt.Sprint("p", step), "command": cmd}, nil)
			}
		}
		pages = append(pages, page{ex.Name, created.ID, model})
	}
	for _, rs := range rules.Registry().All() {
		if !seen[rs.ID()] {
			t.Errorf("no example of %s to open", rs.ID())
		}
	}
	for _, size := range browserSizes {
		ctx := tab(t, size.b(t))
		login(t, ctx, srv.URL, gm.Name)
		// The screens of the game night: a window's minimum width
		// would make a phone's 500 px wide.
		w, h := int64(1440), int64(900)
		if size.name == "phone" {
			w, h = 390, 844
		}
		steps(t, ctx, chromedp.EmulateViewport(w, h))
		for i, pg := range pages {
			var violations []string
			var drawn, tokens, listed int
			c, cancel := patience.Context(ctx)
			err := chromedp.Run(c, chromedp.Navigate(srv.URL+"/encounters/"+pg.id), chromedp.WaitReady("#battlefield", chromedp.ByID),
				chromedp.Evaluate(`document.querySelectorAll('#battlefield.model-`+pg.model+`').length - document.querySelectorAll('#battlefield .board-none').length`, &drawn),
				chromedp.Evaluate(`new Set([...document.querySelectorAll('#battlefield [data-token]')].map(e => e.dataset.token)).size`, &tokens),
				chromedp.Evaluate(`document.querySelectorAll('#battlefield .roster li').length`, &listed),
				chromium.Axe("", &violations))
			cancel()
			if err != nil {
				t.Fatalf("%s %s: %v", size.name, pg.name, err)
			}
			if drawn != 1 || tokens == 0 || listed == 0 {
				t.Errorf("%s %s: board of model %s drawn %d, tokens %d, roster %d", size.name, pg.name, pg.model, drawn, tokens, listed)
			}
			for _, v := range violations {
				t.Errorf("%s %s: %s", size.name, pg.name, v)
			}
			if screenshotDir() == "" {
				continue
			}
			// The picture is of the fight going on: the table plays on
			// until an action's roll card shows, on the board's tab.
			rng := rand.New(rand.NewPCG(uint64(i), 6))
			for step := 0; step < 12; step++ {
				var cards int
				steps(t, ctx, chromedp.Evaluate(`document.querySelectorAll('#cards .card').length`, &cards))
				if cards > 0 {
					break
				}
				var v engine.View
				api.do("GET", "/api/encounters/"+pg.id, nil, &v)
				if cmd := contractPick(rng, v, nil); cmd != nil {
					var ack struct{ Seq int64 }
					api.do("POST", "/api/encounters/"+pg.id+"/commands", map[string]any{"id": fmt.Sprint(size.name, "-card-", step), "command": cmd}, &ack)
					steps(t, ctx, waitJS(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.seq) >= %d`, ack.Seq)))
				}
			}
			if size.name == "phone" {
				steps(t, ctx, chromedp.Click("#tab-board", chromedp.ByID), waitJS(`document.getElementById('encounter').dataset.tab === 'board'`), settled())
				keepScreenshot(ctx, "ruleset-"+pg.name+"-phone")
			} else {
				steps(t, ctx, settled())
				keepScreenshot(ctx, "ruleset-"+pg.name)
			}
		}
	}
}
