package play_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// liveTable is an imported example encounter in a campaign with a GM and a
// player who owns its first PC.
type liveTable struct {
	db       *store.DB
	campaign string
	id       string
	gm, pl   store.User
	pc       string
}

func newLiveTable(t *testing.T) liveTable {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	lt := liveTable{db: db}
	for i, name := range []string{"gm", "player"} {
		u, err := db.CreateUser(ctx, name, "$argon2id$"+name)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			lt.gm = u
		} else {
			lt.pl = u
		}
	}
	c, err := db.CreateCampaignFor(ctx, "Campaign", lt.gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	lt.campaign = c.ID
	if err := db.SetMember(ctx, c.ID, lt.pl.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	ex, err := prep.ExampleNamed("sw-zones-goblin-ford")
	if err != nil {
		t.Fatal(err)
	}
	p, err := prep.Prepare(rules.Registry(), ex.Data)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := prep.Save(ctx, db, c.ID, p)
	if err != nil {
		t.Fatal(err)
	}
	lt.id = enc.ID
	for _, cb := range p.State.Core().Combatants {
		if cb.PC && lt.pc == "" {
			lt.pc = cb.ID
		}
	}
	if err := db.AssignCharacter(ctx, c.ID, lt.pc, lt.pl.ID); err != nil {
		t.Fatal(err)
	}
	return lt
}

func (lt liveTable) version(t *testing.T) int64 {
	t.Helper()
	e, err := lt.db.Encounter(context.Background(), lt.id)
	if err != nil {
		t.Fatal(err)
	}
	return e.Access
}

// A command is committed only at the access version its viewer was granted
// at: after a change, the sender is told to authorise again — for a command
// that would be applied and for one that would be refused alike — and
// nothing changes.
func TestSubmitChecksAccess(t *testing.T) {
	ctx := context.Background()
	lt := newLiveTable(t)
	var published []play.Update
	svc := play.New(play.Config{Store: lt.db, Rulesets: rules.Registry(),
		Publisher: play.PublisherFunc(func(u play.Update) { published = append(published, u) })})
	defer svc.Close()
	v := lt.version(t)
	gm := play.Sender{User: lt.gm.ID, Viewer: engine.GMViewer(), Access: v}
	start, err := svc.Submit(ctx, lt.id, gm, "start", engine.NewCommand("start", "", nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(published) != 1 || published[0].Access != v {
		t.Fatalf("published %+v, want one update at access version %d", published, v)
	}
	if err := lt.db.AssignCharacter(ctx, lt.campaign, lt.pc, ""); err != nil { // the player loses the PC
		t.Fatal(err)
	}
	player := play.Sender{User: lt.pl.ID, Viewer: engine.PlayerViewer(lt.pc), Access: v}
	for _, cmd := range []engine.Command{
		engine.NewCommand("end-turn", lt.pc, nil),    // legal or not its turn: either way, re-authorise
		engine.NewCommand("pause", "", nil),          // refused to a player anyway: re-authorise first
		engine.NewCommand("end-turn", "nobody", nil), // unknown: the same
	} {
		_, err := svc.Submit(ctx, lt.id, player, "p-"+cmd.Kind+cmd.Actor, cmd)
		if !errors.Is(err, play.ErrAccessChanged) {
			t.Fatalf("%s %s by a stale viewer: %v", cmd.Kind, cmd.Actor, err)
		}
	}
	if _, st, _ := svc.Current(ctx, lt.id); st.Core().Seq != start {
		t.Fatalf("a stale viewer's command changed the encounter (seq %d, want %d)", st.Core().Seq, start)
	}
	// At the new version, the same sender's command is decided on its merits.
	player.Viewer, player.Access = engine.PlayerViewer(), v+1
	if _, err := svc.Submit(ctx, lt.id, player, "p-pause", engine.NewCommand("pause", "", nil)); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("pause by a player at the current version: %v", err)
	}
	gm.Access = v + 1
	if _, err := svc.Submit(ctx, lt.id, gm, "pause", engine.NewCommand("pause", "", nil)); err != nil {
		t.Fatal(err)
	}
	if last := published[len(published)-1]; last.Access != v+1 {
		t.Fatalf("the last update was published at access version %d, want %d", last.Access, v+1)
	}
}

// Command ids are scoped per sender: a player cannot pre-empt the GM's id.
func TestCommandIDsArePerSender(t *testing.T) {
	ctx := context.Background()
	lt := newLiveTable(t)
	svc := play.New(play.Config{Store: lt.db, Rulesets: rules.Registry()})
	defer svc.Close()
	gm := play.Sender{User: lt.gm.ID, Viewer: engine.GMViewer()}
	player := play.Sender{User: lt.pl.ID, Viewer: engine.PlayerViewer(lt.pc)}
	if _, err := svc.Submit(ctx, lt.id, player, "c-1", engine.NewCommand("start", "", nil)); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player's start: %v", err)
	}
	seq, err := svc.Submit(ctx, lt.id, gm, "c-1", engine.NewCommand("start", "", nil))
	if err != nil || seq == 0 {
		t.Fatalf("the GM's start with the id the player used: %d, %v", seq, err)
	}
	if again, err := svc.Submit(ctx, lt.id, gm, "c-1", engine.NewCommand("start", "", nil)); err != nil || again != seq {
		t.Fatalf("the GM's resend = %d, %v; want %d", again, err, seq)
	}
	// The player's own c-1 was refused, so it is not acknowledged either.
	if _, err := svc.Submit(ctx, lt.id, player, "c-1", engine.NewCommand("start", "", nil)); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("the player's c-1 after the GM's: %v", err)
	}
}

