package server

import (
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/links"
)

// TestLinksAreRateLimited: following a link counts against its user's
// rate limit; past it, the page and the API answer 429 and nothing else is
// reached. An expired or forged link is refused as such, before anything
// of the encounter is read.
func TestLinksAreRateLimited(t *testing.T) {
	w := newWorld(t, nil)
	w.Accounts = fakeAccounts{calls: w.calls, limited: true}
	for _, r := range []req{
		{method: "GET", path: "/act/" + plLink, as: "pl", html: true},
		{method: "POST", path: "/api/act/" + plLink, json: `{"choice":"x"}`, as: "pl"},
	} {
		if res := w.do(t, r); res.StatusCode != 429 {
			t.Errorf("%s %s: %d, want 429", r.method, r.path, res.StatusCode)
		}
	}
	if w.calls.has("Current " + encounterID) {
		t.Fatal("a limited request read the encounter")
	}
	w = newWorld(t, nil)
	expired := links.NewSigner(linkKey).Sign(links.Link{User: "pl", Encounter: encounterID, Seq: 1, Expires: time.Now().Add(-time.Minute).Unix()})
	forged := strings.Replace(plLink, ".", "x.", 1)
	for link, want := range map[string]int{expired: 422, forged: 404} {
		res := w.do(t, req{method: "GET", path: "/act/" + link, as: "pl", html: true})
		if body := text(t, res); res.StatusCode != want || !strings.Contains(body, `id="act-problem"`) {
			t.Errorf("%.20s…: %d, want %d", link, res.StatusCode, want)
		}
	}
	if w.calls.has("Current " + encounterID) {
		t.Fatal("a bad link read the encounter")
	}
}
