package main

import (
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserNoticePages: a GM adds a webhook from the campaign's
// webhooks page and is shown its secret once; a player's notifications
// page runs its push script (under the pages' Content-Security-Policy)
// and saves a campaign's channels; at desktop and phone sizes.
func TestBrowserNoticePages(t *testing.T) {
	base := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_NOTIFY_ALLOW_PRIVATE": "true"})
	tb := base.newTable()
	for _, size := range browserSizes {
		t.Run(size.name, func(t *testing.T) {
			gm, player := tab(t, size.b(t)), tab(t, size.b(t))
			login(t, gm, base.URL, tb.gm.Name)
			login(t, player, base.URL, tb.player.Name)

			var secret, listed string
			steps(t, gm, chromedp.Navigate(base.URL+"/campaigns/"+tb.campaign),
				chromedp.Click("#webhooks-link", chromedp.ByID), chromedp.WaitVisible("#webhook-form", chromedp.ByID),
				chromedp.SendKeys("#webhook-url", base.URL+"/hook-"+size.name, chromedp.ByID),
				chromedp.SetValue("#webhook-format", "json", chromedp.ByID),
				chromedp.Click("#add-webhook", chromedp.ByID), chromedp.WaitVisible("#new-hook-secret", chromedp.ByID),
				chromedp.Text("#new-hook-secret", &secret, chromedp.ByID), chromedp.Text("#webhooks", &listed, chromedp.ByID))
			if len(strings.TrimSpace(secret)) < 32 || !strings.Contains(listed, "/hook-"+size.name) {
				t.Fatalf("after adding a webhook: secret %q, list %q", secret, listed)
			}
			keepScreenshot(gm, "webhooks-"+size.name)
			var again string
			steps(t, gm, chromedp.Reload(), chromedp.WaitVisible("#webhooks", chromedp.ByID),
				chromedp.Evaluate(`document.body.innerText`, &again))
			if strings.Contains(again, strings.TrimSpace(secret)) {
				t.Fatal("the secret is shown again after a reload")
			}

			var state string
			steps(t, player, chromedp.Navigate(base.URL+"/account"), chromedp.Click("#notifications-link", chromedp.ByID),
				chromedp.WaitVisible("#notice-campaigns", chromedp.ByID),
				chromedp.Poll(`!document.getElementById('push-state').textContent.includes("page's script")`, nil, chromedp.WithPollingTimeout(patience.Hang())),
				chromedp.Text("#push-state", &state, chromedp.ByID))
			t.Logf("the push switch says: %q", state)
			// Turning push on ends with a message either way — here,
			// where no push service can be reached, a refusal or the
			// switch's own time limit — never a greyed-out button.
			steps(t, player, cdpbrowser.SetPermission(&cdpbrowser.PermissionDescriptor{Name: "notifications"}, cdpbrowser.PermissionSettingGranted).WithOrigin(base.URL),
				chromedp.Click("#push-on", chromedp.ByID),
				waitJS(`!document.getElementById('push-on').disabled && !document.getElementById('push-state').textContent.includes('Turning')`),
				chromedp.Text("#push-state", &state, chromedp.ByID))
			t.Logf("after turning push on: %q", state)
			if !strings.Contains(state, "receives your notifications") && !strings.Contains(state, "Could not turn notifications on") {
				t.Fatalf("turning push on ended with %q", state)
			}
			var notice string
			box := "#push-" + tb.campaign
			steps(t, player, chromedp.Click(box, chromedp.ByID), saveNotices(tb.campaign), chromedp.Text(".flash", &notice, chromedp.ByQuery))
			var checked bool
			steps(t, player, chromedp.Evaluate(`document.getElementById('push-`+tb.campaign+`').checked`, &checked))
			if !strings.Contains(notice, "Notices saved") || !checked {
				t.Fatalf("saving push for the campaign: %q, checked %v", notice, checked)
			}
			keepScreenshot(player, "notifications-"+size.name)
			// The way back: to the campaigns, and each campaign's name leads
			// to it.
			var back, toCampaign string
			steps(t, player, chromedp.AttributeValue("#back-to-campaigns", "href", &back, nil, chromedp.ByID),
				chromedp.AttributeValue("#notices-"+tb.campaign+"-campaign", "href", &toCampaign, nil, chromedp.ByID))
			if back != "/" || toCampaign != "/campaigns/"+tb.campaign {
				t.Fatalf("the notifications page leads back to %q and to %q", back, toCampaign)
			}
			// Back to none, for the next size.
			steps(t, player, chromedp.Click(box, chromedp.ByID), saveNotices(tb.campaign))
		})
	}
}

// saveNotices posts a campaign's notice form and waits for the page that
// answers it with its flash (the last page's flash is taken away first, or
// the next step would race the save).
func saveNotices(campaign string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Evaluate(`document.querySelectorAll('.flash').forEach(f => f.remove())`, nil),
		chromedp.Click("#save-notices-"+campaign, chromedp.ByID),
		chromedp.WaitVisible(".flash", chromedp.ByQuery),
	}
}
