package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/outbox"
)

// Deadline fallbacks: what applies when a player's wait runs out.
const (
	FallbackDefault  = "default"   // the decisions' defaults; a turn passes
	FallbackNextTurn = "next-turn" // the decisions' defaults, then the turn ends
	FallbackPause    = "pause"     // the encounter pauses for the GM
)

// DeadlineSetting is an encounter's turn deadline, set by its GM.
type DeadlineSetting struct {
	After        time.Duration `json:"after"`        // how long the table waits on a player
	RemindBefore time.Duration `json:"remindBefore"` // when, before it runs out, the player is reminded
	Fallback     string        `json:"fallback"`     // FallbackDefault, FallbackNextTurn or FallbackPause
}

// Check validates a setting: between a minute and 30 days, a reminder
// before the end, a known fallback.
func (s DeadlineSetting) Check() error {
	switch {
	case s.After < time.Minute || s.After > 30*24*time.Hour:
		return fray.Errorf(fray.EINVALID, "a deadline is between 1 minute and 30 days")
	case s.RemindBefore < 0 || s.RemindBefore >= s.After:
		return fray.Errorf(fray.EINVALID, "the reminder comes before the deadline, not after it")
	case s.Fallback != FallbackDefault && s.Fallback != FallbackNextTurn && s.Fallback != FallbackPause:
		return fray.Errorf(fray.EINVALID, "the fallback is %q, %q or %q", FallbackDefault, FallbackNextTurn, FallbackPause)
	}
	return nil
}

// SetDeadline gives encounter id a turn deadline (or replaces it). Waits
// already scheduled keep their times; the next wait takes the new one.
func (db *DB) SetDeadline(ctx context.Context, encounterID, userID string, s DeadlineSetting) error {
	if err := s.Check(); err != nil {
		return err
	}
	if !validUUID(encounterID) {
		return encounterNotFound(encounterID)
	}
	var by *string
	if validUUID(userID) {
		by = &userID
	}
	tag, err := db.pool.Exec(ctx, `
		INSERT INTO encounter_deadlines (encounter_id, after_secs, remind_secs, fallback, set_by)
		SELECT id, $2, $3, $4, $5::uuid FROM encounters WHERE id = $1::uuid
		ON CONFLICT (encounter_id) DO UPDATE SET after_secs = excluded.after_secs,
			remind_secs = excluded.remind_secs, fallback = excluded.fallback, set_by = excluded.set_by, set_at = now()`,
		encounterID, int(s.After/time.Second), int(s.RemindBefore/time.Second), s.Fallback, by)
	if err != nil {
		return fmt.Errorf("store: set deadline: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return encounterNotFound(encounterID)
	}
	return nil
}

// ClearDeadline takes encounter id's deadline away, and the waits not yet
// over with it.
func (db *DB) ClearDeadline(ctx context.Context, encounterID string) error {
	if !validUUID(encounterID) {
		return encounterNotFound(encounterID)
	}
	_, err := db.pool.Exec(ctx, `
		WITH gone AS (DELETE FROM encounter_deadlines WHERE encounter_id = $1::uuid)
		DELETE FROM deadlines WHERE encounter_id = $1::uuid AND done_at IS NULL`, encounterID)
	if err != nil {
		return fmt.Errorf("store: clear deadline: %w", err)
	}
	return nil
}

// Deadline is encounter id's deadline setting; nil when it has none.
func (db *DB) Deadline(ctx context.Context, encounterID string) (*DeadlineSetting, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	var after, remind int
	var s DeadlineSetting
	err := db.pool.QueryRow(ctx, `SELECT after_secs, remind_secs, fallback FROM encounter_deadlines WHERE encounter_id = $1::uuid`,
		encounterID).Scan(&after, &remind, &s.Fallback)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: deadline: %w", err)
	}
	s.After, s.RemindBefore = time.Duration(after)*time.Second, time.Duration(remind)*time.Second
	return &s, nil
}

// ScheduleDeadlines writes, at now, one wait for every running encounter
// with a deadline at the seq its log ends at — due its deadline after now:
// a wait starts when a worker first sees it (within its tick), on the
// workers' clock, which tests move — and closes the waits of encounters that
// moved on — but those a worker claimed, which it finishes itself (a
// fallback it applied moved the encounter on). Any instance may run it at any time: a wait is unique per
// encounter and seq.
func (db *DB) ScheduleDeadlines(ctx context.Context, now time.Time) error {
	_, err := db.pool.Exec(ctx, `
		WITH last AS (
			SELECT s.encounter_id, l.seq, $1::timestamptz AS since, s.after_secs, s.remind_secs
			FROM encounter_deadlines s
			JOIN encounters e ON e.id = s.encounter_id AND e.status = 'running'
			CROSS JOIN LATERAL (SELECT v.seq FROM events v WHERE v.encounter_id = s.encounter_id
				ORDER BY v.seq DESC LIMIT 1) l
		), moved AS (
			UPDATE deadlines d SET done_at = now(), outcome = 'moved-on'
			WHERE d.done_at IS NULL AND d.lease_until IS NULL
				AND d.seq < (SELECT max(v.seq) FROM events v WHERE v.encounter_id = d.encounter_id)
		)
		INSERT INTO deadlines (encounter_id, seq, due_at, remind_at)
		SELECT encounter_id, seq, since + make_interval(secs => after_secs), since + make_interval(secs => after_secs - remind_secs)
		FROM last
		ON CONFLICT (encounter_id, seq) DO NOTHING`, now)
	if err != nil {
		return fmt.Errorf("store: schedule deadlines: %w", err)
	}
	return nil
}

