package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// openGrouping opens a database whose commands wait up to wait for others
// to share their transaction, one transaction at a time: commands that
// arrive together are written together.
func openGrouping(t *testing.T, wait time.Duration) *store.DB {
	t.Helper()
	db, err := store.OpenWith(context.Background(), testdb.URL(t), store.CommitConfig{MaxWait: wait, InFlight: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// Commands of many encounters that arrive together share transactions, and
// one command's failure — a duplicate id, a stale seq, a changed access
// version, an unknown encounter — fails only that command.
func TestGroupCommitFailsOnlyTheFaultyCommand(t *testing.T) {
	db := openGrouping(t, 50*time.Millisecond)
	ctx := context.Background()
	const n = 24
	encs := make([]store.Encounter, n)
	for i := range encs {
		encs[i] = newEncounter(t, db)
		// Every encounter is at seq 1, with command "first" recorded.
		if _, err := appendSeq(ctx, db, store.Append{EncounterID: encs[i].ID, CommandID: "first", Events: events(1, 1)}); err != nil {
			t.Fatal(err)
		}
	}
	before := db.CommitStats()
	access, err := db.Encounter(ctx, encs[3].ID)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		seq int64
		err error
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		a := store.Append{EncounterID: encs[i].ID, ExpectSeq: 1, CommandID: fmt.Sprintf("second-%d", i), Events: events(2, 2)}
		switch i {
		case 1:
			a.CommandID = "first" // a resend of an applied command
		case 2:
			a.ExpectSeq, a.Events = 0, events(1, 2) // decided on a stale state
		case 3:
			a.Access = access.Access + 1 // the sender's access is not the campaign's
		case 4:
			a.EncounterID = store.NewID() // gone
		case 5:
			a.Snapshot = []byte(`{"seq": 3}`)
		}
		wg.Go(func() {
			r, err := db.AppendCommand(ctx, a)
			results[i] = result{r.Seq, err}
		})
	}
	wg.Wait()
	for i, r := range results {
		var ok bool
		switch i {
		case 1:
			ok = errors.Is(r.err, store.ErrDuplicateCommand) && r.seq == 1
		case 2:
			ok = fray.ErrorCode(r.err) == fray.ECONFLICT && !errors.Is(r.err, store.ErrDuplicateCommand)
		case 3:
			ok = errors.Is(r.err, store.ErrAccessChanged)
		case 4:
			ok = fray.ErrorCode(r.err) == fray.ENOTFOUND
		default:
			ok = r.err == nil && r.seq == 3
		}
		if !ok {
			t.Errorf("command %d: seq %d, %v", i, r.seq, r.err)
		}
	}
	for i, e := range encs {
		got, err := db.Encounter(ctx, e.ID)
		want := int64(3)
		if i >= 1 && i <= 4 {
			want = 1
		}
		if err != nil || got.Seq != want {
			t.Errorf("encounter %d is at seq %d (%v), want %d", i, got.Seq, err, want)
		}
	}
	if at, _, _ := db.SnapshotAt(ctx, encs[5].ID, 3); at != 3 {
		t.Errorf("the snapshot given with command 5 was not kept (latest at %d)", at)
	}
	st := db.CommitStats()
	txs, cmds := st.Transactions-before.Transactions, st.Commands-before.Commands
	if cmds != n || txs >= n/2 || st.Alone != before.Alone {
		t.Errorf("%d commands in %d transactions, %d written alone: not grouped", cmds, txs, st.Alone-before.Alone)
	}
}

// A command whose encounter is locked against appends (Settle, a
// carry-over decision) waits for the lock alone: the others of its batch
// commit without it.
func TestGroupCommitLockedEncounterWaitsAlone(t *testing.T) {
	db := openGrouping(t, 20*time.Millisecond)
	ctx := context.Background()
	locked, free := newEncounter(t, db), newEncounter(t, db)
	// What Settle and DecideCarryOver do, held open.
	tx, err := db.LockEncounterForTest(ctx, locked.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Released however the test ends: a failure must not leave the waiting
	// command and the pool's Close blocked behind the lock.
	defer tx.Rollback(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := appendSeq(ctx, db, store.Append{EncounterID: locked.ID, CommandID: "l", Events: events(1, 1)})
		done <- err
	}()
	// Only once the locked encounter's command waits alone for its lock —
	// the moment it could hold up every other encounter's commit.
	for deadline := patience.Deadline(); db.CommitStats().Alone == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the locked encounter's command never came to wait alone for its lock")
		}
	}
	// Were it held up, it would wait until the lock goes, which is only
	// after it returns: a hang, which the step's deadline turns into an error.
	fctx, cancel := patience.Context(ctx)
	defer cancel()
	if _, err := appendSeq(fctx, db, store.Append{EncounterID: free.ID, CommandID: "f", Events: events(1, 1)}); err != nil {
		t.Fatalf("the free encounter's command, while the other waits for its lock: %v", err)
	}
	select {
	case err := <-done:
		t.Fatalf("the locked encounter's command did not wait for the lock: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the locked encounter's command after the lock: %v", err)
	}
	if got, _ := db.Encounter(ctx, locked.ID); got.Seq != 1 {
		t.Fatalf("locked encounter at seq %d", got.Seq)
	}
}
