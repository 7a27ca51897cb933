package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// Appends that cross a multiple of SnapshotEvery carry the state as a
// snapshot, kept in the same transaction; SnapshotAt finds the nearest one.
func TestSnapshotsAlongHistory(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	const k = store.SnapshotEvery
	seq := int64(0)
	appendN := func(n int) {
		t.Helper()
		a := store.Append{EncounterID: e.ID, ExpectSeq: seq, Events: events(seq+1, n)}
		if store.SnapshotDue(seq, seq+int64(n)) {
			a.Snapshot = state(seq + int64(n))
		}
		got, err := appendSeq(ctx, db, a)
		if err != nil {
			t.Fatal(err)
		}
		seq = got
	}
	appendN(k - 1) // 99: no snapshot yet
	if seqs, _ := db.SnapshotSeqs(ctx, e.ID); len(seqs) != 0 {
		t.Fatalf("snapshots before the first boundary: %v", seqs)
	}
	appendN(3)     // 102: crosses 100
	appendN(k - 3) // 199
	appendN(1)     // 200: lands on it
	appendN(1)     // 201
	seqs, err := db.SnapshotSeqs(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{k + 2, 2 * k}; !reflect.DeepEqual(seqs, want) {
		t.Fatalf("snapshots at %v, want %v", seqs, want)
	}
	for _, tc := range []struct{ at, want int64 }{{0, 0}, {50, 0}, {101, 0}, {102, 102}, {199, 102}, {200, 200}, {5000, 200}} {
		got, st, err := db.SnapshotAt(ctx, e.ID, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"round":0}`
		if tc.want > 0 {
			want = string(state(tc.want))
		}
		if got != tc.want || !jsonEqual(st, want) {
			t.Fatalf("SnapshotAt(%d) = %d %s, want %d %s", tc.at, got, st, tc.want, want)
		}
	}
	// A failed append keeps no snapshot.
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 250, Events: events(251, k), Snapshot: state(350)}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("stale append: %v", err)
	}
	if again, _ := db.SnapshotSeqs(ctx, e.ID); !reflect.DeepEqual(again, seqs) {
		t.Fatalf("a refused append changed the snapshots: %v", again)
	}
	if _, _, err := db.SnapshotAt(ctx, store.NewID(), 1); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("unknown encounter: %v", err)
	}
	if _, _, err := db.SnapshotAt(ctx, "nope", 1); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("malformed id: %v", err)
	}
}

func TestEventsOfKind(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	evs := events(1, 4)
	evs[1].Kind = engine.KindCombatantOut
	evs[3].Kind = engine.KindRewound
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 0, Events: evs}); err != nil {
		t.Fatal(err)
	}
	got, err := db.EventsOfKind(ctx, e.ID, engine.KindRewound, engine.KindCombatantOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 4 || got[1].Kind != engine.KindRewound {
		t.Fatalf("EventsOfKind = %+v", got)
	}
}
