package web

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/patience"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/htmlscan"
	"github.com/fray-vtt/fray/internal/tabletest"
)

// measureUpdates wraps the page's WebSocket before app.js runs: every
// message handler's main-thread time, with the style and layout it leaves
// pending forced at its end (so layout is counted, once), goes to
// window.__updateTimes in milliseconds.
const measureUpdates = `(() => {
  const times = []; window.__updateTimes = times;
  const Orig = window.WebSocket;
  function Measured(url, protocols) {
    const ws = protocols === undefined ? new Orig(url) : new Orig(url, protocols);
    const wrap = (fn) => function measuredMessage(ev) {
      const t0 = performance.now();
      try { return fn.call(this, ev); } finally { void document.body.offsetHeight; times.push(performance.now() - t0); }
    };
    const add = ws.addEventListener.bind(ws);
    ws.addEventListener = (type, fn, o) => add(type, type === 'message' ? wrap(fn) : fn, o);
    let handler = null;
    Object.defineProperty(ws, 'onmessage', { get() { return handler; }, set(fn) { handler = fn; add('message', wrap(fn)); } });
    return ws;
  }
  Measured.prototype = Orig.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Measured[k] = Orig[k];
  window.WebSocket = Measured;
})();`

// TestBrowserUpdateTime REPORTS (it asserts no time) the main-thread time
// app.js takes to apply one update on the GM's page in Chromium, layout
// included: sw-zones-dusty-gulch played by ending turns, each update
// carrying the new log entries and either every section (the worst case) or
// what the hub sends (a changed section, or its changed parts:
// htmlscan.Diff); and, for the floor this machine's Chromium sets, the
// status line alone. Run with -v to see the figures; see docs/performance.md. FRAY_UPDATE_TRACE=<dir>
// writes each list's Chromium trace there.
func TestBrowserUpdateTime(t *testing.T) {
	rs, st := startedExample(t, "sw-zones-dusty-gulch")
	r := replay(t, rs, st, engine.GMViewer(), endTurns(t, rs, 60))
	// The floor: the same updates carrying only the status line (whose
	// turn, the round), what the smallest update costs this machine's
	// Chromium — the page's own work per message, a style and layout pass
	// of one line. Its page is not the others' (it is not compared).
	floor := make([]pageUpdate, len(r.sent))
	for i, u := range r.sent {
		floor[i] = pageUpdate{u.seq, u.events, map[string]string{}, nil}
		if h, ok := u.html["status"]; ok {
			floor[i].html["status"] = h
		}
	}
	var shows []string
	for _, mode := range []struct {
		name    string
		list    []pageUpdate
		compare bool // the page it leaves is the full render's
	}{{"every section each", r.all, true}, {"as the hub sends them: changed sections, or their changed parts", r.sent, true}, {"the status line only: the floor", floor, false}} {
		times, cpu, show := playToGM(t, r, mode.list)
		if mode.compare {
			shows = append(shows, show)
		}
		t.Logf("GM page (%s): %d bytes of markup per update on average, %d parts in all", mode.name, markupBytes(mode.list)/len(mode.list), partsIn(mode.list))
		t.Logf("GM page, %d updates (%s): main-thread ms per update, layout included: %s; the snapshot %.2f", len(times)-1, mode.name, spread(times), times[0])
		if len(cpu) > 1 {
			t.Logf("GM page, %d updates (%s): main-thread CPU ms per update (the trace's thread time): %s", len(cpu)-1, mode.name, spread(cpu))
		}
	}
	for i, show := range shows[1:] {
		if show != shows[0] {
			t.Errorf("the page after the updates sent as %d differs from the page after every section:\n%s\n\n%s", i+1, show, shows[0])
		}
	}
}

// pageUpdate is one "events" frame to a page: its sections and parts.
type pageUpdate struct {
	seq         int64
	events      []engine.Event
	html, parts map[string]string
}

// replayed is a viewer's page through a fight: its first and last view,
// the first's render (the snapshot's sections) and each update after it
// three ways — every
// section (all), the sections whose markup changed (whole, the log when
// it has new entries), and as the hub sends them (sent; internal/realtime,
// updateFrame): a changed section as its changed parts (htmlscan.Diff), or
// whole.
type replayed struct {
	first, last      engine.View
	firstHTML        map[string]string
	all, whole, sent []pageUpdate
}