func TestCheckCommandID(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"c-17", true},
		{"0b9f6a8e-3f43-4f0e-8d54-0c7c1d1b3b55", true},
		{"épée-⚔", true},
		{strings.Repeat("x", 64), true},
		{"", false},
		{strings.Repeat("x", 65), false},
		{"a\xffb", false},   // invalid UTF-8
		{"a\uFFFDb", false}, // what a decoder makes of invalid bytes
		{"a\nb", false},
		{"a\x00b", false},
		{"a\u0085b", false}, // a C1 control
	} {
		err := play.CheckCommandID(tc.id)
		if (err == nil) != tc.ok || (err != nil && fray.ErrorCode(err) != fray.EINVALID) {
			t.Errorf("CheckCommandID(%q) = %v, want ok %v", tc.id, err, tc.ok)
		}
	}
}

// faultyStore is the real store with a connection that breaks while
// committing: the commit happens (or not), but its outcome is lost.
type faultyStore struct {
	*store.DB
	commitThenFail atomic.Int32 // appends to commit, then report an unknown outcome
	failNoCommit   atomic.Int32 // appends to drop, reporting an unknown outcome
	commitThenDown atomic.Int32 // appends to commit, then report an unknown outcome and go down
	down           atomic.Bool  // every call fails as if the database were unreachable
}

// newFaultyTable is a live table whose play service commits through a
// faultyStore and records what it publishes.
func newFaultyTable(t *testing.T) (liveTable, *faultyStore, *play.Service, *recorder) {
	t.Helper()
	lt := newLiveTable(t)
	fs := &faultyStore{DB: lt.db}
	published := &recorder{}
	svc := play.New(play.Config{Store: fs, Rulesets: rules.Registry(), ResolveFor: time.Second, Publisher: published})
	t.Cleanup(svc.Close)
	return lt, fs, svc, published
}

var errConnLost = fmt.Errorf("%w: read tcp: connection reset by peer", store.ErrOutcomeUnknown)

func (f *faultyStore) AppendCommand(ctx context.Context, a store.Append) (store.Appended, error) {
	if f.down.Load() {
		return store.Appended{}, errDown
	}
	if f.failNoCommit.Add(-1) >= 0 {
		return store.Appended{}, errConnLost
	}
	if f.commitThenFail.Add(-1) >= 0 {
		if _, err := f.DB.AppendCommand(ctx, a); err != nil {
			return store.Appended{}, err
		}
		return store.Appended{}, errConnLost
	}
	if f.commitThenDown.Add(-1) >= 0 {
		if _, err := f.DB.AppendCommand(ctx, a); err != nil {
			return store.Appended{}, err
		}
		f.down.Store(true)
		return store.Appended{}, errConnLost
	}
	return f.DB.AppendCommand(ctx, a)
}

