package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

func TestChangePassword(t *testing.T) {
	for _, tc := range []struct {
		name    string
		form    url.Values
		limited bool
		failing fail
		status  int
		notice  string
		problem string
	}{
		{"changed", url.Values{"current": {"right"}, "password": {"new"}, "password2": {"new"}}, false, nil, 303, "Password changed", ""},
		{"a wrong current password", url.Values{"current": {"wrong"}, "password": {"new"}, "password2": {"new"}}, false, nil, 303, "", "current password is wrong"},
		{"a password too short", url.Values{"current": {"right"}, "password": {"x"}, "password2": {"x"}}, false, nil, 303, "", "10 to 200"},
		{"differing new passwords", url.Values{"current": {"right"}, "password": {"new"}, "password2": {"old"}}, false, nil, 303, "", "The two new passwords differ."},
		{"too many attempts", url.Values{"current": {"right"}, "password": {"new"}, "password2": {"new"}}, true, nil, 303, "", "too many attempts"},
		{"the database fails", url.Values{"current": {"right"}, "password": {"new"}, "password2": {"new"}}, false, fail{"ChangePassword": fray.Errorf(fray.EUNAVAILABLE, "down")}, 503, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.failing)
			if tc.limited {
				w.Accounts = fakeAccounts{calls: w.calls, limited: true}
			}
			res := w.do(t, req{method: "POST", path: "/account/password", form: tc.form, as: "pl"})
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.status)
			}
			if got := flashOf(t, res, flashNotice); !strings.Contains(got, tc.notice) || (tc.notice == "") != (got == "") {
				t.Fatalf("notice %q, want %q", got, tc.notice)
			}
			if got := flashOf(t, res, flashError); !strings.Contains(got, tc.problem) || (tc.problem == "") != (got == "") {
				t.Fatalf("error %q, want %q", got, tc.problem)
			}
			if c := cookie(res, sessionCookie); (c != nil) != (tc.notice != "") {
				t.Fatalf("new session cookie %v", c)
			}
		})
	}
}

func TestAccountPage(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/account", as: "pl", html: true})
	if body := text(t, res); res.StatusCode != 200 || !strings.Contains(body, "bot of pl") {
		t.Fatalf("%d: %.300s", res.StatusCode, body)
	}
}

func TestAPIChangePassword(t *testing.T) {
	w := newWorld(t, nil)
	for body, want := range map[string]int{
		`{"current":"right","password":"new"}`:       204,
		`{"current":"wrong","password":"new"}`:       403,
		`{"current":"right","password":"x"}`:         400,
		`{"current":"right","password":"new","x":1}`: 400,
	} {
		if res := w.do(t, req{method: "POST", path: "/api/password", json: body, as: "pl"}); res.StatusCode != want {
			t.Errorf("%s: %d, want %d", body, res.StatusCode, want)
		}
	}
	w.Accounts = fakeAccounts{calls: w.calls, limited: true}
	if res := w.do(t, req{method: "POST", path: "/api/password", json: `{"current":"right","password":"new"}`, as: "pl"}); res.StatusCode != 429 {
		t.Fatalf("too many attempts: %d", res.StatusCode)
	}
}

func TestSignOutEverywhere(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/account/signout-everywhere", form: url.Values{}, as: "pl"})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/login" || !w.calls.has("SignOutEverywhere pl") {
		t.Fatalf("%d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if c := cookie(res, sessionCookie); c == nil || c.MaxAge >= 0 {
		t.Fatal("this browser's session cookie stays")
	}
	res = w.do(t, req{method: "POST", path: "/api/signout-everywhere", as: "pl"})
	if body := text(t, res); res.StatusCode != 200 || body != "{\"sessions\":2,\"tokens\":1}\n" {
		t.Fatalf("API: %d %q", res.StatusCode, body)
	}
}
