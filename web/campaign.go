package web

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/examples"
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
// plays it (OwnerID "" when nobody does), with the names of the
// encounters it is in.
type CharacterRow struct {
	ID, Name, OwnerID string
	Encounters        []string
	// Page is the character's page, when it has a sheet.
	Page string
}

// ExampleOption is one shipped example encounter: Name is the value posted,
// Label what the GM reads; Ruleset (its id and title, and what a fight
// under it is like) and Model (its battlefield's position model) let the
// picker group and explain the examples.
type ExampleOption struct {
	Name, Label                        string
	Ruleset, RulesetTitle, Description string
	Model                              string
	// Length is how long its fight runs by the engine's own odds, "≈ 7
	// rounds, about 25 minutes at 2 players" (empty when not measured).
	Length string
}

// examplesFights is how many fights of each example its length is the
// median of.
var examplesFights = strconv.Itoa(examples.LengthFights)

// exampleGroup is the examples of one ruleset.
type exampleGroup struct {
	Title, Description string
	Models             []string
	Examples           []ExampleOption
}

// exampleGroups groups examples by ruleset, in the order they come.
func exampleGroups(exs []ExampleOption) []exampleGroup {
	var out []exampleGroup
	at := map[string]int{}
	for _, e := range exs {
		i, ok := at[e.Ruleset]
		if !ok {
			i = len(out)
			at[e.Ruleset] = i
			out = append(out, exampleGroup{Title: cmp.Or(e.RulesetTitle, e.Ruleset), Description: e.Description})
		}
		g := &out[i]
		g.Examples = append(g.Examples, e)
		if m := modelWords(e.Model); m != "" && !slices.Contains(g.Models, m) {
			g.Models = append(g.Models, m)
		}
	}
	return out
}

// exampleLabel is an example's name, with its battlefield's model when
// its ruleset offers more than one, and how long its fight runs.
func exampleLabel(g exampleGroup, e ExampleOption) string {
	label := e.Label
	if len(g.Models) > 1 && modelWords(e.Model) != "" {
		label += " (" + modelWords(e.Model) + ")"
	}
	if e.Length != "" {
		label += " — " + e.Length
	}
	return label
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

// myCharacters are the names of the characters the viewer (the member
// row marked IsSelf) plays: those of Characters owned by the viewer, or
// else their member row's list.
func (p CampaignProps) myCharacters() []string {
	i := slices.IndexFunc(p.Members, func(m MemberRow) bool { return m.IsSelf })
	if i < 0 {
		return nil
	}
	me := p.Members[i]
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

// joinOr lists words as "a, b or c".
func joinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
