package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/testdb"
)

// TestPasswordRules: sign-up (API and form) and the password change refuse
// common and breached passwords, the user's name, repeated characters and
// control characters, each with a message that says which rule.
func TestPasswordRules(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	// Many sign-ups from one address: empty the rate limit's buckets.
	resetRates := func() {
		t.Helper()
		conn, err := pgx.Connect(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), `DELETE FROM rate_limits`); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, password, says string }{
		{"mallory", "aaaaaaaaaaaa", "one character repeated"},
		{"mallory", strings.Repeat("\u0001", 10), "control characters"},
		{"mallory", "tab\tseparated words", "control characters"},
		{"mallory", "mallorymallory", "your name"},
		{"mallory", "xXMaLLoRy-1984Xx", "your name"},
		{"mallory", "Password2024!", "commonly used"},
		{"mallory", "qwertyuiop", "commonly used"},
		{"mallory", "abcdefghijkl", "consecutive"},
		{"mallory", "short", "10 to 200"},
	} {
		resetRates()
		raw, _ := json.Marshal(map[string]string{"name": tc.name, "password": tc.password})
		var e struct{ Code, Message string }
		if code := srv.do("POST", "/api/signup", raw, &e); code != http.StatusBadRequest || !strings.Contains(e.Message, tc.says) {
			t.Errorf("API sign-up with %q: %d %+v, want 400 saying %q", tc.password, code, e, tc.says)
		}
		form := url.Values{"name": {tc.name}, "password": {tc.password}, "password2": {tc.password}}
		resp, err := http.PostForm(srv.URL+"/signup", form)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(page), tc.says) {
			t.Errorf("form sign-up with %q: %d, page says %q: %v", tc.password, resp.StatusCode, tc.says, strings.Contains(string(page), tc.says))
		}
	}
	// A good one passes, and a change to a bad one is refused.
	resetRates()
	u := srv.signup("mallory")
	b := srv.login(u.Name)
	resp := b.post(srv, "/account/password", url.Values{"current": {testPassword}, "password": {"Password2024!"}, "password2": {"Password2024!"}})
	if msg := flash(resp.Header, "error"); !strings.Contains(msg, "commonly used") {
		t.Errorf("change to a common password: %d %q", resp.StatusCode, msg)
	}
	var e struct{ Code, Message string }
	if code := srv.withUser(u).do("POST", "/api/password", map[string]string{"current": testPassword, "password": "mallory-mallory"}, &e); code != 400 || !strings.Contains(e.Message, "your name") {
		t.Errorf("API change to a password with the name: %d %+v", code, e)
	}
	if code := srv.withUser(u).do("POST", "/api/password", map[string]string{"current": "wrong password here", "password": "violet otter mosaic"}, &e); code != 403 {
		t.Errorf("API change with a wrong current password: %d %+v", code, e)
	}
	if code := srv.raw(u, "GET", "/api/me", "", ""); code != 200 {
		t.Errorf("the token after refused changes: %d", code)
	}
}

// TestPasswordChangeAndSignOutEverywhereRevokeTokens: changing the password
// (form or API) revokes every API token — its sockets close with 4401 —
// and "sign out everywhere" (account page or API) ends every session and
// revokes every token, the caller's too.
func TestPasswordChangeAndSignOutEverywhereRevokeTokens(t *testing.T) {
	at := newAccessTable(t, false)
	srv := at.a
	newToken := func(u *apiUser, name string) *apiUser {
		t.Helper()
		var tok struct{ Token string }
		if code := srv.withUser(u).do("POST", "/api/tokens", map[string]string{"name": name}, &tok); code != 201 {
			t.Fatalf("create token: %d", code)
		}
		return &apiUser{ID: u.ID, Name: u.Name, Token: tok.Token}
	}
	works := func(u *apiUser) bool { return srv.raw(u, "GET", "/api/me", "", "") == 200 }

	// The form: the bot's token and its socket end; the browser that
	// changed it stays signed in, another one is signed out.
	bot := newToken(at.player, "bot")
	ws := srv.withUser(bot).dial(at.id, "")
	ws.read()
	laptop, phone := srv.login(at.player.Name), srv.login(at.player.Name)
	resp := laptop.post(srv, "/account/password", url.Values{"current": {testPassword}, "password": {"violet otter mosaic"}, "password2": {"violet otter mosaic"}})
	if msg := flash(resp.Header, "notice"); !strings.Contains(msg, "revoked") {
		t.Fatalf("change password: %d %q", resp.StatusCode, msg)
	}
	if works(bot) || works(at.player) {
		t.Fatal("an API token outlived the password change")
	}
	if code := ws.closeWithin(accessDeadline, at.seq()); code != closeSignedOut {
		t.Fatalf("the token's socket closed with %d, want %d", code, closeSignedOut)
	}
	if r := laptop.get(srv, "/account"); r.StatusCode != 200 {
		t.Fatalf("the laptop after its change: %d", r.StatusCode)
	}
	if r := phone.get(srv, "/account"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the phone after the change: %d", r.StatusCode)
	}

	// The API: the token that asked is revoked with the others.
	a, b := newToken(at.gm, "a"), newToken(at.gm, "b")
	if code := srv.withUser(a).do("POST", "/api/password", map[string]string{"current": testPassword, "password": "lantern harbor quill"}, nil); code != 204 {
		t.Fatalf("API change: %d", code)
	}
	if works(a) || works(b) || works(at.gm) {
		t.Fatal("an API token outlived the password change over the API")
	}

	// Sign out everywhere, from the account page.
	co := at.cogm
	c1, c2 := newToken(co, "one"), newToken(co, "two")
	here, there := srv.login(co.Name), srv.login(co.Name)
	resp = here.post(srv, "/account/signout-everywhere", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Fatalf("sign out everywhere: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, br := range []*browser{here, there} {
		if r := br.get(srv, "/account"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("a session after signing out everywhere: %d", r.StatusCode)
		}
	}
	if works(c1) || works(c2) || works(co) {
		t.Fatal("an API token outlived signing out everywhere")
	}

	// And over the API.
	d := srv.signup("dora")
	d2 := newToken(d, "second")
	browser := srv.login(d.Name)
	var ended struct{ Sessions, Tokens int }
	if code := srv.withUser(d).do("POST", "/api/signout-everywhere", nil, &ended); code != 200 || ended.Sessions != 1 || ended.Tokens != 2 {
		t.Fatalf("API sign out everywhere: %d %+v, want 1 session and 2 tokens", code, ended)
	}
	if works(d) || works(d2) {
		t.Fatal("an API token outlived signing out everywhere over the API")
	}
	if r := browser.get(srv, "/account"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a session after signing out everywhere over the API: %d", r.StatusCode)
	}
}
