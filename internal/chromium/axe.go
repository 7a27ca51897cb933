package chromium

import (
	_ "embed"
	"encoding/json"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// axeJS is the vendored axe-core (axe-core/README.md): the accessibility
// engine every browser test injects into Fray's pages. It is never served.
//
//go:embed axe-core/axe.min.js
var axeJS string

// Axe runs axe-core on the elements selector picks ("" for the whole
// document) and stores in violations a line for each violation: its rule,
// impact, help and up to three of the elements with why each fails.
func Axe(selector string, violations *[]string) chromedp.Action {
	scope := "document"
	if selector != "" {
		q, _ := json.Marshal(selector)
		scope = string(q)
	}
	run := axeJS + `;
axe.run(` + scope + `, {resultTypes: ['violations']}).then(r => r.violations.map(v =>
  v.id + ' (' + v.impact + '): ' + v.help + ' — ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 160)).join(' | ')))`
	return chromedp.Evaluate(run, violations, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })
}
