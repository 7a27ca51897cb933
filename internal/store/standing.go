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
)

// Standing is a character's standing orders under one ruleset, as its
// player set them: Away answers at once, without waiting for the clock.
type Standing struct {
	Orders engine.StandingOrders `json:"orders"`
	Away   bool                  `json:"away"`
}

// EncounterStanding is the standing orders of every character a player
// owns in encounter id, set by that player for the encounter's ruleset
// (orders set by a former owner do not apply), by character id.
func (db *DB) EncounterStanding(ctx context.Context, encounterID string) (map[string]Standing, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, err := db.pool.Query(ctx, `
		SELECT s.character_id, s.orders, s.away
		FROM encounters e
		JOIN standing_orders s ON s.campaign_id = e.campaign_id AND s.ruleset = e.ruleset
		JOIN character_owners o ON o.campaign_id = s.campaign_id AND o.character_id = s.character_id AND o.user_id = s.user_id
		WHERE e.id = $1::uuid`, encounterID)
	if err != nil {
		return nil, fmt.Errorf("store: standing orders: %w", err)
	}
	return collectStanding(rows)
}

func collectStanding(rows pgx.Rows) (map[string]Standing, error) {
	out := map[string]Standing{}
	var id string
	var raw []byte
	var away bool
	if _, err := pgx.ForEachRow(rows, []any{&id, &raw, &away}, func() error {
		s := Standing{Away: away}
		if err := json.Unmarshal(raw, &s.Orders); err != nil {
			return fmt.Errorf("character %s: %w", id, err)
		}
		out[id] = s
		return nil
	}); err != nil {
		return nil, fmt.Errorf("store: standing orders: %w", err)
	}
	return out, nil
}

// UserStanding is the standing orders user set in campaign for ruleset,
// by character id: only their own, whoever owns the characters now.
func (db *DB) UserStanding(ctx context.Context, campaignID, userID, ruleset string) (map[string]Standing, error) {
	if !validUUID(campaignID) || !validUUID(userID) {
		return map[string]Standing{}, nil
	}
	rows, err := db.pool.Query(ctx, `
		SELECT character_id, orders, away FROM standing_orders
		WHERE campaign_id = $1::uuid AND user_id = $2::uuid AND ruleset = $3`, campaignID, userID, ruleset)
	if err != nil {
		return nil, fmt.Errorf("store: standing orders: %w", err)
	}
	return collectStanding(rows)
}

// SetStanding keeps user's standing orders for character under ruleset
// in campaign; only the character's owner may (forbidden otherwise).
// The caller checks the orders against the ruleset.
func (db *DB) SetStanding(ctx context.Context, campaignID, characterID, ruleset, userID string, s Standing) error {
	if !validUUID(campaignID) || !validUUID(userID) {
		return fray.Errorf(fray.EFORBIDDEN, "only a character's player sets its standing orders")
	}
	if s.Orders == nil {
		s.Orders = engine.StandingOrders{}
	}
	raw, err := json.Marshal(s.Orders)
	if err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `
		INSERT INTO standing_orders (campaign_id, character_id, ruleset, user_id, orders, away)
		SELECT campaign_id, character_id, $3, user_id, $5, $6 FROM character_owners
		WHERE campaign_id = $1::uuid AND character_id = $2 AND user_id = $4::uuid
		ON CONFLICT (campaign_id, character_id, ruleset) DO UPDATE SET user_id = excluded.user_id,
			orders = excluded.orders, away = excluded.away, updated_at = now()`,
		campaignID, characterID, ruleset, userID, raw, s.Away)
	if err != nil {
		return fmt.Errorf("store: set standing orders: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fray.Errorf(fray.EFORBIDDEN, "only a character's player sets its standing orders")
	}
	return nil
}

// StewardCandidate is a running encounter the steward (deadlines) looks
// at: a player in it is away with standing orders, or an answer the
// server holds waits to be revealed. Seq is where its log ends.
type StewardCandidate struct {
	EncounterID string
	Seq         int64
}

