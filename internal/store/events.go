package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// ErrDuplicateCommand is wrapped by the error [DB.Append] returns when the
// command id was already applied to the encounter; that error's fray code is
// ECONFLICT and Append also returns the seq the command reached then.
var ErrDuplicateCommand = errors.New("duplicate command")

// MaxCommandIDLen is the longest client command id, in characters.
const MaxCommandIDLen = 200

// NotifyChannel is the channel Append notifies and Listen listens on. The
// payload is "<encounter id>:<seq>".
const NotifyChannel = "fray_events"

// Append is one command's outcome, written by [DB.Append].
type Append struct {
	EncounterID string
	ExpectSeq   int64          // the encounter's seq the command was decided on
	CommandID   string         // the client's command id; "" records none
	Events      []engine.Event // Seq must be ExpectSeq+1, ExpectSeq+2, …
	State       []byte         // the state (JSON) after the events
	Status      string         // the status after the events; "" keeps it
}

// The one statement that moves an encounter forward: the snapshot update,
// guarded by the expected seq, then the events (only if the update happened).
// It returns whether the update happened. The notification for other servers
// is sent after the commit (see notifier): a NOTIFY inside the transaction
// would serialise every commit in the database on PostgreSQL's notify lock.
const appendSQL = `
WITH upd AS (
	UPDATE encounters
	SET seq = $3, state = $4, status = COALESCE(NULLIF($5::text, ''), status), updated_at = now()
	WHERE id = $1::uuid AND seq = $2
	RETURNING id
), ins AS (
	INSERT INTO events (encounter_id, seq, kind, actor, round, body, command_id)
	SELECT upd.id, e.seq, e.kind, NULLIF(e.actor, ''), e.round, e.body, NULLIF($6::text, '')
	FROM upd, unnest($7::bigint[], $8::text[], $9::text[], $10::int[], $11::jsonb[]) AS e (seq, kind, actor, round, body)
	RETURNING 1
), snap AS (
	INSERT INTO snapshots (encounter_id, seq, state)
	SELECT upd.id, $3, $4 FROM upd WHERE $12::bool
	ON CONFLICT (encounter_id, seq) DO NOTHING
	RETURNING 1
)
SELECT (SELECT count(*) FROM upd), (SELECT count(*) FROM ins), (SELECT count(*) FROM snap)`

const insertCommandSQL = `
INSERT INTO commands (encounter_id, command_id, seq) VALUES ($1::uuid, $2, $3)
ON CONFLICT (encounter_id, command_id) DO NOTHING`

