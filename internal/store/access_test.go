package store_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/store"
)

// accessFixture is a campaign with a GM and a player who owns "hero", each
// signed in with a session and an API token.
type accessFixture struct {
	db                     *store.DB
	campaign               string
	gm, player             store.User
	gmSession, gmToken     store.Credential
	playerSess, playerTokn store.Credential
}

func newAccessFixture(t *testing.T, db *store.DB) accessFixture {
	t.Helper()
	ctx := context.Background()
	f := accessFixture{db: db, gm: newUser(t, db, "gm"), player: newUser(t, db, "player")}
	c, err := db.CreateCampaignFor(ctx, "Campaign", f.gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.campaign = c.ID
	if err := db.SetMember(ctx, c.ID, f.player.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	if err := db.AssignCharacter(ctx, c.ID, "hero", f.player.ID); err != nil {
		t.Fatal(err)
	}
	creds := func(u store.User) (store.Credential, store.Credential) {
		s, tok := newHash(), newHash()
		if err := db.CreateSession(ctx, u.ID, s, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.CreateAPIToken(ctx, u.ID, "bot", tok); err != nil {
			t.Fatal(err)
		}
		return store.Credential{Kind: store.CredentialSession, Hash: s}, store.Credential{Kind: store.CredentialToken, Hash: tok}
	}
	f.gmSession, f.gmToken = creds(f.gm)
	f.playerSess, f.playerTokn = creds(f.player)
	return f
}

func (f accessFixture) access(t *testing.T, cred store.Credential, user store.User) (store.Access, error) {
	t.Helper()
	return f.db.Access(context.Background(), cred, user.ID, f.campaign, time.Now())
}

func TestAccess(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	f := newAccessFixture(t, db)

	a, err := f.access(t, f.playerSess, f.player)
	if err != nil || a.Role != store.RolePlayer || !slices.Equal(a.Characters, []string{"hero"}) ||
		a.Expires.Before(time.Now().Add(50*time.Minute)) || a.Version < 1 {
		t.Fatalf("player's access by session = %+v, %v", a, err)
	}
	if b, err := f.access(t, f.playerTokn, f.player); err != nil || !b.Expires.IsZero() || b.Version != a.Version {
		t.Fatalf("player's access by token = %+v, %v", b, err)
	}
	if g, err := f.access(t, f.gmToken, f.gm); err != nil || g.Role != store.RoleGM || len(g.Characters) != 0 || g.Characters == nil {
		t.Fatalf("GM's access = %+v, %v", g, err)
	}

	// Someone else's credential, a garbage one, an unknown campaign, a stranger.
	if _, err := f.access(t, f.gmSession, f.player); fray.ErrorCode(err) != fray.EUNAUTHORIZED {
		t.Fatalf("the GM's session for the player: %v", err)
	}
	if _, err := f.access(t, store.Credential{Kind: store.CredentialToken, Hash: newHash()}, f.player); fray.ErrorCode(err) != fray.EUNAUTHORIZED {
		t.Fatalf("an unknown token: %v", err)
	}
	if _, err := f.access(t, store.Credential{Kind: "cookie", Hash: f.playerSess.Hash}, f.player); fray.ErrorCode(err) != fray.EUNAUTHORIZED {
		t.Fatalf("an unknown kind of credential: %v", err)
	}
	if _, err := db.Access(ctx, f.playerTokn, f.player.ID, store.NewID(), time.Now()); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("an unknown campaign: %v", err)
	}
	stranger := newUser(t, db, "stranger")
	tok := newHash()
	if _, err := db.CreateAPIToken(ctx, stranger.ID, "bot", tok); err != nil {
		t.Fatal(err)
	}
	if _, err := f.access(t, store.Credential{Kind: store.CredentialToken, Hash: tok}, stranger); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("a stranger: %v", err)
	}
	// An expired session no longer signs in, for Access and Authenticate.
	if _, err := db.Access(ctx, f.playerSess, f.player.ID, f.campaign, time.Now().Add(2*time.Hour)); fray.ErrorCode(err) != fray.EUNAUTHORIZED {
		t.Fatalf("an expired session: %v", err)
	}
	if _, _, err := db.Authenticate(ctx, f.playerSess, time.Now().Add(2*time.Hour)); fray.ErrorCode(err) != fray.EUNAUTHORIZED {
		t.Fatalf("Authenticate, expired: %v", err)
	}
	if u, exp, err := db.Authenticate(ctx, f.playerSess, time.Now()); err != nil || u.ID != f.player.ID || exp.IsZero() {
		t.Fatalf("Authenticate by session = %+v, %v, %v", u, exp, err)
	}
	if u, exp, err := db.Authenticate(ctx, f.playerTokn, time.Now()); err != nil || u.ID != f.player.ID || !exp.IsZero() {
		t.Fatalf("Authenticate by token = %+v, %v, %v", u, exp, err)
	}
}

// Accesses answers for several users of one campaign in one statement
// exactly what Access answers for each: a live encounter's sockets are
// checked together.
func TestAccessesAnswersAsAccess(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	f := newAccessFixture(t, db)
	stranger := newUser(t, db, "stranger")
	tok := newHash()
	if _, err := db.CreateAPIToken(ctx, stranger.ID, "bot", tok); err != nil {
		t.Fatal(err)
	}
	asked := []store.SignedIn{
		{Cred: f.playerSess, UserID: f.player.ID},
		{Cred: f.gmToken, UserID: f.gm.ID},
		{Cred: f.gmSession, UserID: f.player.ID},                                              // someone else's session
		{Cred: store.Credential{Kind: store.CredentialToken, Hash: tok}, UserID: stranger.ID}, // not a member
		{Cred: store.Credential{Kind: "cookie", Hash: f.playerSess.Hash}, UserID: f.player.ID},
		{Cred: f.playerTokn, UserID: f.player.ID},
	}
	now := time.Now()
	got, err := db.Accesses(ctx, f.campaign, asked, now)
	if err != nil || len(got) != len(asked) {
		t.Fatalf("Accesses = %d answers, %v", len(got), err)
	}
	for i, m := range asked {
		want, werr := db.Access(ctx, m.Cred, m.UserID, f.campaign, now)
		if fray.ErrorCode(got[i].Err) != fray.ErrorCode(werr) || fmt.Sprint(got[i].Access) != fmt.Sprint(want) {
			t.Errorf("user %d: Accesses gives %+v, %v; Access gives %+v, %v", i, got[i].Access, got[i].Err, want, werr)
		}
	}
	if got[0].Role != store.RolePlayer || got[1].Role != store.RoleGM || got[1].Players == nil || got[2].Err == nil || got[3].Err == nil || got[5].Err != nil {
		t.Fatalf("Accesses = %+v", got)
	}
}

// Every change that can take access away bumps the campaign's access version
// and is announced on AccessNotifyChannel, in commit order; changes that
// take nothing away are not.
func TestAccessChangesAreAnnounced(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	f := newAccessFixture(t, db)
	other, err := db.CreateCampaignFor(ctx, "Other", f.player.ID) // the player runs a campaign of their own
	if err != nil {
		t.Fatal(err)
	}

	type note struct {
		campaign, user string
		version        int64
	}
	notes := make(chan note, 100)
	lctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- db.Subscribe(lctx, store.Listener{Access: func(c, u string, v int64) { notes <- note{c, u, v} }})
	}()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	// Subscribe has no "ready" signal: make changes until one is heard.
	version := func() int64 {
		a, err := f.access(t, f.gmToken, f.gm)
		if err != nil {
			t.Fatal(err)
		}
		return a.Version
	}
	deadline := patience.Deadline()
	for i := 0; ; i++ {
		if err := db.AssignCharacter(ctx, f.campaign, fmt.Sprint("warmup-", i), f.gm.ID); err != nil {
			t.Fatal(err)
		}
		select {
		case <-notes:
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("no notification")
			}
			continue
		}
		break
	}
	time.Sleep(50 * time.Millisecond)
	for len(notes) > 0 {
		<-notes
	}
	expect := func(what string, want ...note) {
		t.Helper()
		var got []note
		timeout := time.After(patience.Hang())
		for len(got) < len(want) {
			select {
			case n := <-notes:
				got = append(got, n)
			case <-timeout:
				t.Fatalf("%s: got %v, want %v", what, got, want)
			}
		}
		// Nothing more arrives (a notification sent by mistake would come
		// with the next one, so check again after the next change too).
		select {
		case n := <-notes:
			t.Fatalf("%s: extra notification %v after %v", what, n, got)
		case <-time.After(50 * time.Millisecond):
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
	v := version()
	c, gm, pl := f.campaign, f.gm.ID, f.player.ID

	if err := db.AssignCharacter(ctx, c, "hero", gm); err != nil { // reassigned: both owners
		t.Fatal(err)
	}
	expect("reassign hero", note{c, pl, v + 1}, note{c, gm, v + 2})
	if err := db.AssignCharacter(ctx, c, "hero", ""); err != nil {
		t.Fatal(err)
	}
	expect("unassign hero", note{c, gm, v + 3})
	if err := db.SetMember(ctx, c, pl, store.RoleGM); err != nil {
		t.Fatal(err)
	}
	expect("promote", note{c, pl, v + 4})
	if err := db.SetMember(ctx, c, pl, store.RoleGM); err != nil { // unchanged role: nothing
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, c, pl, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	expect("same role, then demote", note{c, pl, v + 5})
	if err := db.DeleteSession(ctx, f.playerSess.Hash); err != nil { // every campaign of the player
		t.Fatal(err)
	}
	first, second := note{c, pl, v + 6}, note{other.ID, pl, 2}
	if c > other.ID { // campaigns are bumped in id order
		first, second = note{other.ID, pl, 2}, note{c, pl, v + 6}
	}
	expect("log-out", first, second)
	if _, err := db.TokenUser(ctx, f.playerTokn.Hash); err != nil { // a use is not a change
		t.Fatal(err)
	}
	tokens, _ := db.APITokens(ctx, pl)
	if err := db.RevokeAPIToken(ctx, pl, tokens[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeAPIToken(ctx, pl, tokens[0].ID); err != nil { // again: nothing
		t.Fatal(err)
	}
	first.version++
	second.version++
	expect("token revoked", first, second)
	if err := db.SetPassword(ctx, gm, "$argon2id$new"); err != nil { // ends the GM's session, revokes their token
		t.Fatal(err)
	}
	expect("password changed", note{c, gm, v + 8}, note{c, gm, v + 9})
	if err := db.RemoveMember(ctx, c, pl); err != nil {
		t.Fatal(err)
	}
	expect("removed", note{c, pl, v + 10})
	for _, cred := range []store.Credential{f.gmSession, f.gmToken} {
		if _, err := f.access(t, cred, f.gm); fray.ErrorCode(err) != fray.EUNAUTHORIZED {
			t.Fatalf("a credential of the GM's outlived the password change: %v", err)
		}
	}
}

// An append that names an access version commits only while it is current;
// a resend is still a duplicate after the version changed.
func TestAppendChecksAccess(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	u := newUser(t, db, "gm")
	if err := db.SetMember(ctx, e.CampaignID, u.ID, store.RoleGM); err != nil {
		t.Fatal(err)
	}
	got, err := db.Encounter(ctx, e.ID)
	if err != nil || got.Access < 1 {
		t.Fatalf("Encounter = %+v, %v", got, err)
	}
	v := got.Access
	r, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, Sender: u.ID, CommandID: "a", Access: v, Events: events(1, 1)})
	if err != nil || r.Seq != 1 || r.Access != v {
		t.Fatalf("append at the current version = %+v, %v", r, err)
	}
	if err := db.AssignCharacter(ctx, e.CampaignID, "hero", u.ID); err != nil {
		t.Fatal(err)
	}
	_, err = db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 1, Sender: u.ID, CommandID: "b", Access: v, Events: events(2, 1)})
	if !errors.Is(err, store.ErrAccessChanged) || fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("append at a stale version: %v", err)
	}
	if c, err := db.LookupCommand(ctx, e.ID, u.ID, "b"); err != nil || c.Applied || c.Access != v+1 {
		t.Fatalf("after the refused append: %+v, %v", c, err)
	}
	// A stale seq is a plain conflict, whatever the version.
	_, err = db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 0, Sender: u.ID, CommandID: "c", Access: v, Events: events(1, 1)})
	if fray.ErrorCode(err) != fray.ECONFLICT || errors.Is(err, store.ErrAccessChanged) {
		t.Fatalf("stale seq and version: %v", err)
	}
	// A resend of an applied command is a duplicate, whatever the version.
	r, err = db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 1, Sender: u.ID, CommandID: "a", Access: v, Events: events(2, 1)})
	if !errors.Is(err, store.ErrDuplicateCommand) || r.Seq != 1 {
		t.Fatalf("resend at a stale version = %+v, %v", r, err)
	}
	r, err = db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 1, Sender: u.ID, CommandID: "b", Access: v + 1, Events: events(2, 1)})
	if err != nil || r.Seq != 2 || r.Access != v+1 {
		t.Fatalf("append at the new version = %+v, %v", r, err)
	}
	if got, _ := db.Encounter(ctx, e.ID); got.Seq != 2 {
		t.Fatalf("seq %d", got.Seq)
	}
}

