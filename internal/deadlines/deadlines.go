// Package deadlines runs turn deadlines, for play between sessions: a GM
// gives an encounter a deadline (store.DeadlineSetting); while the table
// waits on a player — their character's turn, or a decision that is
// theirs — the player is reminded before it runs out (a notice through the
// outbox), and when it runs out the GM's fallback applies once, on exactly
// one instance, even across restarts.
//
// A wait is a row of the store (one per encounter and seq its log ends
// at). A Worker on every instance schedules waits, enqueues due reminders
// and claims due waits FOR UPDATE SKIP LOCKED with a lease. The fallback
// goes through the play service like any command, as the GM, with command
// ids derived from the wait's id ("deadline-<id>-<step>") and only while
// the encounter still stands where the previous step left it (play.Sender
// AtSeq): a worker that dies after applying and before marking the wait
// done leaves a lease to run out; the next worker finds the step applied
// (by its id) and goes on from there, never applying it twice.
package deadlines

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is what the worker needs of the store; *store.DB is one.
type Store interface {
	ScheduleDeadlines(ctx context.Context, now time.Time) error
	RemindDeadlines(ctx context.Context, now time.Time) (int64, error)
	ClaimDeadlines(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.DueDeadline, error)
	FinishDeadline(ctx context.Context, id int64, outcome string) error
	EncounterPlayers(ctx context.Context, encounterID string) (map[string]string, error)
	LookupCommand(ctx context.Context, encounterID, sender, commandID string) (store.CommandState, error)
}

// Table is the live encounters; *play.Service is one.
type Table interface {
	Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error)
	Submit(ctx context.Context, id string, sender play.Sender, cmdID string, cmd engine.Command) (int64, error)
}

