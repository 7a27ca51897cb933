package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserPictures: the GM uploads a scene image, a portrait and a
// handout's picture in prep, creates and starts the encounter; the
// player's page shows the backdrop and the portrait on the token (both
// loaded: the server serves them to the player); the GM shows the handout
// to that player alone from the table — it appears on their page live,
// while the other player's socket receives nothing of it and the picture
// stays 404 for them. With FRAY_SCREENSHOTS set, the table is captured at
// 1440×900 and 390×844.
func TestBrowserPictures(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	other := srv.signup("player-two")
	gmAPI := srv.withUser(tb.gm)
	var inv struct{ URL string }
	gmAPI.do("POST", "/api/campaigns/"+tb.campaign+"/invites", nil, &inv)
	if code := srv.withUser(other).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	var second string
	v, _ := gmAPI.view(tb.id, "")
	for _, c := range v.Combatants {
		if c.PC && c.ID != tb.pc {
			second = c.ID
		}
	}
	if code := gmAPI.do("PUT", "/api/campaigns/"+tb.campaign+"/characters/"+second, map[string]string{"user": other.ID}, nil); code != 200 {
		t.Fatalf("assign: %d", code)
	}
	// A draft of the example encounter.
	imp := srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/drafts/import", exampleData(t, "sw-zones-"))
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
	sceneFile := file("ford.jpg", jpegBytes(t, testPicture(1200, 800, 120, 255)))
	portraitFile := file("reed.png", pngBytes(t, testPicture(200, 200, 30, 255)))
	letterFile := file("orders.png", pngBytes(t, testPicture(300, 400, 200, 255)))

	gm := tab(t, newBrowser(t))
	login(t, gm, srv.URL, tb.gm.Name)
	pc := tb.pc
	steps(t, gm, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#draft-stage`, chromedp.ByID),
		chromedp.SetUploadFiles(`#scene-file`, []string{sceneFile}, chromedp.ByID),
		chromedp.Click(`#upload-scene`, chromedp.ByID),
		chromedp.WaitVisible(`#scene-preview`, chromedp.ByID),
		chromedp.SetUploadFiles(`#portrait-file-`+pc, []string{portraitFile}, chromedp.ByID),
		chromedp.Click(`#upload-portrait-`+pc, chromedp.ByID),
		chromedp.WaitVisible(`#portrait-`+pc+` img.portrait`, chromedp.ByQuery),
		chromedp.SendKeys(`#handout-title`, "Sealed orders", chromedp.ByID),
		chromedp.SendKeys(`#handout-text`, "Ride for the mill at dawn.", chromedp.ByID),
		chromedp.SetUploadFiles(`#handout-file`, []string{letterFile}, chromedp.ByID),
		chromedp.Click(`#add-handout`, chromedp.ByID),
		chromedp.WaitVisible(`#draft-handout-sealed-orders`, chromedp.ByID),
		chromedp.Click(`#create-encounter`, chromedp.ByID), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
	var encURL string
	steps(t, gm, chromedp.Location(&encURL))
	id := encURL[strings.LastIndex(encURL, "/")+1:]
	steps(t, gm, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))

	// The other player listens on a socket from the start.
	ws := srv.connect(other, id, "view=1&html=1")

	player := tab(t, browserSized(t, 1440, 900))
	login(t, player, srv.URL, tb.player.Name)
	loaded := func(sel string) chromedp.Action {
		return chromedp.Poll(fmt.Sprintf(`(() => { const i = document.querySelector(%q); return !!i && i.complete && i.naturalWidth > 0 })()`, sel), nil,
			chromedp.WithPollingTimeout(patience.Hang()))
	}
	steps(t, player, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#log", chromedp.ByID),
		waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
		loaded(`#scene-img`),
		loaded(`#battlefield span.tok[data-token="`+pc+`"] img.portrait`),
		loaded(`#order .has-portrait img.portrait`))
	var handoutsHidden bool
	steps(t, player, chromedp.Evaluate(`document.getElementById('handouts').hidden`, &handoutsHidden))
	if !handoutsHidden {
		t.Error("the player sees a handouts panel before any was shown")
	}

	// The GM shows the handout to the first player from the table.
	steps(t, gm, chromedp.Click(`#act-reveal-handout-open`, chromedp.ByID),
		setValue("act-reveal-handout-handout", "sealed-orders"), setValue("act-reveal-handout-to", pc),
		chromedp.Click(`#act-reveal-handout-go`, chromedp.ByID),
		logHas("The GM shows a handout"))
	steps(t, player, chromedp.Poll(`!document.getElementById('handouts').hidden && document.getElementById('handouts').textContent.includes('Sealed orders')`, nil,
		chromedp.WithPollingTimeout(patience.Hang())),
		loaded(`#handouts img.handout-img`))
	keepScreenshot(player, "table-pictures-desktop")

	phone := tab(t, newPhone(t))
	login(t, phone, srv.URL, tb.player.Name)
	steps(t, phone, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#tabs", chromedp.ByID),
		chromedp.Click("#tab-board", chromedp.ByID), chromedp.WaitVisible("#scene-img", chromedp.ByID), loaded(`#scene-img`))
	keepScreenshot(phone, "table-pictures-phone")

	// The other player: nothing of it on their socket, 404 for its picture.
	var gmView struct{ Seq int64 }
	gmAPI.do("GET", "/api/encounters/"+id, nil, &gmView)
	time.Sleep(300 * time.Millisecond) // the reveal's update would have gone out with the GM's
	var letter string
	var full struct {
		Handouts []engine.Handout `json:"handouts"`
	}
	_, raw := gmAPI.view(id, "")
	_ = json.Unmarshal(raw, &full)
	for _, h := range full.Handouts {
		letter = h.Image
	}
	if letter == "" {
		t.Fatal("the GM's view has no handout picture")
	}
	for _, f := range ws.all() {
		if bytes.Contains(f, []byte("Sealed orders")) || bytes.Contains(f, []byte(letter)) || bytes.Contains(f, []byte("mill at dawn")) {
			t.Errorf("the other player's socket got the handout: %.300s", f)
		}
	}
	if len(ws.all()) == 0 {
		t.Error("the other player's socket got nothing at all (not even the start): the check above means nothing")
	}
	if p := srv.get(other, letter); p.code != 404 {
		t.Errorf("the other player GET the handout's picture: %d", p.code)
	}
	if p := srv.get(tb.player, letter); p.code != 200 {
		t.Errorf("the player GET the handout's picture: %d", p.code)
	}
}
