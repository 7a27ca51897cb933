package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserZoneAndMapPictures: the GM gives a zone its own picture and
// lays the scene under the zone map at a scale, both in the draft
// editor; the player's page shows the zone's picture inside that zone and
// the map drawn in the zone map's cells; the GM pictures another zone and
// rescales the map during play and the player's page follows live. Then
// a grid encounter: the GM lays its scene over the squares with an
// offset, and the player's grid draws the map at exactly those squares.
// With FRAY_SCREENSHOTS set, both tables are captured at 1440×900 and
// 390×844.
func TestBrowserZoneAndMapPictures(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	data := exampleData(t, "sw-zones-")
	var doc struct {
		Battlefield struct {
			Zones []struct{ ID string } `json:"zones"`
		} `json:"battlefield"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Battlefield.Zones) < 2 {
		t.Fatalf("example zones: %v %+v", err, doc)
	}
	zone, other := doc.Battlefield.Zones[0].ID, doc.Battlefield.Zones[1].ID
	imp := srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/drafts/import", data)
	if imp.code != 303 || !strings.HasPrefix(imp.location, "/drafts/") {
		t.Fatalf("draft import: %d %s", imp.code, imp.location)
	}
	draft := imp.location

	dir := t.TempDir()
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sceneFile := file("valley.jpg", jpegBytes(t, testPicture(1200, 800, 60, 255)))
	zoneFile := file("saloon.png", pngBytes(t, testPicture(320, 240, 220, 255)))

	gm := tab(t, newBrowser(t))
	login(t, gm, srv.URL, tb.gm.Name)
	steps(t, gm, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#draft-stage`, chromedp.ByID),
		chromedp.SetUploadFiles(`#scene-file`, []string{sceneFile}, chromedp.ByID),
		chromedp.Click(`#upload-scene`, chromedp.ByID),
		chromedp.WaitVisible(`#scene-preview`, chromedp.ByID),
		// The zone's properties: its picture, uploaded in place.
		chromedp.Evaluate(fmt.Sprintf(`document.getElementById(%q).open = true`, "zone-"+zone+"-edit"), nil),
		chromedp.SetUploadFiles(`#zone-file-`+zone, []string{zoneFile}, chromedp.ByID),
		chromedp.Click(`#upload-zone-`+zone, chromedp.ByID),
		chromedp.WaitReady(`#zone-picture-`+zone+` img`, chromedp.ByQuery),
		waitJS(`document.getElementById('scene-size').textContent.includes('1200 × 800 pixels')`),
		// The map covers the zone map's first three columns and two rows.
		setValue("fit-w", "3"), setValue("fit-h", "2"), setValue("fit-x", "0"), setValue("fit-y", "0"),
		chromedp.Click(`#save-scene-fit`, chromedp.ByID),
		waitJS(`document.getElementById('fit-w') && document.getElementById('fit-w').value === '3' && !!document.querySelector('#battlefield #map-img')`),
		chromedp.ScrollIntoView(`#scene-fit-form`, chromedp.ByID))
	keepScreenshot(gm, "draft-map-scale")
	steps(t, gm, chromedp.Evaluate(fmt.Sprintf(`document.getElementById(%q).open = true`, "zone-"+zone+"-edit"), nil),
		chromedp.ScrollIntoView(`#zone-picture-`+zone, chromedp.ByID))
	keepScreenshot(gm, "draft-zone-picture")
	steps(t, gm, chromedp.Click(`#create-encounter`, chromedp.ByID), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
	var encURL string
	steps(t, gm, chromedp.Location(&encURL))
	id := encURL[strings.LastIndex(encURL, "/")+1:]
	steps(t, gm, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))

	pv := srv.viewAs(tb.player, id)
	if pv.SceneFit == nil || *pv.SceneFit != (engine.SceneFit{W: 3, H: 2}) {
		t.Fatalf("the player's view: fit %+v", pv.SceneFit)
	}
	zonePic := ""
	for _, a := range pv.Board.Zones.Areas {
		if a.ID == zone {
			zonePic = a.Image
		}
	}
	if zonePic == "" || zonePic == pv.Scene {
		t.Fatalf("the player's board has no picture in %s: %+v", zone, pv.Board.Zones.Areas)
	}
	if p := srv.get(tb.player, zonePic); p.code != http.StatusOK {
		t.Errorf("the player GET the zone's picture: %d", p.code)
	}

	player := tab(t, browserSized(t, 1440, 900))
	login(t, player, srv.URL, tb.player.Name)
	loaded := func(sel string) chromedp.Action {
		return chromedp.Poll(fmt.Sprintf(`(() => { const i = document.querySelector(%q); return !!i && i.complete && i.naturalWidth > 0 })()`, sel), nil,
			chromedp.WithPollingTimeout(patience.Hang()))
	}
	mapAt := func(x, y, w, h string) chromedp.Action {
		return chromedp.Poll(fmt.Sprintf(`(() => { const i = document.querySelector('#battlefield #map-img');
			return !!i && i.getAttribute('x') === %q && i.getAttribute('y') === %q && i.getAttribute('width') === %q && i.getAttribute('height') === %q
				&& i.getAttribute('href') === %q && !document.getElementById('scene-img') })()`, x, y, w, h, pv.Scene), nil,
			chromedp.WithPollingTimeout(patience.Hang()))
	}
	steps(t, player, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#log", chromedp.ByID),
		waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
		loaded(fmt.Sprintf(`#battlefield .zarea[data-area=%q] img.zone-img`, zone)),
		mapAt("0.00", "0.00", "3.00", "2.00"))
	keepScreenshot(player, "table-zone-picture-desktop")

	// During play: another zone's picture, a new scale; the player's page
	// follows live.
	if code, e := srv.command(tb.gm, id, "zone-2", map[string]any{"kind": engine.KindSetZoneScene, "zone": other, "image": zonePic}); code != http.StatusOK {
		t.Fatalf("set-zone-scene: %d %+v", code, e)
	}
	if code, e := srv.command(tb.gm, id, "fit-2", map[string]any{"kind": engine.KindSetSceneFit, "x": 0.5, "y": 0, "w": 2, "h": 2}); code != http.StatusOK {
		t.Fatalf("set-scene-fit: %d %+v", code, e)
	}
	steps(t, player, loaded(fmt.Sprintf(`#battlefield .zarea[data-area=%q] img.zone-img`, other)), mapAt("0.50", "0.00", "2.00", "2.00"))
	if code, e := srv.command(tb.player, id, "fit-3", map[string]any{"kind": engine.KindSetSceneFit, "w": 1, "h": 1}); code != http.StatusForbidden {
		t.Errorf("a player sets the map's scale: %d %+v", code, e)
	}

	phone := tab(t, newPhone(t))
	login(t, phone, srv.URL, tb.player.Name)
	steps(t, phone, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#tabs", chromedp.ByID),
		chromedp.Click("#tab-board", chromedp.ByID),
		loaded(fmt.Sprintf(`#battlefield .zarea[data-area=%q] img.zone-img`, zone)))
	keepScreenshot(phone, "table-zone-picture-phone")

	// A grid: the scene laid over squares with half a square's offset.
	grid := decodeNumbers(t, exampleData(t, "d20-tactical-"))
	grid["scene"] = pv.Scene
	grid["sceneFit"] = map[string]any{"x": -0.5, "y": -0.5, "w": 12, "h": 8}
	raw, _ := json.Marshal(grid)
	var created struct{ ID string }
	if code := srv.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/encounters", raw, &created); code != http.StatusCreated {
		t.Fatalf("grid import: %d", code)
	}
	gv := srv.viewAs(tb.gm, created.ID)
	var gpc string
	for _, c := range gv.Combatants {
		if c.PC && gpc == "" {
			gpc = c.ID
		}
	}
	if code := srv.call(tb.gm, "PUT", "/api/campaigns/"+tb.campaign+"/characters/"+gpc, map[string]string{"user": tb.player.ID}, nil); code != http.StatusOK {
		t.Fatalf("assign %s: %d", gpc, code)
	}
	if code, e := srv.command(tb.gm, created.ID, "g-start", map[string]any{"kind": engine.KindStart}); code != http.StatusOK {
		t.Fatalf("start: %d %+v", code, e)
	}
	if p := srv.get(tb.player, "/encounters/"+created.ID); p.code != http.StatusOK {
		t.Fatalf("the player's grid page: %d %.300s", p.code, p.body)
	}
	for _, ctx := range []struct {
		tab  context.Context
		name string
	}{{player, "desktop"}, {phone, "phone"}} {
		steps(t, ctx.tab, chromedp.Navigate(srv.URL+"/encounters/"+created.ID), chromedp.WaitReady("#battlefield", chromedp.ByID))
		if ctx.name == "phone" {
			steps(t, ctx.tab, chromedp.Click("#tab-board", chromedp.ByID))
		}
		steps(t, ctx.tab, mapAt("-0.50", "-0.50", "12.00", "8.00"),
			waitJS(`document.querySelector('#map-img').closest('svg').classList.contains('grid-svg')`))
		keepScreenshot(ctx.tab, "table-grid-map-"+ctx.name)
	}
}