// RemindDeadlines enqueues a reminder for every wait whose reminder is due
// at now and whose encounter still stands where it stood, in the
// transaction that marks it reminded: each wait is reminded once, by
// whichever instance claims it. The reminder is about the turn or decision
// the table waits on; it returns how many it enqueued.
func (db *DB) RemindDeadlines(ctx context.Context, now time.Time) (int64, error) {
	var written int64
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `
			SELECT d.id, d.encounter_id::text, d.due_at,
				(SELECT max(v.seq) FROM events v WHERE v.encounter_id = d.encounter_id AND v.seq <= d.seq AND v.kind = ANY($2))
			FROM deadlines d
			WHERE d.done_at IS NULL AND d.reminded_at IS NULL AND d.remind_at <= $1
			ORDER BY d.remind_at
			FOR UPDATE OF d SKIP LOCKED
			LIMIT 100`, now, []string{engine.KindTurnStarted, engine.KindDecisionOpened})
		if err != nil {
			return err
		}
		var ids []int64
		var notices []outbox.Notice
		for rows.Next() {
			var id int64
			var enc string
			var due time.Time
			var about *int64
			if err := rows.Scan(&id, &enc, &due, &about); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
			if about != nil {
				data, _ := json.Marshal(map[string]string{"due": due.UTC().Format(time.RFC3339)})
				notices = append(notices, outbox.Notice{EncounterID: enc, Seq: *about, Type: outbox.Reminder, Data: data})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE deadlines SET reminded_at = $1 WHERE id = ANY($2)`, now, ids); err != nil {
			return err
		}
		written, err = db.EnqueueTx(ctx, tx, notices...)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: remind deadlines: %w", err)
	}
	if written > 0 {
		db.WakeOutbox()
	}
	return written, nil
}

// DueDeadline is a wait that ran out, claimed by one worker for a lease.
type DueDeadline struct {
	ID          int64
	EncounterID string
	Seq         int64 // where the encounter stood when the wait began
	Fallback    string
}

// ClaimDeadlines claims up to limit waits due at now that no worker holds,
// for lease: committed before the caller applies anything, so a worker
// that dies leaves the wait to be claimed again once its lease ran out.
func (db *DB) ClaimDeadlines(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]DueDeadline, error) {
	rows, err := db.pool.Query(ctx, `
		UPDATE deadlines d SET lease_until = $1::timestamptz + make_interval(secs => $2), attempts = d.attempts + 1
		FROM encounter_deadlines s
		WHERE s.encounter_id = d.encounter_id AND d.id IN (
			SELECT id FROM deadlines WHERE done_at IS NULL AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
			ORDER BY due_at FOR UPDATE SKIP LOCKED LIMIT $3)
		RETURNING d.id, d.encounter_id::text, d.seq, s.fallback`, now, lease.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: claim deadlines: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DueDeadline, error) {
		var d DueDeadline
		return d, r.Scan(&d.ID, &d.EncounterID, &d.Seq, &d.Fallback)
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim deadlines: %w", err)
	}
	return out, nil
}

// FinishDeadline marks a claimed wait done with its outcome.
func (db *DB) FinishDeadline(ctx context.Context, id int64, outcome string) error {
	if _, err := db.pool.Exec(ctx, `UPDATE deadlines SET done_at = now(), outcome = $2, lease_until = NULL WHERE id = $1`, id, outcome); err != nil {
		return fmt.Errorf("store: finish deadline: %w", err)
	}
	return nil
}

// EncounterPlayers names the owner of every character a player owns in
// encounter id's campaign (character id → account name).
func (db *DB) EncounterPlayers(ctx context.Context, encounterID string) (map[string]string, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	var players map[string]string
	err := db.pool.QueryRow(ctx, `
		SELECT json_object_agg(o.character_id, u.name)
		FROM encounters e
		JOIN character_owners o ON o.campaign_id = e.campaign_id
		JOIN campaign_members m ON m.campaign_id = o.campaign_id AND m.user_id = o.user_id AND m.role = $2
		JOIN users u ON u.id = o.user_id
		WHERE e.id = $1::uuid`, encounterID, RolePlayer).Scan(&players)
	if err != nil {
		return nil, fmt.Errorf("store: encounter players: %w", err)
	}
	return players, nil
}
