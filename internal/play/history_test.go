package play_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// longEncounter is an sw-zones encounter played for many events.
type longEncounter struct {
	db      *store.DB
	id      string
	rs      engine.Ruleset
	initial []byte
	// live holds, when recorded, the state the engine decided after each
	// command (not a fold), keyed by the seq the command reached.
	live map[int64]string
	seq  int64
}

// generate plays the goblin ford with the real sw-zones ruleset through
// engine.Decide, seeded dice and store.Append until it has at least n
// events: every combatant moves to a random adjacent zone when it may (never
// out of a melee, so nobody falls and the fight never ends) or ends its turn.
func generate(tb testing.TB, n int64, record bool) *longEncounter {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(db.Close)
	reg := rules.Registry()
	exs, err := prep.Examples()
	if err != nil {
		tb.Fatal(err)
	}
	i := slices.IndexFunc(exs, func(e prep.Example) bool { return e.Name == "sw-zones-goblin-ford" })
	if i < 0 {
		tb.Fatal("no goblin ford example")
	}
	c, err := db.CreateCampaign(ctx, "long")
	if err != nil {
		tb.Fatal(err)
	}
	enc, err := prep.Import(ctx, db, reg, c.ID, exs[i].Data)
	if err != nil {
		tb.Fatal(err)
	}
	rs, err := reg.Get(enc.Ruleset)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := rs.Decode(enc.Initial)
	if err != nil {
		tb.Fatal(err)
	}
	le := &longEncounter{db: db, id: enc.ID, rs: rs, initial: enc.Initial}
	if record {
		le.live = map[int64]string{0: snapshotOf(tb, st)}
	}
	roller := dice.NewRoller(dice.NewSeeded(2024))
	pick := rand.New(rand.NewPCG(6, 6))
	gm := engine.GMViewer()
	for k := 0; st.Core().Seq < n; k++ {
		cmd := nextCommand(rs, st, pick)
		events, next, err := engine.Decide(rs, st, gm, fmt.Sprintf("g%d", k), cmd, roller)
		if err != nil {
			tb.Fatalf("command %d %s %s: %v", k, cmd.Kind, cmd.Args, err)
		}
		snap, err := engine.Snapshot(next)
		if err != nil {
			tb.Fatal(err)
		}
		a := store.Append{EncounterID: enc.ID, ExpectSeq: st.Core().Seq, CommandID: fmt.Sprintf("g%d", k),
			Events: events, Status: string(next.Core().Status)}
		if store.SnapshotDue(st.Core().Seq, next.Core().Seq) {
			a.Snapshot = snap
		}
		if _, err := db.AppendCommand(ctx, a); err != nil {
			tb.Fatal(err)
		}
		st = next
		if record {
			le.live[st.Core().Seq] = string(snap)
		}
		if st.Core().Status == engine.StatusFinished {
			tb.Fatalf("the generated encounter ended at seq %d", st.Core().Seq)
		}
	}
	le.seq = st.Core().Seq
	return le
}

func nextCommand(rs engine.Ruleset, st engine.State, pick *rand.Rand) engine.Command {
	b := st.Core()
	if b.Status == engine.StatusSetup {
		return engine.NewCommand(engine.KindStart, "", nil)
	}
	if len(b.Pending) > 0 {
		d := b.Pending[0]
		choice := d.Default
		if choice == "" {
			choice = d.Options[0].Value
		}
		return engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": choice})
	}
	cur := b.Current()
	var moves []engine.Choice
	for _, a := range rs.Actions(st, engine.GMViewer()) {
		if a.Actor == cur && a.Kind == "move" && len(a.Fields) == 1 {
			moves = a.Fields[0].Options
		}
	}
	if len(moves) > 0 && pick.IntN(3) > 0 {
		return engine.NewCommand("move", cur, map[string]any{"to": moves[pick.IntN(len(moves))].Value})
	}
	return engine.NewCommand("end-turn", cur, nil)
}

func snapshotOf(tb testing.TB, st engine.State) string {
	tb.Helper()
	raw, err := engine.Snapshot(st)
	if err != nil {
		tb.Fatal(err)
	}
	return string(raw)
}

