package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

func TestEncounterLogPage(t *testing.T) {
	w := newWorld(t, nil)
	for _, q := range []string{"round=0", "round=x", "after=-1", "after=x", "who=spy"} {
		if res := w.do(t, req{method: "GET", path: "/encounters/enc/log?" + q, as: "pl"}); res.StatusCode != 400 {
			t.Errorf("log?%s: %d, want 400", q, res.StatusCode)
		}
	}
	body := text(t, w.do(t, req{method: "GET", path: "/encounters/enc/log?who=hero&round=1", as: "pl", html: true}))
	if !strings.Contains(body, "It begins.") || !strings.Contains(body, "after=1") {
		t.Fatalf("the page lacks its entry or its next page: %.500s", body)
	}
	if w.calls.has("Current enc") {
		t.Fatal("the log loaded the live encounter")
	}
}

func TestRevealEvent(t *testing.T) {
	w := newWorld(t, nil)
	if res := w.do(t, req{method: "POST", path: "/encounters/enc/log/reveal", form: url.Values{"seq": {"x"}}, as: "gm"}); res.StatusCode != 400 {
		t.Fatalf("a bad seq: %d", res.StatusCode)
	}
	res := w.do(t, req{method: "POST", path: "/encounters/enc/log/reveal", form: url.Values{"seq": {"4"}}, as: "gm"})
	if res.Header.Get("Location") != "/encounters/enc/log#ev-4" || flashOf(t, res, flashNotice) != "Event 4 is now visible to the players." || !w.calls.has("Submit reveal-event gm") {
		t.Fatalf("reveal: %q %q", res.Header.Get("Location"), flashOf(t, res, flashNotice))
	}
	w = newWorld(t, fail{"Submit": fray.Errorf(fray.EILLEGAL, "event 4 is not secret")})
	res = w.do(t, req{method: "POST", path: "/encounters/enc/log/reveal", form: url.Values{"seq": {"4"}}, as: "gm"})
	if res.StatusCode != 303 || flashOf(t, res, flashError) != "event 4 is not secret" {
		t.Fatalf("a refused reveal: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
}
