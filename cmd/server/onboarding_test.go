package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestExampleCharactersHavePages: the player characters of an example a GM
// adds get a sheet and a page like prepared ones (their first revision
// names the encounter); the campaign page lists each character with the
// encounters it is in and links its page, and says what it did.
func TestExampleCharactersHavePages(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm, stranger := srv.signup("onboard-gm"), srv.signup("onboard-stranger")
	var camp struct{ ID string }
	if code := srv.call(gm, "POST", "/api/campaigns", map[string]string{"name": "Onboarding"}, &camp); code != http.StatusCreated {
		t.Fatalf("campaign: %d", code)
	}
	c := "/campaigns/" + camp.ID
	form := "application/x-www-form-urlencoded"
	added := srv.send(gm, "POST", c+"/encounters/example", form, "example=sw-zones-goblin-ford")
	if added.code != http.StatusSeeOther || !strings.Contains(flash(added.header, "notice"), "Added Goblin ambush at the ford") {
		t.Fatalf("add example: %d %q", added.code, flash(added.header, "notice"))
	}
	ex, _ := prep.ExampleNamed("sw-zones-goblin-ford")
	if !strings.Contains(string(ex.Data), `"id": "brak"`) {
		t.Fatal("the example has no Brak")
	}
	if p := srv.get(gm, c+"/characters/brak"); p.code != http.StatusOK || !strings.Contains(string(p.body), "Brak") {
		t.Fatalf("Brak's page: %d", p.code)
	}
	if p := srv.get(stranger, c+"/characters/brak"); p.code != http.StatusNotFound {
		t.Fatalf("a stranger opens Brak's page: %d", p.code)
	}
	var revs revisionsReply
	if code := srv.call(gm, "GET", "/api/campaigns/"+camp.ID+"/characters/brak/revisions", nil, &revs); code != http.StatusOK ||
		len(revs.Revisions) != 1 || revs.Revisions[0].Kind != "created" || revs.Revisions[0].EncounterName != "Goblin ambush at the ford" {
		t.Fatalf("Brak's revisions: %d %+v", code, revs)
	}
	page := string(srv.get(gm, c).body)
	for _, want := range []string{`id="char-brak-page"`, "in Goblin ambush at the ford", "Not started", `<optgroup label="Savage Worlds — zones">`,
		"On zones and melees."} {
		if !strings.Contains(page, want) {
			t.Errorf("the campaign page lacks %q", want)
		}
	}
	if strings.Contains(page, "None yet") {
		t.Error("the campaign page says None yet")
	}
	// Adding the same example again takes the campaign's Brak as he is.
	srv.send(gm, "POST", c+"/encounters/example", form, "example=sw-zones-goblin-ford")
	srv.call(gm, "GET", "/api/campaigns/"+camp.ID+"/characters/brak/revisions", nil, &revs)
	if len(revs.Revisions) != 1 {
		t.Fatalf("a second import rewrote Brak: %+v", revs)
	}
	// Creating a campaign says so too.
	created := srv.send(gm, "POST", "/campaigns", form, "name=Second")
	if !strings.Contains(flash(created.header, "notice"), "Created Second") {
		t.Errorf("creating a campaign says %q", flash(created.header, "notice"))
	}
}
