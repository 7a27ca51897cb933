package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

func open(t testing.TB) (*store.DB, string) {
	t.Helper()
	url := testdb.URL(t)
	db, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db, url
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := fray.ErrorCode(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
}

// newEncounter creates a campaign and an encounter in it.
func newEncounter(t testing.TB, db *store.DB) store.Encounter {
	t.Helper()
	ctx := context.Background()
	c, err := db.CreateCampaign(ctx, "Campaign")
	if err != nil {
		t.Fatal(err)
	}
	e, err := db.CreateEncounter(ctx, store.Encounter{
		ID: store.NewID(), CampaignID: c.ID, Name: "Ambush", Ruleset: "sw-zones",
		Setup: []byte(`{"name":"Ambush"}`), Initial: []byte(`{"round":0}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// events makes n events numbered from first.
func events(first int64, n int) []engine.Event {
	evs := make([]engine.Event, n)
	for i := range evs {
		evs[i] = engine.NewEvent("attacked", "hero", fmt.Sprintf("event %d", first+int64(i)),
			map[string]any{"damage": i + 1},
			dice.Roll{Label: "attack", Dice: []dice.Die{{Sides: 6, Faces: []int{4}}}, Total: 4})
		evs[i].Seq = first + int64(i)
		evs[i].Round = 1
	}
	return evs
}

func state(seq int64) []byte { return []byte(fmt.Sprintf(`{"seq": %d}`, seq)) }

func TestMigrateUpDownUp(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tables := func() int {
		var n int
		if err := db.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		err := conn.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables
			WHERE table_schema = 'public' AND table_name IN ('campaigns', 'encounters', 'events', 'commands')`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := tables(); n != 4 {
		t.Fatalf("after testdb's migration: %d tables", n)
	}
	if err := store.Migrate(ctx, url, "up"); err != nil {
		t.Fatalf("up again (no change): %v", err)
	}
	if err := store.Migrate(ctx, url, "down"); err != nil {
		t.Fatal(err)
	}
	if n := tables(); n != 0 {
		t.Fatalf("after down: %d tables", n)
	}
	if err := store.Migrate(ctx, url, "down"); err != nil {
		t.Fatalf("down again (no change): %v", err)
	}
	if err := store.Migrate(ctx, url, "up"); err != nil {
		t.Fatal(err)
	}
	if n := tables(); n != 4 {
		t.Fatalf("after up: %d tables", n)
	}
	if err := store.Migrate(ctx, url, "sideways"); err == nil {
		t.Fatal("bad direction accepted")
	}
	if err := store.Force(ctx, url, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateCampaign(ctx, "works"); err != nil {
		t.Fatal(err)
	}
}

func TestCampaigns(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	a, err := db.CreateCampaign(ctx, "  The Long Night  ")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "The Long Night" || a.ID == "" || a.CreatedAt.IsZero() {
		t.Fatalf("created %+v", a)
	}
	b, err := db.CreateCampaign(ctx, strings.Repeat("é", 200))
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Campaign(ctx, a.ID)
	if err != nil || got.Name != a.Name || !got.CreatedAt.Equal(a.CreatedAt) {
		t.Fatalf("Campaign = %+v, %v", got, err)
	}
	if got, err := db.Campaign(ctx, strings.ToUpper(a.ID)); err != nil || got.ID != a.ID {
		t.Fatalf("upper-case id: %+v, %v", got, err)
	}
	all, err := db.Campaigns(ctx)
	if err != nil || len(all) != 2 || all[0].ID != b.ID || all[1].ID != a.ID {
		t.Fatalf("Campaigns = %+v, %v", all, err)
	}

	for _, bad := range []string{"", "   ", strings.Repeat("x", 201), "a\x00b", "\xff"} {
		_, err := db.CreateCampaign(ctx, bad)
		wantCode(t, err, fray.EINVALID)
	}
	for _, id := range []string{store.NewID(), "nope", "", "'; DROP TABLE campaigns; --"} {
		_, err := db.Campaign(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
		_, err = db.Encounters(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}
}

func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := store.NewID()
		if len(id) != 36 || id[14] != '4' || !strings.ContainsRune("89ab", rune(id[19])) || seen[id] {
			t.Fatalf("NewID = %q", id)
		}
		seen[id] = true
	}
}

func TestEncounters(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	c, err := db.CreateCampaign(ctx, "C")
	if err != nil {
		t.Fatal(err)
	}
	if es, err := db.Encounters(ctx, c.ID); err != nil || len(es) != 0 {
		t.Fatalf("Encounters of an empty campaign = %v, %v", es, err)
	}
	var ids []string
	for i := range 3 {
		e, err := db.CreateEncounter(ctx, store.Encounter{
			ID: store.NewID(), CampaignID: c.ID, Name: fmt.Sprintf("E%d", i), Ruleset: "d6-bands",
			Setup: []byte(`{"a": [1, 2]}`), Initial: []byte(`{"hp": 10}`),
		})
		if err != nil {
			t.Fatal(err)
		}
		if e.Status != "setup" || e.Seq != 0 || e.CreatedAt.IsZero() {
			t.Fatalf("created %+v", e)
		}
		ids = append(ids, e.ID)
		time.Sleep(2 * time.Millisecond) // distinct created_at
	}
	got, err := db.Encounter(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "E0" || got.Ruleset != "d6-bands" || got.CampaignID != c.ID || got.Seq != 0 ||
		!jsonEqual(got.Setup, `{"a":[1,2]}`) || !jsonEqual(got.Initial, `{"hp":10}`) {
		t.Fatalf("Encounter = %+v (setup %s)", got, got.Setup)
	}
	list, err := db.Encounters(ctx, c.ID)
	if err != nil || len(list) != 3 {
		t.Fatalf("Encounters = %v, %v", list, err)
	}
	for i, e := range list {
		if e.ID != ids[2-i] || e.Setup != nil || e.Initial != nil {
			t.Fatalf("Encounters[%d] = %+v, want id %s without JSON", i, e, ids[2-i])
		}
	}

	// Errors.
	for _, id := range []string{store.NewID(), "malformed"} {
		_, err := db.Encounter(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}
	base := store.Encounter{ID: store.NewID(), CampaignID: c.ID, Name: "X", Ruleset: "r", Setup: []byte(`{}`), Initial: []byte(`{}`)}
	e := base
	e.CampaignID = store.NewID()
	_, err = db.CreateEncounter(ctx, e)
	wantCode(t, err, fray.ENOTFOUND)
	e = base
	e.ID = ids[0]
	_, err = db.CreateEncounter(ctx, e)
	wantCode(t, err, fray.ECONFLICT)
	for _, mod := range []func(*store.Encounter){
		func(e *store.Encounter) { e.ID = "x" },
		func(e *store.Encounter) { e.Name = "" },
		func(e *store.Encounter) { e.Ruleset = "" },
		func(e *store.Encounter) { e.Setup = nil },
		func(e *store.Encounter) { e.Initial = []byte("{") },
	} {
		e := base
		mod(&e)
		_, err = db.CreateEncounter(ctx, e)
		wantCode(t, err, fray.EINVALID)
	}
}

func jsonEqual(got []byte, want string) bool {
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestAppend(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)

	evs := events(1, 3)
	evs[1].Secret = true
	evs[2].Actor = ""
	seq, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 0, CommandID: "c1", Events: evs, Status: "running"})
	if err != nil || seq != 3 {
		t.Fatalf("Append = %d, %v", seq, err)
	}
	seq, err = appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 3, Events: events(4, 2), Snapshot: state(5)})
	if err != nil || seq != 5 {
		t.Fatalf("second Append (no command id, status kept, a snapshot) = %d, %v", seq, err)
	}
	if at, snap, err := db.SnapshotAt(ctx, e.ID, 5); err != nil || at != 5 || !jsonEqual(snap, `{"seq":5}`) {
		t.Fatalf("the snapshot given with the append: %d %s %v", at, snap, err)
	}

	got, err := db.Encounter(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Seq != 5 || got.Status != "running" || !jsonEqual(got.Initial, `{"round":0}`) ||
		!got.UpdatedAt.After(got.CreatedAt) {
		t.Fatalf("after appends: %+v", got)
	}

	all, err := db.Events(ctx, e.ID, 0, 0)
	if err != nil || len(all) != 5 {
		t.Fatalf("Events = %v, %v", all, err)
	}
	for i, ev := range all {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
	first := all[0]
	if first.Kind != "attacked" || first.Actor != "hero" || first.Text != "event 1" || first.Round != 1 ||
		first.Command != "c1" || len(first.Rolls) != 1 || first.Rolls[0].Total != 4 || !jsonEqual(first.Data, `{"damage":1}`) {
		t.Fatalf("event 1 = %+v", first)
	}
	if !all[1].Secret || all[2].Actor != "" || all[3].Command != "" {
		t.Fatalf("events 2..4 = %+v", all[1:4])
	}
	var d struct{ Damage int }
	if err := all[1].Decode(&d); err != nil || d.Damage != 2 {
		t.Fatalf("Decode = %+v, %v", d, err)
	}

	// after and limit.
	page, err := db.Events(ctx, e.ID, 2, 2)
	if err != nil || len(page) != 2 || page[0].Seq != 3 || page[1].Seq != 4 {
		t.Fatalf("Events(after 2, limit 2) = %v, %v", page, err)
	}
	if rest, err := db.Events(ctx, e.ID, 5, 0); err != nil || len(rest) != 0 {
		t.Fatalf("Events(after 5) = %v, %v", rest, err)
	}
	for _, id := range []string{store.NewID(), "bad"} {
		_, err := db.Events(ctx, id, 0, 0)
		wantCode(t, err, fray.ENOTFOUND)
	}

	if s, found, err := db.CommandSeq(ctx, e.ID, "", "c1"); err != nil || !found || s != 3 {
		t.Fatalf("CommandSeq(c1) = %d, %v, %v", s, found, err)
	}
	if _, found, err := db.CommandSeq(ctx, e.ID, "", "c2"); err != nil || found {
		t.Fatalf("CommandSeq(c2) = %v, %v", found, err)
	}
}

func TestAppendRejectsMalformed(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	ok := store.Append{EncounterID: e.ID, ExpectSeq: 0, CommandID: "c", Events: events(1, 2)}
	for name, c := range map[string]struct {
		mod  func(*store.Append)
		code string
	}{
		"gap":             {func(a *store.Append) { a.Events[1].Seq = 3 }, fray.EINTERNAL},
		"zero seq":        {func(a *store.Append) { a.Events[0].Seq = 0 }, fray.EINTERNAL},
		"no kind":         {func(a *store.Append) { a.Events[0].Kind = "" }, fray.EINTERNAL},
		"state not JSON":  {func(a *store.Append) { a.Snapshot = []byte("{") }, fray.EINTERNAL},
		"long command id": {func(a *store.Append) { a.CommandID = strings.Repeat("c", 201) }, fray.EINVALID},
		"unknown":         {func(a *store.Append) { a.EncounterID = store.NewID() }, fray.ENOTFOUND},
		"malformed id":    {func(a *store.Append) { a.EncounterID = "x" }, fray.ENOTFOUND},
		"unknown, no cmd": {func(a *store.Append) { a.EncounterID = store.NewID(); a.CommandID = "" }, fray.ENOTFOUND},
	} {
		a := ok
		a.Events = events(1, 2)
		c.mod(&a)
		_, err := appendSeq(ctx, db, a)
		if got := fray.ErrorCode(err); got != c.code {
			t.Errorf("%s: %v has code %q, want %q", name, err, got, c.code)
		}
	}
	if got, _ := db.Encounter(ctx, e.ID); got.Seq != 0 {
		t.Fatalf("a rejected append changed seq to %d", got.Seq)
	}
	if seq, err := appendSeq(ctx, db, ok); err != nil || seq != 2 {
		t.Fatalf("valid append after rejected ones = %d, %v", seq, err)
	}
}

func TestAppendStaleSeq(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 0, CommandID: "a", Events: events(1, 1)}); err != nil {
		t.Fatal(err)
	}
	for _, expect := range []int64{0, 2} { // behind and ahead
		_, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: expect, CommandID: "b", Events: events(expect+1, 1)})
		wantCode(t, err, fray.ECONFLICT)
		if errors.Is(err, store.ErrDuplicateCommand) {
			t.Fatal("a stale seq reported as a duplicate command")
		}
	}
	// Nothing of the losers was kept, not even their command id.
	if _, found, _ := db.CommandSeq(ctx, e.ID, "", "b"); found {
		t.Fatal("a conflicting append recorded its command id")
	}
	if got, _ := db.Encounter(ctx, e.ID); got.Seq != 1 {
		t.Fatalf("after conflicts: seq %d", got.Seq)
	}
}

// Many appenders race with the same ExpectSeq: exactly one wins each round
// and the log stays gapless.
func TestAppendConcurrent(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	const racers, rounds = 8, 20
	var expect int64
	for r := range rounds {
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			wins int
		)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				seq, err := appendSeq(ctx, db, store.Append{
					EncounterID: e.ID, ExpectSeq: expect, CommandID: fmt.Sprintf("r%d-%d", r, i),
					Events: events(expect+1, 3),
				})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && seq == expect+3:
					wins++
				case fray.ErrorCode(err) == fray.ECONFLICT && !errors.Is(err, store.ErrDuplicateCommand):
				default:
					t.Errorf("round %d racer %d: %d, %v", r, i, seq, err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("round %d: %d winners", r, wins)
		}
		expect += 3
	}
	all, err := db.Events(ctx, e.ID, 0, 0)
	if err != nil || len(all) != rounds*3 {
		t.Fatalf("Events: %d, %v", len(all), err)
	}
	for i, ev := range all {
		if ev.Seq != int64(i+1) {
			t.Fatalf("gap: event %d has seq %d", i, ev.Seq)
		}
	}
}

