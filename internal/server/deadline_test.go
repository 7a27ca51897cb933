package server

import (
	"net/url"
	"strings"
	"testing"
)

// TestPutDeadline: a GM sets a turn deadline; bad durations and fallbacks
// are 400 and reach no service.
func TestPutDeadline(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       int
	}{
		{"good", `{"after":"24h","remindBefore":"2h","fallback":"next-turn"}`, 200},
		{"no reminder", `{"after":"90m","fallback":"pause"}`, 200},
		{"not a duration", `{"after":"a day","fallback":"pause"}`, 400},
		{"too short", `{"after":"30s","fallback":"pause"}`, 400},
		{"reminder after", `{"after":"1h","remindBefore":"2h","fallback":"pause"}`, 400},
		{"unknown fallback", `{"after":"1h","fallback":"coin-flip"}`, 400},
		{"unknown field", `{"after":"1h","fallback":"pause","when":"now"}`, 400},
	} {
		w := newWorld(t, nil)
		res := w.do(t, req{method: "PUT", path: "/api/encounters/enc/deadline", json: tc.body, as: "gm"})
		if res.StatusCode != tc.code {
			t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.code)
		}
		if set := w.calls.has("SetDeadline enc 24h0m0s next-turn") || w.calls.has("SetDeadline enc 1h30m0s pause"); set != (tc.code == 200) {
			t.Errorf("%s: set %v", tc.name, set)
		}
	}
}

// TestDeadlineForm: the GM's Menu shows the encounter's turn deadline and
// a form that sets, changes and clears it; players get neither the form
// nor the handler; bad input comes back as a flash and sets nothing.
func TestDeadlineForm(t *testing.T) {
	w := newWorld(t, nil)
	changed := func() bool { // SetDeadline or ClearDeadline was reached
		w.calls.mu.Lock()
		defer w.calls.mu.Unlock()
		for _, l := range w.calls.log {
			if strings.HasPrefix(l, "SetDeadline") || strings.HasPrefix(l, "ClearDeadline") {
				return true
			}
		}
		return false
	}
	page := text(t, w.do(t, req{method: "GET", path: "/encounters/enc", as: "gm", html: true}))
	for _, want := range []string{`action="/encounters/enc/deadline"`, "Turn deadline: <strong>24h</strong>", `value="2h"`, `<option value="pause" selected>`, `id="deadline-clear"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the GM's page lacks %s", want)
		}
	}
	if pl := text(t, w.do(t, req{method: "GET", path: "/encounters/enc", as: "pl", html: true})); strings.Contains(pl, "deadline-form") {
		t.Error("a player's page shows the deadline form")
	}
	good := url.Values{"after": {"1h30m"}, "remind": {"30m"}, "fallback": {"pause"}}
	if res := w.do(t, req{method: "POST", path: "/encounters/enc/deadline", form: good, as: "pl"}); res.StatusCode != 403 || changed() {
		t.Fatalf("a player set a deadline: %d", res.StatusCode)
	}
	for _, bad := range []url.Values{
		{"after": {"a day"}, "fallback": {"pause"}},
		{"after": {"24h"}, "remind": {"soon"}, "fallback": {"pause"}},
		{"after": {"1h"}, "remind": {"2h"}, "fallback": {"pause"}},
		{"after": {"24h"}, "fallback": {"coin-flip"}},
		{"after": {"10s"}, "fallback": {"default"}},
	} {
		res := w.do(t, req{method: "POST", path: "/encounters/enc/deadline", form: bad, as: "gm"})
		if res.StatusCode != 303 || res.Header.Get("Location") != "/encounters/enc" || !strings.Contains(flashOf(t, res, flashError), "not changed") {
			t.Errorf("%v: %d %q", bad, res.StatusCode, flashOf(t, res, flashError))
		}
	}
	if changed() {
		t.Fatal("bad input reached the service")
	}
	res := w.do(t, req{method: "POST", path: "/encounters/enc/deadline", form: good, as: "gm"})
	if res.StatusCode != 303 || flashOf(t, res, flashNotice) != "Turn deadline set: 1h30m." || !w.calls.has("SetDeadline enc 1h30m0s pause") {
		t.Fatalf("set: %d %q %v", res.StatusCode, flashOf(t, res, flashNotice), w.calls.log)
	}
	res = w.do(t, req{method: "POST", path: "/encounters/enc/deadline", form: url.Values{"clear": {"1"}}, as: "gm"})
	if res.StatusCode != 303 || flashOf(t, res, flashNotice) != "Turn deadline cleared." || !w.calls.has("ClearDeadline enc") {
		t.Fatalf("clear: %d %q %v", res.StatusCode, flashOf(t, res, flashNotice), w.calls.log)
	}
}
