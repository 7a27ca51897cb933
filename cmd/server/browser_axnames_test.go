package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/testdb"
)

// named reports whether tr has a node of role whose name satisfies ok.
func (tr axTree) named(role string, ok func(name string) bool) bool {
	return slices.ContainsFunc(tr.nodes, func(n *accessibility.Node) bool {
		return !n.Ignored && axString(n.Role) == role && ok(axString(n.Name))
	})
}

// TestBrowserBoardNamed reads the player's encounter page of every
// ruleset through Chromium's accessibility tree during a fight and checks
// one by one, against the player's view from the server, that each thing
// on the table has a role and a name that says what it is: every token
// drawn (an image named by its combatant), each zone (a list item named
// by the zone and who is in it), each occupied square of a grid (a list item
// naming the square and who stands there), each engaged pair (a list item
// naming both and their distance), each gap of a ladder (a group naming
// both sides and their distance), each decision put to the player (a
// group named by its question, a button per option), each action (a
// control named by it), each roll card (an article naming who rolled and
// each result), and the board's cursor (the board describes what is under
// it); and no interactive element goes without a name.
func TestBrowserBoardNamed(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "13"})
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	browser := newBrowser(t)
	done := map[string]bool{}
	models := map[string]bool{}
	// The first example of every ruleset, and the first of every board
	// model those do not draw.
	gm, player := srv.signup("names-gm"), srv.signup("names-player")
	modelOf := func(ex prep.Example) string {
		var created struct{ ID string }
		if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
			t.Fatalf("import %s: %d", ex.Name, code)
		}
		srv.call(gm, "POST", "/api/encounters/"+created.ID+"/say", map[string]string{"text": "start encounter"}, nil)
		if b := srv.viewAs(gm, created.ID).Board; b != nil {
			return b.Model
		}
		return ""
	}
	for i, ex := range exs {
		if done[ex.Ruleset] && (models[modelOf(ex)] || modelOf(ex) == "") {
			continue
		}
		done[ex.Ruleset] = true
		t.Run(ex.Name, func(t *testing.T) {
			s := *srv
			s.t = t
			pc := setupPC(t, ex.Data)
			f := newWordsFightAs(t, &s, gm, player, ex.Data, pc, uint64(200+i))
			f.say(f.gm, "start encounter")
			page := tab(t, browser)
			login(t, page, srv.URL, f.player.Name)
			steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+f.id),
				chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())))
			// Play on, the page open, until a roll reaches the player's
			// cards and the table waits on the player.
			carded := false
			for range 40 {
				if f.srv.viewAs(f.gm, f.id).Status == engine.StatusFinished {
					t.Fatal("the fight ended before the page could be read")
				}
				if f.gmPlays(1) {
					steps(t, page, holdCards)
					var n int
					caughtUp(t, page, f.srv.viewAs(f.player, f.id).Seq)
					steps(t, page, chromedp.Evaluate(`document.querySelectorAll('#cards .card').length`, &n))
					if carded = n > 0; carded {
						break
					}
					pv := f.srv.viewAs(f.player, f.id)
					if text := f.turnSentence(pv, false); text != "" {
						f.say(f.player, text)
					}
				}
			}
			if !carded {
				t.Fatal("no roll reached the player's cards")
			}
			pv := f.srv.viewAs(f.player, f.id)
			caughtUp(t, page, pv.Seq)
			steps(t, page, holdCards)
			f.checkNames(page, pv)
			models[pv.Board.Model] = true
			t.Logf("%s: a %s board read", ex.Name, pv.Board.Model)
		})
	}
	for _, rs := range rules.Registry().All() {
		if !done[rs.ID()] {
			t.Errorf("no page of %s was read", rs.ID())
		}
	}
	for _, m := range []string{board.Zones, board.Grid, board.Pairs, board.Ladder} {
		if !models[m] {
			t.Errorf("no board of the %s model was read", m)
		}
	}
}