// replay renders viewer's page of st, then each update after the commands
// step plays (the events and state after the i-th; false when done).
func replay(t *testing.T, rs engine.Ruleset, st engine.State, viewer engine.Viewer, step func(i int, st engine.State) ([]engine.Event, engine.State, bool)) replayed {
	t.Helper()
	ctx := WithActURL(context.Background(), "/act")
	sections := NewSections()
	r := replayed{first: engine.Project(rs, st, viewer)}
	shown, err := sections.Render(ctx, r.first, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	sections.Next()
	r.firstHTML = shown
	for i := 0; ; i++ {
		events, next, ok := step(i, st)
		if !ok {
			return r
		}
		st, r.last = next, engine.Project(rs, next, viewer)
		html, err := sections.Render(ctx, r.last, events, false)
		if err != nil {
			t.Fatal(err)
		}
		sections.Next()
		seq := st.Core().Seq
		whole := pageUpdate{seq, events, map[string]string{}, nil}
		sent := pageUpdate{seq, events, map[string]string{}, map[string]string{}}
		for k, h := range html {
			switch {
			case k == "log" && len(events) > 0:
				whole.html[k], sent.html[k] = h, h
			case k == "log" || shown[k] == h:
			default:
				whole.html[k] = h
				parts, all := htmlscan.Diff(shown[k], h)
				if all {
					sent.html[k] = h
				}
				maps.Copy(sent.parts, parts)
			}
		}
		r.all = append(r.all, pageUpdate{seq, events, html, nil})
		r.whole = append(r.whole, whole)
		r.sent = append(r.sent, sent)
		shown = html
	}
}

// endTurns is a replay's step: the GM ends n turns one after another.
func endTurns(t *testing.T, rs engine.Ruleset, n int) func(int, engine.State) ([]engine.Event, engine.State, bool) {
	roller := dice.NewRoller(dice.NewSeeded(3))
	gm := engine.GMViewer()
	return func(i int, st engine.State) ([]engine.Event, engine.State, bool) {
		if i == n {
			return nil, nil, false
		}
		events, next, err := engine.DecideOwned(rs, st, gm, "c"+itoa(i), engine.NewCommand("end-turn", engine.Project(rs, st, gm).Current, nil), roller, nil)
		if err != nil {
			t.Fatalf("end-turn %d: %v", i, err)
		}
		return events, next, true
	}
}

// markupBytes is the markup the updates carry, sections and parts.
func markupBytes(list []pageUpdate) int {
	n := 0
	for _, u := range list {
		for _, h := range u.html {
			n += len(h)
		}
		for _, h := range u.parts {
			n += len(h)
		}
	}
	return n
}

// partsIn counts the parts the updates carry.
func partsIn(list []pageUpdate) int {
	n := 0
	for _, u := range list {
		n += len(u.parts)
	}
	return n
}

// spread describes milliseconds per update (the snapshot's, first, left
// out): the median, the 95th percentile, the mean and the largest.
func spread(ms []float64) string {
	upd := slices.Clone(ms[1:])
	slices.Sort(upd)
	p := func(q float64) float64 { return upd[min(len(upd)-1, int(q*float64(len(upd))))] }
	sum := 0.0
	for _, x := range upd {
		sum += x
	}
	return fmt.Sprintf("p50 %.2f, p95 %.2f, mean %.2f, max %.2f", p(0.5), p(0.95), sum/float64(len(upd)), upd[len(upd)-1])
}

// playToGM opens the GM's page of r in Chromium, sends it the snapshot then
// the updates, one every 30 ms, checks the page ends showing the last
// status, and returns the main-thread milliseconds each message took (the
// snapshot's first), as the page timed them and as the main thread's CPU
// time in a Chromium trace (which the machine's other work does not
// inflate; nil if the trace has none), and the page it leaves.
func playToGM(t *testing.T, r replayed, updates []pageUpdate) ([]float64, []float64, string) {
	t.Helper()
	srv := serveFake(t, EncounterProps{View: r.first, As: "gm", WSURL: "/ws?html=1", ActURL: "/act"}, "", nil)
	ctx, cancel := chromedp.NewContext(chromium.Start(t, chromedp.WindowSize(1280, 900)))
	defer cancel()
	ctx, cancel = patience.Context(ctx)
	defer cancel()
	var traced []json.RawMessage
	traceDone := make(chan struct{})
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			for _, v := range ev.Value {
				traced = append(traced, json.RawMessage(v))
			}
		case *tracing.EventTracingComplete:
			close(traceDone)
		}
	})
	// The tab is made by the first Run on ctx itself (within's context
	// would take it away when it ends).
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(measureUpdates).Do(ctx)
		if err != nil {
			return err
		}
		return tracing.Start().WithTransferMode(tracing.TransferModeReportEvents).
			WithTraceConfig(&tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline"}}).Do(ctx)
	}), chromedp.Navigate(srv.URL+"/page")); err != nil {
		t.Fatal(err)
	}
	conn := recv(t, srv.conns)
	lastStatus := r.firstHTML["status"]
	for _, u := range updates {
		time.Sleep(30 * time.Millisecond) // one update at a time, as a table plays
		if s, ok := u.html["status"]; ok {
			lastStatus = s
		}
		msg := map[string]any{"type": "events", "seq": u.seq, "events": u.events, "html": u.html}
		if len(u.parts) > 0 {
			msg["parts"] = u.parts
		}
		writeJSON(conn, msg)
	}
	// Every message handled: the snapshot and each update.
	within(t, ctx, poll(`(window.__updateTimes || []).length > `+strconv.Itoa(len(updates))))
	times := evaluate[[]float64](t, ctx, `window.__updateTimes`)
	var status, show string
	within(t, ctx, chromedp.Evaluate(`document.getElementById('status').outerHTML`, &status),
		chromedp.Evaluate(`document.getElementById('battlefield').outerHTML + document.getElementById('actions').outerHTML`+drawnTokens, &show),
		tracing.End())
	if status != lastStatus {
		t.Errorf("after the updates #status is\n%s\nnot\n%s", status, lastStatus)
	}
	select {
	case <-traceDone:
	case <-ctx.Done():
		t.Fatal("the trace did not complete")
	}
	if dir := os.Getenv("FRAY_UPDATE_TRACE"); dir != "" {
		// The whole trace, to open in a browser's performance panel.
		name := filepath.Join(dir, t.Name()+"-"+strconv.Itoa(traceRuns)+".json")
		traceRuns++
		whole, err := json.Marshal(traced) // a JSON array of the events as Chromium sent them
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, whole, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("trace written to %s", name)
	}
	return times, messageCPU(t, traced), show
}

