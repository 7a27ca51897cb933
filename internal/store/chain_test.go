package store_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/store"
)

// checkChain recomputes encounter id's chain from its events as stored
// (jsonb, keys reordered) and compares it with the chain kept.
func checkChain(t *testing.T, db *store.DB, url, id string, n int) []store.Chained {
	t.Helper()
	ctx := context.Background()
	chain, err := db.Chain(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(chain) != n {
		t.Fatalf("%d chained, want %d", len(chain), n)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `SELECT body::text FROM events WHERE encounter_id = $1::uuid ORDER BY seq`, id)
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	prev := proof.Genesis(id)
	for i, c := range chain {
		if c.Seq != int64(i+1) {
			t.Fatalf("chain entry %d has seq %d", i, c.Seq)
		}
		d, err := proof.Digest(c.Salt, []byte(bodies[i]))
		if err != nil || d != c.Digest {
			t.Fatalf("event %d: digest of the stored body %s, kept %s (%v)", c.Seq, d, c.Digest, err)
		}
		prev = proof.Link(prev, c.Seq, d)
		if prev != c.Link {
			t.Fatalf("event %d: link %s, kept %s", c.Seq, prev, c.Link)
		}
	}
	if head, err := db.Link(ctx, id, int64(n)); err != nil || head != prev {
		t.Fatalf("head %s, %v; want %s", head, err, prev)
	}
	return chain
}

func TestAppendsAreChained(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	if g, err := db.Link(ctx, e.ID, 0); err != nil || g != proof.Genesis(e.ID) {
		t.Fatalf("link 0 = %s, %v", g, err)
	}
	// The store chains an append that comes without its chain…
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, CommandID: "c1", Events: events(1, 3)}); err != nil {
		t.Fatal(err)
	}
	head := checkChain(t, db, url, e.ID, 3)[2].Link
	// …and keeps the one its owner made.
	bodies, err := store.EncodeEvents(events(4, 2), "c2")
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := proof.Extend(head, 4, bodies)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 3, CommandID: "c2", Events: events(4, 2), Bodies: bodies,
		Prev: head, Chain: sealed}); err != nil {
		t.Fatal(err)
	}
	if got := checkChain(t, db, url, e.ID, 5); got[4].Link != sealed[1].Link || got[3].Salt != sealed[0].Salt {
		t.Fatal("the owner's chain was not kept")
	}
	// A chain that extends another head is refused like a stale seq: the
	// owner reloads and decides again.
	bodies, _ = store.EncodeEvents(events(6, 1), "c3")
	wrong, _ := proof.Extend(head, 6, bodies)
	_, err = db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 5, CommandID: "c3", Events: events(6, 1), Bodies: bodies, Prev: head, Chain: wrong})
	wantCode(t, err, fray.ECONFLICT)
	checkChain(t, db, url, e.ID, 5)
	if chain, err := db.Chain(ctx, e.ID, 3); err != nil || len(chain) != 2 || chain[0].Seq != 4 {
		t.Fatalf("chain after 3: %+v %v", chain, err)
	}
	for _, id := range []string{store.NewID(), "bad"} {
		_, err := db.Chain(ctx, id, 0)
		wantCode(t, err, fray.ENOTFOUND)
	}
	_, err = db.Link(ctx, e.ID, 6)
	wantCode(t, err, fray.ENOTFOUND)
}

// TestOldLogsAreChained: events logged before migration 0014 have no
// chain (the columns it added are null); the first read of a link, an
// append or ChainLogs chains them from the genesis, and appends go on from
// there.
func TestOldLogsAreChained(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	a, b := newEncounter(t, db), newEncounter(t, db)
	for _, e := range []store.Encounter{a, b} {
		if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, CommandID: "c1", Events: events(1, 4)}); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	unchain := func(id string, from int64) {
		t.Helper()
		if _, err := conn.Exec(ctx, `UPDATE events SET salt = NULL, digest = NULL, link = NULL WHERE encounter_id = $1::uuid AND seq >= $2`, id, from); err != nil {
			t.Fatal(err)
		}
	}
	unchain(a.ID, 1)
	unchain(b.ID, 3) // half-chained: the rest goes on from event 2
	kept, err := db.Chain(ctx, b.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	unchain(b.ID, 3)

	// An append to an unchained log chains it first.
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: a.ID, ExpectSeq: 4, CommandID: "c2", Events: events(5, 1)}); err != nil {
		t.Fatal(err)
	}
	checkChain(t, db, url, a.ID, 5)

	unchain(a.ID, 1)
	if n, err := db.ChainLogs(ctx); err != nil || n != 5+2 {
		t.Fatalf("ChainLogs chained %d, %v; want 7", n, err)
	}
	checkChain(t, db, url, a.ID, 5)
	if got := checkChain(t, db, url, b.ID, 4); got[0] != kept[0] || got[1] != kept[1] {
		t.Fatal("ChainLog changed events that were chained")
	}
	if n, err := db.ChainLogs(ctx); err != nil || n != 0 {
		t.Fatalf("ChainLogs again chained %d, %v", n, err)
	}
	// Reading a link chains too.
	unchain(b.ID, 2)
	if _, err := db.Link(ctx, b.ID, 3); err != nil {
		t.Fatal(err)
	}
	checkChain(t, db, url, b.ID, 4)
}

func TestDiceSecretIsKeptOnce(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	first, second := dice.NewSeed(), dice.NewSeed()
	got, err := db.DiceSecret(ctx, e.ID, first)
	if err != nil || got != first {
		t.Fatalf("first: %v %v", got, err)
	}
	if got, err := db.DiceSecret(ctx, e.ID, second); err != nil || got != first {
		t.Fatalf("second call kept %v, %v; want the first", got, err)
	}
	for _, id := range []string{store.NewID(), "bad"} {
		_, err := db.DiceSecret(ctx, id, first)
		wantCode(t, err, fray.ENOTFOUND)
	}
}
