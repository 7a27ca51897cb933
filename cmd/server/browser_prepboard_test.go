package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/testdb"
)

// rulesetFor is a ruleset a GM can draft encounters of (it has a stat
// schema, as the campaign page's list asks) whose board editor offers
// position model m (its default model first), read from the registry;
// switch is true when the draft must be switched to m.
func rulesetFor(t *testing.T, m string) (engine.Ruleset, bool) {
	t.Helper()
	var drafted []engine.Ruleset
	for _, rs := range rules.Registry().All() {
		if _, ok := rs.(sheet.Schemaer); ok {
			drafted = append(drafted, rs)
		}
	}
	for _, rs := range drafted {
		if e, ok := prep.EditorOf(rs); ok && e.Model == m {
			return rs, false
		}
	}
	for _, rs := range drafted {
		if e, ok := prep.EditorOf(rs); ok && slices.ContainsFunc(e.Models, func(o board.Option) bool { return o.Value == m }) {
			return rs, true
		}
	}
	t.Fatalf("no ruleset draws a %s board", m)
	return nil, false
}

// twoFoes are two combatants of different sides of one of rs's example
// encounters, as bestiary entries.
func twoFoes(t *testing.T, rs string) []map[string]any {
	t.Helper()
	all, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range all {
		if ex.Ruleset != rs {
			continue
		}
		var s engine.Setup
		if err := json.Unmarshal(ex.Data, &s); err != nil {
			t.Fatal(err)
		}
		for _, b := range s.Combatants[1:] {
			if b.Side != s.Combatants[0].Side {
				a := s.Combatants[0]
				return []map[string]any{{"id": "ally", "name": "Ally " + a.Name, "ruleset": rs, "stats": a.Stats},
					{"id": "foe", "name": "Foe " + b.Name, "ruleset": rs, "stats": b.Stats}}
			}
		}
	}
	t.Fatalf("no example of %s has two sides", rs)
	return nil
}

// centre is the middle of the element sel on the screen (scrolled into view).
func centre(t *testing.T, ctx context.Context, sel string) (float64, float64) {
	t.Helper()
	var xy []float64
	steps(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { document.querySelector('#board-preview').scrollIntoView({ block: 'center' }); const e = document.querySelector(%q); const r = e.getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel), &xy))
	return xy[0], xy[1]
}

