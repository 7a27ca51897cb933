package realtime

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
)

// panickyEncounter is a fixedEncounter whose "panic" command panics.
type panickyEncounter struct{ fixedEncounter }

func (p panickyEncounter) Submit(ctx context.Context, id string, s play.Sender, cmdID string, cmd engine.Command) (int64, error) {
	if cmd.Kind == "panic" {
		panic("boom")
	}
	return p.fixedEncounter.Submit(ctx, id, s, cmdID, cmd)
}

// TestSessionOutlivesServe: Serve returns once the session is established
// (so net/http frees the request), and the session goes on — past the HTTP
// server's read and write timeouts, which bound requests, updates reach it
// and its commands are answered; a panic in a session ends that session
// with 1011, not the server; Close ends the rest with 1001.
func TestSessionOutlivesServe(t *testing.T) {
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1}
	enc := panickyEncounter{fixedEncounter{st: st}}
	var log bytes.Buffer // written by the sessions' goroutines, read once Close waited for them
	hub := NewHub(Config{Events: enc, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	returned := make(chan struct{}, 2)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub.Serve(w, r, ServeOptions{Encounter: "e", Table: enc, Viewer: engine.GMViewer(), Since: -1})
		returned <- struct{}{}
	}))
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	srv.Start()
	defer srv.Close()
	defer hub.Close()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	dial := func() *websocket.Conn {
		c := dialSnapshot(t, ctx, "ws"+strings.TrimPrefix(srv.URL, "http"))
		select {
		case <-returned:
		case <-ctx.Done():
			t.Fatal("Serve did not return once the session was established")
		}
		return c
	}
	read := func(c *websocket.Conn, want string) {
		t.Helper()
		if _, data, err := c.Read(ctx); err != nil || !strings.Contains(string(data), want) {
			t.Fatalf("read %s, %v; want %s", data, err, want)
		}
	}
	a, b := dial(), dial()
	if n := hub.Count("e"); n != 2 {
		t.Fatalf("%d sessions after Serve returned, want 2", n)
	}
	time.Sleep(time.Second) // past both timeouts

	st.Seq = 1
	hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 1, Events: []engine.Event{{Seq: 1, Kind: "tick"}}})
	hub.settle("e")
	read(a, `"seq":1`)
	read(b, `"seq":1`)
	commands := &sock{t: t, conn: a} // what a sends
	commands.send("c1", map[string]any{"kind": "pause"})
	read(a, `"id":"c1"`) // refused by the read-only encounter, but answered

	commands.send("c2", map[string]any{"kind": "panic"})
	if _, _, err := a.Read(ctx); websocket.CloseStatus(err) != websocket.StatusInternalError {
		t.Fatalf("after a panic: %v, want close 1011", err)
	}
	st.Seq = 2
	hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 2, Events: []engine.Event{{Seq: 2, Kind: "tick"}}})
	hub.settle("e")
	read(b, `"seq":2`)

	closed := make(chan error, 1)
	go func() {
		_, _, err := b.Read(ctx) // the client answers the close frame
		closed <- err
	}()
	hub.Close()
	if err := <-closed; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("after Close: %v, want close 1001", err)
	}
	if n := hub.Count("e"); n != 0 {
		t.Fatalf("%d sessions after Close", n)
	}
	if !strings.Contains(log.String(), "panic in websocket session") {
		t.Errorf("the panic was not logged: %s", log.String())
	}
}

// TestPingsKeepReadersAndDropTheSilent: a client that reads answers the
// server's pings and stays, pinged again and again; one that answers no
// ping is closed after a ping's timeout.
func TestPingsKeepReadersAndDropTheSilent(t *testing.T) {
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1}
	enc := fixedEncounter{st: st}
	hub := NewHub(Config{Events: enc, PingInterval: 50 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
	url := serveWS(t, hub, ServeOptions{Encounter: "e", Table: enc, Viewer: engine.GMViewer(), Since: -1})
	defer hub.Close()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()

	var pings atomic.Int32
	reader, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{OnPingReceived: func(context.Context, []byte) bool {
		pings.Add(1)
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.CloseNow()
	if _, _, err := reader.Read(ctx); err != nil { // the snapshot
		t.Fatal(err)
	}
	// The reader reads on (and answers pings) until the connection ends.
	reading := reader.CloseRead(ctx)
	silent, _, err := websocket.Dial(ctx, url, nil) // never reads: answers no ping
	if err != nil {
		t.Fatal(err)
	}
	defer silent.CloseNow()

	patience.Until(t, "the silent socket's end, the reader's alone left", func() bool { return hub.Count("e") == 1 })
	time.Sleep(500 * time.Millisecond)
	if reading.Err() != nil {
		t.Fatal("the reader was dropped")
	}
	if n := pings.Load(); n < 3 {
		t.Fatalf("the reader was pinged %d times", n)
	}
}
