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

// User is an account.
type User struct {
	ID                string
	Name              string // the login name, unique regardless of case
	PasswordHash      string // an argon2id PHC string (see internal/auth)
	CreatedAt         time.Time
	PasswordChangedAt time.Time
	// DisabledAt is when an operator disabled the account (nil: it is
	// not): it cannot sign in, and no session or token of it works.
	DisabledAt *time.Time
}

// MaxUserNameLen is the longest user name the database holds, in characters.
// The server accepts only shorter ones (auth.ValidateName); this is the
// store's own bound.
const MaxUserNameLen = 100

// TokenHashLen is the length of every token hash the store keeps (sessions,
// API tokens, invites): a SHA-256.
const TokenHashLen = 32

const userColumns = `u.id::text, u.name, u.password_hash, u.created_at, u.password_changed_at, u.disabled_at`

func scanUser(row pgx.Row) (User, error) {
	var u User
	err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &u.CreatedAt, &u.PasswordChangedAt, &u.DisabledAt)
	return u, err
}

// validText reports whether s is valid UTF-8 without NUL, which PostgreSQL
// text cannot hold.
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// CreateUser creates an account named name (taken as is) with a password
// hash. A name already taken, whatever its case, is ECONFLICT; an empty,
// over-long (MaxUserNameLen) or invalid name is EINVALID. Callers validate
// the name's form first (auth.ValidateName).
func (db *DB) CreateUser(ctx context.Context, name, passwordHash string) (User, error) {
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return User{}, fray.Errorf(fray.EINVALID, "user name is empty")
	case n > MaxUserNameLen:
		return User{}, fray.Errorf(fray.EINVALID, "user name is longer than %d characters", MaxUserNameLen)
	case !validText(name):
		return User{}, fray.Errorf(fray.EINVALID, "user name is not valid text")
	}
	if passwordHash == "" || !validText(passwordHash) {
		return User{}, fray.Errorf(fray.EINTERNAL, "create user: no password hash")
	}
	u, err := scanUser(db.pool.QueryRow(ctx, `
		INSERT INTO users AS u (name, password_hash) VALUES ($1, $2)
		RETURNING `+userColumns, name, passwordHash))
	if pgCode(err) == sqlUniqueViolation {
		return User{}, fray.Errorf(fray.ECONFLICT, "that name is taken")
	}
	if err != nil {
		return User{}, fmt.Errorf("store: create user: %w", err)
	}
	return u, nil
}

// UserByName returns the account named name, whatever its case; ENOTFOUND
// when there is none.
func (db *DB) UserByName(ctx context.Context, name string) (User, error) {
	if name == "" || utf8.RuneCountInString(name) > MaxUserNameLen || !validText(name) {
		return User{}, userNotFound(name)
	}
	u, err := scanUser(db.pool.QueryRow(ctx,
		`SELECT `+userColumns+` FROM users u WHERE lower(u.name) = lower($1)`, name))
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, userNotFound(name)
	}
	if err != nil {
		return User{}, fmt.Errorf("store: user by name: %w", err)
	}
	return u, nil
}

// User returns the account with id; ENOTFOUND when there is none or id is not
// a UUID.
func (db *DB) User(ctx context.Context, id string) (User, error) {
	if !validUUID(id) {
		return User{}, userNotFound(id)
	}
	u, err := scanUser(db.pool.QueryRow(ctx,
		`SELECT `+userColumns+` FROM users u WHERE u.id = $1::uuid`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, userNotFound(id)
	}
	if err != nil {
		return User{}, fmt.Errorf("store: user: %w", err)
	}
	return u, nil
}

// SetPassword replaces a user's password hash, sets PasswordChangedAt,
// ends every session of the user and revokes every API token of theirs, in
// one statement (so one transaction): whoever held the old password may
// have made a token with it. An unknown user is ENOTFOUND.
func (db *DB) SetPassword(ctx context.Context, userID, passwordHash string) error {
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	if passwordHash == "" || !validText(passwordHash) {
		return fray.Errorf(fray.EINTERNAL, "set password: no password hash")
	}
	var n int
	err := db.pool.QueryRow(ctx, `
		WITH u AS (
			UPDATE users SET password_hash = $2, password_changed_at = now()
			WHERE id = $1::uuid
			RETURNING id
		), s AS (
			DELETE FROM sessions WHERE user_id IN (SELECT id FROM u)
		), t AS (
			UPDATE api_tokens SET revoked_at = now()
			WHERE user_id IN (SELECT id FROM u) AND revoked_at IS NULL
		)
		SELECT count(*) FROM u`, userID, passwordHash).Scan(&n)
	if err != nil {
		return fmt.Errorf("store: set password: %w", err)
	}
	if n == 0 {
		return userNotFound(userID)
	}
	return nil
}

func userNotFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "user %q not found", id)
}

func (db *DB) userExists(ctx context.Context, id string) (bool, error) {
	var ok bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1::uuid)`, id).Scan(&ok)
	return ok, err
}
