package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

func TestInvites(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	gm, cogm, ann, bob := newUser(t, db, "gm"), newUser(t, db, "cogm"), newUser(t, db, "ann"), newUser(t, db, "bob")
	c, err := db.CreateCampaignFor(ctx, "Campaign", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.CreateCampaignFor(ctx, "Other", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, c.ID, cogm.ID, store.RoleGM); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	live, expired, revoked, elsewhere := newHash(), newHash(), newHash(), newHash()
	invite := func(campaign string, hash []byte, expires time.Time) store.Invite {
		t.Helper()
		inv, err := db.CreateInvite(ctx, campaign, gm.ID, hash, expires)
		if err != nil {
			t.Fatal(err)
		}
		return inv
	}
	liveInv := invite(c.ID, live, now.Add(7*24*time.Hour))
	if liveInv.CampaignID != c.ID || liveInv.CreatedBy != gm.ID || liveInv.RevokedAt != nil ||
		liveInv.CreatedAt.IsZero() || !liveInv.ExpiresAt.Equal(now.Add(7*24*time.Hour).Truncate(time.Microsecond)) {
		t.Fatalf("created %+v", liveInv)
	}
	expiredInv := invite(c.ID, expired, now.Add(-time.Minute))
	revokedInv := invite(c.ID, revoked, now.Add(time.Hour))
	elsewhereInv := invite(other.ID, elsewhere, now.Add(time.Hour))

	for _, tc := range []struct {
		what, campaign, by string
		hash               []byte
		expires            time.Time
		code               string
	}{
		{"unknown campaign", store.NewID(), gm.ID, newHash(), now, fray.ENOTFOUND},
		{"malformed campaign", "x", gm.ID, newHash(), now, fray.ENOTFOUND},
		{"unknown user", c.ID, store.NewID(), newHash(), now, fray.ENOTFOUND},
		{"hash in use", c.ID, gm.ID, live, now, fray.ECONFLICT},
		{"no expiry", c.ID, gm.ID, newHash(), time.Time{}, fray.EINVALID},
	} {
		_, err := db.CreateInvite(ctx, tc.campaign, tc.by, tc.hash, tc.expires)
		if got := fray.ErrorCode(err); got != tc.code {
			t.Errorf("CreateInvite, %s: %v, want %q", tc.what, err, tc.code)
		}
	}

	// Revoking: only within the invite's campaign.
	wantCode(t, db.RevokeInvite(ctx, other.ID, revokedInv.ID), fray.ENOTFOUND)
	wantCode(t, db.RevokeInvite(ctx, c.ID, store.NewID()), fray.ENOTFOUND)
	wantCode(t, db.RevokeInvite(ctx, c.ID, "x"), fray.ENOTFOUND)
	if err := db.RevokeInvite(ctx, c.ID, revokedInv.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeInvite(ctx, c.ID, revokedInv.ID); err != nil {
		t.Fatalf("revoking again: %v", err)
	}

	invs, err := db.Invites(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(invs) != 3 || invs[0].ID != revokedInv.ID || invs[1].ID != expiredInv.ID || invs[2] != liveInv {
		t.Fatalf("invites %+v, want newest first", invs)
	}
	if invs[0].RevokedAt == nil || invs[1].RevokedAt != nil {
		t.Fatalf("invites %+v", invs)
	}
	if invs, err := db.Invites(ctx, other.ID); err != nil || len(invs) != 1 || invs[0] != elsewhereInv {
		t.Fatalf("other campaign's invites %+v, %v", invs, err)
	}
	bare, err := db.CreateCampaign(ctx, "Bare")
	if err != nil {
		t.Fatal(err)
	}
	if invs, err := db.Invites(ctx, bare.ID); err != nil || len(invs) != 0 {
		t.Fatalf("bare campaign's invites %+v, %v", invs, err)
	}
	for _, id := range []string{store.NewID(), "x"} {
		_, err := db.Invites(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}

	// Looking up and accepting.
	for _, tc := range []struct {
		what string
		hash []byte
		at   time.Time
		code string
		msg  string
	}{
		{"live", live, now, "", ""},
		{"expired", expired, now, fray.EILLEGAL, "this invite has expired"},
		{"live, at its expiry", live, liveInv.ExpiresAt, fray.EILLEGAL, "this invite has expired"},
		{"revoked", revoked, now, fray.EILLEGAL, "this invite was revoked"},
		{"revoked, after its expiry", revoked, now.Add(2 * time.Hour), fray.EILLEGAL, "this invite was revoked"},
		{"unknown", newHash(), now, fray.ENOTFOUND, ""},
		{"malformed", []byte("token"), now, fray.ENOTFOUND, ""},
	} {
		inv, camp, err := db.InviteByToken(ctx, tc.hash, tc.at)
		if got := fray.ErrorCode(err); got != tc.code || tc.msg != "" && fray.ErrorMessage(err) != tc.msg {
			t.Errorf("InviteByToken, %s: %v, want %q %q", tc.what, err, tc.code, tc.msg)
		}
		if tc.code == "" && (inv != liveInv || camp != c) {
			t.Errorf("InviteByToken, %s: %+v %+v", tc.what, inv, camp)
		}
		if tc.code != "" {
			_, err := db.AcceptInvite(ctx, tc.hash, bob.ID, tc.at)
			if got := fray.ErrorCode(err); got != tc.code {
				t.Errorf("AcceptInvite, %s: %v, want %q", tc.what, err, tc.code)
			}
		}
	}
	if _, err := db.Membership(ctx, c.ID, bob.ID); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("bob joined through a bad invite: %v", err)
	}

	for _, tc := range []struct {
		what, user, role string
	}{
		{"ann joins as a player", ann.ID, store.RolePlayer},
		{"ann again, the link is reusable", ann.ID, store.RolePlayer},
		{"bob too", bob.ID, store.RolePlayer},
		{"the GM keeps GM", gm.ID, store.RoleGM},
		{"the co-GM keeps GM", cogm.ID, store.RoleGM},
	} {
		got, err := db.AcceptInvite(ctx, live, tc.user, now)
		if err != nil || got != c {
			t.Fatalf("%s: %+v, %v", tc.what, got, err)
		}
		if role, err := db.Membership(ctx, c.ID, tc.user); err != nil || role != tc.role {
			t.Fatalf("%s: role %q, %v; want %q", tc.what, role, err, tc.role)
		}
	}
	if _, err := db.AcceptInvite(ctx, live, store.NewID(), now); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("unknown user accepted: %v", err)
	}
	if _, err := db.AcceptInvite(ctx, live, "x", now); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("malformed user accepted: %v", err)
	}
	// An invite works for its own campaign only.
	if _, err := db.Membership(ctx, other.ID, ann.ID); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("ann joined the other campaign: %v", err)
	}
	// Revoked now, the link stops working; members stay.
	if err := db.RevokeInvite(ctx, c.ID, liveInv.ID); err != nil {
		t.Fatal(err)
	}
	eve := newUser(t, db, "eve")
	if _, err := db.AcceptInvite(ctx, live, eve.ID, now); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("revoked invite accepted: %v", err)
	}
	if role, err := db.Membership(ctx, c.ID, ann.ID); err != nil || role != store.RolePlayer {
		t.Fatalf("ann after revocation: %q, %v", role, err)
	}
}
