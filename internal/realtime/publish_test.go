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
	// what tells, in short, what the frame c got from the last update holds.
	what := func(c *client) string {
		t.Helper()
		frames := c.queuedFrames()
		if len(frames) == 0 {
			return "nothing"
		}
		var f struct {
			Seq    int64
			Events []engine.Event
			View   json.RawMessage
			HTML   map[string]string
		}
		if err := json.Unmarshal(frames[0].data, &f); err != nil || len(frames) > 1 {
			t.Fatalf("%d frames from one update: %s (%v)", len(frames), frames[0].data, err)
		}
		var events []string
		for _, ev := range f.Events {
			if ev.Secret {
				ev.Actor += " (secret)"
			}
			events = append(events, ev.Actor)
		}
		return fmt.Sprintf("seq %d, events %v, view %t, html %v", f.Seq, events, f.View != nil, f.HTML)
	}
	for _, u := range []struct {
		ev            engine.Event
		round         int
		gm, bot, page string // what the GM's bot, the player's bot and the player's page get
	}{
		// A visible event: the first update sends everything.
		{engine.Event{Seq: 1, Actor: "ana"}, 1, "seq 1, events [ana], view true, html map[]", "seq 1, events [ana], view true, html map[]",
			"seq 1, events [ana], view false, html map[log:1 entries order:same status:round 1]"},
		// The hidden spy's secret event: nothing the player sees changes.
		{engine.Event{Seq: 2, Actor: "spy", Secret: true}, 1, "seq 2, events [spy (secret)], view false, html map[]", "nothing", "nothing"},
		// A visible event, and a new round: the views and the status change.
		{engine.Event{Seq: 3, Actor: "ana"}, 2, "seq 3, events [ana], view true, html map[]", "seq 3, events [ana], view true, html map[]",
			"seq 3, events [ana], view false, html map[log:1 entries status:round 2]"},
		// A visible event that changes nothing else: the events, the log.
		{engine.Event{Seq: 4, Actor: "ana"}, 2, "seq 4, events [ana], view false, html map[]", "seq 4, events [ana], view false, html map[]",
			"seq 4, events [ana], view false, html map[log:1 entries]"},
	} {
		st.Seq, st.Round = u.ev.Seq, u.round
		u.ev.Kind, u.ev.Text = "tick", "something happens"
		enc, err := json.Marshal(u.ev)
		if err != nil {
			t.Fatal(err)
		}
		hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: u.ev.Seq,
			Events: []engine.Event{u.ev}, Encoded: [][]byte{enc}})
		hub.settle("e")
		for c, want := range map[*client]string{gmView: u.gm, playerView: u.bot, playerPage: u.page} {
			if got := what(c); got != want {
				t.Errorf("update %d to %s: %s, want %s", u.ev.Seq, c.frameKey(), got, want)
			}
		}
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
