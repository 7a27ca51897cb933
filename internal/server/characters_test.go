package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/characters"
)

func TestCharacters(t *testing.T) {
	w := newWorld(t, nil)
	body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/characters/hero", as: "pl", html: true}))
	for _, want := range []string{"Hero", "/encounters/enc/log"} {
		if !strings.Contains(body, want) {
			t.Errorf("the player's character page lacks %q", want)
		}
	}
	if strings.Contains(body, `id="edit-character"`) {
		t.Error("the player may edit their sheet")
	}
	if body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/characters/hero", as: "gm", html: true})); !strings.Contains(body, `id="edit-character"`) {
		t.Fatal("the GM's character page has no way to edit it")
	}
	if res := w.do(t, req{method: "GET", path: "/campaigns/camp/characters/lyra", as: "pl"}); res.StatusCode != 404 {
		t.Fatalf("someone else's character: %d", res.StatusCode)
	}
	var list []characters.Entry
	if err := json.NewDecoder(w.do(t, req{method: "GET", path: "/api/campaigns/camp/characters", as: "pl"}).Body).Decode(&list); err != nil || len(list) != 1 {
		t.Fatalf("the player's characters: %v %v", list, err)
	}
	var revs struct {
		Character characters.Entry
		Revisions []characters.RevisionEntry
	}
	if err := json.NewDecoder(w.do(t, req{method: "GET", path: "/api/campaigns/camp/characters/hero/revisions", as: "pl"}).Body).Decode(&revs); err != nil ||
		revs.Character.Revision != 2 || len(revs.Revisions) != 2 || revs.Revisions[0].Changes == nil {
		t.Fatalf("revisions: %+v %v", revs, err)
	}
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/characters/import", file: "bad", as: "gm"})
	if !strings.HasPrefix(flashOf(t, res, flashError), "The characters were not imported: not a characters file") {
		t.Fatalf("a bad file: %q", flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/characters/import", file: "[]", as: "gm"})
	if flashOf(t, res, flashNotice) != "Imported 1 characters with their history." || !w.calls.has("ImportCharacters gm") {
		t.Fatalf("a characters file: %q", flashOf(t, res, flashNotice))
	}
	if res := w.do(t, req{method: "GET", path: "/campaigns/camp/characters.json", as: "gm"}); !strings.Contains(text(t, res), `"id": "hero"`) {
		t.Fatal("the characters file")
	}
}
