package server

import (
	"net/url"
	"strings"
	"testing"
)

func TestStatBlocks(t *testing.T) {
	w := newWorld(t, nil)
	body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/bestiary/goblin", as: "gm", html: true}))
	if !strings.Contains(body, "Hit points") || !strings.Contains(body, "toughness") {
		t.Fatalf("the editor lacks the schema or derived values: %.300s", body)
	}
	if res := w.do(t, req{method: "GET", path: "/campaigns/camp/bestiary/nope", as: "gm"}); res.StatusCode != 404 {
		t.Fatalf("an unknown entry: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "GET", path: "/campaigns/camp/bestiary/new?ruleset=nope", as: "gm"}); res.StatusCode != 400 {
		t.Fatalf("an unknown ruleset: %d", res.StatusCode)
	}
	// A refused form is shown again, with what was typed and why.
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/bestiary", form: url.Values{"name": {""}, "ruleset": {"toy"}, "hp": {"7"}}, as: "gm", html: true})
	body = text(t, res)
	if res.StatusCode != 400 || !strings.Contains(body, "a stat block needs a name") || !strings.Contains(body, `value="7"`) {
		t.Fatalf("a refused form: %d %.500s", res.StatusCode, body)
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/pcs/hero", form: url.Values{"name": {"Hero"}}, as: "gm"})
	if res.Header.Get("Location") != "/campaigns/camp/pcs/goblin" || !w.calls.has("SaveStatBlock characters Hero") || flashOf(t, res, flashNotice) != "Saved Hero." {
		t.Fatalf("save: %q %q", res.Header.Get("Location"), flashOf(t, res, flashNotice))
	}
	if res := w.do(t, req{method: "POST", path: "/campaigns/camp/pcs/nope", form: url.Values{"name": {"X"}}, as: "gm"}); res.StatusCode != 404 {
		t.Fatalf("saving an unknown entry: %d", res.StatusCode)
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/bestiary/goblin/delete", form: url.Values{}, as: "gm"})
	if flashOf(t, res, flashNotice) != "Deleted." || !w.calls.has("DeleteStatBlock bestiary goblin") {
		t.Fatal("delete")
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/bestiary/import", file: "bad", as: "gm"})
	if !strings.HasPrefix(flashOf(t, res, flashError), "The bestiary was not imported") {
		t.Fatalf("a bad bestiary: %q", flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/bestiary/import", file: "[]", as: "gm"})
	if flashOf(t, res, flashNotice) != "Imported 2 bestiary entries." {
		t.Fatalf("a bestiary: %q", flashOf(t, res, flashNotice))
	}
	res = w.do(t, req{method: "GET", path: "/campaigns/camp/bestiary.json", as: "gm"})
	if body := text(t, res); !strings.Contains(body, `"id": "goblin"`) || res.Header.Get("Content-Disposition") != `attachment; filename="bestiary.json"` {
		t.Fatalf("the bestiary file: %.200s", body)
	}
}

// The GM sets a bestiary entry's or a character's portrait from its
// editor, by a picture of the campaign; players may not.
func TestStatPortrait(t *testing.T) {
	w := newWorld(t, nil)
	pic := "/assets/" + strings.Repeat("ab", 32)
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/bestiary/goblin/portrait", form: url.Values{"portrait": {pic}}, as: "gm"})
	if flashOf(t, res, flashNotice) != "Portrait saved." || !w.calls.has("SetPortrait bestiary goblin "+pic) {
		t.Fatalf("set: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/pcs/hero/portrait", form: url.Values{"portrait": {pic}}, as: "gm"})
	if !w.calls.has("SetPortrait characters hero " + pic) {
		t.Fatalf("a character's portrait: %d", res.StatusCode)
	}
	if body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/bestiary/goblin", as: "gm", html: true})); !strings.Contains(body, `id="portrait-form"`) {
		t.Error("the editor has no portrait form")
	}
	other := "/assets/" + strings.Repeat("cd", 32)
	w.do(t, req{method: "POST", path: "/campaigns/camp/bestiary/goblin/portrait", form: url.Values{"portrait": {other}}, as: "pl"})
	if w.calls.has("SetPortrait bestiary goblin " + other) {
		t.Fatal("a player set a portrait")
	}
}
