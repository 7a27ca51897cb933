package play_test

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/rules/swzones"
	"github.com/fray-vtt/fray/internal/store"
)

// botching is sw-zones with one more GM command, botch, which applies an
// event and is then refused: the rare command that fails part-way.
type botching struct{ engine.Ruleset }

func (b botching) Commands() []engine.CommandSpec {
	return append(b.Ruleset.Commands(), engine.CommandSpec{Kind: "botch", GM: true})
}

func (b botching) Decide(tx *engine.Tx, cmd engine.Command) error {
	if cmd.Kind != "botch" {
		return b.Ruleset.Decide(tx, cmd)
	}
	if err := tx.Emits("botched", "", "Something happened.", nil); err != nil {
		return err
	}
	return fray.Errorf(fray.EILLEGAL, "botched after an event")
}

func (b botching) Apply(st engine.State, ev engine.Event) error {
	if ev.Kind == "botched" {
		return nil
	}
	return b.Ruleset.Apply(st, ev)
}

// conflictCounter is the store, counting appends refused because the
// encounter was not at the expected seq: with one service, each is a live
// state that went wrong (the owner heals it by reloading, which hides it).
type conflictCounter struct {
	*store.DB
	conflicts atomic.Int32
}

func (c *conflictCounter) AppendCommand(ctx context.Context, a store.Append) (store.Appended, error) {
	r, err := c.DB.AppendCommand(ctx, a)
	if fray.ErrorCode(err) == fray.ECONFLICT && !errors.Is(err, store.ErrDuplicateCommand) {
		c.conflicts.Add(1)
	}
	return r, err
}

// Commands are decided on a copy of the owner's frozen live state. One
// refused after some of its events were applied, and one resent (decided
// again, then found to have been committed before), leave the live state
// exactly what the database holds, publish nothing, and the next command
// goes on from there without a conflict.
func TestDecidingKeepsTheLiveStateTrue(t *testing.T) {
	ctx := context.Background()
	lt := newLiveTable(t)
	published := &recorder{}
	db := &conflictCounter{DB: lt.db}
	svc := play.New(play.Config{Store: db, Rulesets: engine.NewRegistry(botching{swzones.New()}), Publisher: published})
	defer svc.Close()
	gm := play.Sender{User: lt.gm.ID, Viewer: engine.GMViewer()}
	liveIsStored := func(what string, seq int64) {
		t.Helper()
		rs, live, err := svc.Current(ctx, lt.id)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := play.Latest(ctx, lt.db, rs, lt.id)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := engine.Snapshot(live)
		b, _ := engine.Snapshot(stored)
		if live.Core().Seq != seq || !bytes.Equal(a, b) {
			t.Fatalf("%s: the live state (seq %d) is not the stored one (seq %d, want %d):\nlive:   %s\nstored: %s",
				what, live.Core().Seq, stored.Core().Seq, seq, a, b)
		}
	}
	if _, err := svc.Submit(ctx, lt.id, gm, "start", engine.NewCommand("start", "", nil)); err != nil {
		t.Fatal(err)
	}
	_, st, _ := svc.Current(ctx, lt.id)
	endTurn := engine.NewCommand("end-turn", st.Core().Current(), nil)
	seq, err := svc.Submit(ctx, lt.id, gm, "end-1", endTurn)
	if err != nil {
		t.Fatal(err)
	}
	liveIsStored("after a command", seq)

	_, err = svc.Submit(ctx, lt.id, gm, "botch-1", engine.NewCommand("botch", "", nil))
	if fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("botch = %v, want its refusal", err)
	}
	liveIsStored("after a refusal that came after an event", seq)

	// A resent end of turn is refused by the rules before any event (the
	// turn moved on); a resent chat line is decided again in full and
	// found to be a duplicate only by the store.
	again, err := svc.Submit(ctx, lt.id, gm, "end-1", endTurn)
	if err != nil || again != seq {
		t.Fatalf("the resent end-1 = %d, %v; want its seq %d", again, err, seq)
	}
	liveIsStored("after a resent command the rules refuse", seq)
	hello := engine.NewCommand(engine.KindChat, "", map[string]any{"text": "Hello, table."})
	if seq, err = svc.Submit(ctx, lt.id, gm, "chat-1", hello); err != nil {
		t.Fatal(err)
	}
	if again, err = svc.Submit(ctx, lt.id, gm, "chat-1", hello); err != nil || again != seq {
		t.Fatalf("the resent chat-1 = %d, %v; want its seq %d", again, err, seq)
	}
	liveIsStored("after a resent command the store finds done", seq)

	_, st, _ = svc.Current(ctx, lt.id)
	next, err := svc.Submit(ctx, lt.id, gm, "end-2", engine.NewCommand("end-turn", st.Core().Current(), nil))
	if err != nil || next <= seq {
		t.Fatalf("the next command = %d, %v", next, err)
	}
	liveIsStored("after the next command", next)
	if n := db.conflicts.Load(); n > 0 {
		t.Fatalf("%d appends conflicted: the live state was not the stored one", n)
	}
	published.assertOnceEach(t, next)
}

// The very first command of an encounter (at seq 0), decided in place and
// committed although its commit's outcome was lost, is published once when
// the owner reloads.
func TestFirstCommandsLostOutcomeIsPublished(t *testing.T) {
	ctx := context.Background()
	lt, fs, svc, published := newFaultyTable(t)
	gm := play.Sender{User: lt.gm.ID, Viewer: engine.GMViewer()}
	fs.commitThenFail.Store(1)
	seq, err := svc.Submit(ctx, lt.id, gm, "start", engine.NewCommand("start", "", nil))
	if err != nil || seq == 0 {
		t.Fatalf("start = %d, %v", seq, err)
	}
	published.assertOnceEach(t, seq)
}