// Command ids are scoped per sender: one user cannot take another's id.
func TestCommandIDsPerSender(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	ann, bob := store.NewID(), store.NewID()
	if _, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, Sender: ann, CommandID: "c-1", Events: events(1, 1)}); err != nil {
		t.Fatal(err)
	}
	if seq, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 1, Sender: bob, CommandID: "c-1", Events: events(2, 2)}); err != nil || seq != 3 {
		t.Fatalf("another sender's c-1 = %d, %v", seq, err)
	}
	seq, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 3, Sender: ann, CommandID: "c-1", Events: events(4, 1)})
	if !errors.Is(err, store.ErrDuplicateCommand) || seq != 1 {
		t.Fatalf("ann's resend = %d, %v", seq, err)
	}
	for _, tc := range []struct {
		sender string
		seq    int64
	}{{ann, 1}, {bob, 3}} {
		if s, found, err := db.CommandSeq(ctx, e.ID, tc.sender, "c-1"); err != nil || !found || s != tc.seq {
			t.Fatalf("CommandSeq(%s) = %d, %v, %v", tc.sender, s, found, err)
		}
	}
	// An id recorded before ids were scoped (sender '') counts for everyone.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO commands (encounter_id, sender, command_id, seq) VALUES ($1, '', 'old', 3)`, e.ID); err != nil {
		t.Fatal(err)
	}
	seq, err = appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 3, Sender: bob, CommandID: "old", Events: events(4, 1)})
	if !errors.Is(err, store.ErrDuplicateCommand) || seq != 3 {
		t.Fatalf("resend of a pre-scoping id = %d, %v", seq, err)
	}
	if s, found, _ := db.CommandSeq(ctx, e.ID, ann, "old"); !found || s != 3 {
		t.Fatalf("CommandSeq of a pre-scoping id = %d, %v", s, found)
	}
	// Ids are text: invalid UTF-8 and NUL are refused, not stored mangled.
	for _, id := range []string{"a\xffb", "a\x00b"} {
		_, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, ExpectSeq: 3, Sender: ann, CommandID: id, Events: events(4, 1)})
		wantCode(t, err, fray.EINVALID)
	}
}

