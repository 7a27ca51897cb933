package engine_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

// table is a toy encounter played through DecideWith with an in-memory
// history, recording the state after every command.
type table struct {
	t       *testing.T
	initial []byte
	st      engine.State
	events  []engine.Event
	after   map[int64]string // snapshot after each command, by the seq it reached
	n       int
}

func newTable(t *testing.T) *table {
	st := newToy(t)
	return &table{t: t, initial: []byte(snap(t, st)), st: st, after: map[int64]string{0: snap(t, st)}}
}

func (tb *table) Events(after, upto int64) ([]engine.Event, error) {
	var out []engine.Event
	for _, ev := range tb.events {
		if ev.Seq > after && ev.Seq <= upto {
			out = append(out, ev)
		}
	}
	return out, nil
}

func (tb *table) StateAt(seq int64) (engine.State, error) {
	st, err := enginetest.Toy{}.Decode(tb.initial)
	if err != nil {
		return nil, err
	}
	evs, _ := tb.Events(0, seq)
	return st, engine.Replay(enginetest.Toy{}, st, evs)
}

func (tb *table) try(v engine.Viewer, cmd engine.Command, faces ...int) error {
	tb.n++
	events, next, err := engine.DecideWith(enginetest.Toy{}, tb.st, v, fmt.Sprintf("c%d", tb.n), cmd, dice.NewRoller(dice.NewFixed(faces...)), tb)
	if err != nil {
		return err
	}
	tb.events = append(tb.events, events...)
	tb.st = next
	tb.after[next.Core().Seq] = snap(tb.t, next)
	return nil
}

func (tb *table) do(v engine.Viewer, cmd engine.Command, faces ...int) {
	tb.t.Helper()
	if err := tb.try(v, cmd, faces...); err != nil {
		tb.t.Fatalf("%s: %v", cmd.Kind, err)
	}
}

func (tb *table) last() engine.Event { return tb.events[len(tb.events)-1] }

func rewind(steps int) engine.Command {
	return engine.NewCommand(engine.KindRewind, "", map[string]any{"steps": steps})
}

// atSeq is a snapshot with its seq replaced, to compare states that differ
// only in how many events led to them.
func atSeq(t *testing.T, st engine.State, seq int64) string {
	t.Helper()
	c, err := engine.Clone(enginetest.Toy{}, st)
	if err != nil {
		t.Fatal(err)
	}
	c.Core().Seq = seq
	return snap(t, c)
}

func TestRewindRestoresTheExactPriorState(t *testing.T) {
	gm := engine.GMViewer()
	tb := newTable(t)
	tb.do(gm, engine.NewCommand("start", "", nil))
	started := tb.st.Core().Seq
	tb.do(gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 6)
	beforeEnd := tb.st.Core().Seq
	tb.do(gm, engine.NewCommand("end-turn", "hero", nil))
	hitSeq := beforeEnd // the hit is one event

	// Undo the end of the turn: the state is the one after the hit.
	tb.do(gm, rewind(1))
	ev := tb.last()
	if ev.Kind != engine.KindRewound || ev.Command == "" {
		t.Fatalf("rewind emitted %+v", ev)
	}
	var d engine.Rewound
	if err := ev.Decode(&d); err != nil {
		t.Fatal(err)
	}
	if d.To != beforeEnd || !reflect.DeepEqual(d.Undone, []int64{beforeEnd + 1}) {
		t.Fatalf("rewound to %d undoing %v, want %d undoing [%d]", d.To, d.Undone, beforeEnd, beforeEnd+1)
	}
	if got, want := atSeq(t, tb.st, beforeEnd), tb.after[beforeEnd]; got != want {
		t.Fatalf("after rewind:\n%s\nwant\n%s", got, want)
	}
	if tb.st.Core().Seq != ev.Seq {
		t.Fatalf("rewound state at seq %d, the rewind event is %d", tb.st.Core().Seq, ev.Seq)
	}
	// Undo again: the hit goes too (the rewind itself is not an action).
	tb.do(gm, rewind(1))
	if got, want := atSeq(t, tb.st, started), tb.after[started]; got != want {
		t.Fatalf("after second rewind:\n%s\nwant\n%s", got, want)
	}
	if err := tb.last().Decode(&d); err != nil || !reflect.DeepEqual(d.Undone, []int64{hitSeq}) {
		t.Fatalf("second rewind undid %v (%v), want [%d]", d.Undone, err, hitSeq)
	}
	// The orc's hit points are whole again: the map was replaced, not merged.
	if hp := tb.st.(*enginetest.State).HP["orc"]; hp != 2 {
		t.Fatalf("orc has %d hp after undoing the hit", hp)
	}
	// The start cannot be undone.
	err := tb.try(gm, rewind(1))
	if fray.ErrorCode(err) != fray.EILLEGAL || !strings.Contains(err.Error(), "start") {
		t.Fatalf("rewinding past the start: %v", err)
	}
	// Replaying the whole log, rewinds included, gives the live state.
	replayed, err := tb.StateAt(tb.st.Core().Seq)
	if err != nil {
		t.Fatal(err)
	}
	if snap(t, replayed) != snap(t, tb.st) {
		t.Fatalf("replay differs from live:\n%s\n%s", snap(t, replayed), snap(t, tb.st))
	}
	// Play goes on after a rewind, and a later rewind of several actions
	// returns to the state right after the start.
	tb.do(gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 5)
	tb.do(gm, engine.NewCommand("end-turn", "hero", nil))
	if err := tb.try(gm, rewind(3)); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("rewinding 3 of 2 actions: %v", err)
	}
	tb.do(gm, rewind(2))
	if got, want := atSeq(t, tb.st, started), tb.after[started]; got != want {
		t.Fatalf("after rewinding two:\n%s\nwant\n%s", got, want)
	}
}

