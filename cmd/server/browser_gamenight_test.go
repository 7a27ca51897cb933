package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// gameNight is a campaign as a group plays it: a GM, a player with
// characters in a zones example (sw-zones, the goblin ford) and a grid
// example (d20-tactical, the rooftop crossfire).
type gameNight struct {
	srv        *testServer
	gm, player *apiUser
	campaign   string
}

func newGameNight(srv *testServer) gameNight {
	srv.t.Helper()
	g := gameNight{srv: srv, gm: srv.signup("night-gm"), player: srv.signup("night-player")}
	var camp struct{ ID string }
	if code := srv.call(g.gm, "POST", "/api/campaigns", map[string]string{"name": "Game night"}, &camp); code != http.StatusCreated {
		srv.t.Fatalf("campaign: %d", code)
	}
	g.campaign = camp.ID
	srv.join(g.gm, g.campaign, g.player, "brak", "lyra", "quinn", "hale")
	return g
}

// encounter adds an example to the campaign and plays it (as the GM, who
// commands everyone) until one of the player's characters acts with an
// action that takes a target. It returns the encounter, that character
// and a target it may take.
func (g gameNight) encounter(example string) (id, actor, target string) {
	t := g.srv.t
	t.Helper()
	ex, err := prep.ExampleNamed(example)
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	if code := g.srv.call(g.gm, "POST", "/api/campaigns/"+g.campaign+"/encounters", ex.Data, &created); code != http.StatusCreated {
		t.Fatalf("import %s: %d", example, code)
	}
	id = created.ID
	if code, e := g.srv.command(g.gm, id, "start", map[string]any{"kind": "start"}); code != http.StatusOK {
		t.Fatalf("start %s: %d %+v", example, code, e)
	}
	for step := 0; step < 40; step++ {
		v := g.srv.viewAs(g.player, id)
		gv := g.srv.viewAs(g.gm, id)
		if len(gv.Pending) > 0 {
			d := gv.Pending[0]
			choice := d.Default
			if choice == "" {
				choice = d.Options[len(d.Options)-1].Value
			}
			g.srv.command(g.gm, id, fmt.Sprint("answer-", step), map[string]any{"kind": "answer", "decision": d.ID, "choice": choice})
			continue
		}
		for _, a := range v.Actions {
			if a.Actor != v.Current || a.Actor == "" {
				continue
			}
			for _, f := range a.Fields {
				if f.Target && len(f.Options) > 0 {
					return id, a.Actor, f.Options[0].Value
				}
			}
		}
		if code, e := g.srv.command(g.gm, id, fmt.Sprint("pass-", step), map[string]any{"kind": "end-turn", "actor": gv.Current}); code != http.StatusOK {
			t.Fatalf("%s: end %s's turn: %d %+v", example, gv.Current, code, e)
		}
	}
	t.Fatalf("%s: none of the player's characters got to target anyone", example)
	return
}

// untilAsked plays on with random advertised commands until a decision
// waits, and reports whether one does.
func (g gameNight) untilAsked(id string) bool {
	rng := rand.New(rand.NewPCG(7, 11))
	for step := 0; step < 80; step++ {
		v := g.srv.viewAs(g.gm, id)
		if len(v.Pending) > 0 {
			return true
		}
		if v.Status != engine.StatusRunning {
			return false
		}
		if cmd := contractPick(rng, v, nil); cmd != nil {
			g.srv.command(g.gm, id, fmt.Sprint("ask-", step), cmd)
		}
	}
	return false
}

// settled waits until the page has nothing animating (a tab sliding in,
// a card fading, a smooth scroll) and has painted twice since: what an
// input changed is then on the screen, without guessing how long it takes.
// An animation that never ends gives up after about two seconds.
func settled() chromedp.Action {
	return chromedp.Evaluate(`new Promise(done => {
  let frames = 0;
  const still = () => !document.getAnimations().some(a => a.playState === 'running');
  const tick = () => (still() || ++frames > 120) ? requestAnimationFrame(() => requestAnimationFrame(() => done(true))) : requestAnimationFrame(tick);
  tick();
})`, nil, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })
}

