package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
)

// SnapshotEvery is K: the server keeps a snapshot of an encounter's state
// whenever its seq crosses a multiple of it (SnapshotDue, Append.Snapshot),
// so loading an encounter, or rebuilding its state after any event, folds
// at most about K events onto the nearest snapshot.
const SnapshotEvery = 100

// SnapshotDue reports whether an append moving an encounter from seq from
// to seq to crosses a multiple of SnapshotEvery, and so should carry a
// snapshot.
func SnapshotDue(from, to int64) bool { return to/SnapshotEvery > from/SnapshotEvery }

// SaveSnapshot keeps state (JSON) as encounter id's snapshot at seq, unless
// one is kept there already — e.g. when a server unloads the encounter, so
// the next load folds no events. seq must be an event of the encounter
// (state being the state right after it); for any other seq nothing is
// written.
func (db *DB) SaveSnapshot(ctx context.Context, id string, seq int64, state []byte) error {
	if !validUUID(id) {
		return encounterNotFound(id)
	}
	_, err := db.pool.Exec(ctx, `
		INSERT INTO snapshots (encounter_id, seq, state)
		SELECT $1::uuid, $2, $3 WHERE EXISTS (SELECT 1 FROM events WHERE encounter_id = $1::uuid AND seq = $2)
		ON CONFLICT (encounter_id, seq) DO NOTHING`, id, seq, state)
	if err != nil {
		return fmt.Errorf("store: save snapshot: %w", err)
	}
	return nil
}

// Live is what bringing an encounter to life needs: its latest snapshot
// (or initial state) and every event after it, read together.
type Live struct {
	ID, CampaignID, Ruleset string
	Name                    string
	CreatedAt               time.Time
	Access                  int64 // the campaign's access version, see Appended.Access
	SnapshotSeq             int64 // the seq Snapshot is at (0: the initial state)
	Snapshot                []byte
	Events                  []engine.Event // after SnapshotSeq, ascending: fold them onto Snapshot
}

// LoadEncounter reads encounter id's latest snapshot and the events after
// it, in one statement. An unknown or malformed id is ENOTFOUND.
func (db *DB) LoadEncounter(ctx context.Context, id string) (Live, error) {
	if !validUUID(id) {
		return Live{}, encounterNotFound(id)
	}
	var (
		l      Live
		bodies []string
	)
	err := db.pool.QueryRow(ctx, loadSQL+`WHERE e.id = $1::uuid`, id).Scan(&l.ID, &l.CampaignID, &l.Ruleset, &l.Name, &l.CreatedAt,
		&l.Access, &l.SnapshotSeq, &l.Snapshot, &bodies)
	if errors.Is(err, pgx.ErrNoRows) {
		return Live{}, encounterNotFound(id)
	}
	if err != nil {
		return Live{}, fmt.Errorf("store: load encounter: %w", err)
	}
	if l.Events, err = decodeBodies(bodies, l.SnapshotSeq); err != nil {
		return Live{}, fmt.Errorf("store: load encounter %s: %w", id, err)
	}
	return l, nil
}

// loadSQL reads an encounter's latest snapshot (or initial state) and
// every event after it; the caller adds the WHERE clause on e.
const loadSQL = `
		SELECT e.id::text, e.campaign_id::text, e.ruleset, e.name, e.created_at, c.access_version,
			COALESCE(s.seq, 0), COALESCE(s.state, e.initial_state),
			ARRAY(SELECT v.body::text FROM events v WHERE v.encounter_id = e.id AND v.seq > COALESCE(s.seq, 0) ORDER BY v.seq)
		FROM encounters e JOIN campaigns c ON c.id = e.campaign_id
		LEFT JOIN LATERAL (SELECT seq, state FROM snapshots WHERE encounter_id = e.id ORDER BY seq DESC LIMIT 1) s ON true
		`

// decodeBodies decodes the events after seq after, in order.
func decodeBodies(bodies []string, after int64) ([]engine.Event, error) {
	events := make([]engine.Event, len(bodies))
	for i, b := range bodies {
		if err := json.Unmarshal([]byte(b), &events[i]); err != nil {
			return nil, fmt.Errorf("event %d: %w", after+1+int64(i), err)
		}
	}
	return events, nil
}

