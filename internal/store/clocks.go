package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Clocks (see DeadlineSetting.Bank): a clock's wait is a row of deadlines
// like a fixed one's, but its due time is when the first bank of the
// characters it waits on runs dry, and its time is taken off their banks
// (clock_banks) when the encounter moves on. The workers start one per
// seq the log ends at (StartClockWait): they know, from the encounter's
// state, whom the table waits on.

// ClockCandidate is a running encounter with a clock switched on whose log
// ends at Seq without a wait there yet.
type ClockCandidate struct {
	EncounterID string
	Seq         int64
}

// ClockCandidates lists the encounters whose clock needs a wait started.
func (db *DB) ClockCandidates(ctx context.Context) ([]ClockCandidate, error) {
	rows, err := db.pool.Query(ctx, `
		SELECT s.encounter_id::text, l.seq
		FROM encounter_deadlines s
		JOIN encounters e ON e.id = s.encounter_id AND e.status = 'running'
		CROSS JOIN LATERAL (SELECT v.seq FROM events v WHERE v.encounter_id = s.encounter_id
			ORDER BY v.seq DESC LIMIT 1) l
		WHERE s.bank_secs IS NOT NULL AND s.running
			AND NOT EXISTS (SELECT 1 FROM deadlines d WHERE d.encounter_id = s.encounter_id AND d.seq = l.seq)`)
	if err != nil {
		return nil, fmt.Errorf("store: clock candidates: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ClockCandidate, error) {
		var c ClockCandidate
		return c, r.Scan(&c.EncounterID, &c.Seq)
	})
	if err != nil {
		return nil, fmt.Errorf("store: clock candidates: %w", err)
	}
	return out, nil
}

// ClockWait is the wait a clock starts at an encounter's seq: the player
// characters the table waits on, whose banks run, and those whose turn it
// is, which gain the increment when the turn (TurnKey) is a new one.
type ClockWait struct {
	EncounterID string
	Seq         int64
	Waited      []string
	Acting      []string
	TurnKey     string
}

// StartClockWait starts w at now (the workers' clock), once per seq
// whichever instance does it: it takes the time of the waits before it
// off the banks they drew on, fills the banks of characters waited on for
// the first time, adds the increment to the acting characters' banks at a
// new turn, and writes the wait, due when the first of the waited banks
// runs dry (never, when no player character is waited on). It reports
// whether it started one: not when the clock is gone or off, or the wait
// exists.
func (db *DB) StartClockWait(ctx context.Context, w ClockWait, now time.Time) (bool, error) {
	if !validUUID(w.EncounterID) {
		return false, encounterNotFound(w.EncounterID)
	}
	// (A nil slice would be NULL, not an empty array.)
	w.Waited, w.Acting = append([]string{}, w.Waited...), append([]string{}, w.Acting...)
	started := false
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var bank *int
		var inc, remind int
		var running bool
		var turn *string
		err := tx.QueryRow(ctx, `
			SELECT bank_secs, increment_secs, remind_secs, running, turn_key FROM encounter_deadlines
			WHERE encounter_id = $1::uuid FOR UPDATE`, w.EncounterID).Scan(&bank, &inc, &remind, &running, &turn)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil || bank == nil || !running {
			return err
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM deadlines WHERE encounter_id = $1::uuid AND seq = $2)`,
			w.EncounterID, w.Seq).Scan(&exists); err != nil || exists {
			return err
		}
		if _, err := tx.Exec(ctx, chargeSQL, w.EncounterID, now, "moved-on", w.Seq); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO clock_banks (encounter_id, character_id, remaining_ms)
			SELECT $1::uuid, c, $3::bigint * 1000 FROM unnest($2::text[]) AS c
			ON CONFLICT (encounter_id, character_id) DO NOTHING`, w.EncounterID, append(slices.Clone(w.Waited), w.Acting...), *bank); err != nil {
			return err
		}
		if turn == nil || *turn != w.TurnKey {
			if _, err := tx.Exec(ctx, `
				UPDATE clock_banks SET remaining_ms = remaining_ms + $3::bigint * 1000
				WHERE encounter_id = $1::uuid AND character_id = ANY($2)`, w.EncounterID, w.Acting, inc); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE encounter_deadlines SET turn_key = $2 WHERE encounter_id = $1::uuid`, w.EncounterID, w.TurnKey); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `
			WITH left_ms AS (
				SELECT min(remaining_ms) AS ms FROM clock_banks WHERE encounter_id = $1::uuid AND character_id = ANY($3)
			), due AS (
				SELECT CASE WHEN ms IS NULL THEN 'infinity'::timestamptz
					ELSE $4::timestamptz + make_interval(secs => ms / 1000.0) END AS at FROM left_ms
			)
			INSERT INTO deadlines (encounter_id, seq, due_at, remind_at, started_at, waited, charged)
			SELECT $1::uuid, $2, at, CASE WHEN at = 'infinity' THEN at ELSE at - make_interval(secs => $5) END, $4, $3, false
			FROM due`, w.EncounterID, w.Seq, w.Waited, now, remind)
		started = err == nil
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: start clock wait: %w", err)
	}
	return started, nil
}

// ClockBanks is what is left of each character's bank in encounter id,
// as of the last wait that ended.
func (db *DB) ClockBanks(ctx context.Context, encounterID string) (map[string]time.Duration, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, err := db.pool.Query(ctx, `SELECT character_id, remaining_ms FROM clock_banks WHERE encounter_id = $1::uuid`, encounterID)
	if err != nil {
		return nil, fmt.Errorf("store: clock banks: %w", err)
	}
	out := map[string]time.Duration{}
	var id string
	var ms int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &ms}, func() error {
		out[id] = time.Duration(ms) * time.Millisecond
		return nil
	}); err != nil {
		return nil, fmt.Errorf("store: clock banks: %w", err)
	}
	return out, nil
}

// OpenWait is the wait an encounter's log ends at.
type OpenWait struct {
	Seq       int64
	Clock     bool      // a clock's, whose time is not yet charged
	StartedAt time.Time // a clock's start
	Due       time.Time // zero: never (no player waited on)
	Waited    []string
	Done      bool
}

// LastWait is encounter id's latest wait, nil when it has none.
func (db *DB) LastWait(ctx context.Context, encounterID string) (*OpenWait, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	var w OpenWait
	var due *time.Time
	err := db.pool.QueryRow(ctx, `
		SELECT seq, NOT charged, coalesce(started_at, due_at), CASE WHEN due_at = 'infinity' THEN NULL ELSE due_at END, waited, done_at IS NOT NULL
		FROM deadlines WHERE encounter_id = $1::uuid ORDER BY seq DESC LIMIT 1`, encounterID).
		Scan(&w.Seq, &w.Clock, &w.StartedAt, &due, &w.Waited, &w.Done)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: last wait: %w", err)
	}
	if due != nil {
		w.Due = *due
	}
	return &w, nil
}