// TestReplayEqualsLive: the state rebuilt for seq N (nearest snapshot, then
// a fold) equals the live state at N, on and off snapshot boundaries, and
// equals a fold of the whole log from the initial state.
func TestReplayEqualsLive(t *testing.T) {
	ctx := context.Background()
	le := generate(t, 2000, true)
	snaps, err := le.db.SnapshotSeqs(ctx, le.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) < 8 {
		t.Fatalf("only %d snapshots for %d events", len(snaps), le.seq)
	}
	// The points to check: every snapshot, one past and one before it,
	// multiples of K whether or not a command ended there, random points,
	// the start and the end.
	points := map[int64]bool{0: true, 1: true, le.seq: true}
	for _, s := range snaps {
		points[s], points[s-1], points[s+1] = true, true, true
	}
	for k := int64(store.SnapshotEvery); k < le.seq; k += store.SnapshotEvery {
		points[k], points[k+store.SnapshotEvery/2] = true, true
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		points[1+r.Int64N(le.seq)] = true
	}
	// A fold of everything from the initial state, for points where no
	// command ended.
	all, err := le.db.Events(ctx, le.id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	folded := map[int64]string{}
	st, _ := le.rs.Decode(le.initial)
	for _, ev := range all {
		if err := engine.Apply(le.rs, st, ev); err != nil {
			t.Fatal(err)
		}
		if points[ev.Seq] {
			folded[ev.Seq] = snapshotOf(t, st)
		}
	}
	folded[0] = le.live[0]
	onCommand, offCommand := 0, 0
	for n := range points {
		if n > le.seq {
			continue
		}
		got, err := play.StateAt(ctx, le.db, le.rs, le.id, n)
		if err != nil {
			t.Fatalf("state at %d: %v", n, err)
		}
		g := snapshotOf(t, got)
		if live, ok := le.live[n]; ok {
			onCommand++
			if g != live {
				t.Fatalf("replay to %d differs from the live state:\n%s\n%s", n, g, live)
			}
		} else {
			offCommand++
		}
		if g != folded[n] {
			t.Fatalf("replay to %d differs from a fold from the start:\n%s\n%s", n, g, folded[n])
		}
	}
	if onCommand < 10 || offCommand < 5 {
		t.Fatalf("checked %d points where a command ended and %d inside commands", onCommand, offCommand)
	}
	if _, err := play.StateAt(ctx, le.db, le.rs, le.id, le.seq+1); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("state past the end: %v", err)
	}
}

// TestRewindThroughService: the GM's rewind through the play service
// restores the state from before the undone command, persists it and
// publishes it; the log keeps the action and its undo.
func TestRewindThroughService(t *testing.T) {
	ctx := context.Background()
	le := generate(t, 250, true)
	var got []play.Update
	svc := play.New(play.Config{Store: le.db, Rulesets: rules.Registry(), Publisher: play.PublisherFunc(func(u play.Update) { got = append(got, u) })})
	defer svc.Close()
	gm := engine.GMViewer()
	_, st, err := svc.Current(ctx, le.id)
	if err != nil {
		t.Fatal(err)
	}
	before := st.Core().Seq
	cmd := nextCommand(le.rs, st, rand.New(rand.NewPCG(9, 9)))
	after, err := svc.Submit(ctx, le.id, play.Sender{Viewer: gm}, "act", cmd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Submit(ctx, le.id, play.Sender{Viewer: engine.PlayerViewer("brak")}, "p-undo", engine.NewCommand("rewind", "", nil)); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player's rewind: %v", err)
	}
	seq, err := svc.Submit(ctx, le.id, play.Sender{Viewer: gm}, "undo", engine.NewCommand("rewind", "", nil))
	if err != nil {
		t.Fatal(err)
	}
	if seq != after+1 {
		t.Fatalf("rewind reached seq %d, want %d", seq, after+1)
	}
	_, now, err := svc.Current(ctx, le.id)
	if err != nil {
		t.Fatal(err)
	}
	restored, err := engine.Clone(le.rs, now)
	if err != nil {
		t.Fatal(err)
	}
	restored.Core().Seq = before
	if snapshotOf(t, restored) != le.live[before] {
		t.Fatalf("after the rewind:\n%s\nwant\n%s", snapshotOf(t, restored), le.live[before])
	}
	// Persisted: a fresh rebuild agrees with the live state.
	rebuilt, err := play.StateAt(ctx, le.db, le.rs, le.id, seq)
	if err != nil {
		t.Fatal(err)
	}
	if snapshotOf(t, rebuilt) != snapshotOf(t, now) {
		t.Fatal("the rebuilt state differs from the live one after a rewind")
	}
	if len(got) != 2 || got[1].Events[0].Kind != engine.KindRewound {
		t.Fatalf("published %d updates", len(got))
	}
	log, err := le.db.Events(ctx, le.id, before, 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(log)) != seq-before || log[0].Command != "act" || log[len(log)-1].Command != "undo" {
		t.Fatalf("log after the rewind: %d events", len(log))
	}
}

// BenchmarkReplay rebuilds the state at random points of a generated
// 10,000-event sw-zones encounter: from the nearest snapshot (what the
// server does), and, for comparison, from the initial state.
func BenchmarkReplay(b *testing.B) {
	ctx := context.Background()
	start := time.Now()
	le := generate(b, 10000, false)
	b.Logf("generated %d events in %v", le.seq, time.Since(start).Round(time.Millisecond))
	b.Run("snapshots", func(b *testing.B) {
		r := rand.New(rand.NewPCG(3, 4))
		for b.Loop() {
			if _, err := play.StateAt(ctx, le.db, le.rs, le.id, 1+r.Int64N(le.seq)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("from-start", func(b *testing.B) {
		r := rand.New(rand.NewPCG(3, 4))
		for b.Loop() {
			if _, err := play.StateAt(ctx, initialOnly{le.db}, le.rs, le.id, 1+r.Int64N(le.seq)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// initialOnly ignores the history snapshots: every rebuild folds from seq 0.
type initialOnly struct{ *store.DB }

func (s initialOnly) SnapshotAt(ctx context.Context, id string, _ int64) (int64, []byte, error) {
	return s.DB.SnapshotAt(ctx, id, 0)
}
