package main

import (
	"bytes"
	"net/url"
	"testing"

	"github.com/fray-vtt/fray/internal/testdb"
)

// TestStatBlockExportRoundTrip: a bestiary entry read from a pasted
// stat block, and a character sheet, each export as a file that imports
// into another campaign and exports again byte for byte; so does the
// campaign's whole bestiary.
func TestStatBlockExportRoundTrip(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm := srv.signup("gamemaster")
	campaign := func(name string) string {
		var camp struct{ ID string }
		srv.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": name}, &camp)
		return "/campaigns/" + camp.ID
	}
	a, b, c := campaign("First"), campaign("Second"), campaign("Third")

	// A bestiary entry saved from a paste, the editor's way.
	paste := srv.prepForm(gm, a+"/bestiary/paste", url.Values{"ruleset": {"d20-tactical"}, "block": {pastedThug}})
	if paste.code != 200 || !bytes.Contains(paste.body, []byte(`id="paste-report"`)) {
		t.Fatalf("paste: %d %s", paste.code, paste.body)
	}
	form := url.Values{"ruleset": {"d20-tactical"}, "name": {"Street Thug"}, "abilities.str": {"13"}, "abilities.dex": {"12"}, "hp": {"5"},
		"bab": {"1"}, "weapons.0.name": {"Unarmed strike"}, "weapons.0.damage": {"1d6+1"}, "weapons.1.name": {"Colt Python"},
		"weapons.1.damage": {"2d6"}, "weapons.1.range": {"30"}}
	if r := srv.prepForm(gm, a+"/bestiary", form); r.code != 303 {
		t.Fatalf("save: %d %s", r.code, r.body)
	}
	// A character, the same way.
	pc := url.Values{"ruleset": {"sw-zones"}, "name": {"Brak"}, "wildCard": {"on"}, "attributes.agility": {"d8"}, "attributes.smarts": {"d4"},
		"attributes.spirit": {"d6"}, "attributes.strength": {"d10"}, "attributes.vigor": {"d8"}, "skills.fighting": {"d10"},
		"weapons.0.name": {"Battle axe"}, "weapons.0.damage": {"Str+d8"}}
	if r := srv.prepForm(gm, a+"/pcs", pc); r.code != 303 {
		t.Fatalf("character: %d %s", r.code, r.body)
	}

	for _, e := range []struct{ path, importPath string }{
		{"/bestiary/street-thug/export", "/bestiary/import"},
		{"/pcs/brak/export", "/characters/import"},
		{"/bestiary.json", "/bestiary/import"},
	} {
		first := srv.get(gm, a+e.path)
		if first.code != 200 || len(first.body) < 50 {
			t.Fatalf("export %s: %d %s", e.path, first.code, first.body)
		}
		into := b
		if e.path == "/bestiary.json" {
			into = c
		}
		if r := srv.upload(gm, into+e.importPath, first.body); r.code != 303 {
			t.Fatalf("import %s: %d %s", e.path, r.code, r.body)
		}
		again := srv.get(gm, into+e.path)
		if !bytes.Equal(first.body, again.body) {
			t.Errorf("%s changed on its way round:\n%s\n----\n%s", e.path, first.body, again.body)
		}
	}
	// A file that is not one stores nothing and says why.
	if r := srv.upload(gm, c+"/bestiary/import", []byte(`[{"id":"x","name":"X","ruleset":"d20-tactical","stats":{"hp":"many"}}]`)); r.code != 303 {
		t.Fatalf("bad import: %d", r.code)
	}
	if r := srv.get(gm, c+"/bestiary/x/export"); r.code != 404 {
		t.Errorf("a refused entry was stored: %d", r.code)
	}
}

// TestPasteOntoACharacter: a block pasted on a character's sheet fills
// its editor, unsaved, keeping its name; saving makes a revision; a
// block that cannot be read changes nothing and says why.
func TestPasteOntoACharacter(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm := srv.signup("gamemaster")
	var camp struct{ ID string }
	srv.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": "Sheets"}, &camp)
	c := "/campaigns/" + camp.ID
	pc := url.Values{"ruleset": {"sw-zones"}, "name": {"Brak"}, "wildCard": {"on"}, "attributes.agility": {"d6"}, "attributes.smarts": {"d6"},
		"attributes.spirit": {"d6"}, "attributes.strength": {"d6"}, "attributes.vigor": {"d6"}}
	if r := srv.prepForm(gm, c+"/pcs", pc); r.code != 303 {
		t.Fatalf("character: %d %s", r.code, r.body)
	}
	block := "Brak the Bold (WC)\nAttributes: Agility d8, Smarts d4, Spirit d6, Strength d10, Vigor d8\nSkills: Fighting d10\nGear: battle axe (Str+d8)"
	r := srv.prepForm(gm, c+"/pcs/brak/paste", url.Values{"block": {block}})
	if r.code != 200 || !bytes.Contains(r.body, []byte(`value="Brak"`)) || !bytes.Contains(r.body, []byte(`<option value="d10" selected>`)) {
		t.Fatalf("paste: %d %s", r.code, r.body)
	}
	before := srv.get(gm, c+"/pcs/brak/export").body
	if bytes.Contains(before, []byte("d10")) {
		t.Fatal("a paste saved the sheet")
	}
	r = srv.prepForm(gm, c+"/pcs/brak/paste", url.Values{"block": {"Attributes: Agility d8"}})
	if r.code != 400 || !bytes.Contains(r.body, []byte("no name")) {
		t.Fatalf("a block without a name: %d", r.code)
	}
	if after := srv.get(gm, c+"/pcs/brak/export").body; !bytes.Equal(before, after) {
		t.Fatal("a refused paste changed the sheet")
	}
}