// rect is a box on the screen, in CSS pixels.
type rect struct{ X, Y, W, H float64 }

func (r rect) area() float64 { return max(r.W, 0) * max(r.H, 0) }

func (r rect) intersect(o rect) rect {
	x0, y0 := max(r.X, o.X), max(r.Y, o.Y)
	x1, y1 := min(r.X+r.W, o.X+o.W), min(r.Y+r.H, o.Y+o.H)
	return rect{x0, y0, max(0, x1-x0), max(0, y1-y0)}
}

func (r rect) grow(d float64) rect { return rect{r.X - d, r.Y - d, r.W + 2*d, r.H + 2*d} }

func (r rect) has(x, y int) bool {
	return float64(x) >= r.X && float64(x) < r.X+r.W && float64(y) >= r.Y && float64(y) < r.Y+r.H
}

// rectOf reads an element's box (zero when it is not there).
func rectOf(t *testing.T, ctx context.Context, sel string) rect {
	t.Helper()
	var r rect
	steps(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return {X: 0, Y: 0, W: 0, H: 0};
  const r = e.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, sel), &r))
	return r
}

// shot is the viewport as an image.
func shot(t *testing.T, ctx context.Context) image.Image {
	t.Helper()
	var b []byte
	steps(t, ctx, chromedp.CaptureScreenshot(&b))
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// changed is the share of the pixels of area (inside the viewport) that
// differ between two screenshots, leaving out the pixels of except.
func changed(a, b image.Image, area, except rect) float64 {
	bounds := a.Bounds()
	var total, diff int
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if !area.has(x, y) || except.has(x, y) {
				continue
			}
			total++
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if absDiff(r1, r2) > 0x1800 || absDiff(g1, g2) > 0x1800 || absDiff(b1, b2) > 0x1800 {
				diff++
			}
		}
	}
	if total == 0 {
		return 1
	}
	return float64(diff) / float64(total)
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// tabletop opens a browser of the given size with animations off (the
// acting token's pulse would otherwise count as a change).
func tabletop(t *testing.T, w, h int64) context.Context {
	t.Helper()
	// (This chromedp does not know the event a dialog's opening sends; it
	// says so, harmlessly, on every ? pressed.)
	ctx, cancel := chromedp.NewContext(browserSized(t, int(w), int(h)), chromedp.WithErrorf(func(format string, a ...any) {
		if msg := fmt.Sprintf(format, a...); !strings.Contains(msg, "TopLayerElementsUpdated") {
			t.Log("chromedp: " + msg)
		}
	}))
	t.Cleanup(cancel)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatal(err)
	}
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			t.Errorf("script error: %s", e.ExceptionDetails.Error())
		}
	})
	steps(t, ctx, chromedp.EmulateViewport(w, h),
		emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}))
	return ctx
}