// LoadEncounters is LoadEncounter for every encounter of a campaign, oldest
// first, in one statement: what reading the whole campaign's history needs
// (its timeline) without loading each encounter on its own. An unknown or
// malformed campaign id simply has none.
func (db *DB) LoadEncounters(ctx context.Context, campaignID string) ([]Live, error) {
	if !validUUID(campaignID) {
		return nil, nil
	}
	rows, _ := db.pool.Query(ctx, loadSQL+`WHERE e.campaign_id = $1::uuid ORDER BY e.created_at, e.id`, campaignID)
	ls, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Live, error) {
		var (
			l      Live
			bodies []string
		)
		err := r.Scan(&l.ID, &l.CampaignID, &l.Ruleset, &l.Name, &l.CreatedAt, &l.Access, &l.SnapshotSeq, &l.Snapshot, &bodies)
		if err == nil {
			l.Events, err = decodeBodies(bodies, l.SnapshotSeq)
		}
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: load encounters: %w", err)
	}
	return ls, nil
}

// Tail is an encounter's events after a seq, with its campaign's access
// version, read together.
type Tail struct {
	Access int64
	Events []engine.Event
}

// EventsAfter reads encounter id's events after seq and its campaign's
// access version in one statement. An unknown or malformed id is ENOTFOUND.
func (db *DB) EventsAfter(ctx context.Context, id string, after int64) (Tail, error) {
	if !validUUID(id) {
		return Tail{}, encounterNotFound(id)
	}
	var (
		t      Tail
		bodies []string
	)
	err := db.pool.QueryRow(ctx, `
		SELECT c.access_version,
			ARRAY(SELECT v.body::text FROM events v WHERE v.encounter_id = e.id AND v.seq > $2 ORDER BY v.seq)
		FROM encounters e JOIN campaigns c ON c.id = e.campaign_id
		WHERE e.id = $1::uuid`, id, after).Scan(&t.Access, &bodies)
	if errors.Is(err, pgx.ErrNoRows) {
		return Tail{}, encounterNotFound(id)
	}
	if err != nil {
		return Tail{}, fmt.Errorf("store: events after: %w", err)
	}
	if t.Events, err = decodeBodies(bodies, after); err != nil {
		return Tail{}, fmt.Errorf("store: events after: %w", err)
	}
	return t, nil
}

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
		SELECT encounter_id::text, seq, body FROM events
		WHERE encounter_id = $1::uuid AND kind = ANY($2::text[])
		ORDER BY seq`, encounterID, kinds)
	evs, err := pgx.CollectRows(rows, scanKindEvent)
	if err != nil {
		return nil, fmt.Errorf("store: events of kind: %w", err)
	}
	out := make([]engine.Event, len(evs))
	for i, ev := range evs {
		out[i] = ev.Event
	}
	return out, nil
}

// CampaignEventsOfKind is EventsOfKind for every encounter of a campaign in
// one statement, by encounter id. An unknown campaign simply has none.
func (db *DB) CampaignEventsOfKind(ctx context.Context, campaignID string, kinds ...string) (map[string][]engine.Event, error) {
	if !validUUID(campaignID) {
		return nil, nil
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT v.encounter_id::text, v.seq, v.body FROM events v JOIN encounters e ON e.id = v.encounter_id
		WHERE e.campaign_id = $1::uuid AND v.kind = ANY($2::text[])
		ORDER BY v.encounter_id, v.seq`, campaignID, kinds)
	evs, err := pgx.CollectRows(rows, scanKindEvent)
	if err != nil {
		return nil, fmt.Errorf("store: campaign events of kind: %w", err)
	}
	out := map[string][]engine.Event{}
	for _, ev := range evs {
		out[ev.encounter] = append(out[ev.encounter], ev.Event)
	}
	return out, nil
}

type encounterEvent struct {
	encounter string
	engine.Event
}

func scanKindEvent(r pgx.CollectableRow) (encounterEvent, error) {
	var (
		ev   encounterEvent
		body []byte
	)
	if err := r.Scan(&ev.encounter, &ev.Seq, &body); err != nil {
		return ev, err
	}
	seq := ev.Seq
	if err := json.Unmarshal(body, &ev.Event); err != nil {
		return ev, fmt.Errorf("event %d: %w", seq, err)
	}
	ev.Seq = seq
	return ev, nil
}
