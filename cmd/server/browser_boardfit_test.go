package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// inViewJS defines inView(el): whether el is wholly on the screen — inside
// the window and inside every box around it that clips (a pane, a
// scrolling board, a zone) — as a player sees it without scrolling.
const inViewJS = `window.inView = (el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return false;
  let box = {l: 0, t: 0, r: innerWidth, b: innerHeight};
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    box = {l: Math.max(box.l, c.left + a.clientLeft), t: Math.max(box.t, c.top + a.clientTop),
      r: Math.min(box.r, c.left + a.clientLeft + a.clientWidth), b: Math.min(box.b, c.top + a.clientTop + a.clientHeight)};
  }
  return r.left >= box.l - 1 && r.top >= box.t - 1 && r.right <= box.r + 1 && r.bottom <= box.b + 1;
};
window.boardTokens = () => [...document.querySelectorAll('#board-view [data-token]')]
  .filter(e => e.getClientRects().length > 0);
true`

// boardFit is what a desktop's board shows of its tokens.
type boardFit struct {
	Tokens  int
	Outside []string
	// Scrolls names the boxes of the board that scroll (their content
	// larger than they are).
	Scrolls []string
	Scene   bool
}

const boardFitJS = `(() => {
  const view = document.getElementById('board-view');
  const scrolls = [view, ...view.querySelectorAll('*')].filter(e => !e.matches('.sr-only, .sr-only *')).filter(e => {
    const s = getComputedStyle(e);
    return (s.overflowX !== 'visible' || s.overflowY !== 'visible') &&
      (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1);
  }).map(e => (e.id || e.className.baseVal || e.className) + ' ' + e.scrollWidth + '×' + e.scrollHeight + ' in ' + e.clientWidth + '×' + e.clientHeight);
  const toks = boardTokens();
  return {Tokens: toks.length, Outside: toks.filter(e => !inView(e)).map(e => e.dataset.token), Scrolls: scrolls,
    Scene: !!view.querySelector('#scene-img, #map-img')};
})()`

// TestBoardFitsItsPane opens every shipped example of every ruleset with a
// scene picture (16:9, drawn behind the board) as its GM. At 1440×900
// every token on the board is inside the board's pane and nothing in the
// board scrolls; at 390×844 the acting token is in view at the start of
// each turn, for the first turns of the fight.
func TestBoardFitsItsPane(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "4"})
	gm := srv.signup("fit-gm")
	var camp struct{ ID string }
	if code := srv.call(gm, "POST", "/api/campaigns", map[string]string{"name": "Fits"}, &camp); code != http.StatusCreated {
		t.Fatalf("campaign: %d", code)
	}
	code, scene := srv.uploadPicture(gm, camp.ID, "scene.jpg", jpegBytes(t, testPicture(1600, 900, 90, 255)))
	if code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("upload: %d %+v", code, scene)
	}
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	type fight struct{ name, id string }
	var fights []fight
	for _, ex := range exs {
		doc := decodeNumbers(t, ex.Data)
		doc["scene"] = scene.URL
		raw, _ := json.Marshal(doc)
		var created struct{ ID string }
		if code := srv.call(gm, "POST", "/api/campaigns/"+camp.ID+"/encounters", json.RawMessage(raw), &created); code != http.StatusCreated {
			t.Fatalf("import %s: %d", ex.Name, code)
		}
		if code, e := srv.command(gm, created.ID, "start", map[string]any{"kind": engine.KindStart}); code != http.StatusOK {
			t.Fatalf("start %s: %d %+v", ex.Name, code, e)
		}
		fights = append(fights, fight{ex.Name, created.ID})
	}
	open := func(ctx context.Context, id string) {
		t.Helper()
		steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitReady("#board-view", chromedp.ByID),
			waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
			waitJS(`[...document.querySelectorAll('#board-view img')].every(i => i.complete)`),
			chromedp.Evaluate(inViewJS, nil))
	}

	desk := tabletop(t, 1440, 900)
	login(t, desk, srv.URL, gm.Name)
	for _, f := range fights {
		open(desk, f.id)
		var fit boardFit
		steps(t, desk, settled(), chromedp.Evaluate(boardFitJS, &fit))
		if fit.Tokens == 0 || !fit.Scene {
			t.Errorf("desktop %s: %d tokens on the board, scene drawn %v", f.name, fit.Tokens, fit.Scene)
		}
		if len(fit.Outside) > 0 || len(fit.Scrolls) > 0 {
			t.Errorf("desktop %s: tokens outside the board's pane %v; scrolling inside the board: %v", f.name, fit.Outside, fit.Scrolls)
		}
		keepScreenshot(desk, "fit-"+f.name)
	}

	phone := tabletop(t, 390, 844)
	login(t, phone, srv.URL, gm.Name)
	for _, f := range fights {
		open(phone, f.id)
		steps(t, phone, chromedp.Click("#tab-board", chromedp.ByID), waitJS(`document.getElementById('encounter').dataset.tab === 'board'`))
		// The header: the encounter's name whole, each control's words on
		// one line.
		var cut []string
		steps(t, phone, chromedp.Evaluate(`[...document.querySelectorAll('.enc-head h1, .enc-head button, .enc-head summary, .enc-head label')]
  .filter(e => e.getClientRects().length > 0)
  .filter(e => e.scrollWidth > e.clientWidth + 1 || (e.tagName !== 'H1' && e.getBoundingClientRect().height > 48))
  .map(e => e.id || e.textContent.trim())`, &cut))
		if len(cut) > 0 {
			t.Errorf("phone %s: cut or folded in the header: %q", f.name, cut)
		}
		for turn := 0; turn < 4; turn++ {
			v := srv.viewAs(gm, f.id)
			if v.Status != engine.StatusRunning {
				break
			}
			var acting []string
			var seen, shown int
			steps(t, phone, settled(), chromedp.Evaluate(`boardTokens().filter(e => e.classList.contains('acting')).map(e => e.dataset.token)`, &acting),
				chromedp.Evaluate(`boardTokens().filter(e => e.classList.contains('acting')).length`, &seen),
				chromedp.Evaluate(`boardTokens().filter(e => e.classList.contains('acting') && inView(e)).length`, &shown))
			if seen > 0 && shown == 0 {
				t.Errorf("phone %s, turn %d: the acting token %v is not in view", f.name, turn, acting)
			}
			if turn == 0 {
				keepScreenshot(phone, "fit-"+f.name+"-phone")
			}
			// The next turn: the GM ends this one (or answers what waits).
			var ack struct{ Seq int64 }
			var cmd map[string]any
			if len(v.Pending) > 0 {
				d := v.Pending[0]
				choice := d.Default
				if choice == "" && len(d.Options) > 0 {
					choice = d.Options[len(d.Options)-1].Value
				}
				cmd = map[string]any{"kind": "answer", "decision": d.ID, "choice": choice}
			} else {
				cmd = map[string]any{"kind": "end-turn", "actor": v.Current}
			}
			srv.call(gm, "POST", "/api/encounters/"+f.id+"/commands", map[string]any{"id": fmt.Sprint("t", turn), "command": cmd}, &ack)
			if ack.Seq == 0 {
				break
			}
			steps(t, phone, waitJS(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.seq) >= %d`, ack.Seq)))
		}
	}
}
