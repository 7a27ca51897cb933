package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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

// DeadlineSetting is an encounter's turn deadline, set by its GM: a fixed
// wait (After), or a clock (Bank and Increment: each player character's
// time bank, and what each of its turns adds to it).
type DeadlineSetting struct {
	After        time.Duration `json:"after"`        // how long the table waits on a player; 0 with a clock
	RemindBefore time.Duration `json:"remindBefore"` // when, before it runs out, the player is reminded
	Fallback     string        `json:"fallback"`     // FallbackDefault, FallbackNextTurn or FallbackPause
	// Bank, when not 0, makes the deadline a clock: a character's bank
	// starts at Bank, runs while the table waits on it and gains
	// Increment at each of its turns.
	Bank      time.Duration `json:"bank,omitempty"`
	Increment time.Duration `json:"increment,omitempty"`
	// Off switches the deadline off (live play): no wait runs, banks keep
	// what is left of them.
	Off bool `json:"off,omitempty"`
}

// Clock reports whether the deadline is a clock.
func (s DeadlineSetting) Clock() bool { return s.Bank > 0 }

// maxWait bounds every duration of a setting: 30 days.
const maxWait = 30 * 24 * time.Hour

// Check validates a setting: a wait or a bank between a minute and 30
// days (not both), an increment of at most 30 days, a reminder before the
// end, a known fallback.
func (s DeadlineSetting) Check() error {
	limit := s.After
	switch {
	case s.Clock() && s.After != 0:
		return fray.Errorf(fray.EINVALID, "a deadline is a fixed wait or a clock, not both")
	case s.Clock() && (s.Bank < time.Minute || s.Bank > maxWait):
		return fray.Errorf(fray.EINVALID, "a clock's bank is between 1 minute and 30 days")
	case s.Clock() && (s.Increment < 0 || s.Increment > maxWait):
		return fray.Errorf(fray.EINVALID, "a clock's increment is between 0 and 30 days")
	case !s.Clock() && (s.After < time.Minute || s.After > maxWait):
		return fray.Errorf(fray.EINVALID, "a deadline is between 1 minute and 30 days")
	case !s.Clock() && s.Increment != 0:
		return fray.Errorf(fray.EINVALID, "only a clock has an increment")
	}
	if s.Clock() {
		limit = s.Bank
	}
	switch {
	case s.RemindBefore < 0 || s.RemindBefore >= limit:
		return fray.Errorf(fray.EINVALID, "the reminder comes before the deadline, not after it")
	case s.Fallback != FallbackDefault && s.Fallback != FallbackNextTurn && s.Fallback != FallbackPause:
		return fray.Errorf(fray.EINVALID, "the fallback is %q, %q or %q", FallbackDefault, FallbackNextTurn, FallbackPause)
	}
	return nil
}

// secs is d in whole seconds, nil for 0 (a column left NULL).
func secs(d time.Duration) *int {
	if d == 0 {
		return nil
	}
	n := int(d / time.Second)
	return &n
}

// SetDeadline gives encounter id a turn deadline (or replaces it), at now
// on the workers' clock. The wait running now ends with the change (a
// clock's time so far taken off its banks); the next one takes the new
// setting at once. A wait whose fallback a worker is applying finishes.
func (db *DB) SetDeadline(ctx context.Context, encounterID, userID string, s DeadlineSetting, now time.Time) error {
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
	return db.resettingWaits(ctx, encounterID, now, func(tx pgx.Tx) (bool, error) {
		tag, err := tx.Exec(ctx, `
			INSERT INTO encounter_deadlines (encounter_id, after_secs, remind_secs, fallback, set_by, bank_secs, increment_secs, running)
			SELECT id, $2, $3, $4, $5::uuid, $6, $7, $8 FROM encounters WHERE id = $1::uuid
			ON CONFLICT (encounter_id) DO UPDATE SET after_secs = excluded.after_secs,
				remind_secs = excluded.remind_secs, fallback = excluded.fallback, set_by = excluded.set_by, set_at = now(),
				bank_secs = excluded.bank_secs, increment_secs = excluded.increment_secs, running = excluded.running`,
			encounterID, secs(s.After), int(s.RemindBefore/time.Second), s.Fallback, by, secs(s.Bank), int(s.Increment/time.Second), !s.Off)
		return tag.RowsAffected() > 0, err
	})
}

