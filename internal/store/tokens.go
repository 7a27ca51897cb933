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

// APIToken is a personal access token for the JSON API. The token itself is
// shown once, when made; the store keeps only its SHA-256.
type APIToken struct {
	ID         string
	UserID     string
	Name       string
	CreatedAt  time.Time
	LastUsedAt *time.Time // nil before first use; updated at most once a minute
	RevokedAt  *time.Time // nil while the token works
}

// MaxTokenNameLen is the longest API token name, in characters.
const MaxTokenNameLen = 100

const tokenColumns = `id::text, user_id::text, name, created_at, last_used_at, revoked_at`

func scanToken(row pgx.Row) (APIToken, error) {
	var t APIToken
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.CreatedAt, &t.LastUsedAt, &t.RevokedAt)
	return t, err
}

// CreateAPIToken records a token of a user named name (surrounding spaces
// trimmed, 1..MaxTokenNameLen characters, else EINVALID) whose SHA-256 is
// tokenHash. An unknown user is ENOTFOUND.
func (db *DB) CreateAPIToken(ctx context.Context, userID, name string, tokenHash []byte) (APIToken, error) {
	if !validUUID(userID) {
		return APIToken{}, userNotFound(userID)
	}
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n == 0 || n > MaxTokenNameLen || !validText(name) {
		return APIToken{}, fray.Errorf(fray.EINVALID, "a token needs a name of 1–%d characters", MaxTokenNameLen)
	}
	if len(tokenHash) != TokenHashLen {
		return APIToken{}, fray.Errorf(fray.EINTERNAL, "create API token: token hash of %d bytes, want %d", len(tokenHash), TokenHashLen)
	}
	t, err := scanToken(db.pool.QueryRow(ctx, `
		INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1::uuid, $2, $3)
		RETURNING `+tokenColumns, userID, name, tokenHash))
	switch pgCode(err) {
	case "":
	case sqlForeignKeyViolation:
		return APIToken{}, userNotFound(userID)
	case sqlUniqueViolation:
		return APIToken{}, fray.Errorf(fray.ECONFLICT, "token already exists")
	}
	if err != nil {
		return APIToken{}, fmt.Errorf("store: create API token: %w", err)
	}
	return t, nil
}

// APITokens lists a user's tokens, newest first, revoked ones included. A
// malformed user id is ENOTFOUND.
func (db *DB) APITokens(ctx context.Context, userID string) ([]APIToken, error) {
	if !validUUID(userID) {
		return nil, userNotFound(userID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT `+tokenColumns+` FROM api_tokens
		WHERE user_id = $1::uuid ORDER BY created_at DESC, id`, userID)
	ts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (APIToken, error) { return scanToken(r) })
	if err != nil {
		return nil, fmt.Errorf("store: API tokens: %w", err)
	}
	return ts, nil
}

// RevokeAPIToken revokes a user's token tokenID; revoking it again is not an
// error. A token that is not the user's is ENOTFOUND.
func (db *DB) RevokeAPIToken(ctx context.Context, userID, tokenID string) error {
	if !validUUID(userID) || !validUUID(tokenID) {
		return tokenNotFound()
	}
	tag, err := db.pool.Exec(ctx, `
		UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now())
		WHERE id = $1::uuid AND user_id = $2::uuid`, tokenID, userID)
	if err != nil {
		return fmt.Errorf("store: revoke API token: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return tokenNotFound()
	}
	return nil
}

// TokenUser returns the user of the unrevoked token whose SHA-256 is
// tokenHash, and notes the use (LastUsedAt, at most once a minute so that
// busy clients do not write on every request); ENOTFOUND when there is no
// such token or it was revoked.
func (db *DB) TokenUser(ctx context.Context, tokenHash []byte) (User, error) {
	if len(tokenHash) != TokenHashLen {
		return User{}, tokenNotFound()
	}
	u, err := scanUser(db.pool.QueryRow(ctx, `
		WITH t AS (
			SELECT id, user_id, last_used_at FROM api_tokens
			WHERE token_hash = $1 AND revoked_at IS NULL
		), used AS (
			UPDATE api_tokens SET last_used_at = now()
			FROM t
			WHERE api_tokens.id = t.id
			  AND (t.last_used_at IS NULL OR t.last_used_at <= now() - interval '1 minute')
		)
		SELECT `+userColumns+` FROM t JOIN users u ON u.id = t.user_id WHERE u.disabled_at IS NULL`, tokenHash))
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, tokenNotFound()
	}
	if err != nil {
		return User{}, fmt.Errorf("store: token user: %w", err)
	}
	return u, nil
}

func tokenNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "no such API token")
}
