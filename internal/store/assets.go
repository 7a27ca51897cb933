package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// Asset is a picture uploaded to a campaign (migration 0013): the display
// size in Data, the thumbnail in Thumb.
type Asset struct {
	CampaignID    string
	ID            string // the SHA-256 of Data, hex
	UploadedBy    string // a user id, "" once that user is gone
	Name          string // the uploaded file's name, for the GM's list
	ContentType   string
	Width, Height int
	Data          []byte
	ThumbType     string
	Thumb         []byte
	CreatedAt     time.Time
}

// AssetHolder is a campaign that holds an asset, and who uploaded it there.
type AssetHolder struct {
	CampaignID string
	UploadedBy string
}

func assetNotFound() error { return fray.Errorf(fray.ENOTFOUND, "no such picture") }

// PutAsset stores a in its campaign unless the campaign holds it already
// (then it returns the stored one, and created is false). quota bounds the
// bytes of all the campaign's assets (0: no bound); an asset that would go
// past it is ETOOLARGE and nothing is written.
func (db *DB) PutAsset(ctx context.Context, a Asset, quota int64) (stored Asset, created bool, err error) {
	if !validUUID(a.CampaignID) {
		return Asset{}, false, campaignNotFound(a.CampaignID)
	}
	if quota <= 0 {
		quota = math.MaxInt64
	}
	size := int64(len(a.Data) + len(a.Thumb))
	var uploader *string
	if validUUID(a.UploadedBy) {
		uploader = &a.UploadedBy
	}
	var existed, inserted bool
	var used int64
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		// Uploads to one campaign take turns: under READ COMMITTED two
		// statements could each count the bytes stored before either
		// wrote and both fit. NO KEY UPDATE does not hold off the foreign
		// key checks of other rows referring to the campaign.
		var found bool
		if err := tx.QueryRow(ctx, `SELECT true FROM campaigns WHERE id = $1::uuid FOR NO KEY UPDATE`, a.CampaignID).Scan(&found); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `
		WITH existing AS (
			SELECT 1 FROM assets WHERE campaign_id = $1::uuid AND id = $2
		), used AS (
			SELECT coalesce(sum(bytes), 0)::bigint AS n FROM assets WHERE campaign_id = $1::uuid
		), ins AS (
			INSERT INTO assets (campaign_id, id, uploaded_by, name, content_type, width, height, data, thumb_type, thumb, bytes)
			SELECT $1::uuid, $2, $3::uuid, $4, $5, $6, $7, $8, $9, $10, $11
			WHERE NOT EXISTS (SELECT 1 FROM existing) AND (SELECT n FROM used) + $11 <= $12
			ON CONFLICT DO NOTHING
			RETURNING 1
		)
		SELECT EXISTS (SELECT 1 FROM existing), EXISTS (SELECT 1 FROM ins), (SELECT n FROM used)`,
			a.CampaignID, a.ID, uploader, a.Name, a.ContentType, a.Width, a.Height, a.Data, a.ThumbType, a.Thumb, size, quota,
		).Scan(&existed, &inserted, &used)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return Asset{}, false, campaignNotFound(a.CampaignID)
	}
	if err != nil {
		return Asset{}, false, fmt.Errorf("store: put asset: %w", err)
	}
	switch {
	case inserted:
		return a, true, nil
	case existed:
		a.Data, a.Thumb = nil, nil
		return a, false, nil
	}
	return Asset{}, false, fray.Errorf(fray.ETOOLARGE, "the campaign's pictures take %d KiB of the %d KiB it may use; this one needs %d KiB more: delete some, or ask the operator for a larger quota",
		used>>10, quota>>10, size>>10)
}

// AssetHolders returns the campaigns that hold asset id.
func (db *DB) AssetHolders(ctx context.Context, id string) ([]AssetHolder, error) {
	rows, _ := db.pool.Query(ctx,
		`SELECT campaign_id::text, coalesce(uploaded_by::text, '') FROM assets WHERE id = $1 ORDER BY created_at`, id)
	hs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AssetHolder, error) {
		var h AssetHolder
		return h, r.Scan(&h.CampaignID, &h.UploadedBy)
	})
	if err != nil {
		return nil, fmt.Errorf("store: asset holders: %w", err)
	}
	return hs, nil
}