// drawnTokens describes each token in a drawing's SVG, in the page's
// script: whether it is an SVG element, its id and the box it is drawn in
// (an element the drawing does not show has an empty one).
const drawnTokens = `+ Array.from(document.querySelectorAll('#battlefield svg [data-token]')).map((g) => {
  const r = g.getBoundingClientRect();
  return '\n' + (g instanceof SVGElement ? 'drawn ' : 'not SVG ') + g.id + ' ' + [r.x, r.y, r.width, r.height].map((n) => n.toFixed(1)).join(' ');
}).join('')`

// traceRuns numbers the traces one test binary writes.
var traceRuns int

// messageCPU is the main thread's CPU time, in milliseconds, of each
// websocket message the page handled, in order: the thread time (tdur) of
// the trace's calls of measureUpdates's handler.
func messageCPU(t *testing.T, events []json.RawMessage) []float64 {
	t.Helper()
	var out []float64
	for _, raw := range events {
		var ev struct {
			Name string  `json:"name"`
			Ph   string  `json:"ph"`
			TDur float64 `json:"tdur"`
			Args struct {
				Data struct {
					FunctionName string `json:"functionName"`
				} `json:"data"`
			} `json:"args"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Name == "FunctionCall" && ev.Ph == "X" && ev.Args.Data.FunctionName == "measuredMessage" {
			out = append(out, ev.TDur/1000)
		}
	}
	return out
}

// startedExample returns an example encounter, started.
func startedExample(t *testing.T, name string) (engine.Ruleset, engine.State) {
	t.Helper()
	tb := tabletest.Example(t, name)
	_, st, err := engine.DecideOwned(tb.RS, tb.St, engine.GMViewer(), "start", engine.NewCommand(engine.KindStart, "", nil), dice.NewRoller(dice.NewSeeded(1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tb.RS, st
}
