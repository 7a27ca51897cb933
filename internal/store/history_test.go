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

// LoadEncounters and CampaignEventsOfKind read a whole campaign's
// encounters at once: each one's latest snapshot with the events after it,
// and the events of some kinds by encounter; another campaign's stay out.
func TestCampaignHistoryReads(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	first := newEncounter(t, db)
	second, err := db.CreateEncounter(ctx, store.Encounter{ID: store.NewID(), CampaignID: first.CampaignID, Name: "Second",
		Ruleset: "sw-zones", Setup: []byte(`{}`), Initial: []byte(`{"round":0}`)})
	if err != nil {
		t.Fatal(err)
	}
	other := newEncounter(t, db)
	out := events(1, 3)
	out[1].Kind = engine.KindCombatantOut
	for _, a := range []store.Append{
		{EncounterID: first.ID, Events: out},
		{EncounterID: second.ID, Events: events(1, store.SnapshotEvery), Snapshot: state(store.SnapshotEvery)},
		{EncounterID: second.ID, ExpectSeq: store.SnapshotEvery, Events: events(store.SnapshotEvery+1, 2)},
		{EncounterID: other.ID, Events: out},
	} {
		if _, err := appendSeq(ctx, db, a); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := db.LoadEncounters(ctx, first.CampaignID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 || ls[0].ID != first.ID || ls[1].ID != second.ID {
		t.Fatalf("LoadEncounters = %d encounters, want %s then %s", len(ls), first.ID, second.ID)
	}
	if l := ls[0]; l.Name != "Ambush" || l.SnapshotSeq != 0 || !jsonEqual(l.Snapshot, `{"round":0}`) || len(l.Events) != 3 || l.Events[2].Seq != 3 {
		t.Fatalf("first encounter loaded as %+v", l)
	}
	if l := ls[1]; l.SnapshotSeq != store.SnapshotEvery || len(l.Events) != 2 || l.Events[0].Seq != store.SnapshotEvery+1 {
		t.Fatalf("second encounter loaded from %d with %d events", l.SnapshotSeq, len(l.Events))
	}
	one, err := db.LoadEncounter(ctx, second.ID)
	if err != nil || !reflect.DeepEqual(one, ls[1]) {
		t.Fatalf("LoadEncounter = %+v, %v; LoadEncounters had %+v", one, err, ls[1])
	}
	kinds, err := db.CampaignEventsOfKind(ctx, first.CampaignID, engine.KindCombatantOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) != 1 || len(kinds[first.ID]) != 1 || kinds[first.ID][0].Seq != 2 {
		t.Fatalf("CampaignEventsOfKind = %+v", kinds)
	}
	if ls, err := db.LoadEncounters(ctx, "nope"); err != nil || len(ls) != 0 {
		t.Fatalf("a malformed campaign id: %v, %v", ls, err)
	}
}
