package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// ErrDuplicateCommand is wrapped by the error [DB.Append] returns when the
// command id was already applied to the encounter; that error's fray code is
// ECONFLICT and Append also returns the seq the command reached then.
var ErrDuplicateCommand = errors.New("duplicate command")

// ErrAccessChanged is wrapped by the error [DB.Append] returns when the
// append named an access version (Append.Access) and the campaign's is no
// longer it: nothing changed. The sender's access may have shrunk: authorise
// them again, then decide the command again. Its fray code is ECONFLICT.
var ErrAccessChanged = errors.New("access changed")

// ErrOutcomeUnknown is wrapped by the error [DB.Append] returns when the
// database connection failed while the transaction was committing, so it may
// or may not have committed. Appending the same command again (same Sender
// and CommandID) is safe: it is then reported as a duplicate if it had
// committed. Its fray code is EOUTCOMEUNKNOWN.
var ErrOutcomeUnknown = errors.New("commit outcome unknown")

// MaxCommandIDLen is the longest client command id, in characters.
const MaxCommandIDLen = 200

// NotifyChannel is the channel Append notifies and Listen listens on. The
// payload is "<encounter id>:<seq>".
const NotifyChannel = "fray_events"

// Append is one command's outcome, written by [DB.Append].
type Append struct {
	EncounterID string
	ExpectSeq   int64 // the encounter's seq the command was decided on
	// Sender is who sent the command (a user id; "" for none). Command ids
	// are scoped per sender: two senders may use the same id.
	Sender    string
	CommandID string         // the client's command id; "" records none
	Events    []engine.Event // Seq must be ExpectSeq+1, ExpectSeq+2, …
	State     []byte         // the state (JSON) after the events
	Status    string         // the status after the events; "" keeps it
	// Access, when not 0, is the access version of the encounter's campaign
	// (see Access.Version) the sender was authorised at: the append commits
	// only while it is still the campaign's, else ErrAccessChanged.
	Access int64
}

// Appended is what [DB.AppendCommand] did.
type Appended struct {
	Seq int64 // the encounter's new seq, or for a duplicate the seq the command reached
	// Access is the campaign's access version the append committed at. An
	// update published with it must not reach a viewer authorised at an
	// older version before that viewer is authorised again.
	Access int64
}

// The one statement that moves an encounter forward: the snapshot update,
// guarded by the expected seq (and access version), then the events (only if
// the update happened). It returns whether the update happened. The
// notification for other servers is sent after the commit (see notifier): a
// NOTIFY inside the transaction would serialise every commit in the database
// on PostgreSQL's notify lock.
const appendSQL = `
WITH upd AS (
	UPDATE encounters e
	SET seq = $3, state = $4, status = COALESCE(NULLIF($5::text, ''), status), updated_at = now()
	WHERE e.id = $1::uuid AND e.seq = $2
	  AND ($13::bigint = 0 OR $13 = (SELECT c.access_version FROM campaigns c WHERE c.id = e.campaign_id))
	RETURNING e.id, (SELECT c.access_version FROM campaigns c WHERE c.id = e.campaign_id) AS access
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
SELECT (SELECT count(*) FROM upd), (SELECT count(*) FROM ins), (SELECT count(*) FROM snap),
	COALESCE((SELECT access FROM upd), 0)`

// insertCommandSQL records a command id for its sender, unless the sender
// already used it, or it was recorded before ids were scoped per sender
// (sender ”), which counts as used by everyone.
const insertCommandSQL = `
INSERT INTO commands (encounter_id, sender, command_id, seq)
SELECT $1::uuid, $2, $3, $4
WHERE NOT EXISTS (SELECT 1 FROM commands WHERE encounter_id = $1::uuid AND sender = '' AND command_id = $3)
ON CONFLICT (encounter_id, sender, command_id) DO NOTHING`

// Append writes a command's events and the resulting state and status in one
// transaction and returns the encounter's new seq (ExpectSeq + len(Events)),
// see AppendCommand.
func (db *DB) Append(ctx context.Context, a Append) (int64, error) {
	r, err := db.AppendCommand(ctx, a)
	return r.Seq, err
}

