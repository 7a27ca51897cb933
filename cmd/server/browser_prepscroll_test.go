package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/testdb"
)

// TestPrepStaysPut edits a grid draft with a scene at 1440×900 the way a
// GM works, and measures the page:
//   - the chip tray sits beside the board: a bestiary chip and the
//     board's squares are on the screen together, so it is dragged there
//     without scrolling; dropped while the tray's side says the second
//     side, it joins that side;
//   - three drops of one entry give three distinct names;
//   - scrollY stays within 50 px across each drop, a side change saved in
//     the combatants' list and the map scale saved.
func TestPrepStaysPut(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm := srv.signup("prep-gm")
	var camp struct{ ID string }
	if code := srv.call(gm, "POST", "/api/campaigns", map[string]string{"name": "Stays put"}, &camp); code != http.StatusCreated {
		t.Fatalf("campaign: %d", code)
	}
	c := "/campaigns/" + camp.ID
	foes := twoFoes(t, "d20-tactical")
	foes[1]["id"], foes[1]["name"] = "outlaw", "Outlaw"
	file, _ := json.Marshal(foes[1:])
	if r := srv.upload(gm, c+"/bestiary/import", file); r.code != 303 {
		t.Fatalf("bestiary: %d %s", r.code, r.body)
	}
	code, scene := srv.uploadPicture(gm, camp.ID, "scene.jpg", jpegBytes(t, testPicture(1600, 900, 90, 255)))
	if code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("upload: %d", code)
	}
	doc := decodeNumbers(t, exampleData(t, "d20-tactical-alley"))
	doc["scene"] = scene.URL
	raw, _ := json.Marshal(doc)
	imp := srv.upload(gm, c+"/drafts/import", raw)
	if imp.code != 303 || !strings.HasPrefix(imp.location, "/drafts/") {
		t.Fatalf("draft import: %d %s", imp.code, imp.location)
	}

	page := tabletop(t, 1440, 900)
	login(t, page, srv.URL, gm.Name)
	steps(t, page, chromedp.Navigate(srv.URL+imp.location), chromedp.WaitVisible(`#board-preview`, chromedp.ByID),
		chromedp.Evaluate(`window.__marker = 'kept'`, nil))
	quiet := chromedp.Tasks{waitJS(`!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`), settled()}
	scrollY := func() float64 {
		var y float64
		steps(t, page, chromedp.Evaluate(`window.scrollY`, &y))
		return y
	}
	kept := func(what string, before float64) {
		t.Helper()
		var marker string
		steps(t, page, chromedp.Evaluate(`window.__marker || ''`, &marker))
		if marker != "kept" {
			t.Fatalf("%s reloaded the page", what)
		}
		if after := scrollY(); after < before-50 || after > before+50 {
			t.Errorf("%s moved the page from scrollY %.0f to %.0f", what, before, after)
		} else {
			t.Logf("%s: scrollY %.0f → %.0f", what, before, after)
		}
	}

	keepScreenshot(page, "prep-top")
	// The GM works at the board: its top at the top of the window.
	steps(t, page, chromedp.Evaluate(`window.scrollTo(0, document.getElementById('board-preview').getBoundingClientRect().top + scrollY - 8)`, nil), settled())
	var side string
	steps(t, page, chromedp.Evaluate(`(() => { const s = document.getElementById('tray-side'); s.selectedIndex = 1; return s.value; })()`, &side))
	keepScreenshot(page, "prep-board")
	for i := 0; i < 3; i++ {
		before := scrollY()
		var from []float64
		steps(t, page, chromedp.Evaluate(`(() => { const r = document.getElementById('add-b-outlaw').getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2, r.bottom <= innerHeight && r.top >= 0 ? 1 : 0]; })()`, &from))
		if from[2] != 1 {
			t.Fatalf("drop %d: the bestiary chip is off the screen (y %.0f) with the board in view", i+1, from[1])
		}
		var to []float64
		steps(t, page, chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('#board-preview .grid-svg');
			const p = s.createSVGPoint(); p.x = %d.5; p.y = 4.5; const q = p.matrixTransform(s.getScreenCTM()); return [q.x, q.y]; })()`, 1+i), &to))
		if to[1] < 0 || to[1] > 900 {
			t.Fatalf("drop %d: the square is off the screen (y %.0f)", i+1, to[1])
		}
		steps(t, page, drag(from[0], from[1], to[0], to[1]),
			waitJS(fmt.Sprintf(`[...document.querySelectorAll('#combatant-list .row-title')].filter(e => e.textContent.startsWith('Outlaw')).length === %d`, i+1)), quiet)
		kept(fmt.Sprintf("drop %d", i+1), before)
	}
	var names []string
	var sides []string
	steps(t, page, chromedp.Evaluate(`[...document.querySelectorAll('#combatant-list .row')].filter(r => r.querySelector('.row-title').textContent.startsWith('Outlaw')).map(r => r.querySelector('.row-title').textContent)`, &names),
		chromedp.Evaluate(`[...document.querySelectorAll('#combatant-list .row')].filter(r => r.querySelector('.row-title').textContent.startsWith('Outlaw')).map(r => r.querySelector('select[name=side]').value)`, &sides))
	distinct := map[string]bool{}
	for _, n := range names {
		distinct[n] = true
	}
	if len(distinct) != 3 {
		t.Errorf("three drops of one entry are named %q", names)
	}
	for i, s := range sides {
		if s != side {
			t.Errorf("%s dropped while the tray said %q joined %q", names[i], side, s)
		}
	}

	// A side changed in the list of combatants, saved.
	steps(t, page, chromedp.Evaluate(`document.querySelector('#combatant-list .row').scrollIntoView({block: 'center'})`, nil), settled())
	before := scrollY()
	steps(t, page, chromedp.Evaluate(`(() => { const s = document.querySelector('#combatant-list .row select[name=side]'); s.selectedIndex = (s.selectedIndex + 1) % s.options.length; })()`, nil),
		chromedp.Click(`#combatant-list .row button[type=submit]`, chromedp.ByQuery), quiet)
	kept("a side change", before)

	// The map scale, saved.
	steps(t, page, chromedp.Evaluate(`document.getElementById('scene-fit-form').scrollIntoView({block: 'center'})`, nil), settled())
	before = scrollY()
	steps(t, page, setValue("fit-w", "12"), setValue("fit-h", "8"), setValue("fit-x", "0"), setValue("fit-y", "0"),
		chromedp.Click(`#save-scene-fit`, chromedp.ByID), waitJS(`document.getElementById('fit-w').value === '12' && !!document.querySelector('#board-preview #map-img')`), quiet)
	kept("the map scale", before)
}