// cardsJS checks the roll cards on screen: none clipped (each shown card
// inside the window and its tray, or reached by scrolling the tray from
// its headline or the card itself; nothing cut), and measures the tray.
const cardsJS = `(() => {
  const tray = document.getElementById('cards-tray');
  const cards = [...document.querySelectorAll('#cards .card')].filter(c => getComputedStyle(c).display !== 'none');
  const t = tray.getBoundingClientRect();
  // What scrolls is reached, not cut: a card longer than its tray starts
  // at the tray's top (its headline first) in a tray that scrolls; one
  // longer than a phone's toast scrolls inside itself.
  const scrolls = e => /(auto|scroll)/.test(getComputedStyle(e).overflowY);
  const clipped = cards.filter(c => { const r = c.getBoundingClientRect();
    const below = r.bottom > Math.min(innerHeight, t.bottom) + 1;
    return r.top < Math.max(0, t.top) - 1 || (below && !(scrolls(tray) && r.top <= t.top + 1)) || r.left < -1 || r.right > innerWidth + 1 ||
      (c.scrollHeight > c.clientHeight + 1 && !scrolls(c)); }).map(c => { const r = c.getBoundingClientRect();
    return c.id + ' [' + c.className + '] top ' + r.top.toFixed(1) + ' bottom ' + r.bottom.toFixed(1) + ' scroll ' + c.scrollHeight + '/' + c.clientHeight +
      ' in tray ' + t.top.toFixed(1) + '–' + t.bottom.toFixed(1) + ' scrolled ' + tray.scrollTop + '/' + tray.scrollHeight + '/' + tray.clientHeight; });
  const tabs = [...document.querySelectorAll('#tabs [data-show]')].filter(b => b.offsetParent).map(b => {
    const r = b.getBoundingClientRect(); const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!at && b.contains(at); });
  return {Shown: cards.length, Clipped: clipped, Tray: {X: t.x, Y: t.y, W: t.width, H: t.height}, TabsFree: tabs};
})()`

type cardsState struct {
	Shown    int
	Clipped  []string
	Tray     rect
	TabsFree []bool
}

