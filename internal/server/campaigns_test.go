package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// The campaign page shows a GM the tools to run it (invites, examples,
// drafts, the bestiary) and a player none of them.
func TestCampaignPage(t *testing.T) {
	w := newWorld(t, nil)
	gm := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp", as: "gm", html: true}))
	pl := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp", as: "pl", html: true}))
	for _, want := range []string{"The Campaign", "Toy fight", "Hero"} {
		if !strings.Contains(gm, want) || !strings.Contains(pl, want) {
			t.Errorf("the page does not show %q to both", want)
		}
	}
	for _, gmOnly := range []string{"/campaigns/camp/invites", "/drafts/draft", "Goblin", `value="toy"`} {
		if !strings.Contains(gm, gmOnly) {
			t.Errorf("the GM's page lacks %q", gmOnly)
		}
		if strings.Contains(pl, gmOnly) {
			t.Errorf("the player's page shows %q", gmOnly)
		}
	}
	// A player opens their own character's page, not others'.
	if !strings.Contains(pl, "/campaigns/camp/characters/hero") || strings.Contains(pl, "/campaigns/camp/characters/lyra") {
		t.Error("the player's page links the wrong characters")
	}
}

func TestCreateCampaign(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/campaigns", form: url.Values{"name": {"Dragons"}}, as: "pl"})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/campaigns/new-campaign" || !w.calls.has("Create Dragons pl") ||
		!strings.HasPrefix(flashOf(t, res, flashNotice), "Created Dragons.") {
		t.Fatalf("%d to %q, saying %q", res.StatusCode, res.Header.Get("Location"), flashOf(t, res, flashNotice))
	}
	res = w.do(t, req{method: "POST", path: "/api/campaigns", json: `{"name":"Dragons"}`, as: "pl"})
	var got campaignJSON
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 201 || got.Role != "gm" {
		t.Fatalf("API: %d %+v %v", res.StatusCode, got, err)
	}
	if res := w.do(t, req{method: "POST", path: "/api/campaigns", json: `["Dragons"]`, as: "pl"}); res.StatusCode != 400 {
		t.Fatalf("API: a malformed body: %d", res.StatusCode)
	}
}

func TestAPICampaign(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/api/campaigns/camp", as: "pl"})
	var got campaignJSON
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Role != "player" || len(got.Encounters) != 1 || got.Encounters[0].Seq != 2 || len(got.Members) != 2 || got.Members[1].Characters[0] != "hero" {
		t.Fatalf("%+v", got)
	}
	res = w.do(t, req{method: "GET", path: "/api/campaigns", as: "st"})
	var none []campaignJSON
	if err := json.NewDecoder(res.Body).Decode(&none); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("a stranger's campaigns: %v %v", none, err)
	}
}

func TestIndexListsMyCampaigns(t *testing.T) {
	w := newWorld(t, nil)
	if body := text(t, w.do(t, req{method: "GET", path: "/", as: "pl", html: true})); !strings.Contains(body, "The Campaign") || !strings.Contains(body, "Toy fight") {
		t.Fatal("the player's index does not list their campaign")
	}
	if body := text(t, w.do(t, req{method: "GET", path: "/", as: "st", html: true})); strings.Contains(body, "The Campaign") {
		t.Fatal("a stranger's index lists the campaign")
	}
}