func TestRewindIsRefused(t *testing.T) {
	gm := engine.GMViewer()
	tb := newTable(t)
	if err := tb.try(gm, rewind(1)); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("rewind before the start: %v", err)
	}
	tb.do(gm, engine.NewCommand("start", "", nil))
	tb.do(gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 6)
	if err := tb.try(engine.PlayerViewer("hero"), rewind(1)); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player's rewind: %v", err)
	}
	if err := tb.try(gm, rewind(0)); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("rewind 0 steps: %v", err)
	}
	if err := tb.try(gm, engine.NewCommand(engine.KindRewind, "", map[string]any{"to": 1})); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("rewind with an unknown field: %v", err)
	}
	// Without a history, the engine cannot rewind (and says so as an internal fault).
	if _, _, err := engine.Decide(enginetest.Toy{}, tb.st, gm, "x", rewind(1), dice.NewRoller(dice.NewFixed())); err == nil || fray.ErrorCode(err) != fray.EINTERNAL {
		t.Fatalf("rewind without history: %v", err)
	}
}

// TestRewindReopensAFinishedEncounter: undoing the action that ended an
// encounter makes it the running encounter it was, and it can end again.
func TestRewindReopensAFinishedEncounter(t *testing.T) {
	gm := engine.GMViewer()
	tb := newTable(t)
	tb.do(gm, engine.NewCommand("start", "", nil))
	tb.do(gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 6)
	beforeEnd := tb.st.Core().Seq
	tb.do(gm, engine.NewCommand("end", "", map[string]any{"winner": "a"}))
	if tb.st.Core().Status != engine.StatusFinished {
		t.Fatalf("status %s after the end", tb.st.Core().Status)
	}
	if err := tb.try(gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 6); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("a hit after the end: %v", err)
	}
	offered := false
	for _, a := range engine.Project(enginetest.Toy{}, tb.st, gm).Actions {
		offered = offered || a.Kind == engine.KindRewind
	}
	if !offered {
		t.Fatal("the GM is not offered to reopen the finished encounter")
	}
	tb.do(gm, rewind(1))
	b := tb.st.Core()
	if b.Status != engine.StatusRunning || b.Outcome != nil {
		t.Fatalf("after reopening: status %s outcome %+v", b.Status, b.Outcome)
	}
	if got, want := atSeq(t, tb.st, beforeEnd), tb.after[beforeEnd]; got != want {
		t.Fatalf("reopened state:\n%s\nwant\n%s", got, want)
	}
	tb.do(gm, engine.NewCommand("end", "", map[string]any{"winner": "b"}))
	if b := tb.st.Core(); b.Status != engine.StatusFinished || b.Outcome.Winner != "b" {
		t.Fatalf("ended again: %s %+v", b.Status, b.Outcome)
	}
}

