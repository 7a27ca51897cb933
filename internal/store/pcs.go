package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// PC is a player character of a campaign's encounters.
type PC struct {
	ID, Name   string
	Encounters []string // the names of the encounters it is in, oldest first
}

// PlayerCharacters lists the player characters of a campaign's encounters
// as their setups name them (a character in several encounters by the
// newest one's name) with the encounters each is in, by name, in one
// statement: an encounter's combatants are its setup's. An unknown
// campaign has none.
func (db *DB) PlayerCharacters(ctx context.Context, campaignID string) ([]PC, error) {
	if !validUUID(campaignID) {
		return nil, nil
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT c->>'id' AS id,
			(array_agg(c->>'name' ORDER BY e.created_at DESC, e.id))[1] AS name,
			array_agg(e.name ORDER BY e.created_at, e.id) AS encounters
		FROM encounters e
		CROSS JOIN LATERAL jsonb_array_elements(
			CASE WHEN jsonb_typeof(e.setup->'combatants') = 'array' THEN e.setup->'combatants' ELSE '[]'::jsonb END) c
		WHERE e.campaign_id = $1::uuid AND c->'pc' = 'true'::jsonb AND c->>'id' IS NOT NULL
		GROUP BY c->>'id'
		ORDER BY name, id`, campaignID)
	pcs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PC, error) {
		var p PC
		var name *string
		err := r.Scan(&p.ID, &name, &p.Encounters)
		if name != nil {
			p.Name = *name
		}
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: player characters: %w", err)
	}
	return pcs, nil
}