func TestAppendDuplicateCommand(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	first := store.Append{EncounterID: e.ID, ExpectSeq: 0, CommandID: "cmd-1", Events: events(1, 2), Status: "running"}
	if seq, err := appendSeq(ctx, db, first); err != nil || seq != 2 {
		t.Fatalf("first = %d, %v", seq, err)
	}
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 2, CommandID: "cmd-2", Events: events(3, 1)}); err != nil {
		t.Fatal(err)
	}
	// A resend, whether decided on the current seq or on the old one.
	for _, expect := range []int64{3, 0} {
		seq, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: expect, CommandID: "cmd-1",
			Events: events(expect+1, 1), Status: "finished"})
		if !errors.Is(err, store.ErrDuplicateCommand) || fray.ErrorCode(err) != fray.ECONFLICT || seq != 2 {
			t.Fatalf("resend (expect %d) = %d, %v; want 2, duplicate", expect, seq, err)
		}
	}
	got, _ := db.Encounter(ctx, e.ID)
	if got.Seq != 3 || got.Status != "running" {
		t.Fatalf("a duplicate changed the encounter: %+v", got)
	}
	if all, _ := db.Events(ctx, e.ID, 0, 0); len(all) != 3 {
		t.Fatalf("%d events after a duplicate", len(all))
	}
	// The same command id may be used in another encounter.
	other := newEncounter(t, db)
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: other.ID, CommandID: "cmd-1", Events: events(1, 1)}); err != nil {
		t.Fatal(err)
	}
}

