package store_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// newHash returns the SHA-256 of a fresh random token.
func newHash() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	h := sha256.Sum256(b)
	return h[:]
}

// newUser creates a user named name.
func newUser(t testing.TB, db *store.DB, name string) store.User {
	t.Helper()
	u, err := db.CreateUser(context.Background(), name, "$argon2id$hash-of-"+name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// accountTables are the tables of migration 0002.
var accountTables = []string{"users", "sessions", "api_tokens", "campaign_members", "character_owners", "invites"}

// Every table goes down with the migrations and comes back up.
func TestMigrateAccountsDownUp(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tables := func() []string {
		t.Helper()
		rows, _ := conn.Query(ctx, `SELECT table_name::text FROM information_schema.tables
			WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY 1`)
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	all := strings.Join([]string{"api_tokens", "assets", "bestiary", "campaign_members", "campaigns", "carry_overs", "character_owners",
		"character_revisions", "characters", "clock_banks", "commands", "deadlines", "deliveries", "dice_secrets", "draft_steps", "drafts", "encounter_deadlines", "encounters", "events",
		"held_answers", "invites", "notice_settings", "notices",
		"password_resets", "push_subscriptions", "rate_limits", "server_keys", "sessions", "snapshots", "standing_orders", "users", "vapid_keys", "webhooks"}, ",")
	if got := strings.Join(tables(), ","); got != all {
		t.Fatalf("tables after up: %s, want %s", got, all)
	}
	// Data in every account table must not stop the down migration.
	u := newUser(t, db, "gm")
	c, err := db.CreateCampaignFor(ctx, "Campaign", u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AssignCharacter(ctx, c.ID, "hero", u.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSession(ctx, u.ID, newHash(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateAPIToken(ctx, u.ID, "bot", newHash()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateInvite(ctx, c.ID, u.ID, newHash(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := store.Migrate(ctx, url, "down"); err != nil {
		t.Fatal(err)
	}
	if got := tables(); len(got) != 0 {
		t.Fatalf("tables after down: %v", got)
	}
	if err := store.Migrate(ctx, url, "up"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tables(), ","); got != all {
		t.Fatalf("tables after down and up: %s, want %s", got, all)
	}
	newUser(t, db, "gm") // the unique index is back and the table empty
}

func TestUsers(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	alice, err := db.CreateUser(ctx, "Alice", "hash-a")
	if err != nil {
		t.Fatal(err)
	}
	if alice.Name != "Alice" || alice.PasswordHash != "hash-a" || len(alice.ID) != 36 ||
		alice.CreatedAt.IsZero() || !alice.PasswordChangedAt.Equal(alice.CreatedAt) {
		t.Fatalf("created %+v", alice)
	}

	for _, tc := range []struct {
		name string
		code string
	}{
		{"Alice", fray.ECONFLICT},
		{"alice", fray.ECONFLICT},
		{"ALICE", fray.ECONFLICT},
		{"", fray.EINVALID},
		{strings.Repeat("a", store.MaxUserNameLen+1), fray.EINVALID},
		{"nul\x00", fray.EINVALID},
		{"bad\xff", fray.EINVALID},
		{"Alice2", ""},
	} {
		_, err := db.CreateUser(ctx, tc.name, "hash")
		if got := fray.ErrorCode(err); got != tc.code {
			t.Errorf("CreateUser(%q): %v, want code %q", tc.name, err, tc.code)
		}
		if tc.code == fray.ECONFLICT && fray.ErrorMessage(err) != "that name is taken" {
			t.Errorf("CreateUser(%q): message %q", tc.name, fray.ErrorMessage(err))
		}
	}
	if _, err := db.CreateUser(ctx, "nohash", ""); err == nil {
		t.Error("user without a password hash created")
	}

	for _, tc := range []struct {
		name string
		id   string // "" for ENOTFOUND
	}{
		{"Alice", alice.ID},
		{"alice", alice.ID},
		{"aLiCe", alice.ID},
		{"Alic", ""},
		{"", ""},
		{"bad\xff", ""},
		{"nul\x00", ""},
	} {
		u, err := db.UserByName(ctx, tc.name)
		if tc.id == "" {
			wantCode(t, err, fray.ENOTFOUND)
			continue
		}
		if err != nil || u != alice {
			t.Errorf("UserByName(%q) = %+v, %v; want %+v", tc.name, u, err, alice)
		}
	}

	if u, err := db.User(ctx, alice.ID); err != nil || u != alice {
		t.Fatalf("User = %+v, %v", u, err)
	}
	if u, err := db.User(ctx, strings.ToUpper(alice.ID)); err != nil || u.ID != alice.ID {
		t.Fatalf("User(upper-case id) = %+v, %v", u, err)
	}
	for _, id := range []string{store.NewID(), "not-a-uuid", ""} {
		_, err := db.User(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}
}

func TestSessions(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	alice, bob := newUser(t, db, "alice"), newUser(t, db, "bob")
	now := time.Now()
	a1, a2, b1, old := newHash(), newHash(), newHash(), newHash()
	for _, s := range []struct {
		user    string
		hash    []byte
		expires time.Time
	}{
		{alice.ID, a1, now.Add(time.Hour)},
		{alice.ID, a2, now.Add(24 * time.Hour)},
		{bob.ID, b1, now.Add(time.Hour)},
		{bob.ID, old, now.Add(-time.Second)},
	} {
		if err := db.CreateSession(ctx, s.user, s.hash, s.expires); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, db.CreateSession(ctx, alice.ID, a1, now.Add(time.Hour)), fray.ECONFLICT)
	wantCode(t, db.CreateSession(ctx, store.NewID(), newHash(), now.Add(time.Hour)), fray.ENOTFOUND)
	wantCode(t, db.CreateSession(ctx, "nobody", newHash(), now.Add(time.Hour)), fray.ENOTFOUND)
	if err := db.CreateSession(ctx, alice.ID, []byte("raw token"), now.Add(time.Hour)); err == nil {
		t.Error("session with a malformed hash created")
	}

	check := func(hash []byte, at time.Time, want string) {
		t.Helper()
		u, err := db.SessionUser(ctx, hash, at)
		if want == "" {
			wantCode(t, err, fray.ENOTFOUND)
			return
		}
		if err != nil || u.ID != want {
			t.Fatalf("SessionUser = %+v, %v; want user %s", u, err, want)
		}
	}
	check(a1, now, alice.ID)
	check(a2, now, alice.ID)
	check(b1, now, bob.ID)
	check(old, now, "")               // expired
	check(a1, now.Add(time.Hour), "") // expires at that instant
	check(a1, now.Add(time.Hour-time.Second), alice.ID)
	check(a2, now.Add(2*time.Hour), alice.ID)
	check(newHash(), now, "")       // unknown
	check([]byte("short"), now, "") // malformed

	n, err := db.DeleteExpiredSessions(ctx, now)
	if err != nil || n != 1 {
		t.Fatalf("DeleteExpiredSessions = %d, %v; want 1", n, err)
	}
	check(b1, now, bob.ID)

	// Logout ends one session; again is fine.
	if err := db.DeleteSession(ctx, a1); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSession(ctx, a1); err != nil {
		t.Fatal(err)
	}
	check(a1, now, "")
	check(a2, now, alice.ID)

	// A password change ends all the user's sessions, and only theirs.
	a3 := newHash()
	if err := db.CreateSession(ctx, alice.ID, a3, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond)
	if err := db.SetPassword(ctx, alice.ID, "new-hash"); err != nil {
		t.Fatal(err)
	}
	check(a2, now, "")
	check(a3, now, "")
	check(b1, now, bob.ID)
	u, err := db.User(ctx, alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u.PasswordHash != "new-hash" || !u.PasswordChangedAt.After(alice.PasswordChangedAt) || !u.CreatedAt.Equal(alice.CreatedAt) {
		t.Fatalf("after SetPassword: %+v (was %+v)", u, alice)
	}
	// A session made after the change works.
	a4 := newHash()
	if err := db.CreateSession(ctx, alice.ID, a4, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	check(a4, now, alice.ID)
	wantCode(t, db.SetPassword(ctx, store.NewID(), "x"), fray.ENOTFOUND)
	wantCode(t, db.SetPassword(ctx, "bad", "x"), fray.ENOTFOUND)

	// Ending every session of a user.
	if err := db.DeleteUserSessions(ctx, bob.ID); err != nil {
		t.Fatal(err)
	}
	check(b1, now, "")
	check(a4, now, alice.ID)
	wantCode(t, db.DeleteUserSessions(ctx, "bad"), fray.ENOTFOUND)
}

func TestAPITokens(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	alice, bob := newUser(t, db, "alice"), newUser(t, db, "bob")
	h1, h2, hb := newHash(), newHash(), newHash()
	t1, err := db.CreateAPIToken(ctx, alice.ID, "  load generator ", h1)
	if err != nil {
		t.Fatal(err)
	}
	if t1.Name != "load generator" || t1.UserID != alice.ID || t1.CreatedAt.IsZero() || t1.LastUsedAt != nil || t1.RevokedAt != nil {
		t.Fatalf("created %+v", t1)
	}
	t2, err := db.CreateAPIToken(ctx, alice.ID, "bot", h2)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := db.CreateAPIToken(ctx, bob.ID, "bob's", hb)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		what, user, name string
		hash             []byte
		code             string
	}{
		{"empty name", alice.ID, "  ", newHash(), fray.EINVALID},
		{"long name", alice.ID, strings.Repeat("n", store.MaxTokenNameLen+1), newHash(), fray.EINVALID},
		{"unknown user", store.NewID(), "x", newHash(), fray.ENOTFOUND},
		{"malformed user", "x", "x", newHash(), fray.ENOTFOUND},
		{"hash in use", bob.ID, "x", h1, fray.ECONFLICT},
		{"longest name", alice.ID, strings.Repeat("n", store.MaxTokenNameLen), newHash(), ""},
	} {
		_, err := db.CreateAPIToken(ctx, tc.user, tc.name, tc.hash)
		if got := fray.ErrorCode(err); got != tc.code {
			t.Errorf("%s: %v, want code %q", tc.what, err, tc.code)
		}
	}

	user := func(hash []byte, want string) {
		t.Helper()
		u, err := db.TokenUser(ctx, hash)
		if want == "" {
			wantCode(t, err, fray.ENOTFOUND)
			return
		}
		if err != nil || u.ID != want {
			t.Fatalf("TokenUser = %+v, %v; want %s", u, err, want)
		}
	}
	user(h1, alice.ID)
	user(h2, alice.ID)
	user(hb, bob.ID)
	user(newHash(), "")
	user(nil, "")

	// Bob cannot revoke Alice's token; unknown and malformed ids are not found.
	for _, tc := range []struct{ user, token string }{
		{bob.ID, t1.ID},
		{alice.ID, store.NewID()},
		{alice.ID, "nope"},
		{"nope", t1.ID},
	} {
		wantCode(t, db.RevokeAPIToken(ctx, tc.user, tc.token), fray.ENOTFOUND)
	}
	user(h1, alice.ID)
	if err := db.RevokeAPIToken(ctx, alice.ID, t1.ID); err != nil {
		t.Fatal(err)
	}
	user(h1, "")
	user(h2, alice.ID)
	user(hb, bob.ID)

	ts, err := db.APITokens(ctx, alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 || ts[1].ID != t2.ID || ts[2].ID != t1.ID {
		t.Fatalf("tokens %+v, want newest first: longest name, bot, load generator", ts)
	}
	if ts[2].RevokedAt == nil || ts[1].RevokedAt != nil || ts[2].LastUsedAt == nil || ts[1].LastUsedAt == nil || ts[0].LastUsedAt != nil {
		t.Fatalf("tokens %+v", ts)
	}
	revokedAt := *ts[2].RevokedAt
	if err := db.RevokeAPIToken(ctx, alice.ID, t1.ID); err != nil {
		t.Fatalf("revoking again: %v", err)
	}
	ts, _ = db.APITokens(ctx, alice.ID)
	if !ts[2].RevokedAt.Equal(revokedAt) {
		t.Fatalf("revoking again moved revoked_at from %v to %v", revokedAt, ts[2].RevokedAt)
	}
	if ts, err := db.APITokens(ctx, bob.ID); err != nil || len(ts) != 1 || ts[0].ID != tb.ID {
		t.Fatalf("bob's tokens %+v, %v", ts, err)
	}
	if ts, err := db.APITokens(ctx, store.NewID()); err != nil || len(ts) != 0 {
		t.Fatalf("unknown user's tokens %+v, %v", ts, err)
	}

	// Last use is recorded at most once a minute.
	lastUsed := func() time.Time {
		t.Helper()
		ts, err := db.APITokens(ctx, bob.ID)
		if err != nil || ts[0].LastUsedAt == nil {
			t.Fatalf("tokens %+v, %v", ts, err)
		}
		return *ts[0].LastUsedAt
	}
	first := lastUsed()
	user(hb, bob.ID)
	if got := lastUsed(); !got.Equal(first) {
		t.Fatalf("last use moved within a minute: %v → %v", first, got)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE api_tokens SET last_used_at = last_used_at - interval '61 seconds' WHERE id = $1`, tb.ID); err != nil {
		t.Fatal(err)
	}
	aged := lastUsed()
	user(hb, bob.ID)
	if got := lastUsed(); !got.After(aged) || got.Before(first) {
		t.Fatalf("last use not updated after a minute: %v (aged %v)", got, aged)
	}
}

// A password change and "sign out everywhere" end every session and revoke
// every API token of the user, and nobody else's.
func TestPasswordChangeAndSignOutEverywhereRevokeTokens(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	now := time.Now()
	alice, bob := newUser(t, db, "alice"), newUser(t, db, "bob")
	works := func(hash []byte, session bool) bool {
		t.Helper()
		var err error
		if session {
			_, err = db.SessionUser(ctx, hash, now)
		} else {
			_, err = db.TokenUser(ctx, hash)
		}
		return err == nil
	}
	credentials := func(u store.User) (session, token []byte) {
		session, token = newHash(), newHash()
		if err := db.CreateSession(ctx, u.ID, session, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.CreateAPIToken(ctx, u.ID, "bot", token); err != nil {
			t.Fatal(err)
		}
		return session, token
	}
	as, at := credentials(alice)
	bs, bt := credentials(bob)
	if err := db.SetPassword(ctx, alice.ID, "new-hash"); err != nil {
		t.Fatal(err)
	}
	if works(as, true) || works(at, false) {
		t.Fatal("a session or token of Alice's outlived her password change")
	}
	if !works(bs, true) || !works(bt, false) {
		t.Fatal("Alice's password change ended Bob's session or token")
	}
	tokens, _ := db.APITokens(ctx, alice.ID)
	if len(tokens) != 1 || tokens[0].RevokedAt == nil {
		t.Fatalf("Alice's tokens after the change: %+v", tokens)
	}

	as2, at2 := credentials(alice)
	bs2, _ := credentials(bob)
	sessions, revoked, err := db.SignOutEverywhere(ctx, bob.ID)
	if err != nil || sessions != 2 || revoked != 2 {
		t.Fatalf("SignOutEverywhere = %d sessions, %d tokens, %v; want 2, 2", sessions, revoked, err)
	}
	if works(bs, true) || works(bs2, true) || works(bt, false) {
		t.Fatal("a session or token of Bob's outlived signing out everywhere")
	}
	if !works(as2, true) || !works(at2, false) {
		t.Fatal("Bob signing out everywhere ended Alice's session or token")
	}
	if s, n, err := db.SignOutEverywhere(ctx, bob.ID); err != nil || s != 0 || n != 0 {
		t.Fatalf("again: %d, %d, %v", s, n, err)
	}
	_, _, err = db.SignOutEverywhere(ctx, "bad")
	wantCode(t, err, fray.ENOTFOUND)
}