// TestTableGameNight plays a turn the way a group does on a game night,
// on a zones example and a grid example, at a desktop's 1440×900 and a
// phone's 390×844, with the GM and the player each in a browser of their
// own, and measures the table:
//   - picking a target changes under 3 % of the board's pixels outside the
//     token picked (no block painted over the board, nothing moves);
//   - after the attack, the roll cards cover none of the board on a
//     desktop and at most a quarter of a phone's screen, the phone's tabs
//     still take a tap, and no card is cut off;
//   - on a desktop the page never scrolls: its scroll height is the
//     window's with the menus, an action's form and a decision open;
//   - on a phone the smallest token is at least 24 px and the header (the
//     name, the status) takes at most a fifth of the height.
func TestTableGameNight(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "5"})
	night := newGameNight(srv)
	sizes := []struct {
		name  string
		w, h  int64
		phone bool
	}{{"desktop", 1440, 900, false}, {"phone", 390, 844, true}}
	boards := []struct{ name, example string }{{"zones", "sw-zones-goblin-ford"}, {"grid", "d20-tactical-rooftop-crossfire"}}
	decisionSeen := false
	for _, size := range sizes {
		gm, player := tabletop(t, size.w, size.h), tabletop(t, size.w, size.h)
		login(t, gm, srv.URL, night.gm.Name)
		login(t, player, srv.URL, night.player.Name)
		people := []struct {
			name string
			ctx  context.Context
		}{{"GM", gm}, {"player", player}}
		for _, b := range boards {
			id, actor, target := night.encounter(b.example)
			t.Logf("%s/%s: %s targets %s", b.name, size.name, actor, target)
			name := b.name + "/" + size.name
			live := waitJS(`document.querySelector('#conn').dataset.state === 'live'`)
			fits := func(who string, ctx context.Context, when string) {
				t.Helper()
				if size.phone {
					return
				}
				var sh, ih int
				steps(t, ctx, chromedp.Evaluate(`document.documentElement.scrollHeight`, &sh), chromedp.Evaluate(`innerHeight`, &ih))
				if sh != ih {
					t.Errorf("%s, %s %s: the page is %d px tall in a %d px window", name, who, when, sh, ih)
				}
				t.Logf("%s, %s %s: scroll height %d, window %d", name, who, when, sh, ih)
			}
			for _, p := range people {
				steps(t, p.ctx, chromedp.Navigate(srv.URL+"/encounters/"+id), live)
				fits(p.name, p.ctx, "on arrival")
				if size.phone {
					steps(t, p.ctx, chromedp.Click("#tab-board", chromedp.ByID), waitJS(`document.getElementById('encounter').dataset.tab === 'board'`))
					var smallest float64
					steps(t, p.ctx, chromedp.Evaluate(`Math.min(...[...document.querySelectorAll('#board-view .tok .disc')].map(d => {
  const r = d.getBoundingClientRect(); return Math.min(r.width, r.height); }))`, &smallest))
					if smallest < 24 {
						t.Errorf("%s, %s: the smallest token is %.1f px", name, p.name, smallest)
					}
					head := rectOf(t, p.ctx, "#status")
					if share := (head.Y + head.H) / float64(size.h); share > 0.20 {
						t.Errorf("%s, %s: the header takes %.0f %% of the height", name, p.name, share*100)
					} else {
						t.Logf("%s, %s: smallest token %.1f px, header %.1f %% of the height", name, p.name, smallest, share*100)
					}
				}
				// Pick the target on the board, where it is drawn.
				tok := fmt.Sprintf(`#board-view [data-token=%q]`, target)
				steps(t, p.ctx, chromedp.Evaluate(`document.querySelector('`+tok+`').scrollIntoView({block: 'center', inline: 'center'})`, nil),
					settled())
				board, token := rectOf(t, p.ctx, "#board-view"), rectOf(t, p.ctx, tok)
				before := shot(t, p.ctx)
				steps(t, p.ctx, chromedp.MouseClickXY(token.X+token.W/2, token.Y+token.H/2),
					waitJS(fmt.Sprintf(`[...document.querySelectorAll('#actions details.act[open] select[data-target]')].some(s => s.value === %q)`, target)))
				fits(p.name, p.ctx, "with the attack's form open")
				if size.phone {
					steps(t, p.ctx, chromedp.Click("#tab-board", chromedp.ByID), waitJS(`document.getElementById('encounter').dataset.tab === 'board'`),
						settled())
				}
				after := shot(t, p.ctx)
				view := rect{0, 0, float64(size.w), float64(size.h)}
				share := changed(before, after, board.intersect(view), token.grow(8))
				if dir := screenshotDir(); dir != "" {
					for name, img := range map[string]image.Image{"before": before, "after": after} {
						var buf bytes.Buffer
						_ = png.Encode(&buf, img)
						_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("gamenight-%s-%s-%s-target-%s.png", b.name, size.name, p.name, name)), buf.Bytes(), 0o644)
					}
				}
				if share >= 0.03 {
					t.Errorf("%s, %s: picking a target changed %.1f %% of the board outside the token", name, p.name, share*100)
				}
				t.Logf("%s, %s: targeting changed %.2f %% of the board's pixels outside the token", name, p.name, share*100)
				var line string
				steps(t, p.ctx, chromedp.Evaluate(`document.getElementById('target-line').textContent.replace(/\s+/g, ' ')`, &line))
				if !strings.Contains(line, "Target:") || strings.Contains(line, "Not a legal target") {
					t.Errorf("%s, %s: the target line says %q", name, p.name, line)
				}
				// A second click keeps the target: picking is on purpose only.
				steps(t, p.ctx, chromedp.Evaluate(`document.querySelector('`+tok+`').scrollIntoView({block: 'center', inline: 'center'})`, nil))
				token = rectOf(t, p.ctx, tok)
				steps(t, p.ctx, chromedp.MouseClickXY(token.X+token.W/2, token.Y+token.H/2), settled())
				var still bool
				steps(t, p.ctx, chromedp.Evaluate(`document.querySelector('`+tok+`').classList.contains('selected') && !document.getElementById('target-line').hidden`, &still))
				if !still {
					t.Errorf("%s, %s: a second click on the target dropped it", name, p.name)
				}
				if size.phone {
					steps(t, p.ctx, chromedp.Click("#tab-board", chromedp.ByID))
				}
				// A token the open action cannot take is not made its target
				// in silence: the line says so and why; the form keeps its own.
				if !size.phone {
					var other string
					steps(t, p.ctx, chromedp.Evaluate(`(() => { const d = [...document.querySelectorAll('#actions details.act[open]')].find(d => d.querySelector('select[data-target]'));
  const offered = new Set([...d.querySelector('select[data-target]').options].map(o => o.value));
  const t = [...document.querySelectorAll('#board-view [data-token]')].map(e => e.dataset.token).find(id => !offered.has(id));
  return t || ''; })()`, &other))
					if other != "" {
						otherTok := fmt.Sprintf(`#board-view [data-token=%q]`, other)
						steps(t, p.ctx, chromedp.Evaluate(`document.querySelector('`+otherTok+`').scrollIntoView({block: 'center', inline: 'center'})`, nil))
						o := rectOf(t, p.ctx, otherTok)
						// The rules' own reason arrives (GET …/why): "Not a legal
						// target for Attack: Rat is on your side. …".
						steps(t, p.ctx, chromedp.MouseClickXY(o.X+o.W/2, o.Y+o.H/2), settled(),
							waitJS(`!!document.querySelector('#target-line .target-why[data-reason]')`))
						var why, reason string
						var kept bool
						steps(t, p.ctx, chromedp.Evaluate(`document.getElementById('target-line').textContent.replace(/\s+/g, ' ')`, &why),
							chromedp.Evaluate(`document.querySelector('#target-line .target-why').dataset.reason`, &reason),
							chromedp.Evaluate(fmt.Sprintf(`[...document.querySelectorAll('#actions details.act[open] select[data-target]')].some(s => s.value === %q)`, target), &kept))
						if !strings.Contains(why, "Not a legal target") || !strings.Contains(why, "can target") || reason == "" || !strings.Contains(why, reason) || strings.Contains(why, "squares across") || !kept {
							t.Errorf("%s, %s: picking %s, which the attack cannot take, says %q (form kept its target: %v)", name, p.name, other, why, kept)
						}
						t.Logf("%s, %s: picking %s says %q", name, p.name, other, why)
						// Back to the real target for the attack.
						steps(t, p.ctx, chromedp.Evaluate(`document.querySelector('`+tok+`').scrollIntoView({block: 'center', inline: 'center'})`, nil))
						token = rectOf(t, p.ctx, tok)
						steps(t, p.ctx, chromedp.MouseClickXY(token.X+token.W/2, token.Y+token.H/2),
							waitJS(fmt.Sprintf(`[...document.querySelectorAll('#actions details.act[open] select[data-target]')].some(s => s.value === %q)`, target)))
					}
				}
			}

			// The player attacks; both see the card.
			if size.phone {
				steps(t, player, chromedp.Click("#tab-act", chromedp.ByID))
			}
			for _, p := range people {
				steps(t, p.ctx, holdCards)
			}
			var goID string
			steps(t, player, chromedp.Evaluate(`(() => { const d = [...document.querySelectorAll('#actions details.act[open]')].find(d => d.querySelector('select[data-target]'));
  return d ? d.querySelector('button[type="submit"]').id : ''; })()`, &goID))
			if goID == "" {
				t.Fatalf("%s: no open action takes the target", name)
			}
			steps(t, player, chromedp.Click("#"+goID, chromedp.ByID))
			// A ruling the attack waits on (the GM's word on cover) is given
			// as the GM would: the default.
			for deadline := patience.Deadline(); ; {
				var n int
				steps(t, player, chromedp.Evaluate(`document.querySelectorAll('#cards .card.mine').length`, &n))
				if n > 0 {
					break
				}
				if time.Now().After(deadline) {
					keepScreenshot(player, "gamenight-"+b.name+"-"+size.name+"-nocard")
					t.Fatalf("%s: the attack showed no roll card", name)
				}
				if v := srv.viewAs(night.gm, id); len(v.Pending) > 0 {
					d := v.Pending[0]
					choice := d.Default
					if choice == "" {
						choice = d.Options[0].Value
					}
					srv.command(night.gm, id, "rule-"+d.ID, map[string]any{"kind": "answer", "decision": d.ID, "choice": choice})
				}
				time.Sleep(100 * time.Millisecond)
			}
			var cardID string
			steps(t, player, chromedp.Evaluate(`document.querySelector('#cards .card.mine').id`, &cardID))
			steps(t, gm, waitJS(fmt.Sprintf(`!!document.getElementById(%q)`, cardID)))
			for _, p := range people {
				tabsToCheck := []string{""}
				if size.phone {
					tabsToCheck = []string{"act", "board"}
				}
				for _, tb := range tabsToCheck {
					if tb != "" {
						steps(t, p.ctx, chromedp.Click("#tab-"+tb, chromedp.ByID),
							waitJS(fmt.Sprintf(`document.getElementById('encounter').dataset.tab === %q`, tb)), settled())
					}
					var cs cardsState
					steps(t, p.ctx, chromedp.Evaluate(cardsJS, &cs))
					where := name + ", " + p.name + " " + tb
					if cs.Shown == 0 {
						t.Errorf("%s: no roll card on screen", where)
					}
					if len(cs.Clipped) > 0 {
						t.Errorf("%s: cards cut off: %v", where, cs.Clipped)
					}
					keepScreenshot(p.ctx, "gamenight-"+b.name+"-"+size.name+"-"+p.name+"-card"+tb)
					if size.phone {
						share := cs.Tray.area() / float64(size.w*size.h)
						if share > 0.25 {
							t.Errorf("%s: the roll cards cover %.0f %% of the screen", where, share*100)
						}
						for i, free := range cs.TabsFree {
							if !free {
								t.Errorf("%s: tab %d cannot be tapped", where, i)
							}
						}
						t.Logf("%s: cards cover %.1f %% of the screen, tabs free %v", where, share*100, cs.TabsFree)
					} else {
						board, act := rectOf(t, p.ctx, "#board-view"), rectOf(t, p.ctx, "#pane-act")
						covered := cs.Tray.intersect(board).area() / board.area()
						if covered > 0 || cs.Tray.intersect(act).area() > 0 {
							t.Errorf("%s: the roll cards cover %.1f %% of the board (and %.0f px² of the action bar)", where, covered*100, cs.Tray.intersect(act).area())
						}
						t.Logf("%s: cards cover %.1f %% of the board", where, covered*100)
						fits(p.name, p.ctx, "with a roll card")
						// The log beside the card keeps room for a few entries.
						if h := rectOf(t, p.ctx, "#pane-log").H; h < 160 {
							t.Errorf("%s: the log is %.0f px tall beside the roll card", where, h)
						}
						// ... and still shows its newest entry: the card that
						// squeezed it did not leave it scrolled part-way.
						var gap float64
						steps(t, p.ctx, chromedp.Evaluate(`(() => { const l = document.getElementById('log'); return l.scrollHeight - l.scrollTop - l.clientHeight; })()`, &gap))
						if gap > 2 {
							t.Errorf("%s: the log's newest entry is %.0f px below its pane beside the roll card", where, gap)
						}
						// In a shorter window the tray shrinks and its card is
						// trimmed to fit it, not cut off.
						steps(t, p.ctx, chromedp.EmulateViewport(size.w, 640))
						var short cardsState
						for deadline := patience.Deadline(); ; time.Sleep(50 * time.Millisecond) {
							steps(t, p.ctx, chromedp.Evaluate(cardsJS, &short))
							if len(short.Clipped) == 0 || time.Now().After(deadline) {
								break
							}
						}
						if len(short.Clipped) > 0 {
							keepScreenshot(p.ctx, "gamenight-"+b.name+"-"+size.name+"-"+p.name+"-short-clipped")
							t.Errorf("%s: in a 640 px tall window, cards cut off: %v", where, short.Clipped)
						}
						steps(t, p.ctx, chromedp.EmulateViewport(size.w, size.h), settled())
					}
				}
			}
			// A phone's log opens at its newest entry.
			if size.phone {
				var gap float64
				steps(t, player, chromedp.Click("#tab-log", chromedp.ByID), settled(),
					chromedp.Evaluate(`(() => { const l = document.getElementById('log'); return l.scrollHeight - l.scrollTop - l.clientHeight; })()`, &gap))
				if gap > 30 {
					t.Errorf("%s: the phone's log opens %.0f px above its newest entry", name, gap)
				}
				steps(t, player, chromedp.Click("#tab-act", chromedp.ByID))
			}
			// Your own card settles into the log by itself.
			for _, p := range people {
				steps(t, p.ctx, releaseCards)
			}
			steps(t, player, chromedp.Poll(fmt.Sprintf(`!document.getElementById(%q)`, cardID), nil, chromedp.WithPollingTimeout(patience.Hang())))

			if size.phone {
				continue
			}
			// Menus, forms and a decision open: the desktop page still fits.
			if b.name == "zones" {
				if !night.untilAsked(id) {
					t.Fatalf("%s: no decision came up to check the page with", name)
				}
				// The question is asked of whoever answers it: the player
				// for their character, the GM for the others.
				asked := false
				for deadline := patience.Deadline(); !asked && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
					for _, c := range []context.Context{gm, player} {
						var a bool
						steps(t, c, chromedp.Evaluate(`document.getElementById('pending').classList.contains('asking')`, &a))
						asked = asked || a
					}
				}
				if !asked {
					t.Fatalf("%s: neither page asks the decision", name)
				}
				decisionSeen = true
			}
			for _, p := range people {
				steps(t, p.ctx, chromedp.Evaluate(`(() => {
  for (const id of ['enc-menu', 'board-key']) document.getElementById(id).open = true;
  for (const d of document.querySelectorAll('#actions details.more')) d.open = true;
  const act = document.querySelector('#actions details.act'); if (act) act.open = true;
  for (const d of document.querySelectorAll('#battlefield details.sheet')) d.open = true;
})()`, nil), settled())
				fits(p.name, p.ctx, "with the menus, a form, the key, the sheets and any decision open")
			}
		}
	}
	if !decisionSeen {
		t.Error("the page was never checked with a decision open")
	}
}

