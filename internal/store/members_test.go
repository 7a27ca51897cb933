package store_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

func TestMembership(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	gm, ann, bob, eve := newUser(t, db, "gm"), newUser(t, db, "Ann"), newUser(t, db, "bob"), newUser(t, db, "eve")

	c, err := db.CreateCampaignFor(ctx, "  The Long Night ", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "The Long Night" || c.ID == "" {
		t.Fatalf("created %+v", c)
	}
	if got, err := db.Campaign(ctx, c.ID); err != nil || got != c {
		t.Fatalf("Campaign = %+v, %v; want %+v", got, err, c)
	}
	for _, tc := range []struct{ what, name, user, code string }{
		{"unknown user", "x", store.NewID(), fray.ENOTFOUND},
		{"malformed user", "x", "gm", fray.ENOTFOUND},
		{"empty name", " ", gm.ID, fray.EINVALID},
	} {
		_, err := db.CreateCampaignFor(ctx, tc.name, tc.user)
		if got := fray.ErrorCode(err); got != tc.code {
			t.Errorf("CreateCampaignFor, %s: %v, want %q", tc.what, err, tc.code)
		}
	}
	if cs, _ := db.Campaigns(ctx); len(cs) != 1 {
		t.Fatalf("a failed CreateCampaignFor left a campaign: %+v", cs)
	}

	role := func(user, want string) {
		t.Helper()
		got, err := db.Membership(ctx, c.ID, user)
		if want == "" {
			wantCode(t, err, fray.ENOTFOUND)
			return
		}
		if err != nil || got != want {
			t.Fatalf("Membership = %q, %v; want %q", got, err, want)
		}
	}
	role(gm.ID, store.RoleGM)
	role(ann.ID, "")
	role(store.NewID(), "")
	role("x", "")
	if _, err := db.Membership(ctx, "x", gm.ID); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("Membership of a malformed campaign: %v", err)
	}

	// Members join and change roles.
	steps := []struct {
		what, user, role, code string
	}{
		{"add ann", ann.ID, store.RolePlayer, ""},
		{"add bob", bob.ID, store.RolePlayer, ""},
		{"bad role", eve.ID, "owner", fray.EINVALID},
		{"empty role", eve.ID, "", fray.EINVALID},
		{"unknown user", store.NewID(), store.RolePlayer, fray.ENOTFOUND},
		{"demote the only GM", gm.ID, store.RolePlayer, fray.EILLEGAL},
		{"promote ann to co-GM", ann.ID, store.RoleGM, ""},
		{"set ann GM again", ann.ID, store.RoleGM, ""},
		{"demote gm now there is another", gm.ID, store.RolePlayer, ""},
		{"demote ann, now the only GM", ann.ID, store.RolePlayer, fray.EILLEGAL},
		{"gm back to GM", gm.ID, store.RoleGM, ""},
	}
	for _, s := range steps {
		err := db.SetMember(ctx, c.ID, s.user, s.role)
		if got := fray.ErrorCode(err); got != s.code {
			t.Fatalf("%s: %v, want code %q", s.what, err, s.code)
		}
	}
	wantCode(t, db.SetMember(ctx, store.NewID(), ann.ID, store.RolePlayer), fray.ENOTFOUND)
	wantCode(t, db.SetMember(ctx, "x", ann.ID, store.RolePlayer), fray.ENOTFOUND)
	role(gm.ID, store.RoleGM)
	role(ann.ID, store.RoleGM)
	role(bob.ID, store.RolePlayer)
	role(eve.ID, "")

	// Characters show in the member list.
	for _, a := range []struct{ character, user string }{
		{"zed", bob.ID}, {"Amy", bob.ID}, {"kit", ann.ID},
	} {
		if err := db.AssignCharacter(ctx, c.ID, a.character, a.user); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := db.Members(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		User, Name, Role string
		Characters       []string
	}
	got := make([]row, len(ms))
	for i, m := range ms {
		got[i] = row{m.UserID, m.Name, m.Role, m.Characters}
		if m.Since.IsZero() {
			t.Errorf("member %s has no Since", m.Name)
		}
	}
	want := []row{ // GMs first, then by name whatever its case
		{ann.ID, "Ann", store.RoleGM, []string{"kit"}},
		{gm.ID, "gm", store.RoleGM, []string{}},
		{bob.ID, "bob", store.RolePlayer, []string{"Amy", "zed"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("members\n%+v\nwant\n%+v", got, want)
	}

	// Removing members.
	wantCode(t, db.RemoveMember(ctx, c.ID, eve.ID), fray.ENOTFOUND)
	wantCode(t, db.RemoveMember(ctx, c.ID, "x"), fray.ENOTFOUND)
	wantCode(t, db.RemoveMember(ctx, store.NewID(), bob.ID), fray.ENOTFOUND)
	if err := db.RemoveMember(ctx, c.ID, bob.ID); err != nil {
		t.Fatal(err)
	}
	role(bob.ID, "")
	if owned, err := db.UserCharacters(ctx, c.ID, bob.ID); err != nil || len(owned) != 0 {
		t.Fatalf("a removed member still owns %v (%v)", owned, err)
	}
	if owners, err := db.CharacterOwners(ctx, c.ID); err != nil || !reflect.DeepEqual(owners, map[string]string{"kit": ann.ID}) {
		t.Fatalf("owners %v, %v", owners, err)
	}
	if err := db.RemoveMember(ctx, c.ID, gm.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveMember(ctx, c.ID, ann.ID); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("removing the last GM: %v", err)
	}
	role(ann.ID, store.RoleGM)

	// A campaign made without a GM (imports) has no members, but exists.
	bare, err := db.CreateCampaign(ctx, "Imported")
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := db.Members(ctx, bare.ID); err != nil || len(ms) != 0 {
		t.Fatalf("members of a bare campaign: %+v, %v", ms, err)
	}
	for _, id := range []string{store.NewID(), "x"} {
		_, err := db.Members(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}
	// Its first GM may be set.
	if err := db.SetMember(ctx, bare.ID, eve.ID, store.RoleGM); err != nil {
		t.Fatal(err)
	}
}

func TestUserCampaigns(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	ann, bob, eve := newUser(t, db, "ann"), newUser(t, db, "bob"), newUser(t, db, "eve")
	first, err := db.CreateCampaignFor(ctx, "First", ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	second, err := db.CreateCampaignFor(ctx, "Second", bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateCampaignFor(ctx, "Bob's own", bob.ID); err != nil {
		t.Fatal(err)
	}
	third, err := db.CreateCampaignFor(ctx, "Third", ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, second.ID, ann.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	cs, err := db.UserCampaigns(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.CampaignRole{{third, store.RoleGM}, {second, store.RolePlayer}, {first, store.RoleGM}}
	if !reflect.DeepEqual(cs, want) {
		t.Fatalf("ann's campaigns\n%+v\nwant\n%+v", cs, want)
	}
	if cs, err := db.UserCampaigns(ctx, eve.ID); err != nil || len(cs) != 0 {
		t.Fatalf("eve's campaigns: %+v, %v", cs, err)
	}
	for _, id := range []string{store.NewID(), "x"} {
		_, err := db.UserCampaigns(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}
}

// Two GMs demoting or removing each other at once never leave the campaign
// without a GM.
func TestLastGMConcurrent(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	a, b := newUser(t, db, "a"), newUser(t, db, "b")
	for i := range 10 {
		c, err := db.CreateCampaignFor(ctx, fmt.Sprint("c", i), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetMember(ctx, c.ID, b.ID, store.RoleGM); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for j, u := range []string{a.ID, b.ID} {
			wg.Go(func() {
				if i%2 == 0 {
					errs[j] = db.SetMember(ctx, c.ID, u, store.RolePlayer)
				} else {
					errs[j] = db.RemoveMember(ctx, c.ID, u)
				}
			})
		}
		wg.Wait()
		codes := []string{fray.ErrorCode(errs[0]), fray.ErrorCode(errs[1])}
		if !(codes[0] == "" && codes[1] == fray.EILLEGAL || codes[0] == fray.EILLEGAL && codes[1] == "") {
			t.Fatalf("round %d: errors %v", i, errs)
		}
		ms, err := db.Members(ctx, c.ID)
		if err != nil || len(ms) == 0 || ms[0].Role != store.RoleGM || len(ms) > 1 && ms[1].Role == store.RoleGM {
			t.Fatalf("round %d: members %+v, %v; want exactly one GM", i, ms, err)
		}
	}
}

func TestCharacters(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	gm, ann, bob := newUser(t, db, "gm"), newUser(t, db, "ann"), newUser(t, db, "bob")
	c, err := db.CreateCampaignFor(ctx, "Campaign", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.CreateCampaignFor(ctx, "Other", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, c.ID, ann.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, other.ID, bob.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", store.MaxCharacterIDLen+1)
	for _, s := range []struct {
		what, campaign, character, user, code string
	}{
		{"ann plays hero", c.ID, "hero", ann.ID, ""},
		{"ann plays archer", c.ID, "archer", ann.ID, ""},
		{"the GM plays the wizard", c.ID, "wizard", gm.ID, ""},
		{"bob is not a member", c.ID, "rogue", bob.ID, fray.EINVALID},
		{"unknown user", c.ID, "rogue", store.NewID(), fray.EINVALID},
		{"malformed user", c.ID, "rogue", "bob", fray.EINVALID},
		{"unknown campaign", store.NewID(), "rogue", ann.ID, fray.ENOTFOUND},
		{"malformed campaign", "c", "rogue", ann.ID, fray.ENOTFOUND},
		{"empty character", c.ID, "", ann.ID, fray.EINVALID},
		{"long character", c.ID, long, ann.ID, fray.EINVALID},
		{"longest character", c.ID, long[1:], ann.ID, ""},
		{"unassign it", c.ID, long[1:], "", ""},
		{"bob plays hero elsewhere", other.ID, "hero", bob.ID, ""},
		{"the wizard passes to ann", c.ID, "wizard", ann.ID, ""},
		{"unassign archer", c.ID, "archer", "", ""},
		{"unassign an unowned character", c.ID, "nobody", "", ""},
		{"unassign in an unknown campaign", store.NewID(), "archer", "", fray.ENOTFOUND},
	} {
		err := db.AssignCharacter(ctx, s.campaign, s.character, s.user)
		if got := fray.ErrorCode(err); got != s.code {
			t.Fatalf("%s: %v, want code %q", s.what, err, s.code)
		}
	}
	owners, err := db.CharacterOwners(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"hero": ann.ID, "wizard": ann.ID}; !reflect.DeepEqual(owners, want) {
		t.Fatalf("owners %v, want %v", owners, want)
	}
	for _, tc := range []struct {
		campaign, user string
		want           []string
	}{
		{c.ID, ann.ID, []string{"hero", "wizard"}},
		{c.ID, gm.ID, []string{}},
		{c.ID, bob.ID, []string{}},
		{other.ID, bob.ID, []string{"hero"}},
	} {
		got, err := db.UserCharacters(ctx, tc.campaign, tc.user)
		if err != nil || len(got) != len(tc.want) || len(got) > 0 && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("UserCharacters(%s, %s) = %v, %v; want %v", tc.campaign, tc.user, got, err, tc.want)
		}
	}
	if _, err := db.UserCharacters(ctx, "x", ann.ID); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("UserCharacters of a malformed campaign: %v", err)
	}
	bare, err := db.CreateCampaign(ctx, "Bare")
	if err != nil {
		t.Fatal(err)
	}
	if owners, err := db.CharacterOwners(ctx, bare.ID); err != nil || owners == nil || len(owners) != 0 {
		t.Fatalf("owners of a bare campaign: %v, %v", owners, err)
	}
	for _, id := range []string{store.NewID(), "x"} {
		_, err := db.CharacterOwners(ctx, id)
		wantCode(t, err, fray.ENOTFOUND)
	}
}
