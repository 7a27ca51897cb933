package server

import (
	"net/url"
	"strings"
	"testing"
)

func TestDrafts(t *testing.T) {
	w := newWorld(t, nil)
	body := text(t, w.do(t, req{method: "GET", path: "/drafts/draft", as: "gm", html: true}))
	for _, want := range []string{"Duel", "not finished", "Goblin", "Hero"} {
		if !strings.Contains(body, want) {
			t.Errorf("the editor lacks %q", want)
		}
	}
	if res := w.do(t, req{method: "GET", path: "/drafts/nope", as: "gm"}); res.StatusCode != 404 {
		t.Fatalf("an unknown draft: %d", res.StatusCode)
	}
	res := w.do(t, req{method: "POST", path: "/drafts/draft/edit", form: url.Values{"op": {"fly"}}, as: "gm"})
	if res.Header.Get("Location") != "/drafts/draft" || flashOf(t, res, flashError) != `unknown edit "fly"` {
		t.Fatalf("an unknown edit: %q %q", res.Header.Get("Location"), flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/drafts", form: url.Values{"ruleset": {"nope"}}, as: "gm"})
	if res.Header.Get("Location") != "/campaigns/camp" || !strings.Contains(flashOf(t, res, flashError), "unknown ruleset") {
		t.Fatalf("an unknown ruleset: %q %q", res.Header.Get("Location"), flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/drafts/import", file: "bad", as: "gm"})
	if !strings.HasPrefix(flashOf(t, res, flashError), "The file was not imported: not a setup document") {
		t.Fatalf("a bad file: %q", flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/drafts/draft/import", file: "bad", as: "gm"})
	if res.Header.Get("Location") != "/drafts/draft" || !strings.HasPrefix(flashOf(t, res, flashError), "The file was not imported") {
		t.Fatalf("a bad replacement: %q", flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/drafts/draft/create", form: url.Values{}, as: "gm"})
	if res.Header.Get("Location") != "/encounters/new-encounter" || !strings.HasPrefix(flashOf(t, res, flashNotice), "Created ") {
		t.Fatalf("create: %q %q", res.Header.Get("Location"), flashOf(t, res, flashNotice))
	}
	res = w.do(t, req{method: "POST", path: "/drafts/draft/delete", form: url.Values{}, as: "gm"})
	if res.Header.Get("Location") != "/campaigns/camp" || flashOf(t, res, flashNotice) != "Draft deleted." || !w.calls.has("DeleteDraft draft") {
		t.Fatalf("delete: %q", res.Header.Get("Location"))
	}
	if res := w.do(t, req{method: "GET", path: "/drafts/draft/setup.json", as: "gm"}); !strings.Contains(res.Header.Get("Content-Disposition"), "toy-draft.json") {
		t.Fatalf("export: %q", res.Header.Get("Content-Disposition"))
	}
}
