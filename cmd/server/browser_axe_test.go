package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestAccessibilityEveryPage runs axe-core on every kind of page a group
// meets, at a desktop's and a phone's size: the home and account pages,
// the campaign and its timeline, a character's page and sheet, a draft, a
// live encounter for the GM and for a player (and the GM's choice of
// viewer), its log and its replay along the fight — rolls, decisions,
// undone actions and all — a finished encounter's carry-over, the log-in
// and sign-up pages and a missing page. None has a violation. (It replaces
// the older check of a few of these pages.)
func TestAccessibilityEveryPage(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "4"})
	night := newGameNight(srv)
	live, _, _ := night.encounter("sw-zones-goblin-ford")
	over, _, _ := night.encounter("d20-tactical-rooftop-crossfire")
	// Play on: rolls, questions and their answers, chat, then an undone
	// action; the other fight to its end.
	rng := rand.New(rand.NewPCG(3, 4))
	for step := 0; step < 30; step++ {
		if cmd := contractPick(rng, srv.viewAs(night.gm, live), nil); cmd != nil {
			srv.command(night.gm, live, fmt.Sprint("play-", step), cmd)
		}
	}
	srv.command(night.player, live, "chat", map[string]any{"kind": "chat", "text": "/roll 2d6+1 courage"})
	srv.command(night.gm, live, "whisper", map[string]any{"kind": "chat", "text": "You hear drums.", "to": "brak"})
	if code, e := srv.command(night.gm, live, "undo", map[string]any{"kind": engine.KindRewind}); code != 200 {
		t.Fatalf("rewind: %d %+v", code, e)
	}
	if code, e := srv.command(night.gm, over, "end", map[string]any{"kind": engine.KindEnd, "winner": ""}); code != 200 {
		t.Fatalf("end: %d %+v", code, e)
	}
	latest := srv.viewAs(night.gm, live).Seq
	form := "application/x-www-form-urlencoded"
	draft := srv.send(night.gm, "POST", "/campaigns/"+night.campaign+"/drafts", form, "name=Bridge&ruleset=sw-zones").header.Get("Location")
	c, e := "/campaigns/"+night.campaign, "/encounters/"+live
	// Pages whose layout changes on a phone (the table's tabs and toast,
	// stacked sections) are checked at both sizes, the rest on a desktop.
	type page struct {
		who   *apiUser
		path  string
		phone bool
	}
	pages := []page{
		{night.gm, "/", false}, {night.gm, "/account", false}, {night.gm, c, true}, {night.gm, c + "/timeline", false},
		{night.player, c + "/characters/brak", false}, {night.gm, c + "/pcs/brak", false},
		{night.gm, draft, true}, {night.gm, e, true}, {night.player, e, true}, {night.gm, e + "?choose=1", false},
		{night.gm, e + "/log", true},
		{night.gm, "/encounters/" + over + "/carry-over", true}, {night.gm, "/no/such/page", false}, {nil, "/login", false}, {nil, "/signup", false},
		{night.gm, e + "/replay", true},
	}
	// The replay at its start, along the fight and at its end.
	for _, seq := range []int64{0, latest / 2, latest} {
		pages = append(pages, page{night.player, fmt.Sprintf("%s/replay?seq=%d", e, seq), true})
	}
	checked := 0
	for _, size := range browserSizes {
		users := map[*apiUser]context.Context{}
		for _, pg := range pages {
			if size.name == "phone" && !pg.phone {
				continue
			}
			ctx, ok := users[pg.who]
			if !ok {
				ctx = tab(t, size.b(t))
				if pg.who != nil {
					login(t, ctx, srv.URL, pg.who.Name)
				}
				users[pg.who] = ctx
			}
			var violations []string
			cx, cancel := patience.Context(ctx)
			err := chromedp.Run(cx, chromedp.Navigate(srv.URL+pg.path), chromedp.WaitReady("main", chromedp.ByQuery),
				chromium.Axe("", &violations))
			cancel()
			if err != nil {
				t.Fatalf("%s %s: %v", size.name, pg.path, err)
			}
			checked++
			for _, v := range violations {
				t.Errorf("%s %s: %s", size.name, pg.path, v)
			}
			if strings.Contains(pg.path, "/replay") {
				keepScreenshot(ctx, "axe-replay-"+strings.NewReplacer("/", "-", "?", "-", "=", "").Replace(pg.path[len(e):])+"-"+size.name)
			}
		}
	}
	t.Logf("axe checked %d pages", checked)
}
