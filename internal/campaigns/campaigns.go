// Package campaigns runs campaigns: who is in them and as what, invite
// links, which player owns which character, and the overview of a
// campaign its members see.
package campaigns

import (
	"context"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// InviteTTL is how long an invite link works.
const InviteTTL = 7 * 24 * time.Hour

// Store is what campaigns need; *store.DB provides it.
type Store interface {
	CreateCampaignFor(ctx context.Context, name, gmUserID string) (store.Campaign, error)
	Campaign(ctx context.Context, id string) (store.Campaign, error)
	UserCampaigns(ctx context.Context, userID string) ([]store.CampaignRole, error)
	Encounters(ctx context.Context, campaignID string) ([]store.Encounter, error)
	PlayerCharacters(ctx context.Context, campaignID string) ([]store.PC, error)
	Membership(ctx context.Context, campaignID, userID string) (string, error)
	Members(ctx context.Context, campaignID string) ([]store.Member, error)
	SetMember(ctx context.Context, campaignID, userID, role string) error
	RemoveMember(ctx context.Context, campaignID, userID string) error
	AssignCharacter(ctx context.Context, campaignID, characterID, userID string) error
	CharacterOwners(ctx context.Context, campaignID string) (map[string]string, error)
	CreateInvite(ctx context.Context, campaignID, createdBy string, tokenHash []byte, expires time.Time) (store.Invite, error)
	Invites(ctx context.Context, campaignID string) ([]store.Invite, error)
	RevokeInvite(ctx context.Context, campaignID, inviteID string) error
	InviteByToken(ctx context.Context, tokenHash []byte, now time.Time) (store.Invite, store.Campaign, error)
	AcceptInvite(ctx context.Context, tokenHash []byte, userID string, now time.Time) (store.Campaign, error)
}

// Service runs campaigns.
type Service struct{ db Store }

// New returns a Service over db.
func New(db Store) *Service { return &Service{db: db} }

// Create makes gmUserID the GM of a new campaign.
func (s *Service) Create(ctx context.Context, name, gmUserID string) (store.Campaign, error) {
	return s.db.CreateCampaignFor(ctx, name, gmUserID)
}

// Campaign is a campaign's row.
func (s *Service) Campaign(ctx context.Context, id string) (store.Campaign, error) {
	return s.db.Campaign(ctx, id)
}

// Mine lists userID's campaigns with their role in each.
func (s *Service) Mine(ctx context.Context, userID string) ([]store.CampaignRole, error) {
	return s.db.UserCampaigns(ctx, userID)
}

// Summary is one of a user's campaigns with its encounters.
type Summary struct {
	store.CampaignRole
	Encounters []store.Encounter // newest first
}

// Summaries lists userID's campaigns with their encounters.
func (s *Service) Summaries(ctx context.Context, userID string) ([]Summary, error) {
	cs, err := s.db.UserCampaigns(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(cs))
	for _, c := range cs {
		encs, err := s.db.Encounters(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, Summary{CampaignRole: c, Encounters: encs})
	}
	return out, nil
}

// Overview is a campaign as one of its members sees it.
type Overview struct {
	store.Campaign
	Encounters []store.Encounter // newest first
	Members    []store.Member
	// Characters are the player characters of its encounters, by name,
	// with who owns each (OwnerID empty for nobody).
	Characters []Character
	// Invites are the invite links made, for its GMs only.
	Invites []store.Invite
}

// Character is a player character of a campaign, its owner and the
// names of the encounters it is in.
type Character struct {
	ID, Name, OwnerID, OwnerName string
	Encounters                   []string
}

// Overview reads campaignID for one of its members (gm: one of its GMs).
func (s *Service) Overview(ctx context.Context, campaignID string, gm bool) (Overview, error) {
	c, err := s.db.Campaign(ctx, campaignID)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Campaign: c}
	if o.Encounters, err = s.db.Encounters(ctx, c.ID); err != nil {
		return Overview{}, err
	}
	if o.Members, err = s.db.Members(ctx, c.ID); err != nil {
		return Overview{}, err
	}
	owners, err := s.db.CharacterOwners(ctx, c.ID)
	if err != nil {
		return Overview{}, err
	}
	pcs, err := s.db.PlayerCharacters(ctx, c.ID)
	if err != nil {
		return Overview{}, err
	}
	names := map[string]string{}
	for _, m := range o.Members {
		names[m.UserID] = m.Name
	}
	for _, pc := range pcs {
		o.Characters = append(o.Characters, Character{ID: pc.ID, Name: pc.Name, OwnerID: owners[pc.ID], OwnerName: names[owners[pc.ID]], Encounters: pc.Encounters})
	}
	if gm {
		if o.Invites, err = s.db.Invites(ctx, c.ID); err != nil {
			return Overview{}, err
		}
	}
	return o, nil
}

// Invite makes an invite link's token for campaignID, made by byUserID;
// it works for InviteTTL. The token is shown once: the database keeps
// only its hash.
func (s *Service) Invite(ctx context.Context, campaignID, byUserID string) (string, error) {
	token, hash := auth.NewToken("")
	if _, err := s.db.CreateInvite(ctx, campaignID, byUserID, hash, time.Now().Add(InviteTTL)); err != nil {
		return "", err
	}
	return token, nil
}

// RevokeInvite ends one of campaignID's invite links.
func (s *Service) RevokeInvite(ctx context.Context, campaignID, inviteID string) error {
	return s.db.RevokeInvite(ctx, campaignID, inviteID)
}

// Invitation is the campaign an invite link's token invites to;
// ENOTFOUND for a token that is unknown, revoked or expired.
func (s *Service) Invitation(ctx context.Context, token string) (store.Campaign, error) {
	_, c, err := s.db.InviteByToken(ctx, auth.HashToken(token), time.Now())
	return c, err
}

// Join makes userID a member of the campaign an invite link's token
// invites to (a member already keeps their role) and returns it with
// their role.
func (s *Service) Join(ctx context.Context, token, userID string) (store.Campaign, string, error) {
	c, err := s.db.AcceptInvite(ctx, auth.HashToken(token), userID, time.Now())
	if err != nil {
		return store.Campaign{}, "", err
	}
	role, err := s.db.Membership(ctx, c.ID, userID)
	return c, role, err
}

// SetRole changes a member's role; someone who is not a member is refused.
func (s *Service) SetRole(ctx context.Context, campaignID, userID, role string) error {
	if _, err := s.db.Membership(ctx, campaignID, userID); err != nil {
		if fray.ErrorCode(store.Classify(err)) == fray.ENOTFOUND {
			return fray.Errorf(fray.ENOTFOUND, "That person is not a member.")
		}
		return err
	}
	return s.db.SetMember(ctx, campaignID, userID, role)
}

// RemoveMember takes userID out of campaignID.
func (s *Service) RemoveMember(ctx context.Context, campaignID, userID string) error {
	return s.db.RemoveMember(ctx, campaignID, userID)
}

// AssignCharacter gives a player character to a member (userID empty:
// to nobody).
func (s *Service) AssignCharacter(ctx context.Context, campaignID, characterID, userID string) error {
	return s.db.AssignCharacter(ctx, campaignID, characterID, userID)
}
