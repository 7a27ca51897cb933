package web

import (
	"net/url"
	"slices"
	"strings"
)

// Campaign roles, as CampaignSummary.Role and MemberRow.Role carry them.
const (
	RoleGM     = "gm"
	RolePlayer = "player"
)

// CampaignProps is the data of a campaign's page. GM-only sections (adding
// encounters, member controls, character assignment, invites) render only
// when IsGM is set.
type CampaignProps struct {
	ID, Name   string
	IsGM       bool
	Encounters []EncounterSummary
	Members    []MemberRow
	Invites    []InviteRow
	// NewInviteURL is the absolute URL of an invite just created, shown this
	// once.
	NewInviteURL string
	// Characters are the player characters found in the campaign's
	// encounters.
	Characters []CharacterRow
	// Examples are the shipped example encounters a GM can add.
	Examples      []ExampleOption
	Notice, Error string
	// Prep is the preparation part (drafts, stages, bestiary, characters).
	Prep *PrepProps
	// Notes are the GMs' private notes on the campaign (GMs only).
	Notes string
}

// MemberRow is one member of a campaign. Role is "gm" or "player";
// Characters are the names of the characters they own; IsSelf marks the
// viewer.
type MemberRow struct {
	UserID, Name, Role string
	Characters         []string
	IsSelf             bool
}

// InviteRow is one invite link of a campaign. Created and Expires are ready
// to show.
type InviteRow struct {
	ID, Created, Expires string
	Revoked, Expired     bool
}

// CharacterRow is one player character of a campaign and the member who
// plays it (OwnerID "" when nobody does).
type CharacterRow struct {
	ID, Name, OwnerID, OwnerName string
}

// ExampleOption is one shipped example encounter: Name is the value posted,
// Label what the GM reads.
type ExampleOption struct {
	Name, Label string
}

// JoinProps is the data of an invite link's page. Error (an expired or
// revoked invite) replaces everything else; without a User the visitor is
// asked to sign up or log in first.
type JoinProps struct {
	Token, CampaignName, User string
	Error                     string
}

func campaignURL(id string) string { return "/campaigns/" + url.PathEscape(id) }

func campaignPath(id string, parts ...string) string {
	s := campaignURL(id)
	for _, p := range parts {
		s += "/" + url.PathEscape(p)
	}
	return s
}

func joinURL(token string) string { return "/join/" + url.PathEscape(token) }

func roleLabel(role string) string {
	switch role {
	case RoleGM:
		return "GM"
	case RolePlayer:
		return "Player"
	}
	return role
}

// otherRole is the role the GM's button gives a member, and its label.
func otherRole(role string) (value, label string) {
	if role == RoleGM {
		return RolePlayer, "Make player"
	}
	return RoleGM, "Make co-GM"
}

func inviteState(i InviteRow) string {
	switch {
	case i.Revoked:
		return "revoked"
	case i.Expired:
		return "expired"
	}
	return "active"
}

func inviteActive(i InviteRow) bool { return !i.Revoked && !i.Expired }

// self is the viewer's own member row, if listed.
func (p CampaignProps) self() (MemberRow, bool) {
	for _, m := range p.Members {
		if m.IsSelf {
			return m, true
		}
	}
	return MemberRow{}, false
}

// myCharacters are the names of the characters the viewer plays: those of
// Characters owned by the viewer, or else their member row's list.
func (p CampaignProps) myCharacters() []string {
	me, ok := p.self()
	if !ok {
		return nil
	}
	var names []string
	for _, c := range p.Characters {
		if c.OwnerID != "" && c.OwnerID == me.UserID {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		names = slices.Clone(me.Characters)
	}
	return names
}

func joinTitle(p JoinProps) string {
	if p.Error != "" || p.CampaignName == "" {
		return "Invite"
	}
	return "Join " + p.CampaignName
}

func commaList(names []string) string { return strings.Join(names, ", ") }
