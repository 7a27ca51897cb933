package deadlines_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// crashing is the store of a worker that dies right after applying a
// fallback, before it marks the wait done.
type crashing struct{ *store.DB }

func (crashing) FinishDeadline(context.Context, int64, string) error {
	return errors.New("killed before marking the deadline done")
}

// TestFallbackAppliesOnceAcrossInstancesAndRestart: an sw-zones encounter
// whose player characters Sam owns waits on Sam's turn under a 24 h
// deadline with the end-turn fallback. Two instances (two play services,
// two workers, one database) tick with a moved clock: before the reminder
// nothing happens; at the reminder exactly one reminder is written; when
// the deadline passes, instance A applies the fallback and dies before
// marking it done; A restarts (a new play service) and both instances tick
// together, before and after A's lease runs out. The turn ends exactly
// once: one command of the wait's, in the log once, and the wait done.
func TestFallbackAppliesOnceAcrossInstancesAndRestart(t *testing.T) {
	ctx := context.Background()
	url := testdb.URL(t)
	open := func() *store.DB {
		db, err := store.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		return db
	}
	dbA, dbB := open(), open()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	reg := rules.Registry()
	sam, err := dbA.CreateUser(ctx, "sam", "not-a-real-hash")
	if err != nil {
		t.Fatal(err)
	}
	c, err := dbA.CreateCampaign(ctx, "async")
	if err != nil {
		t.Fatal(err)
	}
	if err := dbA.SetMember(ctx, c.ID, sam.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(exs, func(e prep.Example) bool { return strings.HasPrefix(e.Name, "sw-zones-") })
	enc, err := prep.Import(ctx, dbA, reg, c.ID, exs[i].Data)
	if err != nil {
		t.Fatal(err)
	}
	svcA := play.New(play.Config{Store: dbA, Rulesets: reg})
	svcB := play.New(play.Config{Store: dbB, Rulesets: reg})
	t.Cleanup(svcB.Close)

	// Sam owns every player character; the GM plays until it is one of
	// theirs to act, with nothing waiting.
	_, st, err := svcA.Current(ctx, enc.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, cb := range st.Core().Combatants {
		if cb.PC {
			if err := dbA.AssignCharacter(ctx, c.ID, cb.ID, sam.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	players, err := dbA.EncounterPlayers(ctx, enc.ID)
	if err != nil || len(players) == 0 {
		t.Fatalf("players %v %v", players, err)
	}
	gm := play.Sender{Viewer: engine.GMViewer()}
	n := 0
	submit := func(cmd engine.Command) {
		t.Helper()
		n++
		if _, err := svcA.Submit(ctx, enc.ID, gm, fmt.Sprint("gm-", n), cmd); err != nil {
			t.Fatalf("%+v: %v", cmd, err)
		}
	}
	submit(engine.NewCommand(engine.KindStart, "", nil))
	for {
		_, st, _ = svcA.Current(ctx, enc.ID)
		b := st.Core()
		if n > 200 || b.Status != engine.StatusRunning {
			t.Fatalf("never a player's turn (status %s)", b.Status)
		}
		switch {
		case b.Waiting():
			submit(engine.NewCommand(engine.KindAcceptDefaults, "", map[string]any{"override": true}))
			continue
		case players[b.Current()] != "":
		default:
			submit(engine.NewCommand("end-turn", b.Current(), nil))
			continue
		}
		break
	}
	waitingOn, startSeq := st.Core().Current(), st.Core().Seq

	start := time.Now()
	if err := dbA.SetDeadline(ctx, enc.ID, "", store.DeadlineSetting{After: 24 * time.Hour, RemindBefore: 2 * time.Hour, Fallback: store.FallbackNextTurn}, start); err != nil {
		t.Fatal(err)
	}
	var clock struct {
		sync.Mutex
		at time.Time
	}
	setClock := func(d time.Duration) { clock.Lock(); clock.at = start.Add(d); clock.Unlock() }
	now := func() time.Time { clock.Lock(); defer clock.Unlock(); return clock.at }
	wA := &deadlines.Worker{Store: crashing{dbA}, Table: svcA, Now: now, Lease: time.Minute}
	wB := &deadlines.Worker{Store: dbB, Table: svcB, Now: now, Lease: time.Minute}
	both := func(ws ...*deadlines.Worker) {
		t.Helper()
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Go(func() { _ = w.Tick(ctx) })
		}
		wg.Wait()
	}
	fallbacks := func() (cmds, events int) {
		t.Helper()
		evs, err := dbA.Events(ctx, enc.ID, startSeq, 1000)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, ev := range evs {
			if strings.HasPrefix(ev.Command, "deadline-") {
				ids[ev.Command] = true
				events++
			}
		}
		return len(ids), events
	}
	reminded := func() (n int) {
		t.Helper()
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM deadlines WHERE encounter_id = $1 AND reminded_at IS NOT NULL`, enc.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	setClock(time.Hour)
	both(wA, wB)
	if c, _ := fallbacks(); c != 0 || reminded() != 0 {
		t.Fatalf("an hour in: %d fallbacks, %d reminders", c, reminded())
	}
	setClock(23 * time.Hour)
	both(wA, wB)
	both(wA, wB)
	if c, _ := fallbacks(); c != 0 || reminded() != 1 {
		t.Fatalf("at the reminder: %d fallbacks, %d reminders", c, reminded())
	}

	// The deadline passes: A applies the fallback and dies before marking
	// it done (B, ticking later, finds it leased).
	setClock(25 * time.Hour)
	if err := wA.Tick(ctx); err == nil {
		t.Fatal("the crashing worker finished the deadline")
	}
	if err := wB.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	cmds, evs := fallbacks()
	if cmds != 1 || evs == 0 {
		t.Fatalf("after the deadline: %d fallback commands", cmds)
	}
	_, st, _ = svcB.Current(ctx, enc.ID)
	if slices.Contains(st.Core().Acting, waitingOn) && st.Core().Seq == startSeq {
		t.Fatal("the turn did not end")
	}

	// A restarts; both tick, within A's lease and after it.
	svcA.Close()
	svcA2 := play.New(play.Config{Store: dbA, Rulesets: reg})
	t.Cleanup(svcA2.Close)
	wA2 := &deadlines.Worker{Store: dbA, Table: svcA2, Now: now, Lease: time.Minute}
	setClock(25*time.Hour + 30*time.Second)
	both(wA2, wB)
	setClock(25*time.Hour + 2*time.Minute)
	both(wA2, wB)
	both(wA2, wB)
	if c, e := fallbacks(); c != 1 || e != evs {
		t.Fatalf("after the restart: %d fallback commands, %d events (were %d)", c, e, evs)
	}
	var outcome string
	if err := conn.QueryRow(ctx, `SELECT coalesce(max(outcome), '') FROM deadlines WHERE encounter_id = $1 AND seq = $2`,
		enc.ID, startSeq).Scan(&outcome); err != nil {
		t.Fatal(err)
	}
	if outcome != "applied" {
		t.Fatalf("the wait ended %q", outcome)
	}
}