var errDown = fmt.Errorf("dial: %w", &netErr{})

type netErr struct{}

func (*netErr) Error() string   { return "connection refused" }
func (*netErr) Timeout() bool   { return false }
func (*netErr) Temporary() bool { return false }

func (f *faultyStore) Settle(ctx context.Context, id string, wait time.Duration) error {
	if f.down.Load() {
		return errDown
	}
	return f.DB.Settle(ctx, id, wait)
}

func (f *faultyStore) Encounter(ctx context.Context, id string) (store.Encounter, error) {
	if f.down.Load() {
		return store.Encounter{}, errDown
	}
	return f.DB.Encounter(ctx, id)
}

// A commit whose outcome is lost is never answered as if nothing changed:
// the service finds out — by trying the same command again — and answers
// what really happened, publishing the events once; when it cannot find
// out, it says so with EOUTCOMEUNKNOWN, and a resend with the same id is
// acknowledged once.
func TestCommitOutcomeUnknown(t *testing.T) {
	ctx := context.Background()
	lt, fs, svc, published := newFaultyTable(t)
	gm := play.Sender{User: lt.gm.ID, Viewer: engine.GMViewer()}
	if _, err := svc.Submit(ctx, lt.id, gm, "start", engine.NewCommand("start", "", nil)); err != nil {
		t.Fatal(err)
	}
	endTurn := func(id string) (int64, error) {
		_, st, err := svc.Current(ctx, lt.id)
		if err != nil {
			t.Fatal(err)
		}
		return svc.Submit(ctx, lt.id, gm, id, engine.NewCommand("end-turn", st.Core().Current(), nil))
	}
	committed := func() int64 {
		e, err := lt.db.Encounter(ctx, lt.id)
		if err != nil {
			t.Fatal(err)
		}
		return e.Seq
	}

	// Committed, outcome lost: acknowledged at the seq it reached.
	fs.commitThenFail.Store(1)
	seq, err := endTurn("lost-but-done")
	if err != nil || seq != committed() {
		t.Fatalf("a committed command whose outcome was lost = %d, %v; the database is at %d", seq, err, committed())
	}
	if s, found, _ := lt.db.CommandSeq(ctx, lt.id, lt.gm.ID, "lost-but-done"); !found || s != seq {
		t.Fatalf("recorded at %d (%v), acknowledged at %d", s, found, seq)
	}
	// Not committed, outcome lost: applied by the retry, once.
	before := committed()
	fs.failNoCommit.Store(1)
	seq, err = endTurn("lost-not-done")
	if err != nil || seq <= before || seq != committed() {
		t.Fatalf("an uncommitted command whose outcome was lost = %d, %v; the database went from %d to %d", seq, err, before, committed())
	}
	// The database stays unreachable: the client is told to resend.
	before = committed()
	_, st, _ := svc.Current(ctx, lt.id)
	fs.commitThenDown.Store(1)
	resend := engine.NewCommand("end-turn", st.Core().Current(), nil)
	_, err = svc.Submit(ctx, lt.id, gm, "lost-unknown", resend)
	if fray.ErrorCode(err) != fray.EOUTCOMEUNKNOWN {
		t.Fatalf("an outcome that cannot be found out: %v", err)
	}
	if committed() == before {
		t.Fatal("the commit was meant to happen")
	}
	fs.down.Store(false)
	seq, err = svc.Submit(ctx, lt.id, gm, "lost-unknown", resend)
	if err != nil || seq != committed() {
		t.Fatalf("the resend = %d, %v; the database is at %d", seq, err, committed())
	}
	if again, err := svc.Submit(ctx, lt.id, gm, "lost-unknown", resend); err != nil || again != seq {
		t.Fatalf("a second resend = %d, %v", again, err)
	}

	// Every event was published once, in order, with no gap.
	published.assertOnceEach(t, committed())
}