// Worker applies deadlines. Now is injectable: tests move time, never
// sleep through a deadline.
type Worker struct {
	Store  Store
	Table  Table
	Now    func() time.Time
	Lease  time.Duration // how long a claimed wait is this worker's (default 1 min)
	Every  time.Duration // how often Run looks (default 15 s)
	Logger *slog.Logger
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

func (w *Worker) logger() *slog.Logger {
	if w.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Logger
}

// Run ticks every Every until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	every := w.Every
	if every <= 0 {
		every = 15 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := w.Tick(ctx); err != nil && ctx.Err() == nil {
			w.logger().Warn("deadlines", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick schedules waits, sends due reminders, and applies the fallbacks of
// the waits that ran out. It returns the first error; a wait it could not
// finish is taken again once its lease runs out.
func (w *Worker) Tick(ctx context.Context) error {
	now := w.now()
	if err := w.Store.ScheduleDeadlines(ctx, now); err != nil {
		return err
	}
	if _, err := w.Store.RemindDeadlines(ctx, now); err != nil {
		return err
	}
	lease := w.Lease
	if lease <= 0 {
		lease = time.Minute
	}
	due, err := w.Store.ClaimDeadlines(ctx, now, lease, 20)
	if err != nil {
		return err
	}
	var first error
	for _, d := range due {
		outcome, err := w.apply(ctx, d)
		if err == nil {
			err = w.Store.FinishDeadline(ctx, d.ID, outcome)
		}
		if err != nil {
			w.logger().Warn("deadline fallback", "deadline", d.ID, "encounter", d.EncounterID, "err", err)
			if first == nil {
				first = err
			}
		}
	}
	return first
}

// apply applies d's fallback and says how it ended. A fallback is at most
// three commands, each with an id of its own derived from the wait: the
// players' decisions answered with their defaults ("deadline-<id>-answers"),
// the sealed answers they committed to and did not reveal forfeited
// ("deadline-<id>-reveals"), then — for next-turn, or when no decision
// waited — the turn's end or the pause ("deadline-<id>-end"). Each applies only while the encounter stands
// where the wait (or the step before) left it; a step found applied by its
// id is never sent again.
func (w *Worker) apply(ctx context.Context, d store.DueDeadline) (string, error) {
	players, err := w.Store.EncounterPlayers(ctx, d.EncounterID)
	if err != nil {
		return "", err
	}
	gm := engine.Viewer{GM: true, Players: players, Name: "deadline"}
	answersID, revealsID, endID := fmt.Sprintf("deadline-%d-answers", d.ID), fmt.Sprintf("deadline-%d-reveals", d.ID), fmt.Sprintf("deadline-%d-end", d.ID)
	if look, err := w.Store.LookupCommand(ctx, d.EncounterID, "", endID); err != nil || look.Applied {
		return "applied", err
	}
	at, answered := d.Seq, false
	for _, id := range []string{answersID, revealsID} {
		look, err := w.Store.LookupCommand(ctx, d.EncounterID, "", id)
		if err != nil {
			return "", err
		}
		if look.Applied && look.Seq > at {
			at, answered = look.Seq, true
		}
	}
	for {
		rs, st, err := w.Table.Current(ctx, d.EncounterID)
		if err != nil {
			return "", err
		}
		if st.Core().Seq != at {
			return outcome(answered, "moved-on"), nil
		}
		cmd, ok := Fallback(rs, st, players, d.Fallback)
		id := endID
		switch cmd.Kind {
		case engine.KindAcceptDefaults:
			id = answersID
		case engine.KindRevealTimeout:
			id = revealsID
		}
		switch {
		case !ok, answered && id == answersID, answered && id == endID && d.Fallback == store.FallbackDefault:
			// Nothing waits on a player; or, once their decisions are
			// answered, what waits now is not this wait's. (Sealed
			// answers the defaults completed are this wait's to reveal.)
			return outcome(answered, "not-a-player"), nil
		}
		seq, err := w.Table.Submit(ctx, d.EncounterID, play.Sender{Viewer: gm, AtSeq: at}, id, cmd)
		switch {
		case fray.ErrorCode(err) == fray.ECONFLICT:
			return outcome(answered, "moved-on"), nil // someone acted at the last moment
		case err != nil:
			return "", err
		case id == endID:
			return "applied", nil
		}
		at, answered = seq, true
	}
}

func outcome(applied bool, otherwise string) string {
	if applied {
		return "applied"
	}
	return otherwise
}

// Fallback is the next command a deadline's fallback sends for encounter
// state st, whose characters players owns (id → name): false when the
// table no longer waits on a player.
//
//   - Decisions waiting on players: pause pauses the encounter; default and
//     next-turn answer them with their defaults (accept-defaults with
//     override, logged as the GM deciding for each player), or pause when
//     none has a default. After that, next-turn goes on to end the turn;
//     default stops (the turn waits again, with a new deadline).
//   - Sealed answers committed by players and not revealed once every
//     party has answered: pause pauses; default and next-turn forfeit them
//     (reveal-timeout: each decision's default applies, logged as
//     decision-forfeited), then go on as above.
//   - A player's turn (nothing waiting): next-turn and default end it (the
//     ruleset's end-turn command; a ruleset without one pauses); pause
//     pauses.
func Fallback(rs engine.Ruleset, st engine.State, players map[string]string, fallback string) (engine.Command, bool) {
	b := st.Core()
	if b.Status != engine.StatusRunning {
		return engine.Command{}, false
	}
	pause := engine.NewCommand(engine.KindPause, "", nil)
	var theirs []engine.Decision
	for _, d := range b.Pending {
		if !d.Answered && d.For != engine.GM && players[d.For] != "" {
			theirs = append(theirs, d)
		}
	}
	if len(theirs) > 0 {
		if fallback == store.FallbackPause || !slices.ContainsFunc(theirs, func(d engine.Decision) bool { return d.Default != "" }) {
			return pause, true
		}
		return engine.NewCommand(engine.KindAcceptDefaults, "", map[string]any{"override": true}), true
	}
	// Sealed answers a player committed to and has not revealed, though
	// every party has answered: the defaults apply (a sealed decision
	// always has one), or the pause.
	if slices.ContainsFunc(b.Pending, func(d engine.Decision) bool {
		return d.For != engine.GM && players[d.For] != "" && b.AwaitsReveal(d)
	}) {
		if fallback == store.FallbackPause {
			return pause, true
		}
		return engine.NewCommand(engine.KindRevealTimeout, "", nil), true
	}
	if b.Waiting() {
		return engine.Command{}, false // the GM's to answer
	}
	for _, id := range b.Acting {
		if players[id] == "" {
			continue
		}
		if _, ok := engine.Spec(rs, endTurn); !ok || fallback == store.FallbackPause {
			return pause, true
		}
		return engine.NewCommand(endTurn, id, nil), true
	}
	return engine.Command{}, false
}

// endTurn is the command kind by which a combatant ends its turn, in the
// rulesets that have one.
const endTurn = "end-turn"
