package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
)

// SnapshotEvery is K: [DB.Append] keeps a history snapshot whenever an
// encounter's seq crosses a multiple of it, so rebuilding the state after
// any event folds at most about K events onto the nearest snapshot.
const SnapshotEvery = 100

// snapshotDue reports whether an append moving an encounter from seq from
// to seq to crosses a multiple of SnapshotEvery.
func snapshotDue(from, to int64) bool { return to/SnapshotEvery > from/SnapshotEvery }

// SnapshotAt returns the latest state of the encounter kept at or before
// seq, and the seq it is at: a history snapshot, or the initial state at
// seq 0. Fold the events after it to get the state at seq. An unknown or
// malformed encounter id is ENOTFOUND.
func (db *DB) SnapshotAt(ctx context.Context, encounterID string, seq int64) (int64, []byte, error) {
	if !validUUID(encounterID) {
		return 0, nil, encounterNotFound(encounterID)
	}
	var (
		at    int64
		state []byte
	)
	err := db.pool.QueryRow(ctx, `
		(SELECT seq, state FROM snapshots WHERE encounter_id = $1::uuid AND seq <= $2 ORDER BY seq DESC LIMIT 1)
		UNION ALL
		(SELECT 0, initial_state FROM encounters WHERE id = $1::uuid)
		ORDER BY 1 DESC LIMIT 1`, encounterID, seq).Scan(&at, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil, encounterNotFound(encounterID)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("store: snapshot at: %w", err)
	}
	return at, state, nil
}

// SnapshotSeqs lists the seqs of an encounter's history snapshots, ascending.
func (db *DB) SnapshotSeqs(ctx context.Context, encounterID string) ([]int64, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT seq FROM snapshots WHERE encounter_id = $1::uuid ORDER BY seq`, encounterID)
	seqs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store: snapshot seqs: %w", err)
	}
	return seqs, nil
}

// EventsOfKind returns an encounter's events of the given kinds, ascending.
// Rewinds, reveals and combatant-out events are indexed; other kinds scan
// the log. An unknown encounter simply has none.
func (db *DB) EventsOfKind(ctx context.Context, encounterID string, kinds ...string) ([]engine.Event, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT seq, body FROM events
		WHERE encounter_id = $1::uuid AND kind = ANY($2::text[])
		ORDER BY seq`, encounterID, kinds)
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
		return nil, fmt.Errorf("store: events of kind: %w", err)
	}
	return evs, nil
}
