package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// signupInBrowser creates an account through the sign-up form.
func signupInBrowser(name string) []chromedp.Action {
	return []chromedp.Action{
		chromedp.WaitVisible(`#auth-form`, chromedp.ByQuery),
		chromedp.SendKeys(`#auth-name`, name, chromedp.ByQuery),
		chromedp.SendKeys(`#auth-password`, testPassword, chromedp.ByQuery),
		chromedp.SendKeys(`#auth-password2`, testPassword, chromedp.ByQuery),
		submits(`#auth-submit`),
	}
}

// TestBrowserInviteFlow: the GM signs up, creates a campaign, adds an
// encounter and invites a player; the player signs up through the link and
// lands in the campaign; the GM gives them a character; on the encounter page the player
// sees controls for that character only.
func TestBrowserInviteFlow(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm, player := tab(t, newBrowser(t)), tab(t, newBrowser(t))

	// The GM signs up and builds the table.
	steps(t, gm, chromedp.Navigate(srv.URL+"/signup"))
	steps(t, gm, signupInBrowser("gamemaster")...)
	steps(t, gm,
		chromedp.WaitVisible(`#new-campaign-name`, chromedp.ByQuery),
		chromedp.SendKeys(`#new-campaign-name`, "Goblin hunt", chromedp.ByQuery),
		submits(`#create-campaign`),
		chromedp.WaitVisible(`#example-select`, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('example-select').value = 'sw-zones-goblin-ford'`, nil),
		submits(`#add-example`),
		// Wait for the page the form leads to, not the one it left.
		chromedp.WaitVisible(`#flash-notice`, chromedp.ByQuery),
		submits(`#create-invite`),
		chromedp.WaitVisible(`#new-invite-url`, chromedp.ByQuery))
	var invite, campaignURL string
	steps(t, gm, chromedp.Text(`#new-invite-url`, &invite, chromedp.ByQuery), chromedp.Location(&campaignURL))
	if !strings.Contains(invite, "/join/") {
		t.Fatalf("invite link %q", invite)
	}
	campaignURL = strings.TrimSuffix(campaignURL, "/invites") // the invite form posted there

	// The player follows the link and signs up: the new account has joined
	// and is in the campaign, without a second "Join".
	steps(t, player, chromedp.Navigate(strings.TrimSpace(invite)), submits(`#join-signup`))
	steps(t, player, signupInBrowser("lyra-player")...)
	var welcome string
	steps(t, player, chromedp.WaitVisible(`#flash-notice`, chromedp.ByQuery), chromedp.Text(`#flash-notice`, &welcome, chromedp.ByQuery))
	if !strings.Contains(welcome, "Welcome to Goblin hunt") {
		t.Fatalf("after signing up from the invite the player reads %q", welcome)
	}
	var playerPage string
	steps(t, player, chromedp.WaitVisible(`a[href^="/encounters/"]`, chromedp.ByQuery), chromedp.Text(`main`, &playerPage, chromedp.ByQuery))
	if !strings.Contains(playerPage, "Goblin ambush at the ford") || strings.Contains(playerPage, "Create invite link") || strings.Contains(playerPage, "Add one here") {
		t.Fatalf("the player's campaign page is wrong:\n%.500s", playerPage)
	}

	// The GM gives Brak to the player.
	var userValue string
	steps(t, gm, chromedp.Navigate(campaignURL), chromedp.WaitVisible(`#char-brak-user`, chromedp.ByQuery),
		chromedp.Evaluate(`const s = document.getElementById('char-brak-user');
			s.value = [...s.options].find(o => o.textContent.includes('lyra-player')).value`, &userValue),
		submits(`#char-brak-assign`),
		chromedp.WaitVisible(`#flash-notice`, chromedp.ByQuery))

	// Both open the encounter; the GM starts it and ends turns until it is Brak's.
	var encURL string
	steps(t, gm, chromedp.Evaluate(`document.querySelector('a[href^="/encounters/"]').getAttribute('href')`, &encURL))
	steps(t, gm, chromedp.Navigate(srv.URL+encURL), waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
		chromedp.Click(`#act-start-go`, chromedp.ByID), logHas("The encounter begins"))
	steps(t, player, chromedp.Navigate(srv.URL+encURL), chromedp.WaitVisible(`#actions`, chromedp.ByID))
	onlyOwn := `[...document.querySelectorAll('#actions form')].every(f => { const a = f.querySelector('input[name=actor]'); return a && a.value === 'brak' })`
	// seqOf is the last event a page has shown.
	seqOf := func(ctx context.Context) int64 {
		var n int64
		steps(t, ctx, chromedp.Evaluate(`Number(document.getElementById('encounter').dataset.seq)`, &n))
		return n
	}
	for i := 0; i < 12; i++ {
		// The player's page has caught up with the GM's before it is read.
		steps(t, player, waitJS(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.seq) >= %d`, seqOf(gm))))
		var mine bool
		steps(t, player, chromedp.Evaluate(`document.querySelectorAll('#actions form').length > 0`, &mine))
		if mine {
			break
		}
		// Not Brak's turn: the GM ends the current one from the page, and
		// its page shows the turn ended.
		before := seqOf(gm)
		steps(t, gm, chromedp.Evaluate(`document.querySelector('#actions form[data-kind="end-turn"] button[type=submit]').click()`, nil),
			waitJS(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.seq) > %d`, before)))
	}
	var own, switchLink bool
	var count int
	steps(t, player,
		chromedp.Poll(`document.querySelectorAll('#actions form').length > 0`, nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.Evaluate(onlyOwn, &own),
		chromedp.Evaluate(`document.querySelectorAll('#actions form').length`, &count),
		chromedp.Evaluate(`!!document.getElementById('switch-viewer')`, &switchLink))
	if !own || count == 0 {
		t.Fatalf("the player sees controls for others (only own: %v, forms: %d)", own, count)
	}
	if switchLink {
		t.Fatal("the player may switch viewer")
	}
	var gmControls int
	steps(t, player, chromedp.Evaluate(`document.querySelectorAll('#actions form[data-kind="start"], #actions form[data-kind="end"], #actions form[data-kind="pause"]').length`, &gmControls))
	if gmControls != 0 {
		t.Fatal(fmt.Sprint("the player sees ", gmControls, " GM controls"))
	}
}

