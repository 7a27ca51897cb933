package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/testdb"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// TestBrowserGridDoors: the GM imports the house (three rooms, a closed
// door and an open one) onto d20-tactical's grid in the draft editor and
// sees its walls and doors between squares on the preview; draws a window
// between two squares by hand; creates and
// starts the encounter and opens the closed door from the table; a
// player, on a desktop and on a phone, sees the walls and both doors
// open.
func TestBrowserGridDoors(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser, playerUser := srv.signup("doorwarden"), srv.signup("player-one")
	camp, draft := srv.exampleDraft(gmUser, "Doors", "d20-tactical-alley-brawl")
	srv.join(gmUser, camp, playerUser)
	house := uvtttest.House()
	house.Image = scenePNG(t, 700, 420)

	gm := tab(t, browserSized(t, 1440, 900))
	login(t, gm, srv.URL, gmUser.Name)
	steps(t, gm, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery),
		dropOnBoard("house.dd2vtt", house.JSON()),
		waitJS(`document.querySelectorAll('#board-preview .door').length === 2 && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`))
	var doors []string
	steps(t, gm, chromedp.Evaluate(`[...document.querySelectorAll('#board-preview .door')].map(d => d.getAttribute('class') + ' ' + d.textContent)`, &doors),
		chromedp.Evaluate(`document.getElementById('draft-board').scrollIntoView()`, nil))
	if strings.Join(doors, "|") != "door closed Door between E2 and F2 — closed|door open Door between H3 and H4 — open" {
		t.Errorf("the preview's doors: %q", doors)
	}
	var walls string
	steps(t, gm, chromedp.Evaluate(`(document.querySelector('#board-preview path.walls') || {getAttribute: () => ''}).getAttribute('d')`, &walls))
	// Nine walls and four door jambs, one segment each.
	if n := strings.Count(walls, "M"); n != 13 {
		t.Errorf("the preview draws %d wall segments, want 13: %q", n, walls)
	}
	// A window drawn by hand: B3's north side.
	steps(t, gm, setValue("edge-square", "B3"), setValue("edge-side", "n"), setValue("edge-kind", "window"),
		chromedp.Click(`#edge-set`, chromedp.ByQuery),
		waitJS(`!!document.querySelector('#board-preview path.windows') && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`))
	var windows string
	steps(t, gm, chromedp.Evaluate(`document.querySelector('#board-preview path.windows').getAttribute('d')`, &windows),
		chromedp.Evaluate(`document.getElementById('draft-board').scrollIntoView()`, nil))
	if windows != "M1.00 2.00L2.00 2.00" {
		t.Errorf("the window drawn by hand is %q", windows)
	}
	keepScreenshot(gm, "doors-editor")

	steps(t, gm, chromedp.Click(`#create-encounter`, chromedp.ByQuery), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
	var encURL string
	steps(t, gm, chromedp.Location(&encURL))
	steps(t, gm, waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
		chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"),
		chromedp.Click(`#act-open-door-open`, chromedp.ByID), setValue("act-open-door-door", "5,1,w"),
		chromedp.Click(`#act-open-door-go`, chromedp.ByID), logHas("The GM opens the door between E2 and F2."))

	for _, size := range []struct {
		name string
		w, h int
	}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
		p := tab(t, browserSized(t, size.w, size.h))
		login(t, p, srv.URL, playerUser.Name)
		steps(t, p, chromedp.Navigate(encURL), waitJS(`document.querySelector('#conn').dataset.state === 'live'`))
		if size.name == "phone" {
			steps(t, p, chromedp.Click("#tab-board", chromedp.ByID), waitJS(`document.getElementById('encounter').dataset.tab === 'board'`))
		}
		steps(t, p, waitJS(`document.querySelectorAll('#battlefield .door.open').length === 2 && !!document.querySelector('#battlefield path.walls') && !!document.querySelector('#battlefield path.windows')`), settled())
		var closed int
		var key string
		steps(t, p, chromedp.Evaluate(`document.querySelectorAll('#battlefield .door.closed').length`, &closed),
			chromedp.Evaluate(`document.getElementById('board-key').textContent`, &key))
		if closed != 0 {
			t.Errorf("%s: %d closed doors after the GM opened the only one", size.name, closed)
		}
		if !strings.Contains(key, "a wall between squares") || !strings.Contains(key, "an open door") || !strings.Contains(key, "a window") || strings.Contains(key, "a closed door") {
			t.Errorf("%s: the board's key says %q", size.name, key)
		}
		if size.name == "desktop" {
			steps(t, p, chromedp.Click(`#board-key summary`, chromedp.ByQuery), waitJS(`document.getElementById('board-key').open`))
		}
		keepScreenshot(p, "doors-player-"+size.name)
	}
}
