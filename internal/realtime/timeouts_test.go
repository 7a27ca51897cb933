package realtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
)

// A socket outlives the HTTP server's read and write timeouts, which bound
// requests: after them it still receives updates and its commands are
// still read and answered.
func TestSocketOutlivesServerTimeouts(t *testing.T) {
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1}
	enc := fixedEncounter{st: st}
	hub := NewHub(Config{Events: enc})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub.Serve(w, r, ServeOptions{Encounter: "e", Table: enc, Viewer: engine.GMViewer(), Since: -1})
	}))
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	srv.Start()
	defer srv.Close()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, _, err := c.Read(ctx); err != nil { // the snapshot
		t.Fatal(err)
	}
	time.Sleep(time.Second) // past both timeouts
	st.Seq = 1
	hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 1, Events: []engine.Event{{Seq: 1, Kind: "tick"}}})
	hub.settle("e")
	if _, data, err := c.Read(ctx); err != nil || !strings.Contains(string(data), `"events"`) {
		t.Fatalf("an update after the write timeout: %s, %v", data, err)
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"command","id":"late","command":{"kind":"pause"}}`)); err != nil {
		t.Fatal(err)
	}
	_, data, err := c.Read(ctx)
	var m struct{ Type, ID string }
	if err != nil || json.Unmarshal(data, &m) != nil || m.Type != "error" || m.ID != "late" {
		t.Fatalf("a command after the read timeout: %s, %v", data, err)
	}
}
