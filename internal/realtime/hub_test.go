package realtime

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
)

// TestSlowClientIsDroppedOthersKeepUp publishes far more than a client that
// never reads can buffer: it is disconnected, and a reading client still
// receives every update in order.
func TestSlowClientIsDroppedOthersKeepUp(t *testing.T) {
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1}
	enc := fixedEncounter{st: st}
	hub := NewHub(Config{Events: enc, SendQueue: 16})
	url := serveWS(t, hub, ServeOptions{Encounter: "e", Table: enc, Viewer: engine.GMViewer(), Since: -1})
	ctx := context.Background()
	dialSnapshot(t, ctx, url) // the slow client: it never reads again
	fast := dialSnapshot(t, ctx, url)

	const updates = 400
	got := make(chan int64, updates)
	var received atomic.Int64
	go func() {
		for {
			_, data, err := fast.Read(ctx)
			if err != nil {
				close(got)
				return
			}
			var m struct{ Seq int64 }
			_ = json.Unmarshal(data, &m)
			received.Store(m.Seq)
			got <- m.Seq
		}
	}()
	big := strings.Repeat("x", 64<<10) // large frames fill the slow client's socket buffers
	for i := int64(1); i <= updates; i++ {
		// A reading client keeps up, however busy the machine: never let it
		// fall more than half its queue behind (the slow one never reads).
		for deadline := patience.Deadline(); received.Load() < i-8 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Microsecond)
		}
		st.Seq = i
		hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: i,
			Events: []engine.Event{{Seq: i, Kind: "tick", Text: big}}})
		hub.settle("e")
	}
	for want := int64(1); want <= updates; want++ {
		select {
		case seq, ok := <-got:
			if !ok {
				t.Fatalf("fast client disconnected at update %d", want)
			}
			if seq != want {
				t.Fatalf("fast client got seq %d, want %d", seq, want)
			}
		case <-time.After(patience.Hang()):
			t.Fatalf("fast client stalled at update %d", want)
		}
	}
	if n := hub.Count("e"); n != 1 {
		t.Fatalf("%d clients connected, want the slow one dropped", n)
	}
	hub.Close()
}
