package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/patience"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/testdb"
)

// newBrowser starts a browser with a desktop-sized window, where the whole
// table is in view.
func newBrowser(t *testing.T) context.Context { return browserSized(t, 1280, 800) }

// newPhone starts a browser with a phone-sized window, where the table's
// panes are tabs.
func newPhone(t *testing.T) context.Context { return browserSized(t, 390, 844) }

func browserSized(t *testing.T, w, h int) context.Context {
	return chromium.Start(t, chromedp.WindowSize(w, h))
}

// tab opens a tab in browser. Each person in a test gets a browser of their
// own (newBrowser), so their cookies are their own.
func tab(t *testing.T, browser context.Context) context.Context {
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	// The first Run opens the tab; it must not run under a timeout, or the
	// tab closes when that timeout's context ends.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// browserSizes are the two screens every page is checked at.
var browserSizes = []struct {
	name string
	b    func(*testing.T) context.Context
}{{"desktop", newBrowser}, {"phone", newPhone}}

// screenshotDir is FRAY_SCREENSHOTS, a relative path taken from the
// repository's root (tests run in this package's directory), or "" when
// it is not set.
func screenshotDir() string {
	dir := os.Getenv("FRAY_SCREENSHOTS")
	if dir != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join("..", "..", dir)
	}
	return dir
}

// keepScreenshot saves what ctx's page looks like as DIR/name.png when
// FRAY_SCREENSHOTS=DIR is set.
func keepScreenshot(ctx context.Context, name string) {
	dir := screenshotDir()
	if dir == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&png)); err == nil {
		_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
}

// steps runs actions in the page, failing t when they fail or hang (each
// call has one step's deadline, patience.Hang).
func steps(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	ctx, cancel := patience.Context(ctx)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("%v; %s", err, pageState(ctx))
	}
}

// pageState says where a page is and what it holds, for a failed step's
// message (and keeps its screenshot when FRAY_SCREENSHOTS is set): a step
// that timed out in CI is then read from its log, not guessed at.
func pageState(ctx context.Context) string {
	ctx, cancel := patience.Context(context.WithoutCancel(ctx))
	defer cancel()
	var state string
	err := chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify({ url: location.pathname + location.search,
		focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
		error: [...document.querySelectorAll('.error, [role=alert]')].map(e => e.textContent.trim()).filter(Boolean).join(' | ').slice(0, 300) })`, &state))
	if err != nil {
		return "the page did not answer: " + err.Error()
	}
	keepScreenshot(ctx, "failed-step")
	return "the page: " + state
}

// login signs in through the log-in page.
func login(t *testing.T, ctx context.Context, base, name string) {
	steps(t, ctx, chromedp.Navigate(base+"/login"),
		chromedp.SendKeys(`input[name="name"]`, name, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="password"]`, testPassword, chromedp.ByQuery),
		submits(`#auth-submit`),
		chromedp.WaitVisible(`form[action="/logout"]`, chromedp.ByQuery))
}

// submits clicks sel, a button whose form leads to another page, and waits
// until that page has loaded. Without the wait, the next step can find a
// node of the new page while the browser is still settling it (its nodes
// are given new ids when the load completes), and then act on an id that
// no longer exists: "Could not find node with given id", a failure that
// depends only on timing.
func submits(sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := chromedp.RunResponse(ctx, chromedp.Click(sel, chromedp.ByQuery))
		return err
	})
}

// logHas waits until the log shows an entry containing text.
func logHas(text string) chromedp.Action {
	return chromedp.Poll(fmt.Sprintf(`[...document.querySelectorAll('#log li.entry')].some(li => li.textContent.includes(%q))`, text), nil,
		chromedp.WithPollingTimeout(patience.Hang()))
}

// TestBrowserPlay: the GM and a player open one encounter in two tabs; the GM
// starts it and makes a move; both pages update live, dice included, and a
// reload shows the same log.
func TestBrowserPlay(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	tb := base.newTable()
	srv, id := base.withUser(tb.gm), tb.id

	gm, player := tab(t, newBrowser(t)), tab(t, newBrowser(t))
	login(t, gm, base.URL, tb.gm.Name)
	login(t, player, base.URL, tb.player.Name)
	steps(t, gm, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
	steps(t, player, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#log", chromedp.ByID),
		chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))

	steps(t, gm, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))
	// The player's page updates without a reload, with the dealt cards —
	// cards, not dice.
	var dealt, dice int
	steps(t, player, logHas("The encounter begins"),
		chromedp.Evaluate(`document.querySelectorAll('#log .roll.pick').length`, &dealt),
		chromedp.Evaluate(`document.querySelectorAll('#log .die').length`, &dice))
	if dealt == 0 || dice != 0 {
		t.Fatalf("after the deal the player's log shows %d dealt cards and %d dice", dealt, dice)
	}

	// The GM makes the current combatant move to an adjacent zone (or end
	// its turn if it cannot move) from the page's own form.
	cur, _ := srv.view(id, "")
	form := "act-" + cur.Current + "-end-turn"
	for _, a := range cur.Actions {
		if a.Actor == cur.Current && a.Kind == "move" {
			form = "act-" + cur.Current + "-move"
		}
	}
	if strings.HasSuffix(form, "-move") { // an action with fields opens first
		steps(t, gm, chromedp.Click("#"+form+"-open", chromedp.ByID))
	}
	steps(t, gm, chromedp.Click("#"+form+"-go", chromedp.ByID))
	var after view
	deadline := patience.Deadline()
	for after.Seq <= cur.Seq && time.Now().Before(deadline) {
		after, _ = srv.view(id, "")
		time.Sleep(50 * time.Millisecond)
	}
	if after.Seq <= cur.Seq {
		t.Fatalf("clicking %s changed nothing", form)
	}
	var lastText string
	steps(t, player,
		chromedp.Poll(fmt.Sprintf(`!!document.getElementById('ev-%d')`, after.Seq), nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.Text(fmt.Sprintf("#ev-%d", after.Seq), &lastText, chromedp.ByQuery))

	// A reload shows the same log, rendered by the server.
	steps(t, player, chromedp.Reload(), chromedp.WaitVisible(fmt.Sprintf("#ev-%d", after.Seq), chromedp.ByQuery))
	var reloaded string
	steps(t, player, chromedp.Text(fmt.Sprintf("#ev-%d", after.Seq), &reloaded, chromedp.ByQuery))
	if strings.TrimSpace(reloaded) != strings.TrimSpace(lastText) {
		t.Fatalf("after reload the entry reads %q, live it read %q", reloaded, lastText)
	}
	// Players never get the GM's controls.
	var gmControls int
	steps(t, player, chromedp.Evaluate(`document.querySelectorAll('#act-start-go, #act-end-go, #act-pause-go').length`, &gmControls))
	if gmControls != 0 {
		t.Fatal("the player's page shows GM controls")
	}
}
