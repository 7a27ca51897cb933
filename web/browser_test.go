// This test drives app.js in headless Chromium against a fake websocket
// server speaking the protocol. It runs with the default test command; it
// needs the chromium binary (skipped without it, except in CI, where it
// fails: see chromiumPath).

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/patience"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// fakeServer serves one encounter as the real server would: the page
// (props with the encounter as it stands, for user) under the site's
// Content-Security-Policy, the static files, and a websocket that sends the
// snapshot on connect, then hands every frame it reads to the test.
type fakeServer struct {
	*httptest.Server
	down   atomic.Bool // refuse websockets, as a server that is away
	mu     sync.Mutex
	v      engine.View
	log    []engine.Event
	frames chan map[string]any // client frames
	sinces chan string         // ?since= of each connection
	conns  chan *websocket.Conn
}

// serveFake starts a fakeServer of props' encounter; more adds routes.
func serveFake(t *testing.T, props EncounterProps, user string, more func(*http.ServeMux)) *fakeServer {
	t.Helper()
	s := &fakeServer{v: props.View, log: props.Log,
		frames: make(chan map[string]any, 20), sinces: make(chan string, 20), conns: make(chan *websocket.Conn, 20)}
	mux := http.NewServeMux()
	mux.Handle("/static/", http.FileServerFS(Static))
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		p := props
		p.View, p.Log = s.v, s.log
		ctx := r.Context()
		if user != "" {
			ctx = WithUser(ctx, user)
		}
		_ = Encounter(p).Render(ctx, w)
	})
	mux.HandleFunc("/ws", s.ws)
	if more != nil {
		more(mux)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The policy the real server sends: nothing inline.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *fakeServer) ws(w http.ResponseWriter, r *http.Request) {
	if s.down.Load() {
		http.Error(w, "away", http.StatusServiceUnavailable)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	s.sinces <- r.URL.Query().Get("since")
	s.conns <- c
	s.mu.Lock()
	fr, err := Fragments(WithActURL(r.Context(), "/act"), s.v, s.log, true)
	snap := map[string]any{"type": "snapshot", "seq": s.v.Seq, "view": s.v, "html": fr}
	s.mu.Unlock()
	if err != nil {
		panic(err)
	}
	writeJSON(c, snap)
	for {
		_, data, err := c.Read(context.Background())
		if err != nil {
			return
		}
		var msg map[string]any
		if json.Unmarshal(data, &msg) == nil {
			s.frames <- msg
		}
	}
}

func recv[T any](t *testing.T, ch chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(patience.Hang()):
		t.Fatal("timed out waiting for the browser")
	}
	var zero T
	return zero
}

