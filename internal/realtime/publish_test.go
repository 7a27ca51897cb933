package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
)

// TestPublishSendsOnlyWhatChanged: an update a viewer can see nothing of —
// no event, the same projection, the same fragments — sends that viewer
// nothing; a projection that did not change is left out of the frame, and
// a page gets only the fragments that changed (and the log's new entries).
// The GM, who sees everything, gets the events as they were encoded for
// the log.
func TestPublishSendsOnlyWhatChanged(t *testing.T) {
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1, Combatants: []engine.Combatant{
		{ID: "ana", Name: "Ana", Side: "a", PC: true}, {ID: "spy", Name: "Spy", Side: "b", Hidden: true},
	}}
	render := func(_ context.Context, v engine.View, events []engine.Event, _ bool) (map[string]string, error) {
		return map[string]string{"status": fmt.Sprint("round ", v.Round), "order": "same", "log": fmt.Sprint(len(events), " entries")}, nil
	}
	hub := NewHub(Config{Render: render})
	gm, ana := engine.GMViewer(), engine.PlayerViewer("ana")
	gmView, playerView, playerPage := queued(hub, gm, false, true), queued(hub, ana, false, true), queued(hub, ana, true, false)
	type sent struct {
		Seq    int64
		Events []engine.Event
		View   json.RawMessage
		HTML   map[string]string
		raw    string
	}
	// next is the frame c got from the last update, if any.
	next := func(c *client) (sent, bool) {
		t.Helper()
		frames := c.queuedFrames()
		var f sent
		if len(frames) == 0 {
			return f, false
		}
		if err := json.Unmarshal(frames[0].data, &f); err != nil || len(frames) > 1 {
			t.Fatalf("%d frames from one update: %s (%v)", len(frames), frames[0].data, err)
		}
		f.raw = string(frames[0].data)
		return f, true
	}
	publish := func(ev engine.Event, round int) {
		st.Seq, st.Round = ev.Seq, round
		ev.Text = "something happens"
		enc, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: ev.Seq,
			Events: []engine.Event{ev}, Encoded: [][]byte{enc}})
		hub.settle("e")
	}

	// 1: a visible event; the first update sends everything.
	publish(engine.Event{Seq: 1, Kind: "tick", Actor: "ana"}, 1)
	for _, c := range []*client{gmView, playerView, playerPage} {
		if f, ok := next(c); !ok || f.Seq != 1 || len(f.Events) != 1 {
			t.Fatalf("update 1: %+v %v", f, ok)
		}
	}
	// 2: the hidden spy's secret event, nothing the player sees changes.
	publish(engine.Event{Seq: 2, Kind: "tick", Actor: "spy", Secret: true}, 1)
	if f, ok := next(gmView); !ok || f.Seq != 2 || len(f.Events) != 1 || !strings.Contains(f.raw, `"secret":true`) {
		t.Fatalf("update 2 to the GM: %+v %v", f, ok)
	}
	for _, c := range []*client{playerView, playerPage} {
		if f, ok := next(c); ok {
			t.Fatalf("update 2 (nothing the player can see) reached the player: %s", f.raw)
		}
	}
	// 3: a visible event, and a new round: the player's view and status change.
	publish(engine.Event{Seq: 3, Kind: "tick", Actor: "ana"}, 2)
	if f, ok := next(playerView); !ok || f.Seq != 3 || len(f.Events) != 1 || len(f.View) == 0 {
		t.Fatalf("update 3 to the player's bot: %+v %v", f, ok)
	}
	if f, ok := next(playerPage); !ok || f.Seq != 3 || len(f.HTML) != 2 || f.HTML["status"] != "round 2" || f.HTML["log"] != "1 entries" {
		t.Fatalf("update 3 to the player's page: %+v %v", f, ok)
	}
	if f, ok := next(gmView); !ok || f.Seq != 3 {
		t.Fatalf("update 3 to the GM: %+v %v", f, ok)
	}
	// 4: a visible event that changes nothing else: the events, the log.
	publish(engine.Event{Seq: 4, Kind: "tick", Actor: "ana"}, 2)
	if f, ok := next(playerView); !ok || f.Seq != 4 || len(f.Events) != 1 || f.View != nil {
		t.Fatalf("update 4 to the player's bot: %+v %v", f, ok)
	}
	if f, ok := next(playerPage); !ok || f.Seq != 4 || len(f.HTML) != 1 || f.HTML["log"] != "1 entries" {
		t.Fatalf("update 4 to the player's page: %+v %v", f, ok)
	}
	if f, ok := next(gmView); !ok || f.Seq != 4 {
		t.Fatalf("update 4 to the GM: %+v %v", f, ok)
	}
}

