package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestCarryForm(t *testing.T) {
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		says   string
	}{
		{"no seq", url.Values{"decision.hero": {"confirm"}}, 400, "the form lacks the encounter&#39;s seq"},
		{"neither confirm nor skip", url.Values{"seq": {"7"}, "decision.hero": {"maybe"}}, 400, "choose confirm or skip"},
		{"a value that is not a number", url.Values{"seq": {"7"}, "decision.hero": {"confirm"}, "value.hero.wounds": {"many"}}, 400, "Hero: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, nil)
			res := w.do(t, req{method: "POST", path: "/encounters/enc/carry-over", form: tc.form, as: "gm", html: true})
			body := text(t, res)
			if res.StatusCode != tc.status || !strings.Contains(body, tc.says) {
				t.Fatalf("%d: %.2000s", res.StatusCode, body)
			}
			if w.calls.has("Confirm gm") {
				t.Fatal("a refused form was confirmed")
			}
		})
	}
	w := newWorld(t, nil)
	// The encounter moved on since the page was shown: review it again.
	res := w.do(t, req{method: "POST", path: "/encounters/enc/carry-over", form: url.Values{"seq": {"6"}, "decision.hero": {"skip"}}, as: "gm"})
	if res.Header.Get("Location") != "/encounters/enc/carry-over" || !strings.Contains(flashOf(t, res, flashError), "changed since you opened this page") || w.calls.has("Confirm gm") {
		t.Fatalf("a stale form: %q", flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/encounters/enc/carry-over", form: url.Values{"seq": {"7"}, "decision.hero": {"confirm"}, "value.hero.wounds": {"2"}}, as: "gm"})
	if flashOf(t, res, flashNotice) != "Saved: Hero carried over (revision 3)." {
		t.Fatalf("confirm: %q", flashOf(t, res, flashNotice))
	}
}

func TestCarryAPI(t *testing.T) {
	w := newWorld(t, nil)
	var sum struct {
		Seq        int64
		Finished   bool
		Characters []map[string]any
	}
	if err := json.NewDecoder(w.do(t, req{method: "GET", path: "/api/encounters/enc/carry-over", as: "gm"}).Body).Decode(&sum); err != nil ||
		sum.Seq != 7 || !sum.Finished || len(sum.Characters) != 1 {
		t.Fatalf("summary %+v %v", sum, err)
	}
	if res := w.do(t, req{method: "POST", path: "/api/encounters/enc/carry-over", json: `{"characters":[]}`, as: "gm"}); res.StatusCode != 400 {
		t.Fatalf("without a seq: %d", res.StatusCode)
	}
	res := w.do(t, req{method: "POST", path: "/api/encounters/enc/carry-over", json: `{"seq":7,"characters":[{"id":"hero","values":{"wounds":1}}]}`, as: "gm"})
	if body := text(t, res); res.StatusCode != 200 || !strings.Contains(body, `"revision":3`) {
		t.Fatalf("confirm: %d %s", res.StatusCode, body)
	}
}