// StewardCandidates lists them.
func (db *DB) StewardCandidates(ctx context.Context) ([]StewardCandidate, error) {
	rows, err := db.pool.Query(ctx, `
		SELECT e.id::text, l.seq FROM encounters e
		CROSS JOIN LATERAL (SELECT v.seq FROM events v WHERE v.encounter_id = e.id ORDER BY v.seq DESC LIMIT 1) l
		WHERE e.status = 'running' AND (
			EXISTS (SELECT 1 FROM standing_orders s
				JOIN character_owners o ON o.campaign_id = s.campaign_id AND o.character_id = s.character_id AND o.user_id = s.user_id
				WHERE s.campaign_id = e.campaign_id AND s.away AND s.ruleset = e.ruleset)
			OR EXISTS (SELECT 1 FROM held_answers h WHERE h.encounter_id = e.id AND h.revealed_at IS NULL))`)
	if err != nil {
		return nil, fmt.Errorf("store: steward candidates: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (StewardCandidate, error) {
		var c StewardCandidate
		return c, r.Scan(&c.EncounterID, &c.Seq)
	})
	if err != nil {
		return nil, fmt.Errorf("store: steward candidates: %w", err)
	}
	return out, nil
}

// Held is a sealed answer the server committed to for a player (a
// standing order, a notice's decision page) and reveals once every party
// of the group has answered; Via is engine.AgentStanding or "".
type Held struct {
	EncounterID string
	Commitment  string
	Decision    string
	Character   string
	Choice      string
	Values      json.RawMessage // as committed to; nil for none (the fields' defaults)
	Nonce       string
	Via         string
	Created     time.Time
}

// HoldAnswer keeps h (once: the same commitment again changes nothing).
func (db *DB) HoldAnswer(ctx context.Context, h Held) error {
	if !validUUID(h.EncounterID) {
		return encounterNotFound(h.EncounterID)
	}
	_, err := db.pool.Exec(ctx, `
		INSERT INTO held_answers (encounter_id, commitment, decision_id, character_id, choice, "values", nonce, via)
		VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
		h.EncounterID, h.Commitment, h.Decision, h.Character, h.Choice, []byte(h.Values), h.Nonce, h.Via)
	if err != nil {
		return fmt.Errorf("store: hold answer: %w", err)
	}
	return nil
}

// HeldAnswers are encounter id's held answers not yet revealed.
func (db *DB) HeldAnswers(ctx context.Context, encounterID string) ([]Held, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, err := db.pool.Query(ctx, `
		SELECT encounter_id::text, commitment, decision_id, character_id, choice, "values", nonce, via, created_at
		FROM held_answers WHERE encounter_id = $1::uuid AND revealed_at IS NULL`, encounterID)
	if err != nil {
		return nil, fmt.Errorf("store: held answers: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Held, error) {
		var h Held
		var values []byte
		err := r.Scan(&h.EncounterID, &h.Commitment, &h.Decision, &h.Character, &h.Choice, &values, &h.Nonce, &h.Via, &h.Created)
		if len(values) > 0 {
			h.Values = values
		}
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: held answers: %w", err)
	}
	return out, nil
}

// ReleaseHeld marks a held answer revealed (or no longer wanted).
func (db *DB) ReleaseHeld(ctx context.Context, encounterID, commitment string) error {
	if _, err := db.pool.Exec(ctx, `UPDATE held_answers SET revealed_at = now() WHERE encounter_id = $1::uuid AND commitment = $2`,
		encounterID, commitment); err != nil {
		return fmt.Errorf("store: release held answer: %w", err)
	}
	return nil
}

// ServerKey is the server's secret key named name, made with make by the
// first instance that asks and kept: every instance signs with the same.
func (db *DB) ServerKey(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error) {
	var key []byte
	err := db.pool.QueryRow(ctx, `SELECT key FROM server_keys WHERE name = $1`, name).Scan(&key)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("store: server key: %w", err)
	}
	fresh, err := make()
	if err != nil {
		return nil, err
	}
	if err := db.pool.QueryRow(ctx, `
		WITH made AS (INSERT INTO server_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING key)
		SELECT key FROM made UNION ALL SELECT key FROM server_keys WHERE name = $1 LIMIT 1`, name, fresh).Scan(&key); err != nil {
		return nil, fmt.Errorf("store: server key: %w", err)
	}
	return key, nil
}

// RewoundSince reports whether encounter id was rewound after seq: what
// stood at seq may have been undone and asked again.
func (db *DB) RewoundSince(ctx context.Context, encounterID string, seq int64) (bool, error) {
	if !validUUID(encounterID) {
		return false, encounterNotFound(encounterID)
	}
	var rewound bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM events WHERE encounter_id = $1::uuid AND seq > $2 AND kind = $3)`,
		encounterID, seq, engine.KindRewound).Scan(&rewound)
	if err != nil {
		return false, fmt.Errorf("store: rewound since: %w", err)
	}
	return rewound, nil
}
