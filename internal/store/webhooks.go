package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// Webhook is a campaign's webhook: every notice of the campaign that a
// player with no character may see is posted to URL in Format.
type Webhook struct {
	ID         string
	CampaignID string
	URL        string
	Format     string // "discord" or "json"
	// Secret signs the json format's deliveries (HMAC-SHA256). It is
	// shown to the GM once, when the webhook is made.
	Secret  string
	Created time.Time
}

// MaxWebhooks is the most webhooks a campaign may have.
const MaxWebhooks = 10

func webhookNotFound(id string) error { return fray.Errorf(fray.ENOTFOUND, "webhook %q not found", id) }

// CreateWebhook adds a webhook to a campaign (the caller has checked the
// URL and the format). A campaign at MaxWebhooks is ECONFLICT; an unknown
// campaign ENOTFOUND.
func (db *DB) CreateWebhook(ctx context.Context, w Webhook, createdBy string) (Webhook, error) {
	if !validUUID(w.CampaignID) {
		return Webhook{}, campaignNotFound(w.CampaignID)
	}
	if !validText(w.URL) || !validText(w.Secret) {
		return Webhook{}, fray.Errorf(fray.EINVALID, "the webhook's URL is not valid text")
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		// The campaign's row is locked so that two GMs adding at once
		// cannot pass the limit together.
		var n int
		err := tx.QueryRow(ctx, `
			SELECT (SELECT count(*) FROM webhooks WHERE campaign_id = c.id)
			FROM campaigns c WHERE c.id = $1::uuid FOR NO KEY UPDATE`, w.CampaignID).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			return campaignNotFound(w.CampaignID)
		}
		if err != nil {
			return err
		}
		if n >= MaxWebhooks {
			return fray.Errorf(fray.ECONFLICT, "a campaign has at most %d webhooks: remove one first", MaxWebhooks)
		}
		return tx.QueryRow(ctx, `
			INSERT INTO webhooks (campaign_id, url, format, secret, created_by)
			VALUES ($1::uuid, $2, $3, $4, NULLIF($5, '')::uuid)
			RETURNING id::text, created_at`, w.CampaignID, w.URL, w.Format, w.Secret, uuidOrEmpty(createdBy)).Scan(&w.ID, &w.Created)
	})
	if err != nil {
		var fe *fray.Error
		if errors.As(err, &fe) {
			return Webhook{}, err
		}
		return Webhook{}, fmt.Errorf("store: create webhook: %w", err)
	}
	return w, nil
}

// Webhooks lists a campaign's webhooks, oldest first, secrets included.
func (db *DB) Webhooks(ctx context.Context, campaignID string) ([]Webhook, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT id::text, campaign_id::text, url, format, secret, created_at
		FROM webhooks WHERE campaign_id = $1::uuid ORDER BY created_at, id`, campaignID)
	ws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Webhook, error) {
		var w Webhook
		err := r.Scan(&w.ID, &w.CampaignID, &w.URL, &w.Format, &w.Secret, &w.Created)
		return w, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: webhooks: %w", err)
	}
	return ws, nil
}

// DeleteWebhook removes a campaign's webhook, and with it its deliveries
// still waiting. An id that is not one of the campaign's is ENOTFOUND.
func (db *DB) DeleteWebhook(ctx context.Context, campaignID, id string) error {
	if !validUUID(campaignID) || !validUUID(id) {
		return webhookNotFound(id)
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM webhooks WHERE campaign_id = $1::uuid AND id = $2::uuid`, campaignID, id)
	if err != nil {
		return fmt.Errorf("store: delete webhook: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return webhookNotFound(id)
	}
	return nil
}

// WebhookStats counts a webhook's deliveries by status, with the last
// failure's error, for its GMs.
type WebhookStats struct {
	Delivered, Failed, Pending int
	LastError                  string
}

// WebhookStats counts the deliveries of a campaign's webhooks, by webhook id.
func (db *DB) WebhookStats(ctx context.Context, campaignID string) (map[string]WebhookStats, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT w.id::text,
			count(*) FILTER (WHERE d.status = 'delivered'), count(*) FILTER (WHERE d.status = 'failed'),
			count(*) FILTER (WHERE d.status = 'pending'),
			COALESCE((SELECT x.last_error FROM deliveries x WHERE x.webhook_id = w.id AND x.last_error IS NOT NULL
				ORDER BY x.created_at DESC LIMIT 1), '')
		FROM webhooks w LEFT JOIN deliveries d ON d.webhook_id = w.id
		WHERE w.campaign_id = $1::uuid GROUP BY w.id`, campaignID)
	out := map[string]WebhookStats{}
	for rows.Next() {
		var id string
		var s WebhookStats
		if err := rows.Scan(&id, &s.Delivered, &s.Failed, &s.Pending, &s.LastError); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: webhook stats: %w", err)
		}
		out[id] = s
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: webhook stats: %w", err)
	}
	return out, nil
}