// TestBrowserPageFollowsAccessChanges: a co-GM's open encounter page shows
// the hidden combatant; when the GM demotes them, the page reloads by itself
// into a player's page without it; when the GM removes them, it reloads
// into "no such encounter".
func TestBrowserPageFollowsAccessChanges(t *testing.T) {
	at := newAccessTable(t, false)
	cogm := tab(t, newBrowser(t))
	login(t, cogm, at.a.URL, at.cogm.Name)
	steps(t, cogm, chromedp.Navigate(at.a.URL+"/encounters/"+at.id), chromedp.WaitVisible(`#encounter`, chromedp.ByID),
		chromedp.Poll(`document.getElementById('conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
	var text string
	steps(t, cogm, chromedp.Text(`#encounter`, &text, chromedp.ByID))
	if !strings.Contains(text, at.hiddenTxt) || !strings.Contains(text, "the GM") {
		t.Fatalf("the co-GM's page lacks the hidden combatant:\n%.600s", text)
	}
	if code := at.a.raw(at.gm, "POST", "/campaigns/"+at.campaign+"/members/"+at.cogm.ID+"/role", formType, "role=player"); code != 303 {
		t.Fatalf("demote: %d", code)
	}
	waitAcrossReload(t, cogm, fmt.Sprintf(`(() => { const e = document.getElementById('encounter');
		return !!e && !e.textContent.includes(%q) && e.textContent.includes('a spectator') &&
			document.getElementById('conn').dataset.state === 'live' })()`, at.hiddenTxt))
	if code := at.a.raw(at.gm, "POST", "/campaigns/"+at.campaign+"/members/"+at.cogm.ID+"/remove", formType, ""); code != 303 {
		t.Fatalf("remove: %d", code)
	}
	waitAcrossReload(t, cogm, `document.body.textContent.includes('no such encounter')`)
}

// waitAcrossReload waits up to 5 s for the page to make expr true, through
// the page reloading itself meanwhile.
func waitAcrossReload(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	deadline := patience.Deadline()
	for {
		var ok bool
		ectx, cancel := patience.Context(ctx)
		err := chromedp.Run(ectx, chromedp.Evaluate(expr, &ok))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var body string
			_ = chromedp.Run(ctx, chromedp.Text(`body`, &body, chromedp.ByQuery))
			t.Fatalf("the page did not follow the access change (%v):\n%.500s", err, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
