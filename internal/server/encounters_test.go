package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestImportEncounterAPI(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/api/encounters", json: `{"name":"Fight"}`, as: "pl"})
	var got map[string]any
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 201 {
		t.Fatalf("%d %v", res.StatusCode, err)
	}
	if got["campaign"] != "new-campaign" || got["url"] != "/encounters/new-encounter" || !w.calls.has("Create Imported encounters pl") {
		t.Fatalf("without a campaign: %v", got)
	}

	// An invalid document stores nothing, not even the campaign.
	w = newWorld(t, nil)
	if res := w.do(t, req{method: "POST", path: "/api/encounters", json: "bad", as: "pl"}); res.StatusCode != 400 {
		t.Fatalf("an invalid document: %d", res.StatusCode)
	}
	for _, c := range w.calls.log {
		if strings.HasPrefix(c, "Create ") || strings.HasPrefix(c, "Save ") {
			t.Fatalf("an invalid document stored something: %s", c)
		}
	}
	big := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	if res := w.do(t, req{method: "POST", path: "/api/encounters", json: big, as: "pl"}); res.StatusCode != 413 {
		t.Fatalf("a document over 1 MiB: %d", res.StatusCode)
	}
	// ?campaign= names a campaign the caller runs.
	if res := w.do(t, req{method: "POST", path: "/api/encounters?campaign=camp", json: `{}`, as: "pl"}); res.StatusCode != 403 {
		t.Fatalf("into a campaign the player does not run: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "POST", path: "/api/encounters?campaign=camp", json: `{}`, as: "gm"}); res.StatusCode != 201 || !w.calls.has("Save camp") {
		t.Fatalf("into the GM's campaign: %d", res.StatusCode)
	}
}

func TestImportEncounterFile(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/encounters/import", file: "bad", as: "gm"})
	if res.StatusCode != 303 || !strings.Contains(flashOf(t, res, flashError), "not a setup document") {
		t.Fatalf("a bad file: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/encounters/import", form: url.Values{}, as: "gm"})
	if res.StatusCode != 303 || !strings.Contains(flashOf(t, res, flashError), "choose a file") {
		t.Fatalf("no file: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/encounters/import", file: `{}`, as: "gm"})
	if flashOf(t, res, flashNotice) != "Imported Imported." {
		t.Fatalf("a good file: %q", flashOf(t, res, flashNotice))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/encounters/example", form: url.Values{"example": {"nope"}}, as: "gm"})
	if !strings.Contains(flashOf(t, res, flashError), `no example encounter "nope"`) {
		t.Fatalf("an unknown example: %q", flashOf(t, res, flashError))
	}
}

func TestEncounterSetupAndDuplicate(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/encounters/enc/setup.json", as: "gm"})
	body := text(t, res)
	if res.Header.Get("Content-Disposition") != `attachment; filename="toy-fight.json"` || !strings.Contains(body, "\n  \"name\"") {
		t.Fatalf("setup: %q %.200s", res.Header.Get("Content-Disposition"), body)
	}
	if res := w.do(t, req{method: "GET", path: "/encounters/nope/setup.json", as: "gm"}); res.StatusCode != 404 {
		t.Fatalf("an unknown encounter: %d", res.StatusCode)
	}
	res = w.do(t, req{method: "POST", path: "/encounters/enc/duplicate", form: url.Values{}, as: "gm"})
	if res.Header.Get("Location") != "/drafts/draft" || !strings.HasPrefix(flashOf(t, res, flashNotice), "Duplicated Toy fight") {
		t.Fatalf("duplicate: %q", res.Header.Get("Location"))
	}
}
