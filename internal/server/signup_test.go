package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestSignup(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/signup", form: url.Values{"name": {"ada"}, "password": {"pw"}, "password2": {"other"}}, html: true})
	if body := text(t, res); res.StatusCode != 400 || !strings.Contains(body, "the two passwords differ") {
		t.Fatalf("differing passwords: %d %.300s", res.StatusCode, body)
	}
	if cookie(res, sessionCookie) != nil {
		t.Fatal("a refused sign-up signed in")
	}
	res = w.do(t, req{method: "POST", path: "/signup", form: url.Values{"name": {"ada"}, "password": {"pw"}, "password2": {"pw"}, "next": {"/campaigns/c"}}})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/campaigns/c" || cookie(res, sessionCookie) == nil {
		t.Fatalf("a sign-up: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	// From an invite's page: the new account joins and lands in the
	// campaign; an invite that is no longer valid goes back to its page,
	// signed in, which says why.
	res = w.do(t, req{method: "POST", path: "/signup", form: url.Values{"name": {"ada"}, "password": {"pw"}, "password2": {"pw"}, "next": {"/join/invite-token"}}})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/campaigns/"+campaign.ID || cookie(res, sessionCookie) == nil || !w.calls.has("Join new") {
		t.Fatalf("a sign-up from an invite: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = w.do(t, req{method: "POST", path: "/signup", form: url.Values{"name": {"ada"}, "password": {"pw"}, "password2": {"pw"}, "next": {"/join/x"}}})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/join/x" || cookie(res, sessionCookie) == nil {
		t.Fatalf("a sign-up from a stale invite: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	w.Accounts = fakeAccounts{calls: w.calls, limited: true}
	if res := w.do(t, req{method: "POST", path: "/signup", form: url.Values{"name": {"bob"}, "password": {"pw"}, "password2": {"pw"}}}); res.StatusCode != 429 {
		t.Fatalf("too many sign-ups: %d", res.StatusCode)
	}
	if w.calls.has("Signup bob") {
		t.Fatal("a rate-limited sign-up made an account")
	}
}

func TestAPISignup(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/api/signup", json: `{"name":"bot","password":"pw","tokenName":"load"}`})
	var got map[string]string
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 201 {
		t.Fatalf("%d, %v", res.StatusCode, err)
	}
	if got["token"] != "fray_pat_secret" || got["tokenId"] != "tok" || got["id"] != "new" || !w.calls.has("CreateToken new load") {
		t.Fatalf("answer %v", got)
	}
	for _, body := range []string{`{"name":"bot"`, `{"name":"bot","password":"pw","admin":true}`, `{"name":"bot"} {}`, "\xff"} {
		if res := w.do(t, req{method: "POST", path: "/api/signup", json: body}); res.StatusCode != 400 {
			t.Errorf("%q: %d, want 400", body, res.StatusCode)
		}
	}
	w.Accounts = fakeAccounts{calls: w.calls, limited: true}
	if res := w.do(t, req{method: "POST", path: "/api/signup", json: `{"name":"bot2","password":"pw"}`}); res.StatusCode != 429 {
		t.Fatalf("too many sign-ups: %d", res.StatusCode)
	}
}
