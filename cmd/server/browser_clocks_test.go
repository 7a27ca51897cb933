package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserClockAndDecisionPage: under a clock of 30 minutes plus 5 a
// turn, on a phone and on a desktop, the player's table shows the time
// left on the clock of whoever the table waits on — theirs on their turn,
// counting down — and, after the GM's goblin strikes their character,
// the decision page a notice's link opens shows the question, the time
// left before the standing orders and the fallback answer, and answers it
// with a tap; then the table shows the goblin's turn going on. The
// standing orders page is the player's.
func TestBrowserClockAndDecisionPage(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startClocked(t, dbURL, map[string]string{"FRAY_DICE_SEED": "3", "FRAY_LOGIN_REFILL": "1ms"})
	signer := serverSigner(t, dbURL)
	gm, sam := srv.signup("gamemaster"), srv.signup("sam")
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", kitskirmish.Example, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	srv.join(gm, created.Campaign, sam, "ana")
	if code := srv.call(gm, "PUT", "/api/encounters/"+id+"/deadline", map[string]any{"bank": "30m", "increment": "5m", "fallback": "next-turn"}, nil); code != http.StatusOK {
		t.Fatalf("clock: %d", code)
	}
	n := 0
	send := func(t *testing.T, u *apiUser, cmd map[string]any) {
		t.Helper()
		n++
		if code := srv.call(u, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": fmt.Sprint("c", n), "command": cmd}, nil); code != http.StatusOK {
			t.Fatalf("%v: %d", cmd, code)
		}
		srv.tick()
	}
	send(t, gm, map[string]any{"kind": engine.KindStart})

	for _, size := range []struct {
		name string
		w, h int
	}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ctx := tab(t, browserSized(t, size.w, size.h))
			login(t, ctx, srv.URL, "sam")
			var text string
			steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+id),
				chromedp.WaitVisible(`#clock`, chromedp.ByID),
				chromedp.Poll(`/Ana \(sam\): \d+:\d\d left/.test(document.getElementById('clock').textContent)`, nil, chromedp.WithPollingTimeout(patience.Hang())),
				chromedp.Text(`#clock`, &text, chromedp.ByID))
			if !strings.HasSuffix(text, " left") {
				t.Fatalf("the clock reads %q", text)
			}
			steps(t, ctx, chromedp.WaitReady(`#orders-link`, chromedp.ByID)) // the Menu leads to the standing orders
			keepScreenshot(ctx, "clock-table-"+size.name)

			// The goblin strikes Ana until she is asked to parry.
			send(t, sam, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "ana"})
			send(t, gm, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "bo"})
			d := untilAnaIsAsked(t, func() engine.View { return srv.viewAs(gm, id) }, func(u *apiUser, cmd map[string]any) { send(t, u, cmd) }, gm, sam, gm)
			srv.clock.Advance(7 * time.Minute)
			var opened int64
			for _, ev := range allEvents(t, srv.testServer, gm, id) {
				var o engine.DecisionOpened
				if ev.Kind == engine.KindDecisionOpened && ev.Decode(&o) == nil && o.Decision.ID == d.ID {
					opened = ev.Seq
				}
			}
			token := signer.Sign(links.Link{User: sam.ID, Encounter: id, Decision: d.ID, Seq: opened, Expires: time.Now().Add(time.Hour).Unix()})
			steps(t, ctx, chromedp.Navigate(srv.URL+"/act/"+token),
				chromedp.WaitVisible(`#act-prompt`, chromedp.ByID),
				chromedp.Text(`#clock`, &text, chromedp.ByID))
			if !strings.Contains(text, "Ana: ") || !strings.Contains(text, "left before your standing orders") {
				t.Fatalf("the decision page's clock reads %q", text)
			}
			keepScreenshot(ctx, "clock-decision-"+size.name)
			steps(t, ctx, submits(`#act-answer-1`), chromedp.WaitVisible(`#act-done`, chromedp.ByID), chromedp.Text(`#act-done`, &text, chromedp.ByID))
			if !strings.Contains(text, "Take the blow") {
				t.Fatalf("answered: %q", text)
			}
			keepScreenshot(ctx, "clock-answered-"+size.name)
			if v := srv.viewAs(gm, id); len(v.Pending) != 0 || v.Current != "gob" {
				t.Fatalf("after the page's answer: %d pending, %s acts", len(v.Pending), v.Current)
			}
			steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+id+"/orders"), chromedp.WaitVisible(`#orders-ana`, chromedp.ByID))
			keepScreenshot(ctx, "clock-orders-"+size.name)

			// The GM's Menu holds the clock: what is in force, and the
			// switch to live play.
			if size.name == "desktop" {
				gmCtx := tab(t, browserSized(t, size.w, size.h))
				login(t, gmCtx, srv.URL, "gamemaster")
				steps(t, gmCtx, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.Click(`#enc-menu-open`, chromedp.ByID),
					chromedp.WaitVisible(`#deadline-off-button`, chromedp.ByID), chromedp.Text(`#deadline-now`, &text, chromedp.ByID))
				if !strings.Contains(text, "Clock: 30m each, plus 5m a turn") {
					t.Fatalf("the GM's Menu says %q", text)
				}
				keepScreenshot(gmCtx, "clock-gm-menu-"+size.name)
			}

			// Back to Ana's turn for the next screen.
			send(t, gm, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "gob"})
			send(t, gm, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "sneak"})
		})
	}
}