// checkNames reads page's accessibility tree against the player's view v.
func (f *wordsFight) checkNames(page context.Context, v engine.View) {
	t := f.t
	t.Helper()
	// The actions past "More…" are read with it open, as a person opens it.
	steps(t, page, chromedp.Evaluate(`document.querySelectorAll('#actions details.more').forEach(d => { d.open = true })`, nil))
	tr := readAXTree(t, page)
	if bad := tr.unnamed(); len(bad) > 0 {
		t.Errorf("interactive elements without a name: %v", bad)
	}
	starts := func(prefix string) func(string) bool {
		return func(name string) bool { return strings.HasPrefix(name, prefix) }
	}
	has := func(part string) func(string) bool {
		return func(name string) bool { return strings.Contains(name, part) }
	}
	b := v.Board
	if b == nil {
		t.Fatal("the player's view has no board")
	}
	names := map[string]string{}
	for _, tok := range b.Tokens {
		names[tok.ID] = tok.Name
	}
	onBoard := map[string]bool{} // named by their zone or square
	switch b.Model {
	case board.Zones:
		for _, a := range b.Zones.Areas {
			if !tr.named("listitem", starts("Zone "+a.Name)) {
				t.Errorf("zone %s is not a list item named for it", a.Name)
			}
		}
		for _, p := range b.Zones.Places {
			if a := slices.IndexFunc(b.Zones.Areas, func(a board.Area) bool { return a.ID == p.Area }); a >= 0 && names[p.Token] != "" {
				onBoard[p.Token] = true
				zone := "Zone " + b.Zones.Areas[a].Name
				if !tr.named("listitem", func(n string) bool { return strings.HasPrefix(n, zone) && strings.Contains(n, names[p.Token]) }) {
					t.Errorf("zone %s does not name %s, who is in it", b.Zones.Areas[a].Name, names[p.Token])
				}
			}
		}
	case board.Grid:
		for _, p := range b.Grid.Places {
			if p.Off || names[p.Token] == "" {
				continue
			}
			onBoard[p.Token] = true
			sq := "Square " + board.SquareName(p.X, p.Y) + ":"
			if !tr.named("listitem", func(n string) bool { return strings.HasPrefix(n, sq) && strings.Contains(n, names[p.Token]) }) {
				t.Errorf("no square named %q holds %s", sq, names[p.Token])
			}
		}
	case board.Pairs:
		for _, e := range b.Pairs.Engagements {
			want := names[e.A] + " and " + names[e.B] + ": " + e.Distance
			if !tr.named("listitem", starts(want)) {
				t.Errorf("no engaged pair named %q", want)
			}
		}
	case board.Ladder:
		for _, g := range b.Ladder.Gaps {
			want := " are at " + b.Ladder.Rungs[g.Rung].Name
			if !tr.named("group", has(want)) {
				t.Errorf("no gap between %s and %s named %q", g.A, g.B, want)
			}
		}
	}
	// Every token drawn is an image named by its combatant; a zone's entry
	// or a grid's square names those the drawing holds (it scrolls, so it
	// is for the eye).
	for _, tok := range b.Tokens {
		if onBoard[tok.ID] {
			continue
		}
		if !tr.named("image", starts(tok.Name)) {
			t.Errorf("token %s is not an image named for it", tok.Name)
		}
	}
	for _, d := range v.Pending {
		if !tr.named("group", has(d.Prompt)) {
			t.Errorf("decision %q is not a group named by its question", d.Prompt)
		}
		for _, o := range d.Options {
			if !tr.named("button", has(o.Label)) {
				t.Errorf("option %q of %q has no button", o.Label, d.Prompt)
			}
		}
	}
	for _, a := range v.Actions {
		if !slices.ContainsFunc(tr.nodes, func(n *accessibility.Node) bool {
			return !n.Ignored && interactive[axString(n.Role)] && strings.Contains(axString(n.Name), a.Label)
		}) {
			t.Errorf("action %q has no control named for it", a.Label)

		}
	}
	// Each roll card names who rolled and each result.
	var cards []struct {
		Seq  int64
		Name string
	}
	steps(t, page, chromedp.Evaluate(`[...document.querySelectorAll('#cards .card')].map(c => ({seq: Number(c.dataset.seq), name: c.getAttribute('aria-label') || ''}))`, &cards))
	var log struct{ Events []engine.Event }
	f.srv.call(f.player, "GET", "/api/encounters/"+f.id+"/events?since=0", nil, &log)
	if len(cards) == 0 {
		t.Error("no roll card to read")
	}
	for _, c := range cards {
		i := slices.IndexFunc(log.Events, func(ev engine.Event) bool { return ev.Seq == c.Seq })
		if i < 0 {
			t.Errorf("card %d is no event of the player's log", c.Seq)
			continue
		}
		if !tr.named("article", func(n string) bool { return n == c.Name }) || c.Name == "" {
			t.Errorf("card %d is not an article named %q", c.Seq, c.Name)
		}
		ev := log.Events[i]
		if who := names[ev.Actor]; who != "" && !strings.Contains(c.Name, who) {
			t.Errorf("card %d, %q, does not name %s, who rolled", c.Seq, c.Name, who)
		}
		for _, ev := range log.Events[i:] {
			if ev.Command != log.Events[i].Command || ev.Command == "" && ev.Seq != c.Seq {
				break
			}
			for _, r := range ev.Rolls {
				if !r.IsPick() && !strings.Contains(c.Name, fmt.Sprint(r.Total)) {
					t.Errorf("card %d, %q, does not say the result %d of %s", c.Seq, c.Name, r.Total, r.Label)
				}
			}
		}
	}
	// The board's cursor: the arrow keys walk the board, which describes
	// what is under the cursor.
	if b.Model == board.Zones || b.Model == board.Grid || b.Model == board.Pairs || b.Model == board.Ladder {
		steps(t, page, chromedp.Focus("#board-view", chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight),
			chromedp.Poll(`document.getElementById('board-cursor').textContent !== ''`, nil, chromedp.WithPollingTimeout(patience.Hang())))
		tr := readAXTree(t, page)
		if !slices.ContainsFunc(tr.nodes, func(n *accessibility.Node) bool {
			return axString(n.Role) == "application" && axString(n.Name) != "" && axString(n.Description) != ""
		}) {
			t.Error("the board's cursor is not described")
		}
	}
}
