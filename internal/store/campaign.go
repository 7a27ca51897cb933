package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// Campaign groups encounters.
type Campaign struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// MaxNameLen is the longest campaign or encounter name, in characters.
const MaxNameLen = 200

// checkName trims name and checks it is 1..MaxNameLen characters of valid
// UTF-8 without NUL (which PostgreSQL text cannot hold).
func checkName(what, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "", fray.Errorf(fray.EINVALID, "%s name is empty", what)
	case n > MaxNameLen:
		return "", fray.Errorf(fray.EINVALID, "%s name is longer than %d characters", what, MaxNameLen)
	case !utf8.ValidString(name) || strings.ContainsRune(name, 0):
		return "", fray.Errorf(fray.EINVALID, "%s name is not valid text", what)
	}
	return name, nil
}

// CreateCampaign creates a campaign named name (surrounding spaces trimmed).
// A name that is empty or longer than MaxNameLen characters is EINVALID.
func (db *DB) CreateCampaign(ctx context.Context, name string) (Campaign, error) {
	name, err := checkName("campaign", name)
	if err != nil {
		return Campaign{}, err
	}
	c := Campaign{Name: name}
	err = db.pool.QueryRow(ctx,
		`INSERT INTO campaigns (name) VALUES ($1) RETURNING id::text, created_at`, name).
		Scan(&c.ID, &c.CreatedAt)
	if err != nil {
		return Campaign{}, fmt.Errorf("store: create campaign: %w", err)
	}
	return c, nil
}

// Campaign returns the campaign with id; ENOTFOUND when there is none or id is
// not a UUID.
func (db *DB) Campaign(ctx context.Context, id string) (Campaign, error) {
	if !validUUID(id) {
		return Campaign{}, campaignNotFound(id)
	}
	var c Campaign
	err := db.pool.QueryRow(ctx,
		`SELECT id::text, name, created_at FROM campaigns WHERE id = $1::uuid`, id).
		Scan(&c.ID, &c.Name, &c.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return Campaign{}, campaignNotFound(id)
	}
	if err != nil {
		return Campaign{}, fmt.Errorf("store: campaign: %w", err)
	}
	return c, nil
}

// Campaigns returns every campaign, newest first.
func (db *DB) Campaigns(ctx context.Context) ([]Campaign, error) {
	rows, _ := db.pool.Query(ctx,
		`SELECT id::text, name, created_at FROM campaigns ORDER BY created_at DESC, id`)
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Campaign, error) {
		var c Campaign
		err := r.Scan(&c.ID, &c.Name, &c.CreatedAt)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: campaigns: %w", err)
	}
	return cs, nil
}

func campaignNotFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "campaign %q not found", id)
}

func (db *DB) campaignExists(ctx context.Context, id string) (bool, error) {
	var ok bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM campaigns WHERE id = $1::uuid)`, id).Scan(&ok)
	return ok, err
}

// CreateCampaignFor creates a campaign named name (as [DB.CreateCampaign]
// does) with the user gmUserID as its GM, in one transaction. An unknown user
// is ENOTFOUND.
func (db *DB) CreateCampaignFor(ctx context.Context, name, gmUserID string) (Campaign, error) {
	if !validUUID(gmUserID) {
		return Campaign{}, userNotFound(gmUserID)
	}
	name, err := checkName("campaign", name)
	if err != nil {
		return Campaign{}, err
	}
	c := Campaign{Name: name}
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx,
			`INSERT INTO campaigns (name) VALUES ($1) RETURNING id::text, created_at`, name).
			Scan(&c.ID, &c.CreatedAt)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx,
			`INSERT INTO campaign_members (campaign_id, user_id, role) VALUES ($1::uuid, $2::uuid, $3)`,
			c.ID, gmUserID, RoleGM)
		return err
	})
	if pgCode(err) == sqlForeignKeyViolation {
		return Campaign{}, userNotFound(gmUserID)
	}
	if err != nil {
		return Campaign{}, fmt.Errorf("store: create campaign: %w", err)
	}
	return c, nil
}
