package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// UserSummary is an account as the operator's list shows it.
type UserSummary struct {
	ID, Name   string
	CreatedAt  time.Time
	DisabledAt *time.Time
	HasEmail   bool  // an e-mail address is set (for notices and resets)
	Campaigns  int   // campaigns the account belongs to
	Sessions   int   // signed-in browsers (unexpired sessions)
	Tokens     int   // API tokens not revoked
	LastSeen   int64 // Unix seconds of the newest session's start, 0 for none
}

// Users lists every account by name, for the operator (server user list).
func (db *DB) Users(ctx context.Context) ([]UserSummary, error) {
	rows, err := db.pool.Query(ctx, `
		SELECT u.id::text, u.name, u.created_at, u.disabled_at, u.email IS NOT NULL,
			(SELECT count(*) FROM campaign_members m WHERE m.user_id = u.id),
			(SELECT count(*) FROM sessions s WHERE s.user_id = u.id AND s.expires_at > now()),
			(SELECT count(*) FROM api_tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL),
			COALESCE((SELECT extract(epoch FROM max(s.created_at))::bigint FROM sessions s WHERE s.user_id = u.id), 0)
		FROM users u ORDER BY lower(u.name)`)
	if err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (UserSummary, error) {
		var s UserSummary
		err := r.Scan(&s.ID, &s.Name, &s.CreatedAt, &s.DisabledAt, &s.HasEmail, &s.Campaigns, &s.Sessions, &s.Tokens, &s.LastSeen)
		return s, err
	})
}

// SetUserDisabled disables (or enables again) the account with userID.
// Disabling ends every session of the user in the same statement; the
// access triggers (migration 0017) close the user's open sockets, and no
// API token of theirs authenticates while the account is disabled.
// Disabling a disabled account, or enabling an enabled one, changes
// nothing. An unknown user is ENOTFOUND.
func (db *DB) SetUserDisabled(ctx context.Context, userID string, disabled bool) error {
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	var n int
	var err error
	if disabled {
		err = db.pool.QueryRow(ctx, `
			WITH u AS (
				UPDATE users SET disabled_at = COALESCE(disabled_at, now()) WHERE id = $1::uuid RETURNING id
			), s AS (
				DELETE FROM sessions WHERE user_id IN (SELECT id FROM u)
			)
			SELECT count(*) FROM u`, userID).Scan(&n)
	} else {
		err = db.pool.QueryRow(ctx, `
			WITH u AS (
				UPDATE users SET disabled_at = NULL WHERE id = $1::uuid RETURNING id
			)
			SELECT count(*) FROM u`, userID).Scan(&n)
	}
	if err != nil {
		return fmt.Errorf("store: set user disabled: %w", err)
	}
	if n == 0 {
		return userNotFound(userID)
	}
	return nil
}

// UsersByEmail returns the enabled accounts whose e-mail address is email
// (compared regardless of case), for a password reset by e-mail; none is
// not an error.
func (db *DB) UsersByEmail(ctx context.Context, email string) ([]User, error) {
	if email == "" || len(email) > 254 || !validText(email) {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT `+userColumns+` FROM users u
		WHERE lower(u.email) = lower($1) AND u.disabled_at IS NULL ORDER BY u.created_at`, email)
	if err != nil {
		return nil, fmt.Errorf("store: users by email: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (User, error) { return scanUser(r) })
}

// CreatePasswordReset records a password-reset link for userID: tokenHash
// is the SHA-256 of the link's token; it works once, until expires.
func (db *DB) CreatePasswordReset(ctx context.Context, userID string, tokenHash []byte, expires time.Time) error {
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	if len(tokenHash) != TokenHashLen {
		return fray.Errorf(fray.EINTERNAL, "create password reset: token hash of %d bytes, want %d", len(tokenHash), TokenHashLen)
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2::uuid, $3)`,
		tokenHash, userID, expires)
	if pgCode(err) == sqlForeignKeyViolation {
		return userNotFound(userID)
	}
	if err != nil {
		return fmt.Errorf("store: create password reset: %w", err)
	}
	return nil
}

// resetUsable is the condition a reset link must meet to be used: not used,
// not expired, made after the password last changed, for an enabled account.
const resetUsable = `r.used_at IS NULL AND r.expires_at > $2 AND r.created_at >= u.password_changed_at AND u.disabled_at IS NULL`

// PasswordResetUser returns the account a usable reset link (see
// ResetPassword) is for, without using it; ENOTFOUND otherwise.
func (db *DB) PasswordResetUser(ctx context.Context, tokenHash []byte, now time.Time) (User, error) {
	if len(tokenHash) != TokenHashLen {
		return User{}, resetNotFound()
	}
	u, err := scanUser(db.pool.QueryRow(ctx, `SELECT `+userColumns+`
		FROM password_resets r JOIN users u ON u.id = r.user_id
		WHERE r.token_hash = $1 AND `+resetUsable, tokenHash, now))
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, resetNotFound()
	}
	if err != nil {
		return User{}, fmt.Errorf("store: password reset: %w", err)
	}
	return u, nil
}

