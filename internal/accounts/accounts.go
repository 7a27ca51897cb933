// Package accounts signs people up and in: names and passwords, browser
// sessions, personal access tokens for bots, and the rate limits on
// guessing. Passwords are argon2id hashes and tokens are stored only as
// SHA-256 (package auth); the database keeps the rest (package store).
package accounts

import (
	"context"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// SessionTTL is how long a browser stays signed in.
const SessionTTL = 30 * 24 * time.Hour

// TokenPrefix marks personal access tokens so they are recognisable in
// logs and secret scanners.
const TokenPrefix = "fray_pat_"

// Store is what accounts need; *store.DB provides it.
type Store interface {
	CreateUser(ctx context.Context, name, passwordHash string) (store.User, error)
	UserByName(ctx context.Context, name string) (store.User, error)
	SetPassword(ctx context.Context, userID, passwordHash string) error
	CreateSession(ctx context.Context, userID string, tokenHash []byte, expires time.Time) error
	DeleteSession(ctx context.Context, tokenHash []byte) error
	CreateAPIToken(ctx context.Context, userID, name string, tokenHash []byte) (store.APIToken, error)
	APITokens(ctx context.Context, userID string) ([]store.APIToken, error)
	RevokeAPIToken(ctx context.Context, userID, tokenID string) error
	SignOutEverywhere(ctx context.Context, userID string) (sessions, tokens int64, err error)
	Authenticate(ctx context.Context, cred store.Credential, now time.Time) (store.User, time.Time, error)
	AllowRate(ctx context.Context, key string, every time.Duration, burst int) (bool, error)
}

// Service manages accounts.
type Service struct {
	db        Store
	rateEvery time.Duration
	rateBurst int
}

// Limits bound attempts of rate-limited actions (log-ins, sign-ups,
// password changes) per key: a burst of Burst, then one every Every. The
// buckets live in the database, shared by every server instance. Zero
// means a burst of 10, then one every 6 seconds; a negative Every turns
// the limit off.
type Limits struct {
	Every time.Duration
	Burst int
}

// New returns a Service over db.
func New(db Store, l Limits) *Service {
	if l.Every == 0 {
		l.Every = 6 * time.Second
	}
	if l.Burst == 0 {
		l.Burst = 10
	}
	return &Service{db: db, rateEvery: l.Every, rateBurst: l.Burst}
}

// Allow counts an attempt of a rate-limited action (key: the action and
// the client address or user) and reports whether it may go ahead.
func (s *Service) Allow(ctx context.Context, key string) (bool, error) {
	if s.rateEvery < 0 {
		return true, nil
	}
	return s.db.AllowRate(ctx, key, s.rateEvery, s.rateBurst)
}

// ErrBadLogin is the answer to a wrong name or password, the same for both.
var ErrBadLogin = fray.Errorf(fray.EUNAUTHORIZED, "Wrong name or password.")

// Signup validates and creates an account.
func (s *Service) Signup(ctx context.Context, name, password, confirm string) (store.User, error) {
	if err := auth.ValidateName(name); err != nil {
		return store.User{}, err
	}
	if err := auth.ValidatePassword(password, name); err != nil {
		return store.User{}, err
	}
	if password != confirm {
		return store.User{}, fray.Errorf(fray.EINVALID, "the two passwords differ")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return store.User{}, err
	}
	return s.db.CreateUser(ctx, name, hash)
}

// Login checks a name and password. An unknown name costs the same as a
// wrong password and gets the same answer (ErrBadLogin), so names cannot
// be probed; a database that cannot say is never taken for either. A
// disabled account is ErrDisabled.
func (s *Service) Login(ctx context.Context, name, password string) (store.User, error) {
	u, err := s.db.UserByName(ctx, name)
	if fray.ErrorCode(store.Classify(err)) == fray.ENOTFOUND {
		auth.SpendPasswordCheck(password)
		return store.User{}, ErrBadLogin
	}
	if err != nil {
		return store.User{}, err
	}
	if !auth.CheckPassword(u.PasswordHash, password) {
		return store.User{}, ErrBadLogin
	}
	if u.DisabledAt != nil {
		return store.User{}, ErrDisabled
	}
	return u, nil
}

// ErrDisabled answers the right password of an account an operator
// disabled (only the right one: a wrong one gets ErrBadLogin, so whether
// an account is disabled cannot be probed).
var ErrDisabled = fray.Errorf(fray.EFORBIDDEN, "This account is disabled. Ask the server's operator.")

// ChangePassword checks u's current password and the new one's rules
// (auth.ValidatePassword) and sets it; the database then ends every
// session of the user and revokes every API token (whoever knew the old
// password may have made one). A wrong current password is EFORBIDDEN.
func (s *Service) ChangePassword(ctx context.Context, u store.User, current, password string) error {
	if !auth.CheckPassword(u.PasswordHash, current) {
		return fray.Errorf(fray.EFORBIDDEN, "your current password is wrong")
	}
	if err := auth.ValidatePassword(password, u.Name); err != nil {
		return err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	return s.db.SetPassword(ctx, u.ID, hash)
}

// SignOutEverywhere ends every session of a user and revokes every API
// token, and says how many of each.
func (s *Service) SignOutEverywhere(ctx context.Context, userID string) (sessions, tokens int64, err error) {
	return s.db.SignOutEverywhere(ctx, userID)
}

// StartSession signs userID in on one browser: it returns the session's
// token (for the cookie; the database keeps only its hash) and when it
// ends.
func (s *Service) StartSession(ctx context.Context, userID string) (string, time.Time, error) {
	token, hash := auth.NewToken("")
	expires := time.Now().Add(SessionTTL)
	if err := s.db.CreateSession(ctx, userID, hash, expires); err != nil {
		return "", time.Time{}, err
	}
	return token, expires, nil
}

// EndSession signs a browser out.
func (s *Service) EndSession(ctx context.Context, token string) error {
	return s.db.DeleteSession(ctx, auth.HashToken(token))
}

// Authenticate finds the user of a session cookie's token or an API
// token, and when the credential ends (zero for API tokens). An unknown or
// ended credential is EUNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, kind, token string) (store.User, store.Credential, time.Time, error) {
	cred := store.Credential{Kind: kind, Hash: auth.HashToken(token)}
	u, expires, err := s.db.Authenticate(ctx, cred, time.Now())
	return u, cred, expires, err
}

// CreateToken makes a personal access token for userID and returns it
// (it is shown once: the database keeps only its hash) and its id.
func (s *Service) CreateToken(ctx context.Context, userID, name string) (string, string, error) {
	if name == "" || len(name) > 100 {
		return "", "", fray.Errorf(fray.EINVALID, "give the token a name of 1–100 characters")
	}
	token, hash := auth.NewToken(TokenPrefix)
	t, err := s.db.CreateAPIToken(ctx, userID, name, hash)
	if err != nil {
		return "", "", err
	}
	return token, t.ID, nil
}

// Tokens lists userID's API tokens, newest first.
func (s *Service) Tokens(ctx context.Context, userID string) ([]store.APIToken, error) {
	return s.db.APITokens(ctx, userID)
}

// RevokeToken ends one of userID's API tokens.
func (s *Service) RevokeToken(ctx context.Context, userID, tokenID string) error {
	return s.db.RevokeAPIToken(ctx, userID, tokenID)
}
