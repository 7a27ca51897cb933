package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestInvites(t *testing.T) {
	w := newWorld(t, nil)
	body := text(t, w.do(t, req{method: "POST", path: "/campaigns/camp/invites", form: url.Values{}, as: "gm", html: true}))
	if !strings.Contains(body, "http://example.com/join/invite-token") {
		t.Fatalf("the new link is not shown: %.300s", body)
	}
	res := w.do(t, req{method: "POST", path: "/api/campaigns/camp/invites", as: "gm"})
	var got map[string]string
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || got["url"] != "http://example.com/join/invite-token" {
		t.Fatalf("API: %v %v", got, err)
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/invites/inv/revoke", form: url.Values{}, as: "gm"})
	if flashOf(t, res, flashNotice) != "Invite revoked." || !w.calls.has("RevokeInvite inv") {
		t.Fatalf("revoke: %d", res.StatusCode)
	}
}

func TestJoin(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/join/forged", html: true})
	if body := text(t, res); res.StatusCode != 404 || !strings.Contains(body, "This invite link is not valid") {
		t.Fatalf("a forged invite: %d %.300s", res.StatusCode, body)
	}
	if body := text(t, w.do(t, req{method: "GET", path: "/join/invite-token", html: true})); !strings.Contains(body, "The Campaign") {
		t.Fatal("the invite does not name its campaign")
	}
	res = w.do(t, req{method: "POST", path: "/join/invite-token", form: url.Values{}, as: "st"})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/campaigns/camp" || !strings.HasPrefix(flashOf(t, res, flashNotice), "Welcome") {
		t.Fatalf("join: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res := w.do(t, req{method: "POST", path: "/join/forged", form: url.Values{}, as: "st"}); res.StatusCode != 404 {
		t.Fatalf("join with a forged invite: %d", res.StatusCode)
	}
	res = w.do(t, req{method: "POST", path: "/api/join/invite-token", as: "st"})
	var got campaignJSON
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || got.ID != "camp" || got.Role != "player" {
		t.Fatalf("API join: %+v %v", got, err)
	}
}
