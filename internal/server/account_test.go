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
		{"too many attempts", url.Values{"current": {"right"}}, true, nil, 303, "", "Too many attempts"},
		{"the database fails", url.Values{"current": {"right"}}, false, fail{"ChangePassword": fray.Errorf(fray.EUNAVAILABLE, "down")}, 503, "", ""},
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
