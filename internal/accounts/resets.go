package accounts

import (
	"context"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// ResetTTL is how long a password-reset link works.
const ResetTTL = time.Hour

// MaxResetsPerAddress bounds the links one request makes: one per enabled
// account with the address (an address may serve several accounts).
const MaxResetsPerAddress = 5

// ResetStore is what password resets need; *store.DB provides it.
type ResetStore interface {
	UsersByEmail(ctx context.Context, email string) ([]store.User, error)
	CreatePasswordReset(ctx context.Context, userID string, tokenHash []byte, expires time.Time) error
	PasswordResetUser(ctx context.Context, tokenHash []byte, now time.Time) (store.User, error)
	ResetPassword(ctx context.Context, tokenHash []byte, passwordHash string, now time.Time) (store.User, error)
}

// Resets are password resets by e-mail: a link with a random token (the
// database keeps its SHA-256), good once and for ResetTTL. Using it sets a
// new password, which ends every session and API token of the account.
type Resets struct {
	db ResetStore
}

// NewResets returns password resets over db.
func NewResets(db ResetStore) *Resets { return &Resets{db: db} }

// ResetLink is a reset link to send: Token goes into the link, to Email,
// for the account User.
type ResetLink struct {
	User  store.User
	Email string
	Token string
}

// Start makes a reset link for every enabled account whose e-mail address
// is email (none for an unknown address: the caller answers the same
// either way, and sends the links out of the request's way).
func (r *Resets) Start(ctx context.Context, email string) ([]ResetLink, error) {
	us, err := r.db.UsersByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	if len(us) > MaxResetsPerAddress {
		us = us[:MaxResetsPerAddress]
	}
	links := make([]ResetLink, 0, len(us))
	for _, u := range us {
		token, hash := auth.NewToken("")
		if err := r.db.CreatePasswordReset(ctx, u.ID, hash, time.Now().Add(ResetTTL)); err != nil {
			return nil, err
		}
		links = append(links, ResetLink{User: u, Email: email, Token: token})
	}
	return links, nil
}

// User returns the account a reset link's token is for while the link
// works, without using it (mail scanners open links; only the form's
// submission uses one). A link that does not work is ENOTFOUND.
func (r *Resets) User(ctx context.Context, token string) (store.User, error) {
	return r.db.PasswordResetUser(ctx, auth.HashToken(token), time.Now())
}

// Reset uses a link: it checks the new password's rules for the link's
// account and sets it. A link that does not work (used, expired, older
// than the last password change) is ENOTFOUND and nothing changes.
func (r *Resets) Reset(ctx context.Context, token, password, confirm string) (store.User, error) {
	hash := auth.HashToken(token)
	u, err := r.db.PasswordResetUser(ctx, hash, time.Now())
	if err != nil {
		return store.User{}, err
	}
	if err := auth.ValidatePassword(password, u.Name); err != nil {
		return store.User{}, err
	}
	if password != confirm {
		return store.User{}, fray.Errorf(fray.EINVALID, "the two passwords differ")
	}
	pw, err := auth.HashPassword(password)
	if err != nil {
		return store.User{}, err
	}
	return r.db.ResetPassword(ctx, hash, pw, time.Now())
}