// SwitchDeadline switches encounter id's deadline on or off at now (the
// workers' clock): off, no wait runs and a clock's banks keep what is left
// of them — the wait running now ends, its time taken off them; on, the
// next wait starts at once. It answers not_found when the encounter has
// no deadline.
func (db *DB) SwitchDeadline(ctx context.Context, encounterID string, on bool, now time.Time) error {
	if !validUUID(encounterID) {
		return encounterNotFound(encounterID)
	}
	err := db.resettingWaits(ctx, encounterID, now, func(tx pgx.Tx) (bool, error) {
		tag, err := tx.Exec(ctx, `UPDATE encounter_deadlines SET running = $2 WHERE encounter_id = $1::uuid`, encounterID, on)
		return tag.RowsAffected() > 0, err
	})
	if fray.ErrorCode(err) == fray.ENOTFOUND {
		return fray.Errorf(fray.ENOTFOUND, "this encounter has no turn deadline to switch")
	}
	return err
}

// resettingWaits runs change in a transaction that holds the encounter's
// deadline row, then ends its waits: a clock's time so far is taken off
// its banks, and every wait no worker holds is deleted, so the next one
// (at the same seq, too) takes the setting as it is now. change reports
// whether the encounter exists.
func (db *DB) resettingWaits(ctx context.Context, encounterID string, now time.Time, change func(pgx.Tx) (bool, error)) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM encounter_deadlines WHERE encounter_id = $1::uuid FOR UPDATE`, encounterID); err != nil {
			return err
		}
		ok, err := change(tx)
		if err != nil {
			return err
		}
		if !ok {
			return encounterNotFound(encounterID)
		}
		if _, err := tx.Exec(ctx, chargeSQL, encounterID, now, "reset", int64(math.MaxInt64)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM deadlines WHERE encounter_id = $1::uuid AND lease_until IS NULL AND (done_at IS NULL OR outcome = 'reset')`, encounterID)
		return err
	})
	if err != nil && fray.ErrorCode(err) == "" {
		return fmt.Errorf("store: set deadline: %w", err)
	}
	return err
}

// chargeSQL takes the time of encounter $1's clock waits before seq $4
// not yet charged off the banks of the characters each waited on, as of
// $2 (the workers' clock), and ends those no worker holds with outcome
// $3.
const chargeSQL = `
	WITH old AS (
		UPDATE deadlines SET charged = true,
			outcome = CASE WHEN done_at IS NULL AND lease_until IS NULL THEN $3 ELSE outcome END,
			done_at = CASE WHEN done_at IS NULL AND lease_until IS NULL THEN $2::timestamptz ELSE done_at END
		WHERE encounter_id = $1::uuid AND NOT charged AND seq < $4
		RETURNING waited, started_at
	), spent AS (
		SELECT c, sum(greatest(0, floor(extract(epoch FROM ($2::timestamptz - o.started_at)) * 1000)))::bigint AS ms
		FROM old o CROSS JOIN LATERAL unnest(o.waited) AS c GROUP BY c
	)
	UPDATE clock_banks b SET remaining_ms = greatest(0, b.remaining_ms - spent.ms)
	FROM spent WHERE b.encounter_id = $1::uuid AND b.character_id = spent.c`

