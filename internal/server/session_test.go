package server

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

// flashOf is the message a response leaves for the next page under kind.
func flashOf(t testing.TB, res *http.Response, kind string) string {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == flashCookie(kind) && c.MaxAge > 0 {
			b, err := base64.RawURLEncoding.DecodeString(c.Value)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	return ""
}

// cookie is the response's cookie name, or nil.
func cookie(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func TestLogin(t *testing.T) {
	for _, tc := range []struct {
		name     string
		form     url.Values
		failing  fail
		limited  bool
		status   int
		location string
		says     string
	}{
		{"signs in and goes on", url.Values{"name": {"pl"}, "password": {"right"}, "next": {"/campaigns/camp"}}, nil, false, 303, "/campaigns/camp", ""},
		{"never leaves the site", url.Values{"name": {"pl"}, "password": {"right"}, "next": {"//evil.example"}}, nil, false, 303, "/", ""},
		{"a wrong password", url.Values{"name": {"pl"}, "password": {"wrong"}}, nil, false, 401, "", "Wrong name or password."},
		{"an unknown name, the same", url.Values{"name": {"nobody"}, "password": {"right"}}, nil, false, 401, "", "Wrong name or password."},
		{"too many attempts", url.Values{"name": {"pl"}, "password": {"right"}}, nil, true, 429, "", "Too many attempts"},
		{"a database that cannot say is not a wrong password", url.Values{"name": {"pl"}, "password": {"right"}},
			fail{"Login": fray.Errorf(fray.EUNAVAILABLE, "the database is unreachable")}, false, 503, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.failing)
			if tc.limited {
				w.Accounts = fakeAccounts{calls: w.calls, limited: true}
			}
			res := w.do(t, req{method: "POST", path: "/login", form: tc.form, html: true})
			body := text(t, res)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.300s", res.StatusCode, tc.status, body)
			}
			if tc.location != "" && res.Header.Get("Location") != tc.location {
				t.Fatalf("sent to %q, want %q", res.Header.Get("Location"), tc.location)
			}
			if !strings.Contains(body, tc.says) {
				t.Fatalf("the page does not say %q: %.500s", tc.says, body)
			}
			c := cookie(res, sessionCookie)
			if signedIn := c != nil && c.Value != ""; signedIn != (tc.status == 303) {
				t.Fatalf("session cookie %v after status %d", c, tc.status)
			}
			if c != nil && (!c.HttpOnly || c.SameSite != http.SameSiteLaxMode) {
				t.Fatalf("the session cookie is not HttpOnly and SameSite=Lax: %v", c)
			}
			if !w.calls.has("Allow login:192.0.2.1") {
				t.Fatal("the attempt was not counted against the client's address")
			}
		})
	}
}

func TestLoginPageKeepsNextOnTheSite(t *testing.T) {
	w := newWorld(t, nil)
	body := text(t, w.do(t, req{method: "GET", path: "/login?next=https://evil.example/", html: true}))
	if strings.Contains(body, "evil.example") {
		t.Fatal("the log-in form carries another site's address")
	}
	body = text(t, w.do(t, req{method: "GET", path: "/login?next=/campaigns/camp", html: true}))
	if !strings.Contains(body, "/campaigns/camp") {
		t.Fatal("the log-in form lost where to go next")
	}
}

func TestLogoutEndsTheSession(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/logout", form: url.Values{}, as: "pl"})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/" {
		t.Fatalf("status %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if c := cookie(res, sessionCookie); c == nil || c.MaxAge >= 0 {
		t.Fatalf("the session cookie is not deleted: %v", c)
	}
	if !w.calls.has("EndSession pl") {
		t.Fatal("the session was not ended in the database")
	}
}

// A bearer token that is not one is refused outright; a cookie that is
// not one just means signed out; a database that cannot say is 503.
func TestAuthentication(t *testing.T) {
	w := newWorld(t, nil)
	if res := w.do(t, req{method: "GET", path: "/api/me", bearer: "forged"}); res.StatusCode != 401 {
		t.Fatalf("a forged token: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "GET", path: "/api/me", bearer: "pl"}); res.StatusCode != 200 || !strings.Contains(text(t, res), `"id":"pl"`) {
		t.Fatalf("a token: %d", res.StatusCode)
	}
	r := req{method: "GET", path: "/", as: "forged", html: true}
	if res := w.do(t, r); res.StatusCode != 200 || strings.Contains(text(t, res), "The Campaign") {
		t.Fatalf("a forged cookie: %d", res.StatusCode)
	}
	w = newWorld(t, fail{"Authenticate": fray.Errorf(fray.EUNAVAILABLE, "the database is unreachable")})
	if res := w.do(t, req{method: "GET", path: "/", as: "pl", html: true}); res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a database that cannot say: %d", res.StatusCode)
	}
	hr := w.do(t, req{method: "GET", path: "/api/me"})
	if hr.StatusCode != 401 {
		t.Fatalf("no credential: %d", hr.StatusCode)
	}
}
