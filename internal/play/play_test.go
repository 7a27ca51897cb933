package play_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

type recorder struct {
	mu   sync.Mutex
	seqs []int64
}

func (r *recorder) Publish(u play.Update) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range u.Events {
		r.seqs = append(r.seqs, ev.Seq)
	}
}

// assertOnceEach fails t unless the events published were 1…last, each
// once, in order.
func (r *recorder) assertOnceEach(t *testing.T, last int64) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, s := range r.seqs {
		if s != int64(i+1) {
			t.Fatalf("published seqs %v, want 1…%d once each", r.seqs, last)
		}
	}
	if int64(len(r.seqs)) != last {
		t.Fatalf("published %d events, the log has %d", len(r.seqs), last)
	}
}

// TestTwoServersOneEncounter runs two play services — as two server
// processes would — on one database, both driving the same encounter at
// once. Optimistic concurrency must keep the log gapless, the live states
// and the snapshot kept on unloading equal to a replay of the log, and each
// service must publish every event once, in order, including those the
// other one wrote.
func TestTwoServersOneEncounter(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reg := rules.Registry()
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateCampaign(ctx, "race")
	if err != nil {
		t.Fatal(err)
	}
	// The race needs sw-zones' end-turn: the first sw-zones example.
	i := slices.IndexFunc(exs, func(e prep.Example) bool { return strings.HasPrefix(e.Name, "sw-zones-") })
	enc, err := prep.Import(ctx, db, reg, c.ID, exs[i].Data)
	if err != nil {
		t.Fatal(err)
	}
	recs := []*recorder{{}, {}}
	svcs := []*play.Service{
		play.New(play.Config{Store: db, Rulesets: reg, Publisher: recs[0]}),
		play.New(play.Config{Store: db, Rulesets: reg, Publisher: recs[1]}),
	}
	gm := engine.GMViewer()
	if _, err := svcs[0].Submit(ctx, enc.ID, play.Sender{Viewer: gm}, "start", engine.NewCommand("start", "", nil)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied := 0
	for i, svc := range svcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 25; n++ {
				_, st, err := svc.Current(ctx, enc.ID)
				if err != nil {
					t.Error(err)
					return
				}
				cmd := engine.NewCommand("end-turn", st.Core().Current(), nil)
				_, err = svc.Submit(ctx, enc.ID, play.Sender{Viewer: gm}, fmt.Sprintf("s%d-%d", i, n), cmd)
				switch fray.ErrorCode(err) {
				case "":
					mu.Lock()
					applied++
					mu.Unlock()
				case fray.ENOTYOURTURN, fray.ECONFLICT:
					// lost a race: the other server ended that turn first
				default:
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if applied < 25 {
		t.Fatalf("only %d of 50 racing commands applied", applied)
	}

	rec, err := db.Encounter(ctx, enc.ID)
	if err != nil {
		t.Fatal(err)
	}
	events, err := db.Events(ctx, enc.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range events {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: the log has a gap", i, ev.Seq)
		}
	}
	rs, _ := reg.Get(rec.Ruleset)
	replayed, err := rs.Decode(rec.Initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(rs, replayed, events); err != nil {
		t.Fatal(err)
	}
	want, _ := engine.Snapshot(replayed)

	// Each service catches up on what the other wrote when told of it.
	for i, svc := range svcs {
		svc.Sync(enc.ID, rec.Seq)
		_, st, err := svc.Current(ctx, enc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Core().Seq != rec.Seq {
			t.Fatalf("service %d is at seq %d, the database at %d", i, st.Core().Seq, rec.Seq)
		}
		if got, _ := engine.Snapshot(st); string(got) != string(want) {
			t.Fatalf("service %d's live state differs from a replay of the log", i)
		}
		recs[i].mu.Lock()
		seqs := recs[i].seqs
		recs[i].mu.Unlock()
		for j := 1; j < len(seqs); j++ {
			if seqs[j] != seqs[j-1]+1 {
				t.Fatalf("service %d published seq %d after %d", i, seqs[j], seqs[j-1])
			}
		}
		if len(seqs) == 0 || seqs[len(seqs)-1] != rec.Seq {
			t.Fatalf("service %d published up to %v, want %d", i, seqs[len(seqs)-1:], rec.Seq)
		}
		svc.Close()
	}
	// Unloading kept a snapshot at the end of the log: the next load folds
	// nothing, and starts from what a replay of the log gives.
	at, snap, err := db.SnapshotAt(ctx, enc.ID, rec.Seq)
	if err != nil || at != rec.Seq {
		t.Fatalf("snapshot after unloading at %d (log at %d): %v", at, rec.Seq, err)
	}
	if stored, _ := rs.Decode(snap); string(mustSnapshot(t, stored)) != string(want) {
		t.Fatal("the stored snapshot differs from a replay of the log")
	}
}

func mustSnapshot(t *testing.T, st engine.State) []byte {
	t.Helper()
	raw, err := engine.Snapshot(st)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
