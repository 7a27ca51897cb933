package store

import (
	"context"
	"fmt"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
)

// CreateSession records a signed-in session of a user: tokenHash is the
// SHA-256 (TokenHashLen bytes) of the cookie's token, expires when it ends.
// An unknown user is ENOTFOUND; a token hash already in use is ECONFLICT.
func (db *DB) CreateSession(ctx context.Context, userID string, tokenHash []byte, expires time.Time) error {
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	if len(tokenHash) != TokenHashLen {
		return fray.Errorf(fray.EINTERNAL, "create session: token hash of %d bytes, want %d", len(tokenHash), TokenHashLen)
	}
	_, err := db.pool.Exec(ctx,
		`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2::uuid, $3)`,
		tokenHash, userID, expires)
	switch pgCode(err) {
	case "":
	case sqlForeignKeyViolation:
		return userNotFound(userID)
	case sqlUniqueViolation:
		return fray.Errorf(fray.ECONFLICT, "session already exists")
	}
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// SessionUser returns the user of the session with tokenHash if it has not
// expired at now; ENOTFOUND when it is missing or expired.
func (db *DB) SessionUser(ctx context.Context, tokenHash []byte, now time.Time) (User, error) {
	u, _, err := db.session(ctx, tokenHash, now)
	return u, err
}

// DeleteSession ends the session with tokenHash; ending one that does not
// exist is not an error.
func (db *DB) DeleteSession(ctx context.Context, tokenHash []byte) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// DeleteUserSessions ends every session of a user. A malformed user id is
// ENOTFOUND; a user without sessions is not an error.
func (db *DB) DeleteUserSessions(ctx context.Context, userID string) error {
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	if _, err := db.pool.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1::uuid`, userID); err != nil {
		return fmt.Errorf("store: delete user sessions: %w", err)
	}
	return nil
}

// SignOutEverywhere ends every session of a user and revokes every API
// token of theirs, in one statement; the access triggers close their
// sockets. It returns how many sessions and tokens it ended. A malformed
// user id is ENOTFOUND.
func (db *DB) SignOutEverywhere(ctx context.Context, userID string) (sessions, tokens int64, err error) {
	if !validUUID(userID) {
		return 0, 0, userNotFound(userID)
	}
	err = db.pool.QueryRow(ctx, `
		WITH s AS (
			DELETE FROM sessions WHERE user_id = $1::uuid RETURNING 1
		), t AS (
			UPDATE api_tokens SET revoked_at = now()
			WHERE user_id = $1::uuid AND revoked_at IS NULL RETURNING 1
		)
		SELECT (SELECT count(*) FROM s), (SELECT count(*) FROM t)`, userID).Scan(&sessions, &tokens)
	if err != nil {
		return 0, 0, fmt.Errorf("store: sign out everywhere: %w", err)
	}
	return sessions, tokens, nil
}

// DeleteExpiredSessions deletes the sessions expired at now and returns how
// many; run it now and then to keep the table small.
func (db *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, now)
	if err != nil {
		return 0, fmt.Errorf("store: delete expired sessions: %w", err)
	}
	return tag.RowsAffected(), nil
}

func sessionNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "no such session")
}
