package main

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserPickPlaceOnBoard: on a zones board and on a grid, clicking a
// place a move can go to — a zone, a square — fills the move's destination,
// opens the move and marks the place; on a desktop the move is then made
// from there. The place comes from what the server offers (a select field
// marked place), the click lands on the board where the page drew it.
func TestBrowserPickPlaceOnBoard(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "5"})
	gm := srv.signup("place-gm")
	api := srv.withUser(gm)
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	// The first example of each model with places to click, the model
	// read from the view.
	type pick struct{ example, model, id, actor, value string }
	var boards []*pick
	for _, model := range []string{board.Zones, board.Grid} {
		for _, ex := range exs {
			var created struct{ ID string }
			if code := api.do("POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
				t.Fatalf("import %s: %d", ex.Name, code)
			}
			// A field of one place (kit-skirmish) has nowhere to move to.
			if v := srv.viewAs(gm, created.ID); v.Board == nil || v.Board.Model != model ||
				(model == board.Zones && (v.Board.Zones == nil || len(v.Board.Zones.Areas) < 2)) {
				continue
			}
			api.do("POST", "/api/encounters/"+created.ID+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil)
			boards = append(boards, &pick{example: ex.Name, model: model, id: created.ID})
			break
		}
	}
	if len(boards) != 2 {
		t.Fatalf("no example on a zones board and on a grid: %d found", len(boards))
	}

	// choose finds a move to a place for whoever acts, playing on until
	// someone may move somewhere.
	choose := func(b *pick) {
		b.actor, b.value = "", ""
		for step := 0; b.value == "" && step < 20; step++ {
			v := srv.viewAs(gm, b.id)
			for _, a := range v.Actions {
				for _, f := range a.Fields {
					if f.Place && a.Actor == v.Current && len(f.Options) > 0 && b.value == "" {
						b.actor, b.value = a.Actor, f.Options[len(f.Options)-1].Value
					}
				}
			}
			if b.value == "" {
				// Pass with the last action offered that asks for nothing.
				var pass map[string]any
				for _, a := range v.Actions {
					if a.Actor == v.Current && len(a.Fields) == 0 {
						pass = map[string]any{"kind": a.Kind, "actor": a.Actor}
					}
				}
				if pass == nil {
					t.Fatalf("%s: %s can neither move to a place nor pass", b.example, v.Current)
				}
				api.do("POST", "/api/encounters/"+b.id+"/commands", map[string]any{"id": fmt.Sprint("pass-", v.Seq), "command": pass}, nil)
			}
		}
		if b.value == "" {
			t.Fatalf("%s: no one was offered a move to a place", b.example)
		}
	}
	picked := func(value string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('#actions select[data-place]')].some(s => s.value === %q && s.closest('details.act') && s.closest('details.act').open)`, value)
	}
	for _, size := range browserSizes {
		ctx := tab(t, size.b(t))
		login(t, ctx, srv.URL, gm.Name)
		for _, b := range boards {
			choose(b)
			before := srv.viewAs(gm, b.id).Seq
			steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+b.id), waitJS(`document.querySelector('#conn').dataset.state === 'live'`))
			if size.name == "phone" {
				steps(t, ctx, chromedp.Click(`#tabs [data-show="board"]`, chromedp.ByQuery))
			}
			switch b.model {
			case board.Zones:
				steps(t, ctx, chromedp.Click(fmt.Sprintf(`#battlefield [data-area=%q] .zname`, b.value), chromedp.ByQuery),
					waitJS(picked(b.value)),
					waitJS(fmt.Sprintf(`document.querySelector('#battlefield [data-area=%q]').classList.contains('placed')`, b.value)))
			case board.Grid:
				// The square's centre on the screen, once it is in view.
				var at []float64
				steps(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => {
  const svg = document.querySelector('#battlefield svg.grid-svg');
  const [x, y] = %q.split(',').map(Number);
  const probe = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  probe.setAttribute('x', x); probe.setAttribute('y', y); probe.setAttribute('width', 1); probe.setAttribute('height', 1);
  svg.appendChild(probe);
  probe.scrollIntoView({block: 'center', inline: 'center'});
  probe.remove();
  const p = new DOMPoint(x + 0.5, y + 0.5).matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
})()`, b.value), &at))
				steps(t, ctx, chromedp.MouseClickXY(at[0], at[1]), waitJS(picked(b.value)),
					waitJS(fmt.Sprintf(`(() => { const m = document.querySelector('#battlefield rect.place-mark');
  return !!m && m.getAttribute('x') + ',' + m.getAttribute('y') === %q })()`, b.value)))
			}
			keepScreenshot(ctx, "place-"+b.model+"-"+size.name)
			if size.name != "desktop" {
				continue
			}
			// The opened move goes where the board said.
			steps(t, ctx, chromedp.KeyEvent(kb.Enter))
			deadline := patience.Deadline()
			for srv.viewAs(gm, b.id).Seq == before {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the move to %s picked on the board was not made", b.example, b.value)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if v := srv.viewAs(gm, b.id); !standsAt(v, b.actor, b.value) {
				t.Errorf("%s: after the move %s does not stand at %s", b.example, b.actor, b.value)
			}
		}
	}
}

// standsAt reports whether combatant id stands at place on v's board: in
// zone place, or on square place ("x,y").
func standsAt(v engine.View, id, place string) bool {
	if v.Board == nil {
		return false
	}
	var places []board.Placed
	if v.Board.Grid != nil {
		places = v.Board.Grid.Places
	}
	if v.Board.Zones != nil {
		places = v.Board.Zones.Places
	}
	for _, p := range places {
		if p.Token == id && (p.Area == place || fmt.Sprintf("%d,%d", p.X, p.Y) == place && v.Board.Grid != nil) {
			return true
		}
	}
	return false
}
