package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/patience"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/board/boardtest"
	"github.com/fray-vtt/fray/internal/engine"
)

// newTab opens a tab of the given size.
func newTab(t *testing.T, b context.Context, w, h int64) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b)
	t.Cleanup(cancel)
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func within(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	c, cancel := patience.Context(ctx)
	defer cancel()
	if err := chromedp.Run(c, actions...); err != nil {
		t.Fatal(err)
	}
}

// evaluate is the value of js in ctx's page.
func evaluate[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	var v T
	within(t, ctx, chromedp.Evaluate(js, &v))
	return v
}

func poll(js string) chromedp.Action {
	return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(patience.Hang()))
}

func writeJSON(c *websocket.Conn, m any) {
	b, _ := json.Marshal(m)
	_ = c.Write(context.Background(), websocket.MessageText, b)
}

// checkAxe runs axe-core on the page (chromium.Axe) and fails the test
// for each violation it finds.
func checkAxe(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	var violations []string
	within(t, ctx, chromium.Axe("", &violations))
	for _, v := range violations {
		t.Errorf("%s: axe: %s", what, v)
	}
}

// screenshotDir is where screenshots go: FRAY_SCREENSHOTS when set (the
// README's command; a relative path is from the repository's root, not
// from this package's directory, where tests run), a temporary directory
// otherwise.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("FRAY_SCREENSHOTS"); d != "" {
		if !filepath.IsAbs(d) {
			d = filepath.Join("..", d)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// lastAction is the events of the sample's last action with dice (those
// of its command, as its roll card groups them), as a live update would
// bring them.
func lastAction(s boardtest.Sample) []engine.Event {
	game, _ := SplitTalk(s.Log)
	if groups := cardGroups(game); len(groups) > 0 {
		return groups[len(groups)-1]
	}
	return nil
}

// TestTableScreens draws every position model's sample table mid-fight, at
// desktop (1440×900) and phone (390×844) sizes, with the roll card of its
// last action as it arrives live: the page fits the screen (no sideways
// scrolling), every token is on the board, the card is on screen and off
// the board, axe-core finds no violation, and a screenshot is kept
// (docs/screenshots with FRAY_SCREENSHOTS=docs/screenshots).
func TestTableScreens(t *testing.T) {
	b := chromium.Start(t)
	dir := screenshotDir(t)
	for _, s := range boardtest.All() {
		srv := serveFake(t, EncounterProps{View: s.View, Log: s.Log, WSURL: "/ws?html=1", ActURL: "/act", CampaignID: "c1", CampaignName: "The campaign"}, "dana", nil)
		for _, size := range []struct {
			name string
			w, h int64
		}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
			t.Run(s.Name+"/"+size.name, func(t *testing.T) {
				ctx := newTab(t, b, size.w, size.h)
				within(t, ctx, chromedp.Navigate(srv.URL+"/page"), poll(`document.getElementById('conn').dataset.state === 'live'`))
				conn := <-srv.conns
				act := lastAction(s)
				if len(act) == 0 {
					t.Fatal("the sample has no action with dice")
				}
				fr := fragmentsOf(t, WithActURL(context.Background(), "/act"), s.View, act, false)
				writeJSON(conn, map[string]any{"type": "events", "seq": s.View.Seq, "events": act, "html": fr})
				within(t, ctx, poll(`document.querySelectorAll('#cards .card').length === 1`))
				var card, board struct{ X, Y, W, H float64 }
				box := func(sel string, r any) chromedp.Action {
					return chromedp.Evaluate(`(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, r)
				}
				within(t, ctx, box("#cards-tray", &card), box("#board-view", &board))
				if card.Y < 0 || card.Y+card.H > float64(size.h) || card.W == 0 {
					t.Errorf("the roll card is off the screen: %+v", card)
				}
				if size.name == "desktop" && card.X < board.X+board.W && board.X < card.X+card.W && card.Y < board.Y+board.H && board.Y < card.Y+card.H {
					t.Errorf("the roll card %+v covers the board %+v", card, board)
				}
				if overflow := evaluate[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); overflow > 0 {
					t.Errorf("the page scrolls sideways by %dpx", overflow)
				}
				drawn := evaluate[[]string](t, ctx, `[...new Set([...document.querySelectorAll('#battlefield [data-token]')].map(e => e.dataset.token))]`)
				if len(drawn) != len(s.View.Board.Tokens) {
					t.Errorf("the board shows %d of %d tokens: %v", len(drawn), len(s.View.Board.Tokens), drawn)
				}
				shot := func(name string) {
					var png []byte
					within(t, ctx, chromedp.CaptureScreenshot(&png))
					if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				// The card stays while the pointer rests on it (here, while
				// the pictures are taken and checked).
				within(t, ctx, chromedp.Evaluate(`document.getElementById('cards-tray').dispatchEvent(new Event('pointerenter'))`, nil))
				if size.name == "phone" {
					// A phone opens on the actions; the board is a tab away.
					if s.Name == "zones" {
						shot(s.Name + "-phone-act")
					}
					checkAxe(t, ctx, "the actions")
					within(t, ctx, chromedp.Click("#tab-board", chromedp.ByID), poll(`document.getElementById('encounter').dataset.tab === 'board'`))
				}
				shot(s.Name + "-" + size.name)
				checkAxe(t, ctx, "the board")
			})
		}
	}
}

// draftSamples are encounter editors for every position model, as the
// server builds them from a ruleset's board.Editor and a draft.
func draftSamples() map[string]DraftProps {
	sides := []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}}
	x, y := 2, 3
	rows := []CombatantRow{
		{ID: "ana", Name: "Ana", Side: "heroes", PC: true, Start: board.Start{Zone: "ford", X: &x, Y: &y, Group: "g1", Props: board.Props{"posture": "prone"}}},
		{ID: "orc", Name: "Orc", Side: "foes", Start: board.Start{Zone: "ford"}},
	}
	tokens := []board.Token{{ID: "ana", Name: "Ana", Side: "heroes", PC: true}, {ID: "orc", Name: "Orc", Side: "foes"}}
	starts := map[string]board.Start{"ana": rows[0].Start, "orc": rows[1].Start}
	preview := func(e board.Editor, bf board.Battlefield) engine.View {
		return engine.View{ID: "p", Name: "Draft", Status: engine.StatusSetup, Viewer: engine.GMViewer(), Sides: sides,
			Combatants: []engine.Combatant{{ID: "ana", Name: "Ana", Side: "heroes", PC: true}, {ID: "orc", Name: "Orc", Side: "foes"}},
			Board:      board.Preview(e, bf, tokens, starts)}
	}
	cover := []board.Field{{Name: "cover", Label: "Cover", Type: board.FieldSelect, Options: []board.Option{{Value: "", Label: "None"}, {Value: "light", Label: "Light"}}},
		{Name: "coverArmor", Label: "Cover Armour", Type: board.FieldInt, Min: 0, Max: 30}}
	zones := board.Editor{Model: board.Zones, Area: cover}
	zbf := board.Battlefield{Zones: []board.ZoneSetup{{ID: "ford", Name: "Ford", Adjacent: []string{"road"}, Props: board.Props{"cover": "light"}}, {ID: "road", Name: "Road"}}}
	grid := board.Editor{Model: board.Grid, Scale: "5 ft", MaxWidth: 30, MaxHeight: 30,
		Area:  []board.Field{{Name: "difficult", Label: "Difficult terrain", Type: board.FieldBool}},
		Start: []board.Field{{Name: "posture", Label: "Posture", Type: board.FieldSelect, Options: []board.Option{{Value: "standing", Label: "Standing"}, {Value: "prone", Label: "Prone"}}}}}
	gbf := board.Battlefield{Width: 8, Height: 6, Cells: []board.CellSetup{{X: 1, Y: 1, Props: board.Props{"difficult": true}}}}
	pairs := board.Editor{Model: board.Pairs, Distances: []string{"Striking", "Grappling"}}
	pbf := board.Battlefield{Pairs: []board.PairSetup{{A: "ana", B: "orc", Distance: "Grappling"}}}
	ladder := board.Editor{Model: board.Ladder, Models: []board.Option{{Value: board.Grid, Label: "2 m grid"}, {Value: board.Ladder, Label: "Distance categories"}},
		Distances: []string{"Close", "Short", "Medium", "Long", "Extreme"}}
	lbf := board.Battlefield{Model: board.Ladder, Distances: []board.DistanceSetup{{A: "heroes", B: "foes", Rung: "Medium"}}}
	base := DraftProps{ID: "d1", CampaignID: "c1", Name: "Draft", RulesetTitle: "A ruleset", Sides: sides, Combatants: rows,
		Bestiary: []engine.Choice{{Value: "goblin", Label: "Goblin"}}, Characters: []engine.Choice{{Value: "ana", Label: "Ana"}}}
	with := func(b DraftBoard) DraftProps {
		p := base
		p.Board = &b
		return p
	}
	return map[string]DraftProps{
		"zones": with(DraftBoard{Editor: zones, Model: board.Zones, Preview: preview(zones, zbf),
			Zones: []ZoneRow{{ID: "ford", Name: "Ford", Props: board.Props{"cover": "light"}, Features: []string{"Cover: Light"}, Adjacent: []engine.Choice{{Value: "road", Label: "Road"}}},
				{ID: "road", Name: "Road", Adjacent: []engine.Choice{{Value: "ford", Label: "Ford"}}}}}),
		"grid": with(DraftBoard{Editor: grid, Model: board.Grid, Width: 8, Height: 6, Preview: preview(grid, gbf),
			Cells: []CellRow{{X: 1, Y: 1, Name: "B2", Features: []string{"Difficult terrain"}}}}),
		"pairs": with(DraftBoard{Editor: pairs, Model: board.Pairs, Preview: preview(pairs, pbf),
			Pairs: []PairRow{{Index: 0, A: "ana", B: "orc", Distance: "Grappling"}}}),
		"ladder": with(DraftBoard{Editor: ladder, Model: board.Ladder, Preview: preview(ladder, lbf),
			Distances: []DistanceRow{{A: "heroes", B: "foes", AName: "Heroes", BName: "Foes", Rung: "Medium"}}}),
	}
}

// TestDraftEditors draws the encounter editor of every position model:
// the model's own controls are there, axe-core finds no violation, and a
// screenshot is kept with the table's.
func TestDraftEditors(t *testing.T) {
	b := chromium.Start(t)
	dir := screenshotDir(t)
	want := map[string][]string{
		"zones":  {"zone-name", "zone-cover", "zone-x", "connect", "cb-ana-zone"},
		"grid":   {"grid-width", "cell-square", "cell-difficult", "cb-ana-square", "cb-ana-group", "cb-ana-p-posture"},
		"pairs":  {"pair-a", "pair-distance"},
		"ladder": {"board-model", "dist-0"},
	}
	for name, p := range draftSamples() {
		doc := parseHTML(t, renderString(t, Draft(p)))
		for _, id := range want[name] {
			if byID(doc, id) == nil {
				t.Errorf("%s editor has no #%s", name, id)
			}
		}
		srv := serveFake(t, EncounterProps{}, "", func(mux *http.ServeMux) {
			mux.HandleFunc("/draft", func(w http.ResponseWriter, r *http.Request) { _ = Draft(p).Render(WithUser(r.Context(), "dana"), w) })
		})
		ctx := newTab(t, b, 1280, 800)
		within(t, ctx, chromedp.Navigate(srv.URL+"/draft"), chromedp.WaitReady("#draft-board", chromedp.ByID))
		checkAxe(t, ctx, name)
		var png []byte
		within(t, ctx, chromedp.FullScreenshot(&png, 100))
		if err := os.WriteFile(filepath.Join(dir, "prep-"+name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
