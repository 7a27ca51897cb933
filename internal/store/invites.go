package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fray-vtt/fray/internal/fray"
)

// Invite is a link to join a campaign as a player. The link's token is shown
// once, when made; the store keeps only its SHA-256. An invite can be used
// by any number of people until it expires or is revoked.
type Invite struct {
	ID         string
	CampaignID string
	CreatedBy  string // the user who made it
	CreatedAt  time.Time
	ExpiresAt  time.Time
	RevokedAt  *time.Time // nil unless revoked
}

const inviteColumns = `i.id::text, i.campaign_id::text, i.created_by::text, i.created_at, i.expires_at, i.revoked_at`

func scanInvite(row pgx.Row, more ...any) (Invite, error) {
	var i Invite
	err := row.Scan(append([]any{&i.ID, &i.CampaignID, &i.CreatedBy, &i.CreatedAt, &i.ExpiresAt, &i.RevokedAt}, more...)...)
	return i, err
}

// CreateInvite records an invite to campaign campaignID made by user
// createdBy, whose token's SHA-256 is tokenHash, valid until expires. An
// unknown campaign or user is ENOTFOUND. Whether createdBy may invite (is a
// GM) is the caller's to check.
func (db *DB) CreateInvite(ctx context.Context, campaignID, createdBy string, tokenHash []byte, expires time.Time) (Invite, error) {
	if !validUUID(campaignID) {
		return Invite{}, campaignNotFound(campaignID)
	}
	if !validUUID(createdBy) {
		return Invite{}, userNotFound(createdBy)
	}
	if len(tokenHash) != TokenHashLen {
		return Invite{}, fray.Errorf(fray.EINTERNAL, "create invite: token hash of %d bytes, want %d", len(tokenHash), TokenHashLen)
	}
	if expires.IsZero() {
		return Invite{}, fray.Errorf(fray.EINVALID, "an invite needs an expiry time")
	}
	inv, err := scanInvite(db.pool.QueryRow(ctx, `
		INSERT INTO invites AS i (campaign_id, created_by, token_hash, expires_at)
		VALUES ($1::uuid, $2::uuid, $3, $4)
		RETURNING `+inviteColumns, campaignID, createdBy, tokenHash, expires))
	switch pgCode(err) {
	case "":
	case sqlForeignKeyViolation:
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.ConstraintName == "invites_created_by_fkey" {
			return Invite{}, userNotFound(createdBy)
		}
		return Invite{}, campaignNotFound(campaignID)
	case sqlUniqueViolation:
		return Invite{}, fray.Errorf(fray.ECONFLICT, "invite already exists")
	}
	if err != nil {
		return Invite{}, fmt.Errorf("store: create invite: %w", err)
	}
	return inv, nil
}

// Invites lists a campaign's invites, newest first, expired and revoked ones
// included. An unknown or malformed campaign id is ENOTFOUND.
func (db *DB) Invites(ctx context.Context, campaignID string) ([]Invite, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT `+inviteColumns+` FROM invites i
		WHERE i.campaign_id = $1::uuid ORDER BY i.created_at DESC, i.id`, campaignID)
	invs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Invite, error) { return scanInvite(r) })
	if err != nil {
		return nil, fmt.Errorf("store: invites: %w", err)
	}
	if len(invs) == 0 {
		if err := db.mustCampaign(ctx, campaignID); err != nil {
			return nil, err
		}
	}
	return invs, nil
}

// RevokeInvite revokes invite inviteID of campaign campaignID; revoking it
// again is not an error. An invite that is not the campaign's is ENOTFOUND.
func (db *DB) RevokeInvite(ctx context.Context, campaignID, inviteID string) error {
	if !validUUID(campaignID) || !validUUID(inviteID) {
		return inviteNotFound()
	}
	tag, err := db.pool.Exec(ctx, `
		UPDATE invites SET revoked_at = COALESCE(revoked_at, now())
		WHERE id = $1::uuid AND campaign_id = $2::uuid`, inviteID, campaignID)
	if err != nil {
		return fmt.Errorf("store: revoke invite: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return inviteNotFound()
	}
	return nil
}

// InviteByToken returns the invite whose token's SHA-256 is tokenHash and its
// campaign, if it can be used at now. An unknown token is ENOTFOUND; a
// revoked or expired invite is EILLEGAL.
func (db *DB) InviteByToken(ctx context.Context, tokenHash []byte, now time.Time) (Invite, Campaign, error) {
	inv, c, err := inviteByToken(ctx, db.pool, tokenHash, now, "")
	if err != nil {
		return Invite{}, Campaign{}, wrap("invite by token", err)
	}
	return inv, c, nil
}

// AcceptInvite adds user userID to the campaign of the invite whose token's
// SHA-256 is tokenHash, as a player, and returns the campaign. A user who is
// already a member keeps their role. Errors are InviteByToken's, and
// ENOTFOUND for an unknown user. The invite stays usable.
func (db *DB) AcceptInvite(ctx context.Context, tokenHash []byte, userID string, now time.Time) (Campaign, error) {
	if !validUUID(userID) {
		return Campaign{}, userNotFound(userID)
	}
	var c Campaign
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		// FOR SHARE: a revocation waits for this to commit, and this waits
		// for a revocation in progress (and then sees it).
		var err error
		if _, c, err = inviteByToken(ctx, tx, tokenHash, now, "FOR SHARE OF i"); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO campaign_members (campaign_id, user_id, role) VALUES ($1::uuid, $2::uuid, $3)
			ON CONFLICT (campaign_id, user_id) DO NOTHING`, c.ID, userID, RolePlayer)
		return err
	})
	if pgCode(err) == sqlForeignKeyViolation {
		return Campaign{}, userNotFound(userID)
	}
	if err != nil {
		return Campaign{}, wrap("accept invite", err)
	}
	return c, nil
}

func inviteByToken(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, tokenHash []byte, now time.Time, lock string) (Invite, Campaign, error) {
	if len(tokenHash) != TokenHashLen {
		return Invite{}, Campaign{}, inviteNotFound()
	}
	var c Campaign
	inv, err := scanInvite(q.QueryRow(ctx, `
		SELECT `+inviteColumns+`, c.id::text, c.name, c.created_at
		FROM invites i JOIN campaigns c ON c.id = i.campaign_id
		WHERE i.token_hash = $1 `+lock, tokenHash), &c.ID, &c.Name, &c.CreatedAt)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Invite{}, Campaign{}, inviteNotFound()
	case err != nil:
		return Invite{}, Campaign{}, err
	case inv.RevokedAt != nil:
		return Invite{}, Campaign{}, fray.Errorf(fray.EILLEGAL, "this invite was revoked")
	case !now.Before(inv.ExpiresAt):
		return Invite{}, Campaign{}, fray.Errorf(fray.EILLEGAL, "this invite has expired")
	}
	return inv, c, nil
}

func inviteNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "no such invite")
}