// square is the middle of grid square x, y of the editor's board on the screen.
func square(t *testing.T, ctx context.Context, x, y int) (float64, float64) {
	t.Helper()
	var xy []float64
	steps(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { document.querySelector('#board-preview').scrollIntoView({ block: 'center' }); const s = document.querySelector('#board-preview .grid-svg');
		const p = s.createSVGPoint(); p.x = %d.5; p.y = %d.5; const q = p.matrixTransform(s.getScreenCTM()); return [q.x, q.y]; })()`, x, y), &xy))
	return xy[0], xy[1]
}

// drag presses the mouse at one point, moves it in steps and lets go at
// another: the pointer events a hand on a mouse or a finger makes.
func drag(x1, y1, x2, y2 float64) chromedp.Action {
	acts := []chromedp.Action{chromedp.MouseEvent(input.MousePressed, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		acts = append(acts, chromedp.MouseEvent(input.MouseMoved, x1+(x2-x1)*f, y1+(y2-y1)*f, chromedp.ButtonLeft, held))
	}
	return chromedp.Tasks(append(acts, chromedp.MouseEvent(input.MouseReleased, x2, y2, chromedp.ButtonLeft, chromedp.ClickCount(1))))
}

// held says the left button is down while the mouse moves.
func held(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams { return p.WithButtons(1) }

func clickAt(x, y float64) chromedp.Action { return chromedp.MouseClickXY(x, y) }

// TestBrowserPrepOnTheBoard: for each position model, the GM builds an
// encounter on the draft editor's board only by drawing, clicking and
// dragging (zones drawn and connected, combatants dragged from the
// bestiary onto zones or squares, terrain painted, an engagement dragged,
// a distance clicked), without the page ever reloading; the encounter is
// created and started, and the player's view holds what was built.
func TestBrowserPrepOnTheBoard(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser, playerUser := srv.signup("gamemaster"), srv.signup("player-one")
	gmAPI := srv.withUser(gmUser)
	var camp struct{ ID string }
	gmAPI.do("POST", "/api/campaigns", map[string]string{"name": "Board prep"}, &camp)
	var inv struct{ URL string }
	gmAPI.do("POST", "/api/campaigns/"+camp.ID+"/invites", nil, &inv)
	if code := srv.withUser(playerUser).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	c := "/campaigns/" + camp.ID
	gm := tab(t, browserSized(t, 1300, 1500))
	login(t, gm, srv.URL, gmUser.Name)

	for _, m := range []string{board.Zones, board.Grid, board.Pairs, board.Ladder} {
		t.Run(m, func(t *testing.T) {
			rs, switchModel := rulesetFor(t, m)
			foes := twoFoes(t, rs.ID())
			for i := range foes {
				foes[i]["id"] = foes[i]["id"].(string) + "-" + m
			}
			file, _ := json.Marshal(foes)
			if r := srv.upload(gmUser, c+"/bestiary/import", file); r.code != 303 {
				t.Fatalf("bestiary: %d %s", r.code, r.body)
			}
			ally, foe := "#add-b-"+foes[0]["id"].(string), "#add-b-"+foes[1]["id"].(string)
			steps(t, gm, chromedp.Navigate(srv.URL+c), chromedp.WaitVisible(`#new-draft-name`, chromedp.ByQuery),
				chromedp.SendKeys(`#new-draft-name`, "On the "+m+" board", chromedp.ByQuery),
				setValue("new-draft-ruleset", rs.ID()),
				submits(`#create-draft`),
				chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery))
			if switchModel {
				steps(t, gm, setValue("board-model", m), chromedp.Click(`#set-model`, chromedp.ByQuery),
					waitJS(fmt.Sprintf(`document.querySelector('#board-preview').dataset.model === %q`, m)))
			}
			// From here on the page must not reload.
			steps(t, gm, chromedp.Evaluate(`window.__marker = 'kept'`, nil))

			sides := func(side string) chromedp.Action {
				return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.getElementById('tray-side'); s.selectedIndex = %s; })()`, side), nil)
			}
			chips := func(n int) chromedp.Action {
				return waitJS(fmt.Sprintf(`document.querySelectorAll('#tray-combatants .chip').length === %d`, n))
			}
			switch m {
			case board.Zones:
				// Two zones drawn as rectangles, named in the side panel.
				for i, name := range []string{"Mail car", "Locomotive"} {
					var box []float64
					// Focus left where the last name was typed: only a drawn
					// rectangle may bring it back to the name.
					steps(t, gm, chromedp.Evaluate(`(() => { document.activeElement && document.activeElement.blur(); document.querySelector('#board-preview').scrollIntoView({ block: 'center' }); const r = (document.querySelector('#board-preview .board-view') || document.querySelector('#board-preview')).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &box))
					x0 := box[0] + box[2]*(0.1+0.5*float64(i))
					steps(t, gm, drag(x0, box[1]+box[3]*0.6, x0+box[2]*0.3, box[1]+box[3]*0.9),
						waitJS(`document.activeElement && document.activeElement.id === 'zone-name'`),
						chromedp.SendKeys(`#zone-name`, name+"\r", chromedp.ByQuery),
						waitJS(fmt.Sprintf(`document.querySelectorAll('#board-preview [data-area]').length === %d`, i+1)),
						// The page stays where the GM is working (an edit does not
						// scroll it to the odds below).
						waitJS(`!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`), settled())
					var top float64
					steps(t, gm, chromedp.Evaluate(`document.getElementById('zone-name').getBoundingClientRect().top`, &top))
					if top < 0 || top > 900 {
						t.Fatalf("after naming zone %d the name's field is at %.0f px, off the screen", i+1, top)
					}
				}
				// Connected by clicking one, then the other.
				x1, y1 := centre(t, gm, `#board-preview [data-area="mail-car"] .zname`)
				x2, y2 := centre(t, gm, `#board-preview [data-area="locomotive"] .zname`)
				steps(t, gm, clickAt(x1, y1), clickAt(x2, y2), waitJS(`document.querySelectorAll('#board-preview .zlinks line').length === 1`))
				// The ally dragged into the mail car, the foe into the locomotive.
				ax, ay := centre(t, gm, ally)
				steps(t, gm, sides("0"), drag(ax, ay, x1, y1), chips(1))
				fx, fy := centre(t, gm, foe)
				steps(t, gm, sides("1"), drag(fx, fy, x2, y2), chips(2))
			case board.Grid:
				ax, ay := centre(t, gm, ally)
				x, y := square(t, gm, 1, 1)
				steps(t, gm, sides("0"), drag(ax, ay, x, y), chips(1))
				fx, fy := centre(t, gm, foe)
				x, y = square(t, gm, 4, 3)
				steps(t, gm, sides("1"), drag(fx, fy, x, y), chips(2))
				// Terrain painted over two squares with the side panel's paint.
				steps(t, gm, chromedp.Evaluate(`(() => { const s = document.querySelector('#cell-form select'); if (s) s.selectedIndex = s.options.length - 1;
					const c = document.querySelector('#cell-form input[type=checkbox]'); if (!s && c) c.checked = true; })()`, nil))
				x1, y1 := square(t, gm, 2, 2)
				x2, y2 := square(t, gm, 3, 2)
				steps(t, gm, drag(x1, y1, x2, y2), waitJS(`document.querySelectorAll('#cell-list li').length === 2`))
				// The ally moved by dragging its token to another square.
				tx, ty := square(t, gm, 1, 1)
				x, y = square(t, gm, 0, 4)
				steps(t, gm, drag(tx, ty, x, y), waitJS(`document.querySelector('#tray-combatants .chip').textContent.includes('A5')`))
			case board.Pairs:
				ax, ay := centre(t, gm, ally)
				bx, by := centre(t, gm, "#board-preview")
				steps(t, gm, sides("0"), drag(ax, ay, bx, by), chips(1))
				fx, fy := centre(t, gm, foe)
				steps(t, gm, sides("1"), drag(fx, fy, bx, by), chips(2))
				// One dragged onto the other: engaged.
				ids := []string{}
				steps(t, gm, chromedp.Evaluate(`[...document.querySelectorAll('#tray-combatants .chip')].map(c => c.dataset.dragToken)`, &ids))
				x1, y1 := centre(t, gm, fmt.Sprintf(`#board-preview .apart [data-token=%q]`, ids[0]))
				x2, y2 := centre(t, gm, fmt.Sprintf(`#board-preview .apart [data-token=%q]`, ids[1]))
				steps(t, gm, drag(x1, y1, x2, y2), waitJS(`document.querySelectorAll('#board-preview .duel').length === 1`))
			case board.Ladder:
				ax, ay := centre(t, gm, ally)
				bx, by := centre(t, gm, "#board-preview")
				steps(t, gm, sides("0"), drag(ax, ay, bx, by), chips(1))
				fx, fy := centre(t, gm, foe)
				steps(t, gm, sides("1"), drag(fx, fy, bx, by), chips(2))
				// The last rung clicked: the sides start that far apart.
				x, y := centre(t, gm, `#board-preview .ladder [data-rung]:last-child`)
				steps(t, gm, clickAt(x, y), waitJS(`document.querySelector('#board-preview .ladder [data-rung]:last-child').className.includes('at')`))
			}
			var marker, status string
			steps(t, gm, chromedp.Evaluate(`window.__marker || ''`, &marker), chromedp.Text(`#draft-status`, &status, chromedp.ByQuery))
			if marker != "kept" {
				t.Fatal("the page reloaded while the board was edited")
			}
			if !strings.Contains(status, "Ready") {
				keepScreenshot(gm, "prepboard-"+m+"-not-ready")
				t.Fatalf("draft status %q", status)
			}
			keepScreenshot(gm, "prepboard-"+m)
			steps(t, gm, chromedp.Click(`#create-encounter`, chromedp.ByQuery), chromedp.WaitVisible("#act-start-go", chromedp.ByID))
			var encURL string
			steps(t, gm, chromedp.Location(&encURL))
			id := encURL[strings.LastIndex(encURL, "/")+1:]
			steps(t, gm, waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
				chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"))
			v := srv.viewAs(playerUser, id)
			raw, _ := json.Marshal(v.Board)
			for _, want := range []string{"Ally ", "Foe "} {
				if !strings.Contains(string(raw), want) && !slices.ContainsFunc(v.Combatants, func(c engine.Combatant) bool { return strings.HasPrefix(c.Name, want) }) {
					t.Fatalf("the player does not see %q: %s", want, raw)
				}
			}
			switch m {
			case board.Zones:
				if !strings.Contains(string(raw), "Mail car") || !strings.Contains(string(raw), "Locomotive") || len(v.Board.Zones.Links) != 1 {
					t.Fatalf("the player's zones: %s", raw)
				}
			case board.Grid:
				if len(v.Board.Grid.Cells) < 2 {
					t.Fatalf("the player's grid has no painted squares: %s", raw)
				}
			case board.Pairs:
				if len(v.Board.Pairs.Engagements) != 1 {
					t.Fatalf("the player's engagements: %s", raw)
				}
			case board.Ladder:
				if g := v.Board.Ladder.Gaps; len(g) != 1 || g[0].Rung != len(v.Board.Ladder.Rungs)-1 {
					t.Fatalf("the player's distances: %s", raw)
				}
			}
		})
	}
}
