package accounts

import (
	"context"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// memStore keeps users, sessions and tokens in memory.
type memStore struct {
	users    map[string]store.User
	sessions map[string]string // token hash → user id
	down     bool
	rate     []string
}

func newMem() *memStore {
	return &memStore{users: map[string]store.User{}, sessions: map[string]string{}}
}

func (m *memStore) err() error {
	if m.down {
		return fray.Errorf(fray.EUNAVAILABLE, "the database is unreachable")
	}
	return nil
}

func (m *memStore) CreateUser(ctx context.Context, name, hash string) (store.User, error) {
	if _, taken := m.users[name]; taken {
		return store.User{}, fray.Errorf(fray.ECONFLICT, "the name is taken")
	}
	u := store.User{ID: "id-" + name, Name: name, PasswordHash: hash}
	m.users[name] = u
	return u, m.err()
}

func (m *memStore) UserByName(ctx context.Context, name string) (store.User, error) {
	if err := m.err(); err != nil {
		return store.User{}, err
	}
	u, ok := m.users[name]
	if !ok {
		return store.User{}, fray.Errorf(fray.ENOTFOUND, "no user %q", name)
	}
	return u, nil
}

func (m *memStore) SetPassword(ctx context.Context, userID, hash string) error {
	for n, u := range m.users {
		if u.ID == userID {
			u.PasswordHash = hash
			m.users[n] = u
		}
	}
	return m.err()
}

func (m *memStore) CreateSession(ctx context.Context, userID string, hash []byte, expires time.Time) error {
	m.sessions[string(hash)] = userID
	return m.err()
}

func (m *memStore) DeleteSession(ctx context.Context, hash []byte) error {
	delete(m.sessions, string(hash))
	return m.err()
}

func (m *memStore) CreateAPIToken(ctx context.Context, userID, name string, hash []byte) (store.APIToken, error) {
	return store.APIToken{ID: "tok", Name: name}, m.err()
}

func (m *memStore) APITokens(ctx context.Context, userID string) ([]store.APIToken, error) {
	return nil, m.err()
}

func (m *memStore) RevokeAPIToken(ctx context.Context, userID, tokenID string) error { return m.err() }

func (m *memStore) SignOutEverywhere(ctx context.Context, userID string) (int64, int64, error) {
	n := int64(0)
	for h, id := range m.sessions {
		if id == userID {
			delete(m.sessions, h)
			n++
		}
	}
	return n, 0, m.err()
}

func (m *memStore) Authenticate(ctx context.Context, cred store.Credential, now time.Time) (store.User, time.Time, error) {
	id, ok := m.sessions[string(cred.Hash)]
	if !ok {
		return store.User{}, time.Time{}, fray.Errorf(fray.EUNAUTHORIZED, "signed out")
	}
	for _, u := range m.users {
		if u.ID == id {
			return u, now.Add(time.Hour), nil
		}
	}
	return store.User{}, time.Time{}, fray.Errorf(fray.EUNAUTHORIZED, "signed out")
}

func (m *memStore) AllowRate(ctx context.Context, key string, every time.Duration, burst int) (bool, error) {
	m.rate = append(m.rate, key)
	return len(m.rate) <= burst, m.err()
}

func TestSignupLoginSession(t *testing.T) {
	ctx := context.Background()
	db := newMem()
	s := New(db, Limits{})
	if _, err := s.Signup(ctx, "ada", "correct horse", "correct hors"); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("differing passwords: %v", err)
	}
	if _, err := s.Signup(ctx, "a", "correct horse", "correct horse"); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("a short name: %v", err)
	}
	u, err := s.Signup(ctx, "ada", "correct horse", "correct horse")
	if err != nil || !auth.CheckPassword(db.users["ada"].PasswordHash, "correct horse") {
		t.Fatalf("sign-up: %v", err)
	}
	if _, err := s.Login(ctx, "ada", "wrong horse!"); err != ErrBadLogin {
		t.Fatalf("a wrong password: %v", err)
	}
	if _, err := s.Login(ctx, "bob", "correct horse"); err != ErrBadLogin {
		t.Fatalf("an unknown name: %v", err)
	}
	if got, err := s.Login(ctx, "ada", "correct horse"); err != nil || got.ID != u.ID {
		t.Fatalf("log-in: %v", err)
	}
	token, expires, err := s.StartSession(ctx, u.ID)
	if err != nil || time.Until(expires) < SessionTTL-time.Minute {
		t.Fatalf("session: %v until %v", err, expires)
	}
	if _, ok := db.sessions[string(token)]; ok {
		t.Fatal("the database keeps the session token itself")
	}
	if got, _, _, err := s.Authenticate(ctx, store.CredentialSession, token); err != nil || got.ID != u.ID {
		t.Fatalf("authenticate: %v", err)
	}
	if err := s.EndSession(ctx, token); err != nil || len(db.sessions) != 0 {
		t.Fatalf("end session: %v", err)
	}
	db.down = true
	if _, err := s.Login(ctx, "ada", "correct horse"); fray.ErrorCode(err) != fray.EUNAVAILABLE {
		t.Fatalf("a database that cannot say is not a wrong password: %v", err)
	}
}

func TestChangePassword(t *testing.T) {
	ctx := context.Background()
	db := newMem()
	s := New(db, Limits{})
	u, _ := s.Signup(ctx, "ada", "correct horse", "correct horse")
	if err := s.ChangePassword(ctx, u, "wrong horse!", "battery staple horse"); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Errorf("a wrong current password: %v", err)
	}
	if err := s.ChangePassword(ctx, u, "correct horse", "short"); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a short password: %v", err)
	}
	if err := s.ChangePassword(ctx, u, "correct horse", "battery staple horse"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Login(ctx, "ada", "battery staple horse"); err != nil {
		t.Fatalf("the new password: %v", err)
	}
}

func TestTokensAndLimits(t *testing.T) {
	ctx := context.Background()
	db := newMem()
	s := New(db, Limits{Burst: 2})
	if _, _, err := s.CreateToken(ctx, "u", ""); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("a token without a name: %v", err)
	}
	token, id, err := s.CreateToken(ctx, "u", "bot")
	if err != nil || id != "tok" || len(token) < len(TokenPrefix)+20 || token[:len(TokenPrefix)] != TokenPrefix {
		t.Fatalf("token %q %q %v", token, id, err)
	}
	for i, want := range []bool{true, true, false} {
		if ok, _ := s.Allow(ctx, "login:x"); ok != want {
			t.Fatalf("attempt %d allowed %v", i, ok)
		}
	}
	off := New(db, Limits{Every: -1})
	if ok, _ := off.Allow(ctx, "login:x"); !ok || len(db.rate) != 3 {
		t.Fatal("a limit turned off still counts or refuses")
	}
}
