package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestEncounterPage(t *testing.T) {
	w := newWorld(t, nil)
	gm := text(t, w.do(t, req{method: "GET", path: "/encounters/enc", as: "gm", html: true}))
	if !strings.Contains(gm, "Spy") {
		t.Fatal("the GM does not see the hidden spy")
	}
	pl := text(t, w.do(t, req{method: "GET", path: "/encounters/enc", as: "pl", html: true}))
	if strings.Contains(pl, "Spy") {
		t.Fatal("the player sees the hidden spy")
	}
	if choose := text(t, w.do(t, req{method: "GET", path: "/encounters/enc?choose=1", as: "gm", html: true})); !strings.Contains(choose, "Game master") {
		t.Fatal("the GM's choice of viewer is missing")
	}
	// A GM previews as a player character, and only as one.
	if preview := text(t, w.do(t, req{method: "GET", path: "/encounters/enc?as=hero", as: "gm", html: true})); strings.Contains(preview, "Spy") {
		t.Fatal("the GM's preview as the hero sees the hidden spy")
	}
	for _, as := range []string{"orc", "spy", "nobody"} {
		if res := w.do(t, req{method: "GET", path: "/encounters/enc?as=" + as, as: "gm"}); res.StatusCode != 400 {
			t.Errorf("preview as %s: %d", as, res.StatusCode)
		}
	}
	if res := w.do(t, req{method: "GET", path: "/encounters/nope", as: "gm"}); res.StatusCode != 404 {
		t.Fatalf("an unknown encounter: %d", res.StatusCode)
	}
}

func TestEncounterAPI(t *testing.T) {
	w := newWorld(t, nil)
	var view engine.View
	if err := json.NewDecoder(w.do(t, req{method: "GET", path: "/api/encounters/enc", as: "pl"}).Body).Decode(&view); err != nil {
		t.Fatal(err)
	}
	if view.Viewer.GM || len(view.Viewer.Controls) != 1 || view.Viewer.Controls[0] != "hero" {
		t.Fatalf("the player's viewer: %+v", view.Viewer)
	}
	for _, q := range []string{"since=-1", "since=x", "limit=0", "limit=1001"} {
		if res := w.do(t, req{method: "GET", path: "/api/encounters/enc/events?" + q, as: "pl"}); res.StatusCode != 400 {
			t.Errorf("events?%s: %d", q, res.StatusCode)
		}
	}
	if res := w.do(t, req{method: "GET", path: "/api/encounters/enc/events?since=0&limit=10", as: "pl"}); res.StatusCode != 200 || !strings.Contains(text(t, res), "It begins.") {
		t.Fatalf("events: %d", res.StatusCode)
	}
	for _, body := range []string{`{"id":"c1"}`, `{"id":"c1","command":{"kind":"chat"},"extra":1}`, `{"id":"c1","command":{"kind":"chat"}}}`, `{"id":"c1","command":"chat"}`} {
		if res := w.do(t, req{method: "POST", path: "/api/encounters/enc/commands", json: body, as: "pl"}); res.StatusCode != 400 {
			t.Errorf("%s: %d, want 400", body, res.StatusCode)
		}
	}
	if w.calls.has("Submit chat pl") {
		t.Fatal("a malformed command was submitted")
	}
	res := w.do(t, req{method: "POST", path: "/api/encounters/enc/commands", json: `{"id":"c1","command":{"kind":"chat","text":"hi"}}`, as: "pl"})
	if res.StatusCode != 200 || !strings.Contains(text(t, res), `"seq":3`) || !w.calls.has("Submit chat pl") {
		t.Fatalf("a command: %d", res.StatusCode)
	}

	w = newWorld(t, fail{"Submit": fray.Errorf(fray.EILLEGAL, "not now")})
	if res := w.do(t, req{method: "POST", path: "/api/encounters/enc/commands", json: `{"id":"c1","command":{"kind":"start"}}`, as: "gm"}); res.StatusCode != 422 {
		t.Fatalf("an illegal command: %d", res.StatusCode)
	}
}