// ResetPassword uses a reset link: in one statement it marks the link
// used and sets the account's password as SetPassword does (every session
// ends, every API token is revoked). A link that is unknown, used,
// expired, older than the account's last password change, or for a
// disabled account is ENOTFOUND and changes nothing; of two concurrent
// uses, one succeeds.
func (db *DB) ResetPassword(ctx context.Context, tokenHash []byte, passwordHash string, now time.Time) (User, error) {
	if len(tokenHash) != TokenHashLen {
		return User{}, resetNotFound()
	}
	if passwordHash == "" || !validText(passwordHash) {
		return User{}, fray.Errorf(fray.EINTERNAL, "reset password: no password hash")
	}
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return User{}, fmt.Errorf("store: reset password: %w", err)
	}
	defer tx.Rollback(ctx)
	var userID string
	err = tx.QueryRow(ctx, `
		UPDATE password_resets r SET used_at = $2
		FROM users u
		WHERE r.token_hash = $1 AND u.id = r.user_id AND `+resetUsable+`
		RETURNING r.user_id::text`, tokenHash, now).Scan(&userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, resetNotFound()
	}
	if err != nil {
		return User{}, fmt.Errorf("store: reset password: %w", err)
	}
	u, err := scanUser(tx.QueryRow(ctx, `
		WITH u AS (
			UPDATE users u SET password_hash = $2, password_changed_at = now()
			WHERE id = $1::uuid
			RETURNING `+userColumns+`
		), s AS (
			DELETE FROM sessions WHERE user_id = $1::uuid
		), t AS (
			UPDATE api_tokens SET revoked_at = now()
			WHERE user_id = $1::uuid AND revoked_at IS NULL
		)
		SELECT * FROM u`, userID, passwordHash))
	if err != nil {
		return User{}, fmt.Errorf("store: reset password: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return User{}, fmt.Errorf("store: reset password: %w", err)
	}
	return u, nil
}

// DeleteOldPasswordResets deletes reset links expired at now.
func (db *DB) DeleteOldPasswordResets(ctx context.Context, now time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM password_resets WHERE expires_at <= $1`, now)
	if err != nil {
		return 0, fmt.Errorf("store: delete old password resets: %w", err)
	}
	return tag.RowsAffected(), nil
}

func resetNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "this password-reset link is not valid: it was used, it expired, or the password changed since")
}

// DiskUse is what one campaign keeps in the database, in bytes as stored
// (after PostgreSQL's compression), by kind.
type DiskUse struct {
	CampaignID, Name string
	Encounters       int
	Events           int64
	// History is the encounters' events, snapshots and setups; Pictures
	// the uploaded pictures (both sizes); Prep the drafts, bestiary,
	// characters and their revisions.
	History, Pictures, Prep int64
}

// Total is the campaign's bytes of every kind.
func (d DiskUse) Total() int64 { return d.History + d.Pictures + d.Prep }

// CampaignDiskUse measures every campaign, largest first, and returns the
// whole database's size on disk (indexes and free space included).
func (db *DB) CampaignDiskUse(ctx context.Context) ([]DiskUse, int64, error) {
	var total int64
	if err := db.pool.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: disk use: %w", err)
	}
	rows, err := db.pool.Query(ctx, `
		WITH e AS (
			SELECT e.campaign_id,
				count(*) AS encounters,
				sum(pg_column_size(e.setup) + pg_column_size(e.initial_state)) AS setup
			FROM encounters e GROUP BY e.campaign_id
		), ev AS (
			SELECT e.campaign_id, count(*) AS n, sum(pg_column_size(v.body) + 64) AS bytes
			FROM events v JOIN encounters e ON e.id = v.encounter_id GROUP BY e.campaign_id
		), sn AS (
			SELECT e.campaign_id, sum(pg_column_size(s.state)) AS bytes
			FROM snapshots s JOIN encounters e ON e.id = s.encounter_id GROUP BY e.campaign_id
		), a AS (
			SELECT campaign_id, sum(pg_column_size(data) + pg_column_size(thumb)) AS bytes FROM assets GROUP BY campaign_id
		), p AS (
			SELECT campaign_id, sum(b) AS bytes FROM (
				SELECT campaign_id, pg_column_size(setup) AS b FROM drafts
				UNION ALL SELECT d.campaign_id, pg_column_size(s.setup) FROM draft_steps s JOIN drafts d ON d.id = s.draft_id
				UNION ALL SELECT campaign_id, pg_column_size(stats) FROM bestiary
				UNION ALL SELECT campaign_id, pg_column_size(stats) FROM characters
				UNION ALL SELECT campaign_id, pg_column_size(stats) + pg_column_size(changes) FROM character_revisions
			) x GROUP BY campaign_id
		)
		SELECT * FROM (
			SELECT c.id::text, c.name, COALESCE(e.encounters, 0) AS encounters, COALESCE(ev.n, 0) AS events,
				(COALESCE(e.setup, 0) + COALESCE(ev.bytes, 0) + COALESCE(sn.bytes, 0))::bigint AS history,
				COALESCE(a.bytes, 0)::bigint AS pictures, COALESCE(p.bytes, 0)::bigint AS prep
			FROM campaigns c
			LEFT JOIN e ON e.campaign_id = c.id
			LEFT JOIN ev ON ev.campaign_id = c.id
			LEFT JOIN sn ON sn.campaign_id = c.id
			LEFT JOIN a ON a.campaign_id = c.id
			LEFT JOIN p ON p.campaign_id = c.id
		) q ORDER BY history + pictures + prep DESC, name`)
	if err != nil {
		return nil, 0, fmt.Errorf("store: disk use: %w", err)
	}
	us, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DiskUse, error) {
		var d DiskUse
		err := r.Scan(&d.CampaignID, &d.Name, &d.Encounters, &d.Events, &d.History, &d.Pictures, &d.Prep)
		return d, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: disk use: %w", err)
	}
	return us, total, nil
}
