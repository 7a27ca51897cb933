package realtime

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/web"
)

// What the package's tests share: encounters, hubs, clients without a
// socket and dialers of real ones.

// fixedEncounter serves one unchanging state, under its ruleset (rs) or
// one that offers nothing; enough to test fan-out.
type fixedEncounter struct {
	rs engine.Ruleset
	st engine.State
}

func (f fixedEncounter) Submit(context.Context, string, play.Sender, string, engine.Command) (int64, error) {
	return 0, fray.Errorf(fray.EILLEGAL, "read-only")
}
func (f fixedEncounter) Current(context.Context, string) (engine.Ruleset, engine.State, error) {
	if f.rs == nil {
		return nullRules{}, f.st, nil
	}
	return f.rs, f.st, nil
}
func (f fixedEncounter) Events(context.Context, string, int64, int) ([]engine.Event, error) {
	return nil, nil
}

type nullRules struct{ engine.Ruleset }

func (nullRules) Actions(engine.State, engine.Viewer) []engine.Action { return nil }

// dialSnapshot opens a websocket to url and reads its snapshot.
func dialSnapshot(t *testing.T, ctx context.Context, url string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	c.SetReadLimit(1 << 20)
	if _, _, err := c.Read(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// serveWS serves hub's websockets with opts until the test ends, and
// returns their URL.
func serveWS(t *testing.T, hub *Hub, opts ServeOptions) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hub.Serve(w, r, opts) }))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// pageHub is a hub of encounter pages as the server makes it: fragments
// rendered by web, each update's sections once per distinct input.
func pageHub(cfg Config) *Hub {
	cfg.Render = web.Fragments
	cfg.Pages = func() PageRenderer { return web.NewSections() }
	return NewHub(cfg)
}

// queued adds to hub's encounter "e" a client of viewer v wanting
// fragments (html) or its projection (view), without a socket: its frames
// wait in its queue for the test to take them (queuedFrames).
func queued(hub *Hub, v engine.Viewer, html, view bool) *client {
	c := &client{hub: hub, encounter: "e", viewer: v, html: html, wantView: view, send: newQueue(1 << 12)}
	hub.add(c)
	return c
}

// queuedFrames takes the frames waiting in c's queue.
func (c *client) queuedFrames() []frame { return c.send.take(nil) }

// settle waits until encounter id's published updates have their frames
// queued (Publish hands them to a goroutine of the hub's).
func (h *Hub) settle(id string) {
	for {
		h.mu.Lock()
		r := h.rooms[id]
		busy := r != nil && (r.working || len(r.queue) > 0)
		h.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
}
