package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/outbox"
	"github.com/fray-vtt/fray/internal/proof"
)

// ErrDuplicateCommand is wrapped by the error [DB.AppendCommand] returns when the
// command id was already applied to the encounter; that error's fray code is
// ECONFLICT and AppendCommand also returns the seq the command reached then.
var ErrDuplicateCommand = errors.New("duplicate command")

// ErrAccessChanged is wrapped by the error [DB.AppendCommand] returns when the
// append named an access version (Append.Access) and the campaign's is no
// longer it: nothing changed. The sender's access may have shrunk: authorise
// them again, then decide the command again. Its fray code is ECONFLICT.
var ErrAccessChanged = errors.New("access changed")

// ErrOutcomeUnknown is wrapped by the error [DB.AppendCommand] returns when the
// database connection failed while the transaction was committing (or the
// caller stopped waiting for it), so it may or may not have committed. Appending the same command again (same Sender
// and CommandID) is safe: it is then reported as a duplicate if it had
// committed. Its fray code is EOUTCOMEUNKNOWN.
var ErrOutcomeUnknown = errors.New("commit outcome unknown")

// MaxCommandIDLen is the longest client command id, in characters.
const MaxCommandIDLen = 200

// NotifyChannel is the channel appends notify and Listen listens on. The
// payload is "<encounter id>:<seq>".
const NotifyChannel = "fray_events"

// Append is one command's outcome, written by [DB.AppendCommand].
type Append struct {
	EncounterID string
	ExpectSeq   int64 // the seq of the encounter's last event when the command was decided
	// Sender is who sent the command (a user id; "" for none). Command ids
	// are scoped per sender: two senders may use the same id.
	Sender    string
	CommandID string         // the client's command id; "" records none
	Events    []engine.Event // Seq must be ExpectSeq+1, ExpectSeq+2, …
	// Bodies, when not nil, are Events encoded as JSON (EncodeEvents): the
	// server's own encoding, stored as it is. Otherwise AppendCommand
	// encodes Events.
	Bodies [][]byte
	// Snapshot, when not nil, is the state after the events as JSON, kept
	// as the encounter's snapshot at the new seq: give one when SnapshotDue
	// says so. It is the server's own encoding, stored as it is.
	Snapshot []byte
	// Prev and Chain, when Chain is not nil, chain the events (one Sealed
	// each, see proof.Extend) after Prev, the link of event ExpectSeq (the
	// genesis for 0): the owner of a live encounter keeps its head. The
	// append commits only while the log's last link is Prev. Otherwise
	// AppendCommand reads the link and chains the events itself.
	Prev   proof.Hash
	Chain  []proof.Sealed
	Status string // the status after the events, when they changed it; "" keeps it
	// Access, when not 0, is the access version of the encounter's campaign
	// (see Access.Version) the sender was authorised at: the append commits
	// only while it is still the campaign's, else ErrAccessChanged.
	Access int64
	// Notices are what the events cause (outbox.FromEvents), written in
	// the same transaction when the command is — and only when the
	// encounter's campaign has anyone to tell (a webhook, a member who
	// chose a channel). Each one's Seq must be one of Events'; its
	// EncounterID is taken to be EncounterID.
	Notices []outbox.Notice
}

// Appended is what [DB.AppendCommand] did.
type Appended struct {
	Seq int64 // the encounter's new seq, or for a duplicate the seq the command reached
	// Access is the campaign's access version the append committed at. An
	// update published with it must not reach a viewer authorised at an
	// older version before that viewer is authorised again.
	Access int64
}

// EncodeEvents encodes events as they are stored and published, each with
// commandID when it names none.
func EncodeEvents(events []engine.Event, commandID string) ([][]byte, error) {
	bodies := make([][]byte, len(events))
	for i, ev := range events {
		if ev.Command == "" {
			ev.Command = commandID
		}
		body, err := json.Marshal(ev)
		if err != nil {
			return nil, fray.Errorf(fray.EINTERNAL, "append: event %d (%s): %v", i, ev.Kind, err)
		}
		bodies[i] = body
	}
	return bodies, nil
}

// AppendCommand records a command: it inserts its events and records
// CommandID (if not empty) for Sender, in one transaction — shared with the
// commands of other encounters that arrive together (group commit, see
// CommitConfig), each of which succeeds or fails on its own. It changes the
// encounter's status when Status is set and keeps Snapshot when given. It
// returns once that transaction committed. Errors:
//   - ErrDuplicateCommand (code ECONFLICT) when Sender already applied
//     CommandID to the encounter: nothing changes and the seq returned is the
//     one that command reached;
//   - ECONFLICT "encounter changed concurrently" when the encounter's log no
//     longer ends at ExpectSeq: nothing changes; catch up and decide again;
//   - ErrAccessChanged (code ECONFLICT) when Access is set and is no longer
//     the campaign's access version: nothing changes;
//   - ErrOutcomeUnknown (code EOUTCOMEUNKNOWN) when the connection failed
//     during the commit, or ctx ended while the command was being written:
//     append the same command again to find out;
//   - ENOTFOUND for an unknown encounter, EINVALID for an over-long command id;
//   - EINTERNAL for a malformed Append (events not numbered ExpectSeq+1…);
//     other errors (the database is unreachable…) change nothing.
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
	if !validText(a.Sender) || !validText(a.Status) {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: sender or status is not valid text")
	}
	for i, ev := range a.Events {
		if want := a.ExpectSeq + 1 + int64(i); ev.Seq != want {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: event %d (%s) has seq %d, want %d", i, ev.Kind, ev.Seq, want)
		}
		if ev.Kind == "" {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: event %d has no kind", i)
		}
	}
	for _, n := range a.Notices {
		if n.Seq <= a.ExpectSeq || n.Seq > a.ExpectSeq+int64(len(a.Events)) {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: a notice names seq %d, not one of the command's events", n.Seq)
		}
		if err := checkNotice(n); err != nil {
			return Appended{}, err
		}
	}
	bodies := a.Bodies
	if bodies == nil {
		var err error
		if bodies, err = EncodeEvents(a.Events, a.CommandID); err != nil {
			return Appended{}, err
		}
	} else if len(bodies) != len(a.Events) {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: %d bodies for %d events", len(bodies), len(a.Events))
	}
	prev, chain := a.Prev, a.Chain
	if chain == nil {
		var err error
		if prev, err = db.Link(ctx, a.EncounterID, a.ExpectSeq); fray.ErrorCode(err) == fray.ENOTFOUND && a.ExpectSeq > 0 {
			// No event ExpectSeq: the command's seq check fails (or the
			// encounter does not exist); let the append say which.
			err = nil
		}
		if err != nil {
			return Appended{}, err
		}
		if chain, err = proof.Extend(prev, a.ExpectSeq+1, bodies); err != nil {
			return Appended{}, fray.Errorf(fray.EINTERNAL, "append: %v", err)
		}
	} else if len(chain) != len(a.Events) {
		return Appended{}, fray.Errorf(fray.EINTERNAL, "append: %d chained for %d events", len(chain), len(a.Events))
	}
	return db.commits.submit(ctx, &pending{a: a, bodies: bodies, prev: prev, chain: chain,
		newSeq: a.ExpectSeq + int64(len(a.Events)), done: make(chan outcome, 1)})
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
		// Appends lock the row FOR KEY SHARE: FOR UPDATE waits for them.
		_, err := tx.Exec(ctx, `SELECT 1 FROM encounters WHERE id = $1::uuid FOR UPDATE`, id)
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