func TestListen(t *testing.T) {
	db, _ := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	e := newEncounter(t, db)

	type note struct {
		id  string
		seq int64
	}
	notes := make(chan note, 10)
	done := make(chan error, 1)
	go func() { done <- db.Listen(ctx, func(id string, seq int64) { notes <- note{id, seq} }) }()

	// Append until the listener has surely started (LISTEN takes effect
	// asynchronously), then check that a notification names the new seq.
	expect := int64(0)
	deadline := time.After(patience.Hang())
	for got := false; !got; {
		seq, err := appendSeq(context.Background(), db, store.Append{EncounterID: e.ID, ExpectSeq: expect, Events: events(expect+1, 2)})
		if err != nil {
			t.Fatal(err)
		}
		expect = seq
		select {
		case n := <-notes:
			if n.id != e.ID || n.seq%2 != 0 || n.seq > expect {
				t.Fatalf("notification %+v", n)
			}
			got = true
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("no notification")
		}
	}
	// A rejected append notifies nobody.
	_, err := appendSeq(context.Background(), db, store.Append{EncounterID: e.ID, ExpectSeq: 0, Events: events(1, 1)})
	wantCode(t, err, fray.ECONFLICT)
	seq, err := appendSeq(context.Background(), db, store.Append{EncounterID: e.ID, ExpectSeq: expect, Events: events(expect+1, 1)})
	if err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case n := <-notes:
			if n.seq < seq {
				continue // from the warm-up
			}
			if n != (note{e.ID, seq}) {
				t.Fatalf("notification %+v, want %s:%d", n, e.ID, seq)
			}
		case <-time.After(patience.Hang()):
			t.Fatal("no notification for the last append")
		}
		break
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Listen returned %v", err)
		}
	case <-time.After(patience.Hang()):
		t.Fatal("Listen did not return after cancel")
	}
}

