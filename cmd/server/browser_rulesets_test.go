package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestRulesetTables opens one example encounter of every ruleset in the
// real page, a few advertised actions into the fight, as the GM at desktop
// and phone sizes: the board is drawn for the ruleset's position model
// (not the plain list), every visible combatant is on it, and axe-core
// finds no violations. FRAY_SCREENSHOTS=DIR keeps each page's picture.
func TestRulesetTables(t *testing.T) {
	axeJS, err := os.ReadFile(filepath.Join("..", "..", "web", "testdata", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "3"})
	gm := srv.signup("table-gm")
	api := srv.withUser(gm)
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]string{"sw-zones": "zones", "d6-bands": "grid", "d20-under": "grid", "d20-duel": "pairs", "d20-tactical": "grid"}
	seen := map[string]bool{}
	type page struct{ name, id, model string }
	var pages []page
	for i, ex := range exs {
		rs := ex.Name[:strings.LastIndex(ex.Name[:len(ex.Name)-1], "-")]
		for id := range models {
			if strings.HasPrefix(ex.Name, id+"-") {
				rs = id
			}
		}
		model := models[rs]
		if strings.Contains(string(ex.Data), `"model": "ladder"`) || strings.Contains(string(ex.Data), `"model":"ladder"`) {
			model = "ladder"
		}
		if seen[rs+model] {
			continue
		}
		seen[rs+model] = true
		var created struct{ ID string }
		if code := api.do("POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
			t.Fatalf("import %s: %d", ex.Name, code)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		for step := 0; step < 12; step++ {
			var v engine.View
			api.do("GET", "/api/encounters/"+created.ID, nil, &v)
			if v.Status == engine.StatusFinished {
				break
			}
			if cmd := contractPick(rng, v); cmd != nil {
				api.do("POST", "/api/encounters/"+created.ID+"/commands", map[string]any{"id": fmt.Sprint("p", step), "command": cmd}, nil)
			}
		}
		pages = append(pages, page{ex.Name, created.ID, model})
	}
	if len(seen) < 6 {
		t.Fatalf("expected every ruleset and d20-under's two models, got %v", seen)
	}
	for _, size := range browserSizes {
		ctx := tab(t, size.b(t))
		login(t, ctx, srv.URL, gm.Name)
		for _, pg := range pages {
			var violations []string
			var drawn, tokens, listed int
			run := string(axeJS) + `;
axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v =>
  v.id + ': ' + v.help + ' — ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))`
			c, cancel := context.WithTimeout(ctx, 60*time.Second)
			err := chromedp.Run(c, chromedp.Navigate(srv.URL+"/encounters/"+pg.id), chromedp.WaitReady("#battlefield", chromedp.ByID),
				chromedp.Evaluate(`document.querySelectorAll('#battlefield.model-`+pg.model+`').length`, &drawn),
				chromedp.Evaluate(`new Set([...document.querySelectorAll('#battlefield [data-token]')].map(e => e.dataset.token)).size`, &tokens),
				chromedp.Evaluate(`document.querySelectorAll('#battlefield .roster li').length`, &listed),
				chromedp.Evaluate(run, &violations, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
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
			keepScreenshot(ctx, pg.name+"-"+size.name)
		}
	}
}
