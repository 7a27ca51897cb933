package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// EncounterCampaign returns the id of the campaign encounter id belongs to,
// without loading its state: authorization asks this on every request.
func (db *DB) EncounterCampaign(ctx context.Context, id string) (string, error) {
	if !validUUID(id) {
		return "", encounterNotFound(id)
	}
	var campaignID string
	err := db.pool.QueryRow(ctx, `SELECT campaign_id::text FROM encounters WHERE id = $1`, id).Scan(&campaignID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", encounterNotFound(id)
	}
	return campaignID, err
}