// Listen survives losing its connection.
func TestListenReconnects(t *testing.T) {
	db, url := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := newEncounter(t, db)
	notes := make(chan int64, 100)
	go func() { _ = db.Listen(ctx, func(_ string, seq int64) { notes <- seq }) }()

	admin, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())

	expect := int64(0)
	appendOne := func() {
		t.Helper()
		seq, err := appendSeq(context.Background(), db, store.Append{EncounterID: e.ID, ExpectSeq: expect, Events: events(expect+1, 1)})
		if err != nil {
			t.Fatal(err)
		}
		expect = seq
	}
	waitNote := func() {
		t.Helper()
		deadline := time.After(patience.Hang())
		for {
			appendOne()
			select {
			case <-notes:
				return
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				t.Fatal("no notification")
			}
		}
	}
	waitNote()
	// Kill the listening backend.
	var killed int
	if err := admin.QueryRow(context.Background(), `
		SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`).Scan(&killed); err != nil || killed != 1 {
		t.Fatalf("terminated %d listeners: %v", killed, err)
	}
	for len(notes) > 0 {
		<-notes
	}
	waitNote()
}

func TestEventJSONRoundTrip(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	ev := engine.NewEvent("moved", "", "x moves", engine.TurnStarted{Combatant: "x", Turn: 2})
	ev.Seq = 1
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, Events: []engine.Event{ev}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Events(ctx, e.ID, 0, 0)
	if err != nil || len(got) != 1 {
		t.Fatal(got, err)
	}
	var ts engine.TurnStarted
	if err := got[0].Decode(&ts); err != nil || ts.Combatant != "x" || ts.Turn != 2 {
		t.Fatalf("decoded %+v, %v", ts, err)
	}
}