func TestEncounterAct(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/encounters/enc/act", form: url.Values{"kind": {"fly"}, "actor": {"hero"}}, as: "pl"})
	// Not offered: the rules say why, and nothing is submitted.
	if res.StatusCode != 303 || res.Header.Get("Location") != "/encounters/enc" || flashOf(t, res, flashError) != `unknown command "fly"` || w.calls.has("Submit fly pl") {
		t.Fatalf("an action not offered: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
	// The page asks the same question without submitting anything.
	res = w.do(t, req{method: "GET", path: "/api/encounters/enc/why?kind=fly&actor=hero", as: "pl"})
	if body := text(t, res); res.StatusCode != 200 || body != `{"reason":"unknown command \"fly\""}`+"\n" {
		t.Fatalf("why: %d %q", res.StatusCode, body)
	}
	res = w.do(t, req{method: "POST", path: "/encounters/enc/act?as=hero", form: url.Values{"kind": {"chat"}, "text": {"hi"}}, as: "gm"})
	if res.Header.Get("Location") != "/encounters/enc?as=hero" || flashOf(t, res, flashError) != "" || !w.calls.has("Submit chat gm") {
		t.Fatalf("the GM's chat while previewing: %q %q", res.Header.Get("Location"), flashOf(t, res, flashError))
	}
}

func TestCommandFromForm(t *testing.T) {
	view := engine.View{
		Actions: []engine.Action{{Kind: "attack", Actor: "hero", Fields: []engine.Field{
			{Name: "target", Type: engine.FieldSelect}, {Name: "bonus", Label: "Bonus", Type: engine.FieldNumber}, {Name: "all-out", Type: engine.FieldCheckbox}}}},
		Pending: []engine.Decision{{ID: "d1", Fields: []engine.Field{{Name: "percent", Label: "Percent", Type: engine.FieldNumber}}}},
	}
	cmd, offered, err := commandFromForm(view, url.Values{"kind": {"attack"}, "actor": {"hero"}, "target": {"orc"}, "bonus": {"2"}, "all-out": {"on"}})
	if err != nil || !offered {
		t.Fatal(err)
	}
	var args map[string]any
	if err := json.Unmarshal(cmd.Args, &args); err != nil || args["target"] != "orc" || args["bonus"] != float64(2) || args["all-out"] != true {
		t.Fatalf("args %s (%v)", cmd.Args, err)
	}
	if _, _, err := commandFromForm(view, url.Values{"kind": {"attack"}, "actor": {"hero"}, "bonus": {"two"}}); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("a number that is not one: %v", err)
	}
	// An action offered to someone else, or no more: built as it is
	// written, for the rules to say why they refuse it.
	cmd, offered, err = commandFromForm(view, url.Values{"kind": {"attack"}, "actor": {"orc"}, "target": {"hero"}, "cid": {"c9"}})
	if err != nil || offered || cmd.Actor != "orc" || string(cmd.Args) != `{"target":"hero"}` {
		t.Fatalf("an action offered to someone else: %+v %s %v %v", cmd, cmd.Args, offered, err)
	}
	cmd, _, err = commandFromForm(view, url.Values{"kind": {engine.KindAnswer}, "actor": {"hero"}, "decision": {"d1"}, "choice": {"set"}, "values.percent": {"40"}})
	if err != nil || cmd.Actor != "" || !strings.Contains(string(cmd.Args), `"percent":40`) || strings.Contains(string(cmd.Args), "override") {
		t.Fatalf("an answer: %+v %s %v", cmd, cmd.Args, err)
	}
	// "Decide for …" with its box ticked: the answer says so.
	cmd, _, err = commandFromForm(view, url.Values{"kind": {engine.KindAnswer}, "decision": {"d1"}, "choice": {"set"}, "values.percent": {"10"}, "override": {"on"}})
	if err != nil || !strings.Contains(string(cmd.Args), `"override":true`) {
		t.Fatalf("an answer for a player: %s %v", cmd.Args, err)
	}
}

func TestEncounterSocket(t *testing.T) {
	w := newWorld(t, nil)
	if res := w.do(t, req{method: "GET", path: "/encounters/enc/ws?since=x", as: "pl"}); res.StatusCode != 400 {
		t.Fatalf("a bad since: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "GET", path: "/encounters/enc/ws?since=4&html=1", as: "pl"}); res.StatusCode != 101 || !w.calls.has("Serve pl") {
		t.Fatalf("a session: %d", res.StatusCode)
	}
}