// Append writes a command's events and the resulting state and status in one
// transaction and returns the encounter's new seq (ExpectSeq + len(Events)).
// When the events cross a multiple of SnapshotEvery, the state is also kept
// as a history snapshot at the new seq (see SnapshotAt).
//
// It records CommandID (if not empty) and fills it into events without one.
// Errors:
//   - ErrDuplicateCommand (code ECONFLICT) when CommandID was already applied
//     to the encounter: nothing changes and the seq returned is the one that
//     command reached;
//   - ECONFLICT "encounter changed concurrently" when the encounter's seq is
//     no longer ExpectSeq: nothing changes; reload and decide again;
//   - ENOTFOUND for an unknown encounter, EINVALID for an over-long command id;
//   - EINTERNAL for a malformed Append (events not numbered ExpectSeq+1…,
//     state not JSON).
//
// A command already applied is reported as a duplicate even when ExpectSeq is
// stale, so a resend never applies twice. On success a notification
// "<encounter id>:<new seq>" goes to NotifyChannel when the transaction
// commits (none when there are no events).
func (db *DB) Append(ctx context.Context, a Append) (int64, error) {
	if !validUUID(a.EncounterID) {
		return 0, encounterNotFound(a.EncounterID)
	}
	if a.ExpectSeq < 0 {
		return 0, fray.Errorf(fray.EINTERNAL, "append: negative expected seq %d", a.ExpectSeq)
	}
	if n := utf8.RuneCountInString(a.CommandID); n > MaxCommandIDLen || !utf8.ValidString(a.CommandID) {
		return 0, fray.Errorf(fray.EINVALID, "command id is longer than %d characters or not valid text", MaxCommandIDLen)
	}
	if !json.Valid(a.State) {
		return 0, fray.Errorf(fray.EINTERNAL, "append: state is not JSON")
	}
	newSeq := a.ExpectSeq + int64(len(a.Events))
	n := len(a.Events)
	seqs, kinds, actors, rounds, bodies := make([]int64, n), make([]string, n), make([]string, n), make([]int32, n), make([][]byte, n)
	for i, ev := range a.Events {
		if want := a.ExpectSeq + 1 + int64(i); ev.Seq != want {
			return 0, fray.Errorf(fray.EINTERNAL, "append: event %d (%s) has seq %d, want %d", i, ev.Kind, ev.Seq, want)
		}
		if ev.Kind == "" {
			return 0, fray.Errorf(fray.EINTERNAL, "append: event %d has no kind", i)
		}
		if ev.Command == "" {
			ev.Command = a.CommandID
		}
		body, err := json.Marshal(ev)
		if err != nil {
			return 0, fray.Errorf(fray.EINTERNAL, "append: event %d (%s): %v", i, ev.Kind, err)
		}
		seqs[i], kinds[i], actors[i], rounds[i], bodies[i] = ev.Seq, ev.Kind, ev.Actor, int32(ev.Round), body
	}

	// One round trip for BEGIN and the writes, one for COMMIT or ROLLBACK.
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	if a.CommandID != "" {
		b.Queue(insertCommandSQL, a.EncounterID, a.CommandID, newSeq)
	}
	b.Queue(appendSQL, a.EncounterID, a.ExpectSeq, newSeq, a.State, a.Status, a.CommandID,
		seqs, kinds, actors, rounds, bodies, snapshotDue(a.ExpectSeq, newSeq))
	br := db.pool.SendBatch(ctx, b)
	tx := br.Tx()
	commit := false
	defer func() {
		if !commit {
			_ = br.Close()
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()

	if _, err := br.Exec(); err != nil { // BEGIN
		return 0, fmt.Errorf("store: append: begin: %w", err)
	}
	duplicate := false
	if a.CommandID != "" {
		tag, err := br.Exec()
		if pgCode(err) == sqlForeignKeyViolation {
			return 0, encounterNotFound(a.EncounterID)
		}
		if err != nil {
			return 0, fmt.Errorf("store: append: command: %w", err)
		}
		duplicate = tag.RowsAffected() == 0
	}
	var updated, inserted, snapped int64
	if err := br.QueryRow().Scan(&updated, &inserted, &snapped); err != nil {
		return 0, fmt.Errorf("store: append: %w", err)
	}
	if err := br.Close(); err != nil {
		return 0, fmt.Errorf("store: append: %w", err)
	}

	if duplicate {
		commit = true // nothing to keep: roll back now, then look the command up
		_ = tx.Rollback(context.WithoutCancel(ctx))
		seq, found, err := db.CommandSeq(ctx, a.EncounterID, a.CommandID)
		if err != nil {
			return 0, err
		}
		if !found { // its encounter was deleted meanwhile
			return 0, encounterNotFound(a.EncounterID)
		}
		return seq, fmt.Errorf("%w: %w",
			fray.Errorf(fray.ECONFLICT, "command %q was already applied (seq %d)", a.CommandID, seq), ErrDuplicateCommand)
	}
	if updated == 0 {
		commit = true
		_ = tx.Rollback(context.WithoutCancel(ctx))
		ok, err := db.encounterExists(ctx, a.EncounterID)
		if err != nil {
			return 0, fmt.Errorf("store: append: %w", err)
		}
		if !ok {
			return 0, encounterNotFound(a.EncounterID)
		}
		return 0, fray.Errorf(fray.ECONFLICT, "encounter changed concurrently")
	}
	if inserted != int64(n) {
		return 0, fray.Errorf(fray.EINTERNAL, "append: %d of %d events inserted", inserted, n)
	}
	commit = true
	if err := tx.Commit(ctx); err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return 0, fmt.Errorf("store: append: commit: %w", err)
	}
	if n > 0 {
		db.notes.post(a.EncounterID, newSeq)
	}
	return newSeq, nil
}

// CommandSeq looks up a command id already applied to an encounter and the
// seq it reached. A malformed encounter id is ENOTFOUND.
func (db *DB) CommandSeq(ctx context.Context, encounterID, commandID string) (seq int64, found bool, err error) {
	if !validUUID(encounterID) {
		return 0, false, encounterNotFound(encounterID)
	}
	err = db.pool.QueryRow(ctx,
		`SELECT seq FROM commands WHERE encounter_id = $1::uuid AND command_id = $2`, encounterID, commandID).
		Scan(&seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: command seq: %w", err)
	}
	return seq, true, nil
}

// Events returns the encounter's events with seq > after, ascending, at most
// limit of them (limit <= 0: all). An unknown or malformed encounter id is
// ENOTFOUND.
func (db *DB) Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	var lim *int64
	if limit > 0 {
		l := int64(limit)
		lim = &l
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT seq, body FROM events
		WHERE encounter_id = $1::uuid AND seq > $2
		ORDER BY seq LIMIT $3`, encounterID, after, lim)
	evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Event, error) {
		var (
			seq  int64
			body []byte
			ev   engine.Event
		)
		if err := r.Scan(&seq, &body); err != nil {
			return ev, err
		}
		if err := json.Unmarshal(body, &ev); err != nil {
			return ev, fmt.Errorf("event %d: %w", seq, err)
		}
		ev.Seq = seq
		return ev, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	if len(evs) == 0 {
		ok, err := db.encounterExists(ctx, encounterID)
		if err != nil {
			return nil, fmt.Errorf("store: events: %w", err)
		}
		if !ok {
			return nil, encounterNotFound(encounterID)
		}
	}
	return evs, nil
}
