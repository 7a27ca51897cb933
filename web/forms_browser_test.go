package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/engine"
)

// TestBrowserDeferredForms drives the GM's page of sw-zones-dusty-gulch
// through an end of turn sent as the hub sends it (changed parts): the next
// combatant's actions arrive with their forms unbuilt (each in a
// <template>, which app.js builds when it is needed). The "1" key opens
// the first of them; a token clicked on the board opens an action that
// takes it; opening one by its summary builds it; the user fills it in; an update that re-sends the group with that
// form changed keeps it open with the user's values; submitting it sends
// the command with them, and the form is marked pending.
func TestBrowserDeferredForms(t *testing.T) {
	rs, st := startedExample(t, "sw-zones-dusty-gulch")
	fight := replay(t, rs, st, engine.GMViewer(), endTurns(t, rs, 1))
	first, turned, u := fight.first, fight.last, fight.sent[0]
	sent := u.parts
	group := "ag-" + slug(first.Current) // the part that becomes the next combatant's actions
	nextGroup := "ag-" + slug(turned.Current)
	if !strings.Contains(sent[group], `id="`+nextGroup+`"`) {
		t.Fatalf("the end of turn did not send %s's actions as the part %s: %v", nextGroup, group, sent)
	}

	srv := serveFake(t, EncounterProps{View: first, As: "gm", WSURL: "/ws?html=1", ActURL: "/act"}, "", func(mux *http.ServeMux) {
		mux.HandleFunc("/api/encounters/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"heads":[]}`))
		})
	})

	bctx := newTab(t, chromium.Start(t), 1280, 900)
	within(t, bctx, chromedp.Navigate(srv.URL+"/page"))
	conn := recv(t, srv.conns)
	within(t, bctx, poll(`document.getElementById('conn').textContent === 'live'`))
	writeJSON(conn, map[string]any{"type": "events", "seq": u.seq, "events": u.events, "html": u.html, "parts": sent})
	within(t, bctx, poll(`!!document.getElementById('`+nextGroup+`')`))

	// The next combatant's actions that take a target came without their
	// forms; the first of them is the one the user opens.
	details := evaluate[string](t, bctx, `(() => {
  const all = [...document.querySelectorAll('#`+nextGroup+` details.act')];
  const d = all.find((d) => { const t = d.querySelector(':scope > template'); return t && t.content.querySelector('select[data-target]'); });
  return d && !d.querySelector('form') ? d.id : '';
})()`)
	if details == "" {
		t.Fatalf("no action of %s that takes a target arrived unbuilt", nextGroup)
	}
	form := strings.TrimSuffix(details, "-d")

	// The keyboard: "1" runs the acting combatant's first action, which
	// opens (built) when it takes input.
	firstAct := evaluate[string](t, bctx, `(() => {
  const a = document.querySelector('#`+nextGroup+` > .bar > details.act, #`+nextGroup+` > .bar > form.action');
  return a && a.matches('details.act') && a.querySelector(':scope > template') ? a.id : '';
})()`)
	if firstAct == "" {
		t.Fatalf("%s's first action is not an unbuilt form", nextGroup)
	}
	within(t, bctx, chromedp.Evaluate(`document.activeElement.blur()`, nil), chromedp.KeyEvent("1"))
	within(t, bctx, poll(`document.getElementById('`+firstAct+`').open && document.activeElement.id === '`+strings.TrimSuffix(firstAct, "-d")+`-go'`))
	within(t, bctx, chromedp.KeyEvent("\x1b")) // Escape closes it
	within(t, bctx, poll(`!document.getElementById('`+firstAct+`').open`))

	// A token clicked on the board that this action offers opens an
	// action that takes it, with the token chosen (the forms built for it).
	token := evaluate[string](t, bctx, `(() => {
  const t = document.querySelector('#`+details+` > template');
  const o = t && t.content.querySelector('select[data-target] option');
  return o ? o.value : '';
})()`)
	if token == "" {
		t.Fatalf("%s offers no target", details)
	}
	within(t, bctx, chromedp.Click(`.tok-btn[data-token="`+token+`"]`, chromedp.ByQuery))
	within(t, bctx, poll(`[...document.querySelectorAll('#actions details.act[open] select[data-target]')].some((s) => s.value === '`+token+`')`))
	within(t, bctx, chromedp.Click(`#target-clear`, chromedp.ByID), chromedp.Evaluate(`for (const d of document.querySelectorAll('#actions details[open]')) d.open = false`, nil))

	within(t, bctx, chromedp.Click(`#`+details+` > summary`, chromedp.ByQuery))
	within(t, bctx, poll(`document.getElementById('`+details+`').open && !!document.getElementById('`+form+`-go')`))

	// Half-fill it: every select to its last option, every number one up
	// (filled: by control id, its name and value).
	filled := evaluate[map[string][]string](t, bctx, `(() => {
  const out = {};
  for (const el of document.getElementById('`+form+`').elements) {
    if (el.tagName === 'SELECT') el.value = el.options[el.options.length - 1].value;
    else if (el.type === 'number') el.value = String((Number(el.value) || 0) + 1);
    else continue;
    out[el.id] = [el.name, el.value];
  }
  return out;
})()`)
	if len(filled) == 0 {
		t.Fatalf("%s has no select or number to fill", form)
	}

	// The group comes again with that form's help changed: the open form
	// stays open and keeps what the user chose.
	again := strings.Replace(sent[group], `id="`+form+`-help">`, `id="`+form+`-help">Updated. `, 1)
	if again == sent[group] {
		t.Fatalf("%s has no help to change", form)
	}
	writeJSON(conn, map[string]any{"type": "events", "seq": u.seq, "events": []any{}, "html": map[string]string{}, "parts": map[string]string{nextGroup: again}})
	within(t, bctx, poll(`(document.getElementById('`+form+`-help') || {}).textContent?.startsWith('Updated.')`))
	if !evaluate[bool](t, bctx, `document.getElementById('`+details+`').open`) {
		t.Errorf("%s closed by the update", details)
	}
	for id, f := range filled {
		got := evaluate[string](t, bctx, `(document.getElementById('`+id+`') || {}).value || ''`)
		if want := f[1]; got != want {
			t.Errorf("after the update #%s = %q, want the user's %q", id, got, want)
		}
	}

	// Submitted, the command carries the user's values.
	within(t, bctx, chromedp.Click(`#`+form+`-go`, chromedp.ByQuery))
	msg := recv(t, srv.frames)
	cmd, _ := msg["command"].(map[string]any)
	if msg["type"] != "command" || cmd["actor"] != turned.Current {
		t.Fatalf("frame %v, want a command of %s", msg, turned.Current)
	}
	for _, f := range filled {
		if got := fmt.Sprint(cmd[f[0]]); got != f[1] {
			t.Errorf("command's %s = %s, want %q", f[0], got, f[1])
		}
	}
	pending := evaluate[string](t, bctx, `document.getElementById('`+form+`').dataset.pending || ''`)
	if pending != msg["id"] {
		t.Errorf("form pending %q, want the command's id %v", pending, msg["id"])
	}
}
