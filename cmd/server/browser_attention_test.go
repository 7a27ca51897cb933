package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserDecisionsBelongToTheirOwner: a duel where Sir Aldric is a
// player's and Lady Mirela the GM's. The player's tab is hidden and has
// allowed notifications (the "Notify me" click, with the permission granted
// through CDP's Browser.setPermission); when the GM starts the duel, Aldric's sealed stance waits
// for the player, and the hidden tab's title changes and a
// notification is shown. The GM's page shows "Waiting on <player>" and no
// one-click answer for it: clicking an option without ticking the
// confirmation sends nothing, and a plain answer through the API is
// refused; "Decide for" with the confirmation answers it, and the log says
// the GM decided for the player.
//
// A hidden tab: headless Chromium keeps every tab visible, and CDP's focus
// emulation does not change document.hidden, so the test overrides
// document.hidden and visibilityState on the page (as a tab in the
// background reads them) and fires visibilitychange. It wraps
// window.Notification to count what the page shows, calling the real one.
func TestBrowserDecisionsBelongToTheirOwner(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "3"})
	gmUser, plUser := srv.signup("duel-gm"), srv.signup("sam")
	ex, err := prep.ExampleNamed("d20-duel-dawn-duel")
	if err != nil {
		t.Fatal(err)
	}
	var enc struct{ ID, Campaign string }
	if code := srv.call(gmUser, "POST", "/api/encounters", ex.Data, &enc); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	srv.join(gmUser, enc.Campaign, plUser, "aldric")
	page := srv.URL + "/encounters/" + enc.ID

	gm, player := tab(t, newBrowser(t)), tab(t, newBrowser(t))
	login(t, gm, srv.URL, gmUser.Name)
	login(t, player, srv.URL, plUser.Name)
	live := chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang()))
	steps(t, player, chromedp.Navigate(page), chromedp.WaitVisible("#log", chromedp.ByID), live)
	var title string
	steps(t, player, chromedp.Title(&title))
	if strings.HasPrefix(title, "●") {
		t.Fatalf("the title calls for attention before anything waits: %q", title)
	}
	// Permission is asked on a click ("Notify me"), never on load: the
	// page loaded with it undecided; the browser grants it (CDP's
	// Browser.setPermission, successor of grantPermissions) as the user
	// would at the prompt, then the click asks.
	var before string
	steps(t, player, chromedp.Evaluate(`Notification.permission`, &before))
	if before != "default" {
		t.Fatalf("notification permission %q before the click", before)
	}
	steps(t, player, cdpbrowser.SetPermission(&cdpbrowser.PermissionDescriptor{Name: "notifications"}, cdpbrowser.PermissionSettingGranted).WithOrigin(srv.URL),
		chromedp.WaitVisible("#notify-me", chromedp.ByID), chromedp.Click("#notify-me", chromedp.ByID),
		chromedp.Poll(`document.getElementById('notify-status').textContent === 'Notifications on'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
	steps(t, player, chromedp.Evaluate(`
		Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
		Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
		document.dispatchEvent(new Event('visibilitychange'));
		window.shown = [];
		const Real = window.Notification;
		window.Notification = class extends Real {
			constructor(title, opts) { super(title, opts); window.shown.push(title); }
		};
		true`, nil))

	steps(t, gm, chromedp.Navigate(page), chromedp.WaitVisible("#act-start-go", chromedp.ByID), live)
	steps(t, gm, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))
	steps(t, player, chromedp.Poll(`document.title.startsWith('● A decision waits for you') && window.shown.length === 1`, nil,
		chromedp.WithPollingTimeout(patience.Hang())))
	var shown string
	steps(t, player, chromedp.Evaluate(`window.shown[0]`, &shown))
	if shown != "A decision waits for you" {
		t.Fatalf("notification %q", shown)
	}

	// The GM: waiting on Sam, no one-click answer.
	v := srv.viewAs(gmUser, enc.ID)
	if len(v.Awaiting) != 1 || v.Awaiting[0].Player != "sam" || v.Awaiting[0].Decision.For != "aldric" {
		t.Fatalf("GM's awaiting: %+v", v.Awaiting)
	}
	d := v.Awaiting[0].Decision
	slug := strings.ToLower(d.ID)
	steps(t, gm, chromedp.WaitVisible("#await-"+slug, chromedp.ByID))
	var waitingText string
	var oneClick int
	steps(t, gm, chromedp.Text("#await-"+slug, &waitingText, chromedp.ByID),
		chromedp.Evaluate(fmt.Sprintf(`document.querySelectorAll('#dec-%s').length`, slug), &oneClick))
	if !strings.Contains(waitingText, "Waiting on sam") || oneClick != 0 {
		t.Fatalf("GM's page: %q, %d one-click forms", waitingText, oneClick)
	}
	// One click on an option, without the confirmation: nothing is sent.
	form := "#decide-" + slug
	steps(t, gm, chromedp.Click(form+"-open", chromedp.ByQuery), chromedp.WaitVisible(form+"-0", chromedp.ByQuery),
		chromedp.Click(form+"-0", chromedp.ByQuery))
	time.Sleep(500 * time.Millisecond)
	if after := srv.viewAs(gmUser, enc.ID); after.Seq != v.Seq {
		t.Fatalf("an unconfirmed click answered the player's decision (seq %d → %d)", v.Seq, after.Seq)
	}
	if code, e := srv.command(gmUser, enc.ID, "plain", map[string]any{"kind": engine.KindAnswer, "decision": d.ID, "choice": d.Options[0].Value}); code != http.StatusForbidden {
		t.Fatalf("a plain GM answer to the player's decision: %d %+v", code, e)
	}
	// Deliberately: tick "I am deciding for sam", then choose.
	steps(t, gm, chromedp.Click(form+"-confirm", chromedp.ByQuery), chromedp.Click(form+"-0", chromedp.ByQuery),
		logHas("The GM decided for sam"))
	steps(t, player, logHas("The GM decided for sam"),
		chromedp.Poll(`!document.title.startsWith('●')`, nil, chromedp.WithPollingTimeout(patience.Hang())))
}

// TestBrowserYourTurnReachesAHiddenTab is the issue's own trigger: Brak is
// the player's, everyone else the GM's. The player's tab is hidden with
// notifications allowed (as in TestBrowserDecisionsBelongToTheirOwner);
// the GM ends turns until the one before Brak's ends, and the
// hidden tab's title says "Your turn" and a notification is shown.
func TestBrowserYourTurnReachesAHiddenTab(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "3"})
	gmUser, plUser := srv.signup("ford-gm"), srv.signup("sam")
	ex, err := prep.ExampleNamed("sw-zones-goblin-ford")
	if err != nil {
		t.Fatal(err)
	}
	var enc struct{ ID, Campaign string }
	if code := srv.call(gmUser, "POST", "/api/encounters", ex.Data, &enc); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	srv.join(gmUser, enc.Campaign, plUser, "brak")

	player := tab(t, newBrowser(t))
	login(t, player, srv.URL, plUser.Name)
	steps(t, player, chromedp.Navigate(srv.URL+"/encounters/"+enc.ID), chromedp.WaitVisible("#log", chromedp.ByID),
		chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
	steps(t, player, cdpbrowser.SetPermission(&cdpbrowser.PermissionDescriptor{Name: "notifications"}, cdpbrowser.PermissionSettingGranted).WithOrigin(srv.URL),
		chromedp.WaitVisible("#notify-me", chromedp.ByID), chromedp.Click("#notify-me", chromedp.ByID),
		chromedp.Poll(`document.getElementById('notify-status').textContent === 'Notifications on'`, nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.Evaluate(`
		Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
		Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
		document.dispatchEvent(new Event('visibilitychange'));
		window.shown = [];
		const Real = window.Notification;
		window.Notification = class extends Real {
			constructor(title, opts) { super(title, opts); window.shown.push(title); }
		};
		true`, nil))

	if code, e := srv.command(gmUser, enc.ID, "start", map[string]any{"kind": "start"}); code != http.StatusOK {
		t.Fatalf("start: %d %+v", code, e)
	}
	for i := 0; ; i++ {
		v := srv.viewAs(gmUser, enc.ID)
		if i == 20 {
			t.Fatalf("Brak's turn never came after a GM's turn (current %q)", v.Current)
		}
		who := gmUser
		if v.Current == "brak" {
			who = plUser
		}
		var before int
		steps(t, player, chromedp.Evaluate(`window.shown.length`, &before))
		if code, e := srv.command(who, enc.ID, fmt.Sprint("end-", i), map[string]any{"kind": "end-turn", "actor": v.Current}); code != http.StatusOK {
			t.Fatalf("end %s's turn: %d %+v", v.Current, code, e)
		}
		if who == plUser || srv.viewAs(gmUser, enc.ID).Current != "brak" {
			continue
		}
		// The GM ended the turn before Brak's: the trigger.
		if err := chromedp.Run(player, chromedp.Poll(fmt.Sprintf(`document.title.startsWith('● Your turn') && window.shown.length === %d`, before+1), nil,
			chromedp.WithPollingTimeout(patience.Hang()))); err != nil {
			var state string
			_ = chromedp.Run(player, chromedp.Evaluate(`document.title + ' | ' + JSON.stringify(window.shown)`, &state))
			t.Fatalf("no turn notice after the GM ended %s's turn (%v): %s", v.Current, err, state)
		}
		var shown string
		steps(t, player, chromedp.Evaluate(`window.shown[window.shown.length - 1]`, &shown))
		if shown != "Your turn" {
			t.Fatalf("notification %q", shown)
		}
		return
	}
}
