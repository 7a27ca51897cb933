package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/testdb"
)

// carryTable is a campaign whose GM has a player playing Brak, and an
// encounter on the bridge where the ogre has wounded him, still running.
type carryTable struct {
	table
	enc    string
	wounds int
}

func (s *testServer) newCarryTable() carryTable {
	s.t.Helper()
	tb := carryTable{table: s.newTable()}
	c := "/campaigns/" + tb.campaign
	if r := s.prepForm(tb.gm, c+"/pcs", brakSheet); r.code != http.StatusSeeOther {
		s.t.Fatalf("create Brak: %d %s", r.code, r.body)
	}
	if code := s.withUser(tb.gm).do("PUT", "/api/campaigns/"+tb.campaign+"/characters/brak", map[string]string{"user": tb.player.ID}, nil); code != 200 {
		s.t.Fatalf("assign Brak: %d", code)
	}
	var enc struct{ ID string }
	if code := s.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/encounters", ogreSetup("The bridge"), &enc); code != http.StatusCreated {
		s.t.Fatalf("create the bridge: %d", code)
	}
	tb.enc = enc.ID
	if code, e := s.command(tb.gm, tb.enc, "start", map[string]any{"kind": "start"}); code != 200 {
		s.t.Fatalf("start: %d %+v", code, e)
	}
	tb.wounds = s.woundBrak(tb.gm, tb.enc, 0)
	return tb
}

// TestBrowserCarryOver: the GM ends the fight on the encounter page, follows
// its carry-over link, edits Brak's wounds and confirms; Brak's player
// opens his character page from the campaign and sees the new values and
// the revision that made them.
func TestBrowserCarryOver(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newCarryTable()
	edited := 1
	if tb.wounds == 1 {
		edited = 2
	}
	gm, player := tab(t, newBrowser(t)), tab(t, newBrowser(t))
	login(t, gm, srv.URL, tb.gm.Name)
	login(t, player, srv.URL, tb.player.Name)

	// The GM ends the encounter; the page grows the carry-over link live.
	steps(t, gm, chromedp.Navigate(srv.URL+"/encounters/"+tb.enc), chromedp.WaitVisible("#log", chromedp.ByID),
		waitJS(`document.querySelector('#conn').dataset.state === 'live'`))
	if err := chromedp.Run(gm, chromedp.WaitNotPresent("#carry-link", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	steps(t, gm, chromedp.Click("#act-end-open", chromedp.ByID), waitJS(`document.getElementById('act-end-d').open`),
		chromedp.Click("#act-end-go", chromedp.ByID), chromedp.WaitVisible("#carry-link", chromedp.ByID),
		chromedp.Click("#carry-link", chromedp.ByID), chromedp.WaitVisible("#carry-brak", chromedp.ByID))
	var state, now, proposal string
	steps(t, gm, chromedp.Text("#carry-brak-state", &state, chromedp.ByID),
		chromedp.Value("#carry-brak-wounds", &proposal, chromedp.ByID),
		chromedp.Text(`#carry-brak td[data-label="Sheet now"]`, &now, chromedp.ByQuery))
	if state != "to decide" || now != "0" || proposal != strconv.Itoa(tb.wounds) {
		t.Fatalf("carry-over page: state %q, sheet %q, proposal %q (wounds %d)", state, now, proposal, tb.wounds)
	}
	// The GM edits the wounds (a quick bandage) and confirms.
	steps(t, gm, setValue("carry-brak-wounds", strconv.Itoa(edited)),
		chromedp.Click("#carry-brak-confirm", chromedp.ByID),
		chromedp.Click("#carry-save", chromedp.ByID),
		chromedp.WaitVisible("#flash-notice", chromedp.ByID))
	var notice string
	steps(t, gm, chromedp.Text("#flash-notice", &notice, chromedp.ByID), chromedp.Text("#carry-brak-state", &state, chromedp.ByID))
	if !strings.Contains(notice, "Brak carried over (revision 2)") || state != "carried over" {
		t.Fatalf("after saving: notice %q, state %q", notice, state)
	}
	// Saving again changes nothing.
	steps(t, gm, chromedp.Evaluate(`document.getElementById('flash-notice').remove()`, nil),
		chromedp.Click("#carry-save", chromedp.ByID), chromedp.WaitVisible("#flash-notice", chromedp.ByID),
		chromedp.Text("#flash-notice", &notice, chromedp.ByID))
	if !strings.Contains(notice, "Brak unchanged") {
		t.Fatalf("saving again: %q", notice)
	}

	// The player finds Brak on the campaign page and sees the new values.
	steps(t, player, chromedp.Navigate(srv.URL+"/campaigns/"+tb.campaign), chromedp.WaitVisible("#pcs-brak-page", chromedp.ByID),
		chromedp.Click("#pcs-brak-page", chromedp.ByID), chromedp.WaitVisible("#character", chromedp.ByID))
	var wounds, rev, history string
	steps(t, player, chromedp.Text("#cond-wounds", &wounds, chromedp.ByID),
		chromedp.Text("#character-revision", &rev, chromedp.ByID),
		chromedp.Text("#rev-2", &history, chromedp.ByID))
	if wounds != strconv.Itoa(edited) || rev != "Revision 2" {
		t.Fatalf("Brak's page: wounds %q, %q", wounds, rev)
	}
	for _, want := range []string{"Carried over from", "The bridge", "by " + tb.gm.Name, fmt.Sprintf("Wounds 0 → %d", edited)} {
		if !strings.Contains(history, want) {
			t.Fatalf("revision 2 reads %q, lacking %q", history, want)
		}
	}
	// The player has no carry-over page.
	if p := srv.get(tb.player, "/encounters/"+tb.enc+"/carry-over"); p.code != http.StatusForbidden {
		t.Fatalf("the player's carry-over page: %d", p.code)
	}
}