// AppendCommand writes a command's events and the resulting state and status
// in one transaction. When the events cross a multiple of SnapshotEvery, the
// state is also kept as a history snapshot at the new seq (see SnapshotAt).
//
// It records CommandID (if not empty) for Sender and fills it into events
// without one. Errors:
//   - ErrDuplicateCommand (code ECONFLICT) when Sender already applied
//     CommandID to the encounter: nothing changes and the seq returned is the
//     one that command reached;
//   - ECONFLICT "encounter changed concurrently" when the encounter's seq is
//     no longer ExpectSeq: nothing changes; reload and decide again;
//   - ErrAccessChanged (code ECONFLICT) when Access is set and is no longer
//     the campaign's access version: nothing changes;
//   - ErrOutcomeUnknown (code EOUTCOMEUNKNOWN) when the connection failed
//     during the commit: append the same command again to find out;
//   - ENOTFOUND for an unknown encounter, EINVALID for an over-long command id;
//   - EINTERNAL for a malformed Append (events not numbered ExpectSeq+1…,
//     state not JSON); other errors (the database is unreachable…) change
//     nothing.
//
// A command already applied is reported as a duplicate even when ExpectSeq is
// stale or the access version changed, so a resend never applies twice. On
// success a notification "<encounter id>:<new seq>" goes to NotifyChannel
// after the transaction commits (none when there are no events).
func (db *DB) AppendCommand(ctx context.Context, a Append) (Appended, error) {
	if !validUUID(a.EncounterID) {
		return Appended{}, encounterNotFound(a.EncounterID)
	}
	if a.ExpectSeq < 0 {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: negative expected seq %d", a.ExpectSeq)
	}
	if n := utf8.RuneCountInString(a.CommandID); n > MaxCommandIDLen || !validText(a.CommandID) {
		return Appended{}, fray.Errorf(fray.EINVALID, "command id is longer than %d characters or not valid text", MaxCommandIDLen)
	}
	if !validText(a.Sender) {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: sender is not valid text")
	}
	if !json.Valid(a.State) {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: state is not JSON")
	}
	newSeq := a.ExpectSeq + int64(len(a.Events))
	n := len(a.Events)
	seqs, kinds, actors, rounds, bodies := make([]int64, n), make([]string, n), make([]string, n), make([]int32, n), make([][]byte, n)
	for i, ev := range a.Events {
		if want := a.ExpectSeq + 1 + int64(i); ev.Seq != want {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: event %d (%s) has seq %d, want %d", i, ev.Kind, ev.Seq, want)
		}
		if ev.Kind == "" {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: event %d has no kind", i)
		}
		if ev.Command == "" {
			ev.Command = a.CommandID
		}
		body, err := json.Marshal(ev)
		if err != nil {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: event %d (%s): %v", i, ev.Kind, err)
		}
		seqs[i], kinds[i], actors[i], rounds[i], bodies[i] = ev.Seq, ev.Kind, ev.Actor, int32(ev.Round), body
	}

	// One round trip for BEGIN and the writes, one for COMMIT or ROLLBACK.
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	if a.CommandID != "" {
		b.Queue(insertCommandSQL, a.EncounterID, a.Sender, a.CommandID, newSeq)
	}
	b.Queue(appendSQL, a.EncounterID, a.ExpectSeq, newSeq, a.State, a.Status, a.CommandID,
		seqs, kinds, actors, rounds, bodies, snapshotDue(a.ExpectSeq, newSeq), a.Access)
	br := db.pool.SendBatch(ctx, b)
	tx := br.Tx()
	commit := false
	defer func() {
		if !commit {
			_ = br.Close()
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()

	// Until COMMIT is sent, a failure means the transaction did not commit.
	if _, err := br.Exec(); err != nil { // BEGIN
		return Appended{}, fmt.Errorf("store: append: begin: %w", err)
	}
	duplicate := false
	if a.CommandID != "" {
		tag, err := br.Exec()
		if pgCode(err) == sqlForeignKeyViolation {
			return Appended{}, encounterNotFound(a.EncounterID)
		}
		if err != nil {
			return Appended{}, fmt.Errorf("store: append: command: %w", err)
		}
		duplicate = tag.RowsAffected() == 0
	}
	var updated, inserted, snapped, access int64
	if err := br.QueryRow().Scan(&updated, &inserted, &snapped, &access); err != nil {
		return Appended{}, fmt.Errorf("store: append: %w", err)
	}
	if err := br.Close(); err != nil {
		return Appended{}, fmt.Errorf("store: append: %w", err)
	}

	if duplicate {
		commit = true // nothing to keep: roll back now, then look the command up
		_ = tx.Rollback(context.WithoutCancel(ctx))
		seq, found, err := db.CommandSeq(ctx, a.EncounterID, a.Sender, a.CommandID)
		if err != nil {
			return Appended{}, err
		}
		if !found { // its encounter was deleted meanwhile
			return Appended{}, encounterNotFound(a.EncounterID)
		}
		return Appended{Seq: seq}, fmt.Errorf("%w: %w",
			fray.Errorf(fray.ECONFLICT, "command %q was already applied (seq %d)", a.CommandID, seq), ErrDuplicateCommand)
	}
	if updated == 0 {
		commit = true
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return Appended{}, db.whyNotAppended(ctx, a)
	}
	if inserted != int64(n) {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: %d of %d events inserted", inserted, n)
	}
	commit = true
	if err := tx.Commit(ctx); err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		// Only PostgreSQL's own answer says the commit did not happen. (pgx
		// may call a connection lost after COMMIT was sent "safe to retry".)
		var pe *pgconn.PgError
		if errors.As(err, &pe) || errors.Is(err, pgx.ErrTxCommitRollback) {
			return Appended{}, fmt.Errorf("store: append: commit: %w", err)
		}
		return Appended{}, fmt.Errorf("%w: %w: %w",
			fray.Errorf(fray.EOUTCOMEUNKNOWN, "the database connection failed while your command was being saved: resend it with the same id"),
			ErrOutcomeUnknown, err)
	}
	if n > 0 {
		db.notes.post(a.EncounterID, newSeq)
	}
	return Appended{Seq: newSeq, Access: access}, nil
}

// whyNotAppended explains an append whose guarded update changed no row.
func (db *DB) whyNotAppended(ctx context.Context, a Append) error {
	var seq, access int64
	err := db.pool.QueryRow(ctx, `
		SELECT e.seq, c.access_version FROM encounters e JOIN campaigns c ON c.id = e.campaign_id
		WHERE e.id = $1::uuid`, a.EncounterID).Scan(&seq, &access)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return encounterNotFound(a.EncounterID)
	case err != nil:
		return fmt.Errorf("store: append: %w", err)
	case seq == a.ExpectSeq && a.Access != 0 && access != a.Access:
		return fmt.Errorf("%w: %w", fray.Errorf(fray.ECONFLICT, "your access to this campaign changed; try again"), ErrAccessChanged)
	}
	return fray.Errorf(fray.ECONFLICT, "encounter changed concurrently")
}