// AssetData returns one size of campaign campaignID's asset id (the
// thumbnail when thumb), as its content type and bytes.
func (db *DB) AssetData(ctx context.Context, campaignID, id string, thumb bool) (contentType string, data []byte, err error) {
	if !validUUID(campaignID) {
		return "", nil, assetNotFound()
	}
	q := `SELECT content_type, data FROM assets WHERE campaign_id = $1::uuid AND id = $2`
	if thumb {
		q = `SELECT thumb_type, thumb FROM assets WHERE campaign_id = $1::uuid AND id = $2`
	}
	err = db.pool.QueryRow(ctx, q, campaignID, id).Scan(&contentType, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil, assetNotFound()
	}
	if err != nil {
		return "", nil, fmt.Errorf("store: asset: %w", err)
	}
	return contentType, data, nil
}

// DeleteAsset removes campaign campaignID's asset id when nothing of the
// campaign names it: no draft, no encounter (its setup or any event of
// its history, from which its state is made — a replay shows an old
// scene), no bestiary entry
// or character. One statement; a picture in use is ECONFLICT, saying so,
// and stays. (A draft's undo history is not searched: undoing to a
// deleted picture shows none.)
func (db *DB) DeleteAsset(ctx context.Context, campaignID, id string) error {
	if !validUUID(campaignID) {
		return assetNotFound()
	}
	var found, deleted bool
	err := db.pool.QueryRow(ctx, `
		WITH target AS (
			SELECT campaign_id, id FROM assets WHERE campaign_id = $1::uuid AND id = $2
		), used AS (
			SELECT EXISTS (SELECT 1 FROM drafts WHERE campaign_id = $1::uuid AND strpos(setup::text, $2) > 0)
				OR EXISTS (SELECT 1 FROM encounters WHERE campaign_id = $1::uuid AND strpos(setup::text, $2) > 0)
				OR EXISTS (SELECT 1 FROM events e JOIN encounters n ON n.id = e.encounter_id
					WHERE n.campaign_id = $1::uuid AND strpos(e.body::text, $2) > 0)
				OR EXISTS (SELECT 1 FROM bestiary WHERE campaign_id = $1::uuid AND portrait = '/assets/' || $2)
				OR EXISTS (SELECT 1 FROM characters WHERE campaign_id = $1::uuid AND portrait = '/assets/' || $2) AS yes
		), gone AS (
			DELETE FROM assets a USING target t, used u
			WHERE a.campaign_id = t.campaign_id AND a.id = t.id AND NOT u.yes
			RETURNING a.id
		)
		SELECT EXISTS (SELECT 1 FROM target), EXISTS (SELECT 1 FROM gone)`, campaignID, id).Scan(&found, &deleted)
	switch {
	case err != nil:
		return fmt.Errorf("store: delete asset: %w", err)
	case !found:
		return assetNotFound()
	case !deleted:
		return fray.Errorf(fray.ECONFLICT, "the picture is in use (a draft, an encounter or its history, a portrait): remove it there first")
	}
	return nil
}

// CampaignAssets lists a campaign's assets, newest first, without their
// bytes.
func (db *DB) CampaignAssets(ctx context.Context, campaignID string) ([]Asset, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT campaign_id::text, id, coalesce(uploaded_by::text, ''), name, content_type, width, height, thumb_type, created_at
		FROM assets WHERE campaign_id = $1::uuid ORDER BY created_at DESC, id`, campaignID)
	as, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Asset, error) {
		var a Asset
		return a, r.Scan(&a.CampaignID, &a.ID, &a.UploadedBy, &a.Name, &a.ContentType, &a.Width, &a.Height, &a.ThumbType, &a.CreatedAt)
	})
	if err != nil {
		return nil, fmt.Errorf("store: campaign assets: %w", err)
	}
	return as, nil
}

// CampaignNotes returns the GM's private notes on a campaign.
func (db *DB) CampaignNotes(ctx context.Context, campaignID string) (string, error) {
	if !validUUID(campaignID) {
		return "", campaignNotFound(campaignID)
	}
	var notes string
	err := db.pool.QueryRow(ctx, `SELECT gm_notes FROM campaigns WHERE id = $1::uuid`, campaignID).Scan(&notes)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", campaignNotFound(campaignID)
	}
	if err != nil {
		return "", fmt.Errorf("store: campaign notes: %w", err)
	}
	return notes, nil
}

// SetCampaignNotes replaces the GM's private notes on a campaign.
func (db *DB) SetCampaignNotes(ctx context.Context, campaignID, notes string) error {
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	tag, err := db.pool.Exec(ctx, `UPDATE campaigns SET gm_notes = $2 WHERE id = $1::uuid`, campaignID, notes)
	if err != nil {
		return fmt.Errorf("store: set campaign notes: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return campaignNotFound(campaignID)
	}
	return nil
}