// countingConn counts the writes that reach the network.
type countingConn struct {
	net.Conn
	writes [][]byte
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}

func (c *countingConn) SetWriteDeadline(time.Time) error { return nil }

// Frames written while the connection is corked leave in one write, in
// order; uncorked, each write goes at once.
func TestCorkedFramesLeaveTogether(t *testing.T) {
	under := &countingConn{}
	c := &corkConn{Conn: under, timeout: time.Second}
	c.cork()
	for _, s := range []string{"events", "ack", "ping"} {
		if _, err := c.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if len(under.writes) != 0 {
		t.Fatalf("%d writes while corked", len(under.writes))
	}
	if err := c.uncork(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("later")); err != nil {
		t.Fatal(err)
	}
	if len(under.writes) != 2 || string(under.writes[0]) != "eventsackping" || string(under.writes[1]) != "later" {
		t.Fatalf("writes: %q", under.writes)
	}
}

// The client whose command an update is gets the command's ack in the same
// frame as its events, so both leave in one write (see writeFrame); other
// clients get the events alone, and the reader does not ack again.
func TestOwnCommandAckedWithItsEvents(t *testing.T) {
	hub := NewHub(Config{})
	sender, other := queued(hub, engine.GMViewer(), false, false), queued(hub, engine.GMViewer(), false, false)
	st := &engine.Base{ID: "e", Seq: 7, Status: engine.StatusRunning}
	ev := engine.Event{Seq: 7, Kind: "tick", Command: "cmd-1"}
	hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 7, Events: []engine.Event{ev},
		Origin: sender, CommandID: "cmd-1"})
	hub.settle("e")
	f := sender.queuedFrames()[0]
	if !strings.Contains(string(f.data), `"type":"events"`) || string(f.ack) != `{"type":"ack","id":"cmd-1","seq":7}` {
		t.Fatalf("the sender's frame: data %s, ack %s", f.data, f.ack)
	}
	if !sender.ackedWithEvents("cmd-1") || sender.ackedWithEvents("cmd-2") {
		t.Fatal("the sender's reader would ack cmd-1 again, or not ack its next command")
	}
	if f := other.queuedFrames()[0]; f.ack != nil || other.acked.Load() != nil {
		t.Fatalf("another client got an ack: %s", f.ack)
	}
}

// countingRules counts the projections made of it (engine.Project asks
// every running encounter's ruleset for its actions once).
type countingRules struct {
	nullRules
	projections *atomic.Int32
}

func (r countingRules) Actions(st engine.State, v engine.Viewer) []engine.Action {
	r.projections.Add(1)
	return nil
}

// One update projects once per viewer, however many kinds of client that
// viewer has: the GM's page and the GM's JSON socket share the GM's
// projection, a player's page and the same player's bot theirs.
func TestOneProjectionPerViewer(t *testing.T) {
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1, Seq: 1, Combatants: []engine.Combatant{
		{ID: "ana", Name: "Ana", Side: "a", PC: true}, {ID: "spy", Name: "Spy", Side: "b", Hidden: true},
	}}
	var n atomic.Int32
	hub := NewHub(Config{Render: func(context.Context, engine.View, []engine.Event, bool) (map[string]string, error) { return nil, nil }})
	gm, player := engine.GMViewer(), engine.PlayerViewer("ana")
	queued(hub, gm, true, false)
	queued(hub, player, true, false)
	views := map[*client]int{queued(hub, gm, false, true): 2, queued(hub, player, false, true): 1, queued(hub, engine.PlayerViewer("ana"), false, true): 1}
	hub.Publish(play.Update{EncounterID: "e", Ruleset: countingRules{projections: &n}, State: st, Seq: 1})
	hub.settle("e")
	if n.Load() != 2 {
		t.Fatalf("%d projections for two viewers", n.Load())
	}
	for c, want := range views {
		var m struct{ View engine.View }
		if err := json.Unmarshal(c.queuedFrames()[0].data, &m); err != nil || len(m.View.Combatants) != want {
			t.Fatalf("%s sees %d combatants, want %d (%v): projections shared across viewers", c.viewer.Key(), len(m.View.Combatants), want, err)
		}
	}
}