func TestBrowserScript(t *testing.T) {
	posts := make(chan string, 10) // plain form posts to /act
	fs := serveFake(t, EncounterProps{View: testView(), Log: testLog(), As: "ana", WSURL: "/ws?as=ana&html=1", ActURL: "/act"}, "", func(mux *http.ServeMux) {
		mux.HandleFunc("/manifest.webmanifest", func(w http.ResponseWriter, r *http.Request) {
			http.ServeFileFS(w, r, Static, "static/manifest.webmanifest")
		})
		mux.HandleFunc("/api/encounters/", func(w http.ResponseWriter, r *http.Request) {
			// The hash chain's links the page checks its fingerprints against.
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"heads":[{"seq":7,"link":"` + strings.Repeat("ab", 32) + `"}]}`))
		})
		mux.HandleFunc("/act", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			posts <- r.PostForm.Encode()
			http.Redirect(w, r, "/page", http.StatusSeeOther)
		})
	})

	ctx, cancel := chromedp.NewContext(chromium.Start(t))
	defer cancel()
	ctx, cancel = patience.Context(ctx)
	defer cancel()
	var pmu sync.Mutex
	var problems []string // script exceptions, console output, CSP violations, 404s
	chromedp.ListenTarget(ctx, func(ev any) {
		pmu.Lock()
		defer pmu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			problems = append(problems, "log: "+e.Entry.Text)
		case *runtime.EventConsoleAPICalled:
			for _, a := range e.Args {
				problems = append(problems, fmt.Sprintf("console.%s: %s", e.Type, a.Value))
			}
		}
	})
	// command is the command a frame carries, without the entropy every
	// command must bring for its dice: 16 random bytes in hex, fresh for
	// each command (a resent frame keeps its own).
	entropyOf := map[string]string{} // by entropy, the command id
	command := func(msg map[string]any) string {
		cmd := maps.Clone(msg["command"].(map[string]any))
		e, _ := cmd["entropy"].(string)
		id, _ := msg["id"].(string)
		if other, used := entropyOf[e]; len(e) != 32 || used && other != id {
			t.Errorf("command without fresh entropy: %v", cmd)
		}
		entropyOf[e] = id
		delete(cmd, "entropy")
		b, _ := json.Marshal(cmd)
		return string(b)
	}
	const logCount = `String(document.querySelectorAll('#log > li').length)`

	// The tab is made by the first Run on ctx itself (within's context
	// would take it away when it ends).
	if err := chromedp.Run(ctx, chromedp.Navigate(fs.URL+"/page")); err != nil {
		t.Fatal(err)
	}
	if s := recv(t, fs.sinces); s != "7" {
		t.Errorf("since = %q, want the page's seq 7", s)
	}
	conn := recv(t, fs.conns)
	within(t, ctx, poll(`document.getElementById('conn').textContent === 'live'`))
	if n := evaluate[string](t, ctx, logCount); n != "7" { // 5 events + 2 round headings, unchanged by the snapshot
		t.Errorf("log has %s rows after the snapshot", n)
	}
	// The keys' help opens from its button and closes from its own.
	within(t, ctx, chromedp.Click("#keys-open", chromedp.ByID), poll(`document.getElementById('keys').open`),
		chromedp.Click("#keys-close", chromedp.ByID), poll(`!document.getElementById('keys').open`))

	// The user clicks the Thug on the board: it becomes the target, Attack
	// opens with it chosen and its button takes the focus. Then the user
	// opens Ana's sheet and attacks.
	within(t, ctx, chromedp.Click(`.zmap [data-token="thug"]`, chromedp.ByQuery))
	within(t, ctx, poll(`document.getElementById('act-ana-fight-d').open && document.activeElement.id === 'act-ana-fight-go'`))
	for js, want := range map[string]string{
		`document.getElementById('act-ana-fight-target').value`:             "thug",
		`document.getElementById('pick-thug').getAttribute('aria-pressed')`: "true",
		`document.getElementById('target-name').textContent`:                "Thug",
	} {
		if got := evaluate[string](t, ctx, js); got != want {
			t.Errorf("after picking the Thug: %s = %q, want %q", js, got, want)
		}
	}
	within(t, ctx,
		chromedp.Click("#tok-ana-sheet summary", chromedp.ByQuery),
		chromedp.Click("#act-ana-fight-go", chromedp.ByID),
	)
	msg := recv(t, fs.frames)
	if msg["type"] != "command" || command(msg) != `{"actor":"ana","attacks":1,"kind":"fight","target":"thug","wild":false}` {
		t.Errorf("frame = %v, command %s", msg, command(msg))
	}
	if evaluate[string](t, ctx, `document.getElementById('act-ana-fight').dataset.pending || ''`) != msg["id"] {
		t.Error("form not marked pending")
	}

	// An update (sent to everyone) arrives before the ack: sections are
	// replaced, yet focus, the user's pick, the open sheet and the pending
	// state survive.
	ev8 := engine.Event{Seq: 8, Kind: "fight", Round: 2, Actor: "ana", Text: "Ana hits the Thug.", Command: msg["id"].(string), Rolls: []dice.Roll{{
		Label: "Fighting", Dice: []dice.Die{{Sides: 10, Faces: []int{10, 4}}}, Total: 14, Target: 5, Result: "success, 2 raises",
		Mods: []dice.Mod{{Label: "gang-up", Value: 1}, {Label: "wounds", Value: -1}},
	}}}
	fs.mu.Lock()
	fs.v.Seq = 8
	fs.log = append(fs.log, ev8)
	fr, err := Fragments(WithActURL(ctx, "/act"), fs.v, []engine.Event{ev8}, false)
	fs.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	update := map[string]any{"type": "events", "seq": 8, "events": []any{ev8}, "html": fr}
	writeJSON(conn, update)
	within(t, ctx, poll(`!!document.getElementById('ev-8')`))
	for js, want := range map[string]string{
		`document.activeElement.id`:                                                                         "act-ana-fight-go",
		`document.getElementById('act-ana-fight-target').value`:                                             "thug",
		`String(document.getElementById('tok-ana-sheet').open)`:                                             "true",
		`String(document.getElementById('act-ana-fight-d').open)`:                                           "true",
		`document.querySelector('#cards .card.mine') ? document.querySelector('#cards .card.mine').id : ''`: "card-8",
		`document.getElementById('act-ana-fight').dataset.pending || ''`:                                    msg["id"].(string),
		`document.getElementById('act-ana-fight-go').getAttribute('aria-disabled')`:                         "true",
		`document.getElementById('encounter').dataset.seq`:                                                  "8",
		logCount: "8",
	} {
		if got := evaluate[string](t, ctx, js); got != want {
			t.Errorf("after update: %s = %q, want %q", js, got, want)
		}
	}
	// The roll card of the player's own action is on screen, modifiers
	// labelled.
	card := evaluate[string](t, ctx, `(() => { const c = document.getElementById('card-8'); const r = c.getBoundingClientRect();
		return (r.top >= 0 && r.bottom <= innerHeight ? 'visible ' : 'off-screen ') + c.textContent.replace(/\s+/g, ' ') })()`)
	contains(t, "card", card, "visible", "Ana hits the Thug.", "gang-up +1", "wounds −1", "14", "success, 2 raises")
	// A duplicate delivery adds nothing. The page handles frames in order,
	// so once the ack sent after it has settled the form, the duplicate has
	// been handled too.
	writeJSON(conn, update)
	writeJSON(conn, map[string]any{"type": "ack", "id": msg["id"], "seq": 8})
	within(t, ctx, poll(`!document.getElementById('act-ana-fight').dataset.pending && !document.getElementById('act-ana-fight-go').hasAttribute('aria-disabled')`))
	if n := evaluate[string](t, ctx, logCount); n != "8" {
		t.Errorf("duplicate delivery: log has %s rows", n)
	}
	if n := evaluate[string](t, ctx, `String(document.querySelectorAll('#cards .card').length)`); n != "1" {
		t.Errorf("duplicate delivery: %s cards", n)
	}
	within(t, ctx, chromedp.Click("#card-8 .card-close", chromedp.ByQuery))
	within(t, ctx, poll(`!document.getElementById('card-8')`))

	// A decision is answered with the button's value; an error shows in #notice.
	within(t, ctx, chromedp.Click("#dec-d1-1", chromedp.ByID))
	msg = recv(t, fs.frames)
	if command(msg) != `{"choice":"take","decision":"d1","kind":"answer"}` {
		t.Errorf("answer = %s", command(msg))
	}
	writeJSON(conn, map[string]any{"type": "error", "id": msg["id"], "code": "illegal", "message": "Nope, not now."})
	within(t, ctx, poll(`document.getElementById('notice').textContent === 'Nope, not now.'`))
	within(t, ctx, poll(`!document.getElementById('dec-d1').dataset.pending`))

	// A free roll from the chat box goes to the server; the box clears on
	// the ack and keeps the chosen audience.
	within(t, ctx, chromedp.SendKeys("#chat-text", "/roll 2d6+1", chromedp.ByID), chromedp.SetValue("#chat-to", "gm", chromedp.ByID),
		chromedp.Click("#chat-send", chromedp.ByID))
	msg = recv(t, fs.frames)
	if command(msg) != `{"kind":"chat","text":"/roll 2d6+1","to":"gm"}` {
		t.Errorf("chat = %s", command(msg))
	}
	writeJSON(conn, map[string]any{"type": "ack", "id": msg["id"], "seq": 8})
	within(t, ctx, poll(`document.getElementById('chat-text').value === '' && document.getElementById('chat-to').value === 'gm'`))

	// The connection drops with a command unacknowledged: the script
	// reconnects from the last seq and resends it with the same id.
	within(t, ctx, chromedp.Click("#act-ana-end-turn-go", chromedp.ByID))
	msg = recv(t, fs.frames)
	if evaluate[string](t, ctx, `document.getElementById('notice').textContent`) != "" {
		t.Error("notice not cleared by a new command")
	}
	// While the server is away the page says so, and a form sent meanwhile
	// waits for the connection instead of posting into an error page.
	fs.down.Store(true)
	_ = conn.Close(websocket.StatusGoingAway, "bye")
	within(t, ctx, poll(`document.getElementById('conn').dataset.state === 'retry' && document.getElementById('conn').textContent === 'reconnecting…'`))
	within(t, ctx, chromedp.SendKeys("#chat-text", "still there?", chromedp.ByID), chromedp.Click("#chat-send", chromedp.ByID))
	within(t, ctx, poll(`document.getElementById('notice').textContent.startsWith('Reconnecting')`))
	fs.down.Store(false)
	if s := recv(t, fs.sinces); s != "8" {
		t.Errorf("reconnect since = %q, want 8", s)
	}
	conn = recv(t, fs.conns)
	resent := map[string]string{}
	for range 2 {
		again := recv(t, fs.frames)
		resent[again["id"].(string)] = command(again)
	}
	if resent[msg["id"].(string)] != command(msg) || len(resent) != 2 {
		t.Errorf("resent %v, want the end of turn (same id %v) and the chat", resent, msg["id"])
	}
	// The chat resent over the new socket is the page that queued it, still
	// open: a form that had posted would have left it (and reached the
	// server before the page could reconnect).
	select {
	case p := <-posts:
		t.Fatalf("a form posted while the server was away: %s", p)
	default:
	}
	within(t, ctx, poll(`document.getElementById('conn').textContent === 'live'`))
	writeJSON(conn, map[string]any{"type": "ack", "id": msg["id"], "seq": 8})
	within(t, ctx, poll(`!document.getElementById('act-ana-end-turn').dataset.pending`))

	// A socket the server drops as too slow to keep up (1008) is reconnected
	// like any other: the page catches up from its seq rather than give up.
	_ = conn.Close(websocket.StatusPolicyViolation, "client too slow")
	if s := recv(t, fs.sinces); s != "8" {
		t.Errorf("reconnect after 1008: since = %q, want 8", s)
	}
	_ = recv(t, fs.conns)
	within(t, ctx, poll(`document.getElementById('conn').textContent === 'live'`))

	// Without a socket the form posts normally. The page lets its socket go
	// while it handles pagehide, so the socket is gone once this returns.
	evaluate[string](t, ctx, `(() => { window.dispatchEvent(new Event('pagehide')); return '' })()`)
	within(t, ctx, chromedp.Click("#act-ana-fight-go", chromedp.ByID))
	if p := recv(t, posts); p != "actor=ana&attacks=1&kind=fight&target=thug" {
		t.Errorf("form post = %q", p)
	}

	pmu.Lock()
	defer pmu.Unlock()
	for _, p := range problems {
		if strings.Contains(p, "Unexpected response code: 503") {
			continue // the browser's own note of the server being away, above
		}
		t.Error(p)
	}
}