func TestRewindEventHidesItsSnapshotFromPlayers(t *testing.T) {
	gm := engine.GMViewer()
	tb := newTable(t)
	tb.do(gm, engine.NewCommand("start", "", nil))
	tb.do(gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 6)
	tb.do(gm, rewind(1))
	ev := tb.last()
	pv, ok := engine.VisibleEvent(tb.st, engine.PlayerViewer("hero"), ev)
	if !ok {
		t.Fatal("players do not see the rewind")
	}
	if strings.Contains(string(pv.Data), "snapshot") || strings.Contains(string(pv.Data), "spy") {
		t.Fatalf("the player's rewind event leaks the state: %s", pv.Data)
	}
	var d engine.Rewound
	if err := pv.Decode(&d); err != nil || len(d.Undone) != 1 {
		t.Fatalf("the player's rewind event lost what was undone: %s", pv.Data)
	}
	if gv, _ := engine.VisibleEvent(tb.st, gm, ev); !strings.Contains(string(gv.Data), "snapshot") {
		t.Fatal("the GM's rewind event has no snapshot")
	}
	undone := engine.Undone(tb.events)
	if len(undone) != 1 || !undone[ev.Seq-1] {
		t.Fatalf("Undone = %v", undone)
	}
}

func TestRevealEvent(t *testing.T) {
	gm, player := engine.GMViewer(), engine.PlayerViewer("hero")
	tb := newTable(t)
	tb.do(gm, engine.NewCommand("start", "", nil))
	tb.do(gm, engine.NewCommand("end-turn", "hero", nil))
	tb.do(gm, engine.NewCommand("end-turn", "orc", nil)) // the spy's turn starts: secret
	tb.do(gm, engine.NewCommand("hit", "spy", map[string]any{"target": "hero"}), 6)
	secret := tb.last()
	if !secret.Secret || !engine.SecretFromPlayers(secret) {
		t.Fatalf("the hidden spy's hit is not secret: %+v", secret)
	}
	tb.do(gm, engine.NewCommand("ask", "", nil))
	asked := tb.last()
	if _, ok := engine.VisibleEvent(tb.st, player, secret); ok {
		t.Fatal("a player sees the hidden spy's hit")
	}
	// Players may not reveal; non-secret events cannot be revealed.
	if err := tb.try(player, engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": secret.Seq})); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player's reveal: %v", err)
	}
	if err := tb.try(gm, engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": 1})); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("revealing a public event: %v", err)
	}
	if err := tb.try(gm, engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": 999})); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("revealing a future event: %v", err)
	}
	tb.do(gm, engine.NewCommand("answer", "", map[string]any{"decision": fmt.Sprintf("d%d", asked.Seq), "choice": "yes"}))
	tb.do(gm, engine.NewCommand("end", "", nil))
	// Still secret after the fight, until the GM reveals it — which the GM
	// may do once the encounter is over.
	if _, ok := engine.VisibleEvent(tb.st, player, secret); ok {
		t.Fatal("the secret leaked when the encounter ended")
	}
	tb.do(gm, engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": secret.Seq}))
	rev := tb.last()
	if rev.Secret || !strings.Contains(rev.Text, secret.Text) {
		t.Fatalf("reveal event %+v", rev)
	}
	if got, ok := engine.VisibleEvent(tb.st, player, secret); !ok || len(got.Rolls) != 1 {
		t.Fatalf("revealed event for the player: %+v %v", got, ok)
	}
	if err := tb.try(gm, engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": secret.Seq})); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("revealing twice: %v", err)
	}
	// A decision's context is GM-only until revealed.
	pv, _ := engine.VisibleEvent(tb.st, player, asked)
	if strings.Contains(string(pv.Data), "note") {
		t.Fatal("a player sees the decision's context")
	}
	tb.do(gm, engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": asked.Seq}))
	pv, _ = engine.VisibleEvent(tb.st, player, asked)
	if !strings.Contains(string(pv.Data), "note") {
		t.Fatal("the revealed decision's context is still hidden")
	}
	// The reveal survives a round trip through a snapshot.
	again, err := enginetest.Toy{}.Decode([]byte(snap(t, tb.st)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := engine.VisibleEvent(again, player, secret); !ok {
		t.Fatal("the reveal was lost in the snapshot")
	}
}

func TestInvolves(t *testing.T) {
	ev := engine.NewEvent("hit", "hero", "", map[string]any{"target": "orc", "n": 2, "list": []string{"spy"}},
		rollOf("Soak", 6, 3)).With("orc")
	ev.Rolls[0].Who = "troll"
	// The data names spy, but only the ruleset says whom an event involves.
	for id, want := range map[string]bool{"hero": true, "orc": true, "spy": false, "troll": true, "or": false, "": true, "2": false} {
		if got := engine.Involves(ev, id); got != want {
			t.Errorf("Involves(%q) = %v", id, got)
		}
	}
}