// CommandSeq looks up a command id sender already applied to an encounter
// and the seq it reached. A malformed encounter id is ENOTFOUND.
func (db *DB) CommandSeq(ctx context.Context, encounterID, sender, commandID string) (seq int64, found bool, err error) {
	c, err := db.LookupCommand(ctx, encounterID, sender, commandID)
	return c.Seq, c.Applied, err
}

// CommandState is what the store knows of a command id, and the access
// version of its encounter's campaign, read together.
type CommandState struct {
	Applied bool
	Seq     int64 // the seq the command reached, when applied
	Access  int64 // the campaign's access version
}

// LookupCommand looks up a command id sender applied to an encounter (ids
// recorded before they were scoped per sender count for every sender) and
// reads the encounter's campaign's access version. An unknown or malformed
// encounter id is ENOTFOUND.
func (db *DB) LookupCommand(ctx context.Context, encounterID, sender, commandID string) (CommandState, error) {
	if !validUUID(encounterID) {
		return CommandState{}, encounterNotFound(encounterID)
	}
	if !validText(sender) || !validText(commandID) {
		return CommandState{}, fray.Errorf(fray.EINVALID, "command id is not valid text")
	}
	var c CommandState
	var seq *int64
	err := db.pool.QueryRow(ctx, `
		SELECT
			(SELECT seq FROM commands WHERE encounter_id = e.id AND sender IN ($2, '') AND command_id = $3
				ORDER BY sender DESC LIMIT 1),
			c.access_version
		FROM encounters e JOIN campaigns c ON c.id = e.campaign_id
		WHERE e.id = $1::uuid`, encounterID, sender, commandID).Scan(&seq, &c.Access)
	if errors.Is(err, pgx.ErrNoRows) {
		return CommandState{}, encounterNotFound(encounterID)
	}
	if err != nil {
		return CommandState{}, fmt.Errorf("store: command seq: %w", err)
	}
	if seq != nil {
		c.Applied, c.Seq = true, *seq
	}
	return c, nil
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

// Settle waits, at most wait, for any transaction that holds encounter id's
// row — one that moved it on and whose writer lost the connection while
// committing — to end, so that reads after it see that transaction's
// outcome. If it is still running after wait, the error wraps
// ErrOutcomeUnknown.
func (db *DB) Settle(ctx context.Context, id string, wait time.Duration) error {
	if !validUUID(id) {
		return encounterNotFound(id)
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL lock_timeout = %d", max(1, wait.Milliseconds()))); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `SELECT 1 FROM encounters WHERE id = $1::uuid FOR SHARE`, id)
		return err
	})
	if pgCode(err) == sqlLockNotAvailable {
		return fmt.Errorf("store: settle: %w: %w", ErrOutcomeUnknown, err)
	}
	if err != nil {
		return fmt.Errorf("store: settle: %w", err)
	}
	return nil
}
