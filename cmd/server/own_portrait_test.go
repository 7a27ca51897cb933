package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/testdb"
)

// TestOwnPortraitAndCharacterFile: a player uploads a portrait for their
// own character (validated and counted like any upload) and may then
// fetch it; nobody else but the GMs may, nor may the player name one of
// the campaign's pictures instead of uploading. The characters file
// carries the portrait, and an import keeps it only where the campaign
// holds that picture.
func TestOwnPortraitAndCharacterFile(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	c := "/campaigns/" + tb.campaign
	portraits := func(campaign string, u *apiUser) map[string]string {
		var chars []struct{ ID, Portrait string }
		srv.withUser(u).do("GET", "/api/campaigns/"+campaign+"/characters", nil, &chars)
		out := map[string]string{}
		for _, ch := range chars {
			out[ch.ID] = ch.Portrait
		}
		return out
	}
	var otherPC string
	for id := range portraits(tb.campaign, tb.gm) {
		if id != tb.pc {
			otherPC = id
		}
	}

	// Not a picture: refused, nothing set.
	if r := srv.upload(tb.player, c+"/pcs/"+tb.pc+"/portrait", []byte("not a picture")); r.code != http.StatusSeeOther || flash(r.header, "error") == "" {
		t.Fatalf("a broken upload: %d %q", r.code, flash(r.header, "error"))
	}
	r := srv.upload(tb.player, c+"/pcs/"+tb.pc+"/portrait", pngBytes(t, testPicture(96, 96, 90, 255)))
	if r.code != http.StatusSeeOther || r.location != c+"/characters/"+tb.pc || flash(r.header, "notice") == "" {
		t.Fatalf("the player's upload: %d %s %q", r.code, r.location, flash(r.header, "error"))
	}
	pic := portraits(tb.campaign, tb.gm)[tb.pc]
	if !strings.HasPrefix(pic, "/assets/") {
		t.Fatalf("the character's portrait %q", pic)
	}
	if p := srv.get(tb.player, pic); p.code != http.StatusOK {
		t.Errorf("the player GET their portrait: %d", p.code)
	}
	if p := srv.get(tb.player, c+"/characters/"+tb.pc); !strings.Contains(string(p.body), `id="character-portrait"`) || !strings.Contains(string(p.body), `id="portrait-form"`) {
		t.Error("the character page shows no portrait or no form to change it")
	}

	// Another character's, a bestiary entry's: refused. Naming a picture:
	// refused, the portrait stays.
	for _, path := range []string{c + "/pcs/" + otherPC + "/portrait", c + "/bestiary/anything/portrait"} {
		if r := srv.upload(tb.player, path, pngBytes(t, testPicture(64, 64, 10, 255))); r.code != http.StatusForbidden {
			t.Errorf("%s by the player: %d", path, r.code)
		}
	}
	if r := srv.prepForm(tb.player, c+"/pcs/"+tb.pc+"/portrait", url.Values{"portrait": {pic}}); r.code != http.StatusSeeOther || flash(r.header, "error") == "" {
		t.Errorf("the player names a picture: %d", r.code)
	}
	if got := portraits(tb.campaign, tb.gm)[tb.pc]; got != pic {
		t.Errorf("the portrait changed to %q", got)
	}

	// The characters file carries it.
	exp := srv.prepReq(tb.gm, "GET", c+"/characters.json", "", nil)
	var file []map[string]any
	if err := json.Unmarshal(exp.body, &file); err != nil {
		t.Fatal(err)
	}
	carried := false
	for _, e := range file {
		carried = carried || e["id"] == tb.pc && e["portrait"] == pic
	}
	if !carried {
		t.Fatalf("the characters file has no portrait: %.400s", exp.body)
	}
	// Into a campaign without that picture: the character comes without
	// it; into one that holds it: with it.
	for i, holds := range []bool{false, true} {
		var other struct{ ID string }
		srv.withUser(tb.gm).do("POST", "/api/campaigns", map[string]string{"name": "Elsewhere " + string(rune('A'+i))}, &other)
		if holds {
			if code, up := srv.uploadPicture(tb.gm, other.ID, "again.png", pngBytes(t, testPicture(96, 96, 90, 255))); code != http.StatusCreated || up.URL != pic {
				t.Fatalf("the same picture again: %d %q, want %q", code, up.URL, pic)
			}
		}
		if imp := srv.upload(tb.gm, "/campaigns/"+other.ID+"/characters/import", exp.body); imp.code != http.StatusSeeOther || flash(imp.header, "notice") == "" {
			t.Fatalf("import: %d %q", imp.code, flash(imp.header, "error"))
		}
		want := ""
		if holds {
			want = pic
		}
		if got := portraits(other.ID, tb.gm)[tb.pc]; got != want {
			t.Errorf("imported where the picture is held=%v: portrait %q, want %q", holds, got, want)
		}
	}
}

// TestDeletePicture: a GM deletes a picture nothing uses; one in an
// encounter's history (a scene since switched away) or a character's
// portrait is refused with 409 and stays; players may delete nothing.
func TestDeletePicture(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	up := func(tint uint8) string {
		code, p := srv.uploadPicture(tb.gm, tb.campaign, "p.png", pngBytes(t, testPicture(40, 40, tint, 255)))
		if code != http.StatusCreated {
			t.Fatalf("upload: %d", code)
		}
		return p.URL
	}
	scene, portrait, unused := up(10), up(120), up(240)
	for i, img := range []string{scene, ""} {
		if code, e := srv.command(tb.gm, tb.id, "scene-"+string(rune('a'+i)), map[string]any{"kind": "set-scene", "image": img}); code != http.StatusOK {
			t.Fatalf("set-scene %q: %d %+v", img, code, e)
		}
	}
	if r := srv.prepForm(tb.gm, "/campaigns/"+tb.campaign+"/pcs/"+tb.pc+"/portrait", url.Values{"portrait": {portrait}}); r.code != http.StatusSeeOther || flash(r.header, "error") != "" {
		t.Fatalf("portrait: %d %q", r.code, flash(r.header, "error"))
	}
	del := func(u *apiUser, pic string) int {
		return srv.call(u, "DELETE", "/api/campaigns/"+tb.campaign+"/assets/"+strings.TrimPrefix(pic, "/assets/"), nil, nil)
	}
	if code := del(tb.player, unused); code != http.StatusForbidden {
		t.Errorf("a player deletes a picture: %d", code)
	}
	for _, pic := range []string{scene, portrait} {
		if code := del(tb.gm, pic); code != http.StatusConflict {
			t.Errorf("deleting a picture in use: %d", code)
		}
		if p := srv.get(tb.gm, pic); p.code != http.StatusOK {
			t.Errorf("a picture in use is gone: %d", p.code)
		}
	}
	if code := del(tb.gm, unused); code != http.StatusNoContent {
		t.Fatalf("deleting an unused picture: %d", code)
	}
	if p := srv.get(tb.gm, unused); p.code != http.StatusNotFound {
		t.Errorf("a deleted picture is served: %d", p.code)
	}
	if code := del(tb.gm, unused); code != http.StatusNotFound {
		t.Errorf("deleting it again: %d", code)
	}
}