// TestTableKeyboardTurn plays a whole turn with the keyboard alone, on a
// zones board and on a grid: B goes to the board, the arrow keys walk its
// cursor to the target, Enter picks it (the attack opens, its button
// focused), Enter attacks, D answers a question put to the player, E ends
// the turn. ? opens the help listing the keys; Esc closes it.
func TestTableKeyboardTurn(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "9"})
	night := newGameNight(srv)
	ctx := tabletop(t, 1440, 900)
	login(t, ctx, srv.URL, night.player.Name)
	key := func(keys ...string) {
		t.Helper()
		for _, k := range keys {
			steps(t, ctx, chromedp.KeyEvent(k), settled())
		}
	}
	say := func() string {
		var s string
		steps(t, ctx, chromedp.Evaluate(`document.getElementById('board-cursor').textContent`, &s))
		return s
	}
	for _, example := range []string{"sw-zones-goblin-ford", "d20-tactical-rooftop-crossfire"} {
		id, actor, target := night.encounter(example)
		steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+id), waitJS(`document.querySelector('#conn').dataset.state === 'live'`))

		// The help lists the keys.
		key("?")
		steps(t, ctx, waitJS(`document.getElementById('keys').open`))
		var help string
		steps(t, ctx, chromedp.Evaluate(`document.getElementById('keys').textContent`, &help))
		for _, want := range []string{"end the turn", "arrow", "Esc"} {
			if !strings.Contains(help, want) {
				t.Errorf("%s: the help lacks %q", example, want)
			}
		}
		key(kb.Escape)
		steps(t, ctx, waitJS(`!document.getElementById('keys').open`))

		// B: the board, its cursor on the acting character.
		key("b")
		steps(t, ctx, waitJS(`document.activeElement.id === 'board-view'`))
		name := ""
		steps(t, ctx, chromedp.Evaluate(fmt.Sprintf(`document.querySelector('.tok-btn[data-token=%q] .tok-name').textContent`, target), &name))
		var at, to []int
		steps(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const g = id => document.querySelector('#board-view .grid-svg [data-token="' + id + '"]');
  return g(%q) ? [g(%q).dataset.at.split(',').map(Number), g(%q).dataset.at.split(',').map(Number)] : null; })()`, actor, actor, target), &[]any{&at, &to}))
		if at != nil {
			// A grid: walk the squares.
			for ; at[0] < to[0]; at[0]++ {
				key(kb.ArrowRight)
			}
			for ; at[0] > to[0]; at[0]-- {
				key(kb.ArrowLeft)
			}
			for ; at[1] < to[1]; at[1]++ {
				key(kb.ArrowDown)
			}
			for ; at[1] > to[1]; at[1]-- {
				key(kb.ArrowUp)
			}
		} else {
			// Zones: step from stop to stop until the cursor names the target.
			for i := 0; i < 30 && !strings.HasPrefix(say(), name); i++ {
				key(kb.ArrowRight)
			}
		}
		if s := say(); !strings.Contains(s, name) {
			t.Fatalf("%s: the cursor is on %q, not on %s", example, s, name)
		}
		before := srv.viewAs(night.gm, id).Seq
		key(kb.Enter)
		if err := chromedp.Run(ctx, waitJS(fmt.Sprintf(`[...document.querySelectorAll('#actions details.act[open] select[data-target]')].some(s => s.value === %q)
  && document.activeElement.matches('#actions details.act[open] button[type="submit"]')`, target))); err != nil {
			var state string
			steps(t, ctx, chromedp.Evaluate(`document.activeElement.id + ' | ' + document.getElementById('target-line').textContent.replace(/\s+/g, ' ')`, &state))
			t.Fatalf("%s: Enter on %s did not open an attack on it: %s", example, name, state)
		}
		key(kb.Enter)
		// The attack is made; questions to the player are answered with D
		// and Enter, rulings of the GM's given by the GM.
		for deadline := patience.Deadline(); ; {
			v := srv.viewAs(night.gm, id)
			if v.Seq > before && len(v.Pending) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the attack never settled (seq %d, %d questions)", example, v.Seq, len(v.Pending))
			}
			pv := srv.viewAs(night.player, id)
			switch {
			case len(pv.Pending) > 0:
				asked := pv.Pending[0].ID
				key("d")
				steps(t, ctx, waitJS(`document.activeElement.matches('#pending form.decision button')`))
				key(kb.Enter)
				// The answer is in when the question is no longer put.
				for answered := patience.Deadline(); ; time.Sleep(50 * time.Millisecond) {
					if p := srv.viewAs(night.player, id).Pending; len(p) == 0 || p[0].ID != asked {
						break
					}
					if time.Now().After(answered) {
						t.Fatalf("%s: Enter did not answer the question %s", example, asked)
					}
				}
			case len(v.Pending) > 0:
				d := v.Pending[0]
				choice := d.Default
				if choice == "" {
					choice = d.Options[0].Value
				}
				srv.command(night.gm, id, "rule-"+d.ID, map[string]any{"kind": "answer", "decision": d.ID, "choice": choice})
			default:
				time.Sleep(100 * time.Millisecond)
			}
		}
		var rolled bool
		steps(t, ctx, chromedp.Evaluate(`document.querySelectorAll('#cards .card, #log .entry .roll').length > 0`, &rolled))
		if !rolled {
			t.Errorf("%s: the attack shows no roll", example)
		}
		// E ends the turn.
		steps(t, ctx, chromedp.Evaluate(`document.activeElement.blur()`, nil))
		key(kb.Escape, "e")
		deadline := patience.Deadline()
		for srv.viewAs(night.gm, id).Current == actor && srv.viewAs(night.gm, id).Round == srv.viewAs(night.player, id).Round {
			if time.Now().After(deadline) {
				t.Fatalf("%s: E did not end %s's turn", example, actor)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