// ClearDeadline takes encounter id's deadline away, and the waits not yet
// over and the clock's banks with it.
func (db *DB) ClearDeadline(ctx context.Context, encounterID string) error {
	if !validUUID(encounterID) {
		return encounterNotFound(encounterID)
	}
	_, err := db.pool.Exec(ctx, `
		WITH gone AS (DELETE FROM encounter_deadlines WHERE encounter_id = $1::uuid),
		banks AS (DELETE FROM clock_banks WHERE encounter_id = $1::uuid)
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
	var after, bank *int
	var remind, inc int
	var running bool
	var s DeadlineSetting
	err := db.pool.QueryRow(ctx, `SELECT after_secs, remind_secs, fallback, bank_secs, increment_secs, running FROM encounter_deadlines WHERE encounter_id = $1::uuid`,
		encounterID).Scan(&after, &remind, &s.Fallback, &bank, &inc, &running)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: deadline: %w", err)
	}
	if after != nil {
		s.After = time.Duration(*after) * time.Second
	}
	if bank != nil {
		s.Bank = time.Duration(*bank) * time.Second
	}
	s.RemindBefore, s.Increment, s.Off = time.Duration(remind)*time.Second, time.Duration(inc)*time.Second, !running
	return &s, nil
}

// ScheduleDeadlines writes, at now, one wait for every running encounter
// with a fixed deadline switched on at the seq its log ends at — due its deadline after now:
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
			WHERE s.after_secs IS NOT NULL AND s.running
		), moved AS (
			UPDATE deadlines d SET done_at = now(), outcome = 'moved-on'
			WHERE d.done_at IS NULL AND d.lease_until IS NULL AND d.charged
				AND d.seq < (SELECT max(v.seq) FROM events v WHERE v.encounter_id = d.encounter_id)
		)
		INSERT INTO deadlines (encounter_id, seq, due_at, remind_at, started_at)
		SELECT encounter_id, seq, since + make_interval(secs => after_secs), since + make_interval(secs => after_secs - remind_secs), since
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
	// Clock is set for a clock's wait: Waited are the characters whose
	// banks it draws on since StartedAt.
	Clock     bool
	Waited    []string
	StartedAt time.Time
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
		RETURNING d.id, d.encounter_id::text, d.seq, s.fallback, NOT d.charged, d.waited, coalesce(d.started_at, d.due_at)`, now, lease.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: claim deadlines: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DueDeadline, error) {
		var d DueDeadline
		return d, r.Scan(&d.ID, &d.EncounterID, &d.Seq, &d.Fallback, &d.Clock, &d.Waited, &d.StartedAt)
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
	owners, err := db.EncounterOwners(ctx, encounterID)
	if err != nil {
		return nil, err
	}
	players := make(map[string]string, len(owners))
	for id, o := range owners {
		players[id] = o.Name
	}
	return players, nil
}

// Owner is the player who owns a character.
type Owner struct {
	UserID string `json:"user"`
	Name   string `json:"name"`
}

// EncounterOwners is the owner of every character a player owns in
// encounter id's campaign, by character id.
func (db *DB) EncounterOwners(ctx context.Context, encounterID string) (map[string]Owner, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, err := db.pool.Query(ctx, `
		SELECT o.character_id, u.id::text, u.name
		FROM encounters e
		JOIN character_owners o ON o.campaign_id = e.campaign_id
		JOIN campaign_members m ON m.campaign_id = o.campaign_id AND m.user_id = o.user_id AND m.role = $2
		JOIN users u ON u.id = o.user_id
		WHERE e.id = $1::uuid`, encounterID, RolePlayer)
	if err != nil {
		return nil, fmt.Errorf("store: encounter owners: %w", err)
	}
	owners := map[string]Owner{}
	var id string
	var o Owner
	if _, err := pgx.ForEachRow(rows, []any{&id, &o.UserID, &o.Name}, func() error {
		owners[id] = o
		return nil
	}); err != nil {
		return nil, fmt.Errorf("store: encounter owners: %w", err)
	}
	return owners, nil
}