// BenchmarkAppend appends one command of 3 events per op, with a 4 KB
// snapshot when one is due (every SnapshotEvery events).
func BenchmarkAppend(b *testing.B) {
	db, _ := open(b)
	ctx := context.Background()
	e := newEncounter(b, db)
	st := benchState(4096)
	var seq int64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		evs := events(seq+1, 3)
		a := store.Append{EncounterID: e.ID, ExpectSeq: seq, CommandID: fmt.Sprintf("cmd-%d", i), Events: evs}
		if store.SnapshotDue(seq, seq+3) {
			a.Snapshot = st
		}
		s, err := appendSeq(ctx, db, a)
		if err != nil {
			b.Fatal(err)
		}
		seq = s
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}

// BenchmarkAppendParallel appends to 4 encounters per core at once, one
// writer each: their commands share transactions (group commit).
func BenchmarkAppendParallel(b *testing.B) {
	db, _ := open(b)
	ctx := context.Background()
	n := 4 * runtime.GOMAXPROCS(0)
	encs := make([]store.Encounter, n)
	for i := range encs {
		encs[i] = newEncounter(b, db)
	}
	st := benchState(4096)
	var (
		mu   sync.Mutex
		next int
	)
	b.SetParallelism(4) // 4 goroutines per core, one per encounter
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		e := encs[next%n]
		next++
		mu.Unlock()
		var seq int64
		for i := 0; pb.Next(); i++ {
			a := store.Append{EncounterID: e.ID, ExpectSeq: seq, CommandID: fmt.Sprintf("cmd-%d", i), Events: events(seq+1, 3)}
			if store.SnapshotDue(seq, seq+3) {
				a.Snapshot = st
			}
			s, err := appendSeq(ctx, db, a)
			if err != nil {
				b.Error(err)
				return
			}
			seq = s
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}

// benchState is a JSON object of about size bytes.
func benchState(size int) []byte {
	m := map[string]string{}
	for i := 0; len(m)*40 < size; i++ {
		m[fmt.Sprintf("combatant-%03d", i)] = strings.Repeat(string(rune('a'+i%26)), 20)
	}
	st, _ := json.Marshal(m)
	return st
}

// appendSeq appends a command and returns the encounter's new seq.
func appendSeq(ctx context.Context, db *store.DB, a store.Append) (int64, error) {
	r, err := db.AppendCommand(ctx, a)
	return r.Seq, err
}