// The rate limit is kept in the database, so two server instances (two
// pools) share each key's bucket.
func TestAllowRateShared(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	other, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	const every, burst = time.Hour, 3
	for i, d := range []*store.DB{db, other, db} {
		if ok, err := d.AllowRate(ctx, "login:192.0.2.1", every, burst); err != nil || !ok {
			t.Fatalf("attempt %d: %v, %v", i, ok, err)
		}
	}
	for _, d := range []*store.DB{db, other} {
		if ok, err := d.AllowRate(ctx, "login:192.0.2.1", every, burst); err != nil || ok {
			t.Fatalf("over the burst: %v, %v", ok, err)
		}
	}
	if ok, _ := other.AllowRate(ctx, "login:192.0.2.2", every, burst); !ok {
		t.Fatal("another key is limited too")
	}
	if ok, _ := db.AllowRate(ctx, "x", 0, 0); !ok {
		t.Fatal("a zero interval limits")
	}
	// A bucket refills: one action every 50 ms.
	for i := 0; i < 2; i++ {
		if ok, _ := db.AllowRate(ctx, "fast", 50*time.Millisecond, 1); !ok {
			t.Fatalf("fast attempt %d refused", i)
		}
		time.Sleep(60 * time.Millisecond)
	}
	if n, err := db.DeleteFullRateLimits(ctx, time.Now().Add(2*time.Hour*burst)); err != nil || n != 3 {
		t.Fatalf("DeleteFullRateLimits = %d, %v", n, err)
	}
	if ok, _ := db.AllowRate(ctx, "login:192.0.2.1", every, burst); !ok {
		t.Fatal("a forgotten key is still limited")
	}
}

func TestUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = store.Open(context.Background(), "postgres://u@"+addr+"/db?sslmode=disable&connect_timeout=2")
	if !store.Unavailable(err) || fray.ErrorCode(store.Classify(err)) != fray.EUNAVAILABLE {
		t.Fatalf("a refused connection: %v (unavailable %v)", err, store.Unavailable(err))
	}
	db, _ := open(t)
	_, err = db.CreateUser(context.Background(), "same", "$argon2id$x")
	if err == nil {
		_, err = db.CreateUser(context.Background(), "same", "$argon2id$x")
	}
	if store.Unavailable(err) || fray.ErrorCode(store.Classify(err)) != fray.ECONFLICT {
		t.Fatalf("a request's own error: %v", err)
	}
	if plain := fmt.Errorf("boom"); store.Classify(plain) != plain || store.Classify(nil) != nil {
		t.Fatal("Classify changed an unrelated error")
	}
}
