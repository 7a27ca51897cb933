package main

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

func setValue(id, value string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`document.getElementById(%q).value = %q`, id, value), nil)
}

func waitJS(expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(patience.Hang()))
}

// TestBrowserBuildEncounter: the GM builds an encounter from scratch in the
// browser (two connected zones, a bestiary entry from the schema form, two
// copies of it and the player's character), creates and starts it, and the
// player's open page shows it running live.
func TestBrowserBuildEncounter(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser, playerUser := srv.signup("gamemaster"), srv.signup("player-one")
	gmAPI := srv.withUser(gmUser)
	var camp struct{ ID string }
	gmAPI.do("POST", "/api/campaigns", map[string]string{"name": "Border war"}, &camp)
	var inv struct{ URL string }
	gmAPI.do("POST", "/api/campaigns/"+camp.ID+"/invites", nil, &inv)
	if code := srv.withUser(playerUser).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	c := "/campaigns/" + camp.ID
	// The player's character exists in the campaign and is theirs.
	if r := srv.prepForm(gmUser, c+"/pcs", url.Values{"ruleset": {"sw-zones"}, "name": {"Brak"}, "wildCard": {"on"},
		"attributes.agility": {"d8"}, "attributes.smarts": {"d6"}, "attributes.spirit": {"d6"}, "attributes.strength": {"d10"},
		"attributes.vigor": {"d8"}, "skills.fighting": {"d10"}, "weapons.0.name": {"Axe"}, "weapons.0.damage": {"Str+d8"}}); r.code != 303 {
		t.Fatalf("character: %d %s", r.code, r.body)
	}
	if code := gmAPI.do("PUT", "/api/campaigns/"+camp.ID+"/characters/brak", map[string]string{"user": playerUser.ID}, nil); code != 200 {
		t.Fatalf("assign: %d", code)
	}

	gm, player := tab(t, newBrowser(t)), tab(t, newBrowser(t))
	login(t, gm, srv.URL, gmUser.Name)
	login(t, player, srv.URL, playerUser.Name)

	// A bestiary entry from the schema form; derived values show.
	steps(t, gm, chromedp.Navigate(srv.URL+c+"/bestiary/new?ruleset=sw-zones"), chromedp.WaitVisible(`#stat-name`, chromedp.ByQuery),
		chromedp.SendKeys(`#stat-name`, "Goblin", chromedp.ByQuery),
		setValue("f-skills_fighting", "d8"), setValue("f-attributes_vigor", "d6"),
		setValue("f-armor", "2"),
		chromedp.SendKeys(`#f-weapons_0_name`, "Spear", chromedp.ByQuery),
		chromedp.SendKeys(`#f-weapons_0_damage`, "Str+d6", chromedp.ByQuery),
		chromedp.Click(`#save-stats`, chromedp.ByQuery),
		chromedp.WaitVisible(`#derived`, chromedp.ByQuery))
	var parry, tough string
	steps(t, gm, chromedp.Text(`#derived-Parry`, &parry, chromedp.ByQuery), chromedp.Text(`#derived-Toughness`, &tough, chromedp.ByQuery))
	if parry != "6" || tough != "7 (2)" {
		t.Fatalf("derived Parry %q Toughness %q", parry, tough)
	}

	// A new draft with two connected zones.
	steps(t, gm, chromedp.Navigate(srv.URL+c), chromedp.WaitVisible(`#new-draft-name`, chromedp.ByQuery),
		chromedp.SendKeys(`#new-draft-name`, "Bridge ambush", chromedp.ByQuery),
		setValue("new-draft-ruleset", "sw-zones"),
		submits(`#create-draft`),
		chromedp.WaitVisible(`#draft-status`, chromedp.ByQuery),
		chromedp.SendKeys(`#zone-name`, "Bridge", chromedp.ByQuery),
		chromedp.SendKeys(`#zone-description`, "A narrow stone bridge.", chromedp.ByQuery),
		chromedp.Click(`#add-zone`, chromedp.ByQuery),
		chromedp.WaitVisible(`#zone-bridge`, chromedp.ByQuery),
		chromedp.SendKeys(`#zone-name`, "Far bank", chromedp.ByQuery),
		setValue("zone-cover", "light"),
		chromedp.Click(`#add-zone`, chromedp.ByQuery),
		chromedp.WaitVisible(`#zone-far-bank`, chromedp.ByQuery),
		setValue("connect-a", "bridge"), setValue("connect-b", "far-bank"),
		chromedp.Click(`#connect`, chromedp.ByQuery),
		chromedp.WaitReady(`#zone-bridge input[name="b"]`, chromedp.ByQuery),
		waitJS(`document.querySelector('#zone-bridge .zone-adjacent').textContent.includes('Far bank')`),
		// A third side.
		chromedp.SendKeys(`#side-name`, "Goblins", chromedp.ByQuery),
		chromedp.Click(`#add-side`, chromedp.ByQuery),
		chromedp.WaitVisible(`#side-goblins`, chromedp.ByQuery),
		// Two goblins from the bestiary on the far bank.
		setValue("bestiary-count", "2"), setValue("bestiary-side", "goblins"), setValue("bestiary-zone", "far-bank"),
		chromedp.Click(`#add-bestiary`, chromedp.ByQuery),
		chromedp.WaitVisible(`#cb-goblin-2`, chromedp.ByQuery),
		// The player's character on the bridge.
		setValue("pc-character", "brak"), setValue("pc-side", "heroes"), setValue("pc-zone", "bridge"),
		chromedp.Click(`#add-pc`, chromedp.ByQuery),
		chromedp.WaitVisible(`#cb-brak`, chromedp.ByQuery))
	var names string
	steps(t, gm, chromedp.Text(`#combatant-list`, &names, chromedp.ByQuery))
	if !strings.Contains(names, "Goblin 1") || !strings.Contains(names, "Goblin 2") || !strings.Contains(names, "Brak") {
		t.Fatalf("combatants: %q", names)
	}
	// The unused side "foes" is fine; the draft is ready.
	var status string
	steps(t, gm, chromedp.Text(`#draft-status`, &status, chromedp.ByQuery))
	if !strings.Contains(status, "Ready") {
		t.Fatalf("draft status %q", status)
	}
	steps(t, gm, chromedp.Click(`#create-encounter`, chromedp.ByQuery), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
	var encURL string
	steps(t, gm, chromedp.Location(&encURL))
	id := encURL[strings.LastIndex(encURL, "/")+1:]

	steps(t, player, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#log", chromedp.ByID),
		waitJS(`document.querySelector('#conn').dataset.state === 'live'`))
	steps(t, gm, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))
	steps(t, player, logHas("The encounter begins"))
	v, raw := srv.withUser(playerUser).view(id, "")
	if v.Status != "running" || !strings.Contains(string(raw), `"round":1`) {
		t.Fatalf("player's view: %s %s", v.Status, raw)
	}
}
