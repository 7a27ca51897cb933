package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// TestBrowserMapImport: the GM imports a battlemap (the house: a west
// room, a north-east and a south-east room, with its picture) into a
// draft from the editor, splits the west room along a line drawn on the
// board, merges the two east rooms (undoing and redoing the merge), sees
// the range table, and creates the encounter; a player, on a desktop and
// on a phone, sees the three zones drawn over the picture where those
// rooms are on it.
func TestBrowserMapImport(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser, playerUser := srv.signup("cartographer"), srv.signup("player-one")
	camp, draft := srv.exampleDraft(gmUser, "Maps", "sw-zones-goblin-ford")
	srv.join(gmUser, camp, playerUser)
	house := uvtttest.House()
	house.Image = scenePNG(t, 700, 420)

	gm := tab(t, browserSized(t, 1440, 900))
	login(t, gm, srv.URL, gmUser.Name)
	areas := func(n int) chromedp.Action {
		return waitJS(fmt.Sprintf(`document.querySelectorAll('#board-preview [data-area]').length === %d && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, n))
	}
	steps(t, gm, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery),
		dropOnBoard("house.dd2vtt", house.JSON()), areas(3))
	var notice string
	steps(t, gm, chromedp.Evaluate(`(document.querySelector('.flash, .notice, [role=status]') || {}).textContent || ''`, &notice))
	if !strings.Contains(notice, "3 zones, 2 links") {
		t.Errorf("after the import the page says %q", notice)
	}
	steps(t, gm, chromedp.Evaluate(`document.getElementById('draft-board').scrollIntoView()`, nil))
	keepScreenshot(gm, "mapimport-editor")

	// The west room split along a line drawn down its middle.
	steps(t, gm, chromedp.Click(`#split-draw`, chromedp.ByQuery))
	var box []float64
	steps(t, gm, chromedp.Evaluate(`(() => { document.querySelector('#board-preview').scrollIntoView({ block: 'center' }); const r = document.querySelector('#board-preview [data-area="room-1"]').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &box))
	x := box[0] + box[2]*0.5
	steps(t, gm, drag(x, box[1]+box[3]*0.1, x+2, box[1]+box[3]*0.9), areas(4))
	var names []string
	steps(t, gm, chromedp.Evaluate(`[...document.querySelectorAll('#board-preview [data-area] .zname')].map(n => n.textContent.trim())`, &names))
	if strings.Join(names, "|") != "Room 1 (west)|Room 1 (east)|Room 2|Room 3" {
		t.Fatalf("after the split the zones are %q", names)
	}
	// The two east rooms merged; undone; done again.
	steps(t, gm, setValue("merge-a", "room-2"), setValue("merge-b", "room-3"), chromedp.Click(`#merge`, chromedp.ByQuery), areas(3),
		chromedp.Click(`#undo`, chromedp.ByQuery), areas(4),
		setValue("merge-a", "room-2"), setValue("merge-b", "room-3"), chromedp.Click(`#merge`, chromedp.ByQuery), areas(3))
	var ranges []string
	steps(t, gm, chromedp.Evaluate(`[...document.querySelectorAll('#zone-ranges tbody tr')].map(r => r.textContent.replace(/\s+/g, ' ').trim())`, &ranges))
	if len(ranges) != 3 {
		t.Errorf("range table %q", ranges)
	}
	steps(t, gm, chromedp.Evaluate(`document.getElementById('draft-board').scrollIntoView()`, nil))
	keepScreenshot(gm, "mapimport-fixed")
	steps(t, gm, chromedp.Click(`#create-encounter`, chromedp.ByQuery), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
	var encURL string
	steps(t, gm, chromedp.Location(&encURL))
	steps(t, gm, waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
		chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))

	// Where each zone must lie over the picture, as fractions of it
	// (left, top, right, bottom): the west room is squares 0–5 of 10
	// across, cut in two; the east rooms squares 5–10; all 6 rows deep.
	// Zones sit on the page's columns, so allow half a column (1/24).
	want := map[string][4]float64{"room-1": {0, 0, 0.25, 1}, "room-1-east": {0.25, 0, 0.5, 1}, "room-2": {0.5, 0, 1, 1}}
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
		steps(t, p, waitJS(`document.querySelectorAll('.zmap [data-area]').length === 3 && !!document.getElementById('map-img')`), settled())
		var got map[string][]float64
		steps(t, p, chromedp.Evaluate(`(() => { const m = document.getElementById('map-img').getBoundingClientRect(); const out = {};
			for (const a of document.querySelectorAll('.zmap [data-area]')) { const r = a.getBoundingClientRect();
				out[a.dataset.area] = [(r.left - m.left) / m.width, (r.top - m.top) / m.height, (r.right - m.left) / m.width, (r.bottom - m.top) / m.height, m.width, m.height]; }
			return out; })()`, &got))
		keepScreenshot(p, "mapimport-player-"+size.name)
		for id, w := range want {
			g, ok := got[id]
			if !ok {
				t.Errorf("%s: no zone %s on the player's board (%v)", size.name, id, got)
				continue
			}
			if g[4] < 100 || g[5] < 50 {
				t.Errorf("%s: the picture is drawn %.0f × %.0f px", size.name, g[4], g[5])
			}
			for i := range 4 {
				if d := g[i] - w[i]; d < -1.0/24 || d > 1.0/24 {
					t.Errorf("%s: zone %s lies at %.3f of the picture on side %d, want %.3f (all: %.3f)", size.name, id, g[i], i, w[i], g[:4])
				}
			}
		}
	}
}

// TestBrowserMapPlaces: on d20-under's distance categories the GM drops
// the house into a draft: its rooms become places, the heroes start in
// Room 1 and the cult in the room farthest from it (Room 3: 8 squares,
// 12.2 m, Medium); the GM puts the cult in Room 2 instead (5 squares,
// 7.6 m: Short, within one 10 m move), the table and the starting
// distance follow (a distance set by hand is told apart until the cult is
// put in its room again), and the encounter is created with it. The rooms are
// named on the map's picture where they lie. Looked at on a desktop and
// on a phone.
func TestBrowserMapPlaces(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser := srv.signup("cartographer")
	_, draft := srv.exampleDraft(gmUser, "Maps", "d20-under-karvosti-road")
	house := uvtttest.House()
	house.Image = scenePNG(t, 700, 420)
	for _, size := range []struct {
		name string
		w, h int
	}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
		gm := tab(t, browserSized(t, size.w, size.h))
		login(t, gm, srv.URL, gmUser.Name)
		// rows waits for the table to name the rung, then reads it all.
		rows := func(rung, want string) chromedp.Action {
			return chromedp.ActionFunc(func(ctx context.Context) error {
				var got string
				err := chromedp.Run(ctx, waitJS(fmt.Sprintf(`[...document.querySelectorAll('#place-ranges tbody td')].some(d => d.textContent.trim() === %q) && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, rung)),
					chromedp.Evaluate(`[...document.querySelectorAll('#place-ranges tbody tr')].map(r => [...r.cells].map(c => c.textContent.replace(/\s+/g, ' ').trim()).join(' / ')).join(' | ')`, &got))
				if err == nil && got != want {
					t.Errorf("%s: the table of starting distances reads %q, want %q", size.name, got, want)
				}
				return err
			})
		}
		steps(t, gm, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery))
		if size.name == "desktop" {
			steps(t, gm, dropOnBoard("house.dd2vtt", house.JSON()), rows("Medium", "Queen's rangers — Cult of the Black Sun / Room 1 — Room 3 / 12.2 m / Medium"))
			var notice string
			steps(t, gm, chromedp.Evaluate(`(document.querySelector('.flash, .notice, [role=status]') || {}).textContent || ''`, &notice))
			if !strings.Contains(notice, "3 rooms to start in, 2 links") {
				t.Errorf("after the import the page says %q", notice)
			}
			// The cult one door nearer.
			steps(t, gm, setValue("room-1", "room-2"), chromedp.Click(`#room-1-save`, chromedp.ByQuery),
				rows("Short", "Queen's rangers — Cult of the Black Sun / Room 1 — Room 2 / 7.6 m / Short"))
			// A distance set by hand is told apart from the map's, until
			// the cult is put in its room again.
			idle := `!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`
			steps(t, gm, setValue("dist-0", "Long"), chromedp.Click(`#dist-0-save`, chromedp.ByQuery),
				waitJS(`!!document.getElementById('places-changed') && document.getElementById('dist-0').value === 'Long' && `+idle),
				setValue("room-1", "room-2"), chromedp.Click(`#room-1-save`, chromedp.ByQuery),
				waitJS(`!document.getElementById('places-changed') && document.getElementById('dist-0').value === 'Short' && `+idle))
		}
		var rung string
		steps(t, gm, rows("Short", "Queen's rangers — Cult of the Black Sun / Room 1 — Room 2 / 7.6 m / Short"),
			chromedp.Evaluate(`document.getElementById('dist-0').value`, &rung),
			chromedp.Evaluate(`document.getElementById('place-map').scrollIntoView()`, nil))
		if rung != "Short" {
			t.Errorf("%s: the starting distance reads %q, want Short", size.name, rung)
		}
		// The rooms named on the map's picture where they are: Room 1
		// the west half, Rooms 2 and 3 the east (fractions of the map).
		var marks map[string][]float64
		steps(t, gm, waitJS(`(() => { const i = document.querySelector('#place-map image'); return !!i && i.getBBox().width > 0; })()`),
			chromedp.Evaluate(`(() => { const m = document.querySelector('#place-map').getBoundingClientRect(); const out = {};
				for (const t of document.querySelectorAll('#place-map text')) { const r = t.getBoundingClientRect();
					out[t.textContent] = [(r.left + r.width / 2 - m.left) / m.width, (r.top + r.height / 2 - m.top) / m.height]; }
				return out; })()`, &marks))
		for name, want := range map[string][2]float64{"Room 1": {0.25, 0.5}, "Room 2": {0.75, 0.25}, "Room 3": {0.75, 0.75}} {
			if g, ok := marks[name]; !ok || g[0] < want[0]-0.1 || g[0] > want[0]+0.1 || g[1] < want[1]-0.1 || g[1] > want[1]+0.1 {
				t.Errorf("%s: %s is named at %v of the map, want about %v (all %v)", size.name, name, g, want, marks)
			}
		}
		keepScreenshot(gm, "mapplaces-editor-"+size.name)
	}
	gm := tab(t, browserSized(t, 1440, 900))
	login(t, gm, srv.URL, gmUser.Name)
	steps(t, gm, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#create-encounter`, chromedp.ByQuery),
		submits(`#create-encounter`), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
}

// exampleDraft makes a campaign of gm's named campaign and, in it, a draft
// of a shipped example: what the map tests drop a map into. It returns the
// campaign's id and the draft editor's path.
func (s *testServer) exampleDraft(gm *apiUser, campaign, example string) (camp, draft string) {
	s.t.Helper()
	var c struct{ ID string }
	s.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": campaign}, &c)
	ex, err := prep.ExampleNamed(example)
	if err != nil {
		s.t.Fatal(err)
	}
	imp := s.upload(gm, "/campaigns/"+c.ID+"/drafts/import", ex.Data)
	if imp.code != 303 || !strings.HasPrefix(imp.location, "/drafts/") {
		s.t.Fatalf("draft: %d %s", imp.code, imp.body)
	}
	return c.ID, imp.location
}

// dropOnBoard drops a file on the draft editor's board, as a GM drags it
// there from their files.
func dropOnBoard(name string, data []byte) chromedp.Action {
	drop := fmt.Sprintf(`(() => { const dt = new DataTransfer(); dt.items.add(new File([%q], %q, { type: 'application/json' }));
		document.querySelector('#board-preview').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); })()`, string(data), name)
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := chromedp.RunResponse(ctx, chromedp.Evaluate(drop, nil))
		return err
	})
}
