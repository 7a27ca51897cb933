package deadlines_test

import (
	"context"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/store"
)

// toyTable is one live Toy encounter in memory: the play service's side
// of a deadline (Current, Submit with AtSeq and command ids), and the
// store's (LookupCommand and the wait to claim).
type toyTable struct {
	t       *testing.T
	st      engine.State
	log     []engine.Event
	applied map[string]int64 // command id → seq reached
	due     []store.DueDeadline
	players map[string]string
}

func (tt *toyTable) Current(context.Context, string) (engine.Ruleset, engine.State, error) {
	return enginetest.Toy{}, tt.st, nil
}

func (tt *toyTable) Submit(_ context.Context, _ string, s play.Sender, cmdID string, cmd engine.Command) (int64, error) {
	if seq, ok := tt.applied[cmdID]; ok {
		return seq, nil
	}
	if s.AtSeq != 0 && tt.st.Core().Seq != s.AtSeq {
		return 0, fray.Errorf(fray.ECONFLICT, "the encounter moved on")
	}
	events, next, err := engine.Decide(enginetest.Toy{}, tt.st, s.Viewer, cmdID, cmd, dice.NewRoller(dice.NewSeeded(1)))
	if err != nil {
		return 0, err
	}
	tt.st, tt.log = next, append(tt.log, events...)
	tt.applied[cmdID] = next.Core().Seq
	return next.Core().Seq, nil
}

func (tt *toyTable) do(v engine.Viewer, id string, cmd engine.Command) {
	tt.t.Helper()
	if _, err := tt.Submit(context.Background(), "", play.Sender{Viewer: v}, id, cmd); err != nil {
		tt.t.Fatalf("%s: %v", id, err)
	}
}

func (tt *toyTable) ScheduleDeadlines(context.Context, time.Time) error        { return nil }
func (tt *toyTable) RemindDeadlines(context.Context, time.Time) (int64, error) { return 0, nil }
func (tt *toyTable) ClaimDeadlines(context.Context, time.Time, time.Duration, int) ([]store.DueDeadline, error) {
	return tt.due, nil // never marked done: every tick claims the wait again, as after a crash
}
func (tt *toyTable) FinishDeadline(context.Context, int64, string) error { return nil }
func (tt *toyTable) EncounterOwners(context.Context, string) (map[string]store.Owner, error) {
	owners := map[string]store.Owner{}
	for id, name := range tt.players {
		owners[id] = store.Owner{UserID: "u-" + name, Name: name}
	}
	return owners, nil
}
func (tt *toyTable) ClockCandidates(context.Context) ([]store.ClockCandidate, error) { return nil, nil }
func (tt *toyTable) StartClockWait(context.Context, store.ClockWait, time.Time) (bool, error) {
	return false, nil
}
func (tt *toyTable) ClockBanks(context.Context, string) (map[string]time.Duration, error) {
	return nil, nil
}
func (tt *toyTable) EncounterStanding(context.Context, string) (map[string]store.Standing, error) {
	return nil, nil
}
func (tt *toyTable) StewardCandidates(context.Context) ([]store.StewardCandidate, error) {
	return nil, nil
}
func (tt *toyTable) HoldAnswer(context.Context, store.Held) error              { return nil }
func (tt *toyTable) HeldAnswers(context.Context, string) ([]store.Held, error) { return nil, nil }
func (tt *toyTable) ReleaseHeld(context.Context, string, string) error         { return nil }
func (tt *toyTable) LookupCommand(_ context.Context, _, _, id string) (store.CommandState, error) {
	seq, ok := tt.applied[id]
	return store.CommandState{Applied: ok, Seq: seq}, nil
}

// TestUnrevealedSealedAnswerFallsBackOnce: in Toy's sealed duel the
// hero's player commits to a stance and the GM answers for the orc, so
// the table waits on the hero's reveal. When the turn deadline passes,
// its fallback (default) forfeits the unrevealed answer — its default
// applies, logged once — and, ticked again as if the worker had died
// before marking the wait done, applies nothing more; it does not end the
// hero's turn. With the pause fallback the encounter would pause instead.
func TestUnrevealedSealedAnswerFallsBackOnce(t *testing.T) {
	st, err := engine.NewEncounter(enginetest.Toy{}, "enc", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	tt := &toyTable{t: t, st: st, applied: map[string]int64{}, players: map[string]string{"hero": "Sam"}}
	gm, hero := engine.GMViewer(), engine.PlayerViewer("hero")
	tt.do(gm, "start", engine.NewCommand(engine.KindStart, "", nil))
	for i := 0; tt.st.Core().Current() != "hero"; i++ {
		if i > 5 {
			t.Fatal("never the hero's turn")
		}
		tt.do(gm, "end-"+string(rune('a'+i)), engine.NewCommand("end-turn", tt.st.Core().Current(), nil))
	}
	tt.do(hero, "duel", engine.NewCommand("duel", "hero", map[string]any{"target": "orc"}))
	var mine, orcs string
	for _, d := range tt.st.Core().Pending {
		switch d.For {
		case "hero":
			mine = d.ID
		case "orc":
			orcs = d.ID
		}
	}
	commitment, err := engine.Commitment(mine, "bold", nil, "00112233445566778899aabbccddeeff")
	if err != nil {
		t.Fatal(err)
	}
	tt.do(hero, "commit", engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": mine, "commitment": commitment}))
	tt.do(gm, "orc", engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": orcs, "choice": "careful"}))
	if d := tt.st.Core().Decision(mine); d == nil || !tt.st.Core().AwaitsReveal(*d) {
		t.Fatal("the hero's answer does not await its reveal")
	}
	owners, _ := tt.EncounterOwners(context.Background(), "enc")
	if step, ok := deadlines.Next(enginetest.Toy{}, tt.st, deadlines.Players{Owners: owners}, func(string) bool { return true }, store.FallbackPause, false); !ok || step.Command.Kind != engine.KindPause {
		t.Fatalf("pause fallback: %+v %v", step.Command, ok)
	}

	waitSeq := tt.st.Core().Seq
	tt.due = []store.DueDeadline{{ID: 7, EncounterID: "enc", Seq: waitSeq, Fallback: store.FallbackDefault}}
	w := &deadlines.Worker{Store: tt, Table: tt}
	forfeits := func() (n int) {
		for _, ev := range tt.log {
			if ev.Kind == engine.KindDecisionForfeited {
				n++
			}
		}
		return n
	}
	for tick := range 3 {
		if err := w.Tick(context.Background()); err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
		if n := forfeits(); n != 1 {
			t.Fatalf("tick %d: %d forfeits, want 1", tick, n)
		}
	}
	for _, ev := range tt.log {
		if ev.Kind == engine.KindDecisionForfeited && ev.Command != "deadline-7-0" {
			t.Fatalf("the forfeit is not the wait's first step: %q", ev.Command)
		}
	}
	if _, ok := tt.applied["deadline-7-end"]; ok {
		for _, ev := range tt.log {
			t.Logf("%s %s %s", ev.Command, ev.Kind, ev.Text)
		}
		t.Fatal("the default fallback went on to end the turn")
	}
	if d := tt.st.Core().Decision(mine); d != nil {
		t.Fatalf("the duel still waits: %+v", d)
	}
}
