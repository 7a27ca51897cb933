package campaigns

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// oneCampaign is a store of one campaign: a GM, a player who owns "brak",
// two player characters in its encounters, an invite.
type oneCampaign struct {
	Store // methods the tests do not call panic
	roles map[string]string
	calls []string
	hash  []byte
}

func (o *oneCampaign) Campaign(ctx context.Context, id string) (store.Campaign, error) {
	return store.Campaign{ID: "c", Name: "Camp"}, nil
}

func (o *oneCampaign) Encounters(ctx context.Context, id string) ([]store.Encounter, error) {
	return []store.Encounter{{ID: "e"}}, nil
}

func (o *oneCampaign) Members(ctx context.Context, id string) ([]store.Member, error) {
	return []store.Member{{UserID: "gm", Name: "Gemma", Role: store.RoleGM}, {UserID: "pl", Name: "Pat", Role: store.RolePlayer}}, nil
}

func (o *oneCampaign) CharacterOwners(ctx context.Context, id string) (map[string]string, error) {
	return map[string]string{"brak": "pl"}, nil
}

func (o *oneCampaign) PlayerCharacters(ctx context.Context, id string) ([]store.PC, error) {
	return []store.PC{{ID: "ada", Name: "Ada"}, {ID: "brak", Name: "Brak", Encounters: []string{"Fight"}}}, nil
}

func (o *oneCampaign) Invites(ctx context.Context, id string) ([]store.Invite, error) {
	o.calls = append(o.calls, "Invites")
	return []store.Invite{{ID: "i"}}, nil
}

func (o *oneCampaign) Membership(ctx context.Context, campaignID, userID string) (string, error) {
	role, ok := o.roles[userID]
	if !ok {
		return "", fray.Errorf(fray.ENOTFOUND, "campaign %q not found", campaignID)
	}
	return role, nil
}

func (o *oneCampaign) SetMember(ctx context.Context, campaignID, userID, role string) error {
	o.calls = append(o.calls, "SetMember "+userID+" "+role)
	return nil
}

func (o *oneCampaign) CreateInvite(ctx context.Context, campaignID, by string, hash []byte, expires time.Time) (store.Invite, error) {
	o.hash = hash
	if time.Until(expires) < InviteTTL-time.Minute {
		panic("an invite shorter than InviteTTL")
	}
	return store.Invite{ID: "i"}, nil
}

func (o *oneCampaign) AcceptInvite(ctx context.Context, hash []byte, userID string, now time.Time) (store.Campaign, error) {
	if string(hash) != string(o.hash) {
		return store.Campaign{}, fray.Errorf(fray.ENOTFOUND, "no such invite")
	}
	o.roles[userID] = store.RolePlayer
	return store.Campaign{ID: "c"}, nil
}

func TestOverview(t *testing.T) {
	db := &oneCampaign{roles: map[string]string{}}
	s := New(db)
	o, err := s.Overview(context.Background(), "c", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Characters) != 2 || !reflect.DeepEqual(o.Characters[1], Character{ID: "brak", Name: "Brak", OwnerID: "pl", OwnerName: "Pat", Encounters: []string{"Fight"}}) || o.Characters[0].OwnerID != "" {
		t.Fatalf("characters %+v", o.Characters)
	}
	if o.Invites != nil || len(db.calls) != 0 {
		t.Fatal("a player's overview read the invites")
	}
	if o, _ := s.Overview(context.Background(), "c", true); len(o.Invites) != 1 {
		t.Fatal("the GM's overview lacks the invites")
	}
}

func TestInviteAndRoles(t *testing.T) {
	ctx := context.Background()
	db := &oneCampaign{roles: map[string]string{"gm": store.RoleGM}}
	s := New(db)
	token, err := s.Invite(ctx, "c", "gm")
	if err != nil || string(db.hash) != string(auth.HashToken(token)) {
		t.Fatalf("the store keeps %x for token %q (%v)", db.hash, token, err)
	}
	if _, _, err := s.Join(ctx, "forged", "pl"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("a forged invite: %v", err)
	}
	if _, role, err := s.Join(ctx, token, "pl"); err != nil || role != store.RolePlayer {
		t.Fatalf("join: %q %v", role, err)
	}
	if err := s.SetRole(ctx, "c", "nobody", store.RoleGM); fray.ErrorMessage(err) != "That person is not a member." {
		t.Fatalf("a non-member's role: %v", err)
	}
	if err := s.SetRole(ctx, "c", "pl", store.RoleGM); err != nil || db.calls[len(db.calls)-1] != "SetMember pl gm" {
		t.Fatalf("a member's role: %v %v", err, db.calls)
	}
}
