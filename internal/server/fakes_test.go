package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/campaigns"
	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/characters"
	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// The handler tests run the routes over small fakes of the services: one
// campaign ("camp") with a GM ("gm"), a player ("pl") who owns the
// character "hero", and a stranger ("st") who is in no campaign; one
// encounter ("enc", the toy ruleset's) and one draft ("draft") in it.
// A user signs in with a session cookie whose value is their name.
const (
	campaignID  = "camp"
	encounterID = "enc"
	draftID     = "draft"
)

// users are the fake's accounts by name (also their id and cookie).
var users = map[string]store.User{
	"gm": {ID: "gm", Name: "gm", PasswordHash: "right"},
	"pl": {ID: "pl", Name: "pl", PasswordHash: "right"},
	"st": {ID: "st", Name: "st", PasswordHash: "right"},
}

// calls records which service methods a request reached, with their
// arguments where a test cares.
type calls struct {
	mu  sync.Mutex
	log []string
}

func (c *calls) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, s)
}

func (c *calls) has(s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.log {
		if l == s {
			return true
		}
	}
	return false
}

// fail is an error a fake returns instead of succeeding, by method name.
type fail map[string]error

// fakeAccounts is accounts.Service.
type fakeAccounts struct {
	*calls
	fail    fail
	limited bool
}

func (f fakeAccounts) Allow(ctx context.Context, key string) (bool, error) {
	f.add("Allow " + key)
	return !f.limited, f.fail["Allow"]
}

func (f fakeAccounts) Signup(ctx context.Context, name, password, confirm string) (store.User, error) {
	f.add("Signup " + name)
	if password != confirm {
		return store.User{}, fray.Errorf(fray.EINVALID, "the two passwords differ")
	}
	return store.User{ID: "new", Name: name}, f.fail["Signup"]
}

func (f fakeAccounts) Login(ctx context.Context, name, password string) (store.User, error) {
	if err := f.fail["Login"]; err != nil {
		return store.User{}, err
	}
	u, ok := users[name]
	if !ok || u.PasswordHash != password {
		return store.User{}, fray.Errorf(fray.EUNAUTHORIZED, "Wrong name or password.")
	}
	return u, nil
}

func (f fakeAccounts) ChangePassword(ctx context.Context, u store.User, current, password string) error {
	f.add("ChangePassword " + u.ID)
	if current != u.PasswordHash {
		return fray.Errorf(fray.EFORBIDDEN, "your current password is wrong")
	}
	if len(password) < 3 {
		return fray.Errorf(fray.EINVALID, "a password must have 10 to 200 characters")
	}
	return f.fail["ChangePassword"]
}

func (f fakeAccounts) SignOutEverywhere(ctx context.Context, userID string) (int64, int64, error) {
	f.add("SignOutEverywhere " + userID)
	return 2, 1, f.fail["SignOutEverywhere"]
}

func (f fakeAccounts) StartSession(ctx context.Context, userID string) (string, time.Time, error) {
	f.add("StartSession " + userID)
	return userID, time.Now().Add(time.Hour), f.fail["StartSession"]
}

func (f fakeAccounts) EndSession(ctx context.Context, token string) error {
	f.add("EndSession " + token)
	return nil
}

func (f fakeAccounts) Authenticate(ctx context.Context, kind, token string) (store.User, store.Credential, time.Time, error) {
	if err := f.fail["Authenticate"]; err != nil {
		return store.User{}, store.Credential{}, time.Time{}, err
	}
	u, ok := users[token]
	if !ok {
		return store.User{}, store.Credential{}, time.Time{}, fray.Errorf(fray.EUNAUTHORIZED, "not signed in")
	}
	return u, store.Credential{Kind: kind, Hash: []byte(token)}, time.Now().Add(time.Hour), nil
}

func (f fakeAccounts) CreateToken(ctx context.Context, userID, name string) (string, string, error) {
	f.add("CreateToken " + userID + " " + name)
	if name == "" {
		return "", "", fray.Errorf(fray.EINVALID, "give the token a name")
	}
	return "fray_pat_secret", "tok", f.fail["CreateToken"]
}

func (f fakeAccounts) Tokens(ctx context.Context, userID string) ([]store.APIToken, error) {
	return []store.APIToken{{ID: "tok", Name: "bot of " + userID, CreatedAt: time.Unix(0, 0)}}, f.fail["Tokens"]
}

func (f fakeAccounts) RevokeToken(ctx context.Context, userID, tokenID string) error {
	f.add("RevokeToken " + userID + " " + tokenID)
	return f.fail["RevokeToken"]
}

// fakeAccess is the store's access checks.
type fakeAccess struct{ fail fail }

// roles are who is what in the fake's campaign.
var roles = map[string]store.Access{
	"gm": {UserID: "gm", Role: store.RoleGM, Characters: []string{}, Version: 1},
	"pl": {UserID: "pl", Role: store.RolePlayer, Characters: []string{"hero"}, Version: 1},
}

func (f fakeAccess) Access(ctx context.Context, cred store.Credential, userID, campaign string, now time.Time) (store.Access, error) {
	if err := f.fail["Access"]; err != nil {
		return store.Access{}, err
	}
	a, ok := roles[userID]
	if campaign != campaignID || !ok {
		return store.Access{}, fray.Errorf(fray.ENOTFOUND, "campaign %q not found", campaign)
	}
	return a, nil
}

func (f fakeAccess) Accesses(ctx context.Context, campaign string, users []store.SignedIn, now time.Time) ([]store.UserAccess, error) {
	out := make([]store.UserAccess, len(users))
	for i, u := range users {
		out[i].Access, out[i].Err = f.Access(ctx, u.Cred, u.UserID, campaign, now)
	}
	return out, nil
}

// assetID is the fake campaign's one picture, which its scene shows.
var assetID = strings.Repeat("ab", 32)

func (f fakeAccess) AssetHolders(ctx context.Context, id string) ([]store.AssetHolder, error) {
	if id != assetID {
		return nil, nil
	}
	return []store.AssetHolder{{CampaignID: campaignID, UploadedBy: "gm"}}, nil
}

// fakePictures is assets.Service.
type fakePictures struct{ *calls }

func (f fakePictures) Upload(ctx context.Context, campaign, userID, name string, data []byte) (assets.Picture, error) {
	f.add("Upload " + name)
	if len(data) == 0 {
		return assets.Picture{}, fray.Errorf(fray.EINVALID, "the file is empty")
	}
	return assets.Picture{ID: assetID, URL: engine.AssetPrefix + assetID, Width: 1, Height: 1}, nil
}

func (f fakePictures) List(ctx context.Context, campaign string) ([]assets.Picture, error) {
	f.add("List pictures")
	return []assets.Picture{{ID: assetID, URL: engine.AssetPrefix + assetID}}, nil
}

func (f fakePictures) Data(ctx context.Context, campaign, id string, thumb bool) (string, []byte, error) {
	f.add("Data " + id)
	return "image/png", []byte("\x89PNG"), nil
}

func (f fakePictures) Delete(ctx context.Context, campaign, id string) error {
	f.add("Delete " + id)
	return nil
}

// fakeNotes is the store's campaign notes.
type fakeNotes struct{ *calls }

func (f fakeNotes) CampaignNotes(ctx context.Context, campaign string) (string, error) {
	f.add("CampaignNotes")
	return "GMSECRET the duke is the traitor", nil
}

func (f fakeNotes) SetCampaignNotes(ctx context.Context, campaign, notes string) error {
	f.add("SetCampaignNotes")
	return nil
}

// fakeSight shows the player the fake's picture.
type fakeSight struct{ *calls }

func (f fakeSight) PicturesSeen(ctx context.Context, campaign string, m history.Member) (map[string]bool, error) {
	f.add("PicturesSeen")
	return map[string]bool{engine.AssetPrefix + assetID: len(m.Characters) > 0}, nil
}

func (f fakeAccess) EncounterCampaign(ctx context.Context, id string) (string, error) {
	if id != encounterID {
		return "", fray.Errorf(fray.ENOTFOUND, "encounter %q not found", id)
	}
	return campaignID, nil
}

// fakeCampaigns is campaigns.Service.
type fakeCampaigns struct {
	*calls
	fail fail
}

var campaign = store.Campaign{ID: campaignID, Name: "The Campaign"}

func (f fakeCampaigns) Create(ctx context.Context, name, gmUserID string) (store.Campaign, error) {
	f.add("Create " + name + " " + gmUserID)
	return store.Campaign{ID: "new-campaign", Name: name}, f.fail["Create"]
}

func (f fakeCampaigns) Campaign(ctx context.Context, id string) (store.Campaign, error) {
	return campaign, f.fail["Campaign"]
}

func (f fakeCampaigns) Mine(ctx context.Context, userID string) ([]store.CampaignRole, error) {
	a, ok := roles[userID]
	if !ok {
		return nil, f.fail["Mine"]
	}
	return []store.CampaignRole{{Campaign: campaign, Role: a.Role}}, f.fail["Mine"]
}

func (f fakeCampaigns) Summaries(ctx context.Context, userID string) ([]campaigns.Summary, error) {
	cs, err := f.Mine(ctx, userID)
	var out []campaigns.Summary
	for _, c := range cs {
		out = append(out, campaigns.Summary{CampaignRole: c, Encounters: []store.Encounter{{ID: encounterID, Name: "Toy fight", Status: "running"}}})
	}
	return out, err
}

func (f fakeCampaigns) Overview(ctx context.Context, id string, gm bool) (campaigns.Overview, error) {
	f.add("Overview")
	o := campaigns.Overview{Campaign: campaign,
		Encounters: []store.Encounter{{ID: encounterID, Name: "Toy fight", Ruleset: enginetest.ID, Status: "running", Seq: 2}},
		Members:    []store.Member{{UserID: "gm", Name: "gm", Role: store.RoleGM}, {UserID: "pl", Name: "pl", Role: store.RolePlayer, Characters: []string{"hero"}}},
		Characters: []campaigns.Character{{ID: "hero", Name: "Hero", OwnerID: "pl", OwnerName: "pl"}}}
	if gm {
		o.Invites = []store.Invite{{ID: "inv", CampaignID: campaignID, ExpiresAt: time.Now().Add(time.Hour)}}
	}
	return o, f.fail["Overview"]
}

func (f fakeCampaigns) Invite(ctx context.Context, campaign, by string) (string, error) {
	f.add("Invite " + by)
	return "invite-token", f.fail["Invite"]
}

func (f fakeCampaigns) RevokeInvite(ctx context.Context, campaign, invite string) error {
	f.add("RevokeInvite " + invite)
	return f.fail["RevokeInvite"]
}

func (f fakeCampaigns) Invitation(ctx context.Context, token string) (store.Campaign, error) {
	if token != "invite-token" {
		return store.Campaign{}, fray.Errorf(fray.ENOTFOUND, "no such invite")
	}
	return campaign, nil
}

func (f fakeCampaigns) Join(ctx context.Context, token, userID string) (store.Campaign, string, error) {
	f.add("Join " + userID)
	if token != "invite-token" {
		return store.Campaign{}, "", fray.Errorf(fray.ENOTFOUND, "no such invite")
	}
	return campaign, store.RolePlayer, nil
}

func (f fakeCampaigns) SetRole(ctx context.Context, campaign, userID, role string) error {
	f.add("SetRole " + userID + " " + role)
	return f.fail["SetRole"]
}

func (f fakeCampaigns) RemoveMember(ctx context.Context, campaign, userID string) error {
	f.add("RemoveMember " + userID)
	return f.fail["RemoveMember"]
}

func (f fakeCampaigns) AssignCharacter(ctx context.Context, campaign, character, userID string) error {
	f.add("AssignCharacter " + character + " " + userID)
	return f.fail["AssignCharacter"]
}

// fakePrep is prep.Service.
type fakePrep struct {
	*calls
	fail fail
}

var encounterRow = store.Encounter{ID: encounterID, CampaignID: campaignID, Name: "Toy fight", Ruleset: enginetest.ID, Status: "running",
	Setup: mustJSON(enginetest.Setup())}

var draftRow = store.Draft{ID: draftID, CampaignID: campaignID, Name: "Toy draft", Ruleset: enginetest.ID, Setup: mustJSON(enginetest.Setup())}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (f fakePrep) Prepare(data []byte) (prep.Prepared, error) {
	f.add("Prepare")
	if string(data) == "bad" {
		return prep.Prepared{}, fray.Errorf(fray.EINVALID, "not a setup document")
	}
	return prep.Prepared{ID: "new-encounter"}, nil
}

func (f fakePrep) Save(ctx context.Context, campaign string, p prep.Prepared) (store.Encounter, error) {
	f.add("Save " + campaign)
	return store.Encounter{ID: p.ID, CampaignID: campaign, Name: "Imported"}, f.fail["Save"]
}

func (f fakePrep) Import(ctx context.Context, campaign string, data []byte) (store.Encounter, error) {
	f.add("Import " + campaign)
	if string(data) == "bad" {
		return store.Encounter{}, fray.Errorf(fray.EINVALID, "not a setup document")
	}
	return store.Encounter{ID: "new-encounter", CampaignID: campaign, Name: "Imported"}, nil
}

func (f fakePrep) Examples() ([]prep.Example, error) {
	return []prep.Example{{Name: "toy", Title: "Toy"}}, nil
}

func (f fakePrep) AddExample(ctx context.Context, campaign, name string) (store.Encounter, error) {
	f.add("AddExample " + name)
	if name != "toy" {
		return store.Encounter{}, fray.Errorf(fray.ENOTFOUND, "no example encounter %q", name)
	}
	return store.Encounter{ID: "new-encounter", Name: "Toy"}, nil
}

func (f fakePrep) Encounter(ctx context.Context, id string) (store.Encounter, error) {
	if id != encounterID {
		return store.Encounter{}, fray.Errorf(fray.ENOTFOUND, "encounter %q not found", id)
	}
	return encounterRow, nil
}

func (f fakePrep) Duplicate(ctx context.Context, e store.Encounter) (store.Draft, error) {
	f.add("Duplicate " + e.ID)
	return draftRow, f.fail["Duplicate"]
}

func (f fakePrep) Draft(ctx context.Context, id string) (store.Draft, error) {
	if id != draftID {
		return store.Draft{}, fray.Errorf(fray.ENOTFOUND, "draft %q not found", id)
	}
	return draftRow, nil
}

func (f fakePrep) NewDraft(ctx context.Context, campaign, ruleset, name string) (store.Draft, error) {
	f.add("NewDraft " + ruleset + " " + name)
	if ruleset != enginetest.ID {
		return store.Draft{}, fray.Errorf(fray.EINVALID, "unknown ruleset %q", ruleset)
	}
	return draftRow, nil
}

func (f fakePrep) ImportDraft(ctx context.Context, campaign string, data []byte) (store.Draft, error) {
	f.add("ImportDraft")
	if string(data) == "bad" {
		return store.Draft{}, fray.Errorf(fray.EINVALID, "not a setup document")
	}
	return draftRow, nil
}

func (f fakePrep) ImportMap(ctx context.Context, d store.Draft, m *uvtt.Map, scene string, o battlemap.Options) (prep.MapReport, error) {
	f.add("ImportMap")
	return prep.MapReport{}, nil
}

func (f fakePrep) ReplaceDraft(ctx context.Context, d store.Draft, data []byte) error {
	f.add("ReplaceDraft")
	if string(data) == "bad" {
		return fray.Errorf(fray.EINVALID, "not a setup document")
	}
	return nil
}

func (f fakePrep) Edit(ctx context.Context, d store.Draft, form url.Values) error {
	f.add("Edit " + form.Get("op"))
	if form.Get("op") != "settings" {
		return fray.Errorf(fray.EINVALID, "unknown edit %q", form.Get("op"))
	}
	return nil
}

func (f fakePrep) View(ctx context.Context, d store.Draft) (prep.DraftView, error) {
	setup := enginetest.Setup()
	return prep.DraftView{Draft: d, Setup: setup, Ruleset: enginetest.Toy{}, Problem: "not finished",
		Bestiary: []store.StatBlock{{ID: "goblin", Name: "Goblin"}}}, f.fail["View"]
}

func (f fakePrep) Playable(ctx context.Context, d store.Draft) (engine.Ruleset, engine.Setup, string, error) {
	return enginetest.Toy{}, enginetest.Setup(), "", f.fail["Playable"]
}

func (f fakePrep) Create(ctx context.Context, d store.Draft) (store.Encounter, error) {
	f.add("Create")
	return store.Encounter{ID: "new-encounter"}, f.fail["Create"]
}

func (f fakePrep) DeleteDraft(ctx context.Context, id string) error {
	f.add("DeleteDraft " + id)
	return nil
}

func (f fakePrep) Shelf(ctx context.Context, campaign string, gm bool) (prep.Shelf, error) {
	sh := prep.Shelf{Characters: []store.StatBlock{{ID: "hero", Name: "Hero", Ruleset: enginetest.ID}, {ID: "lyra", Name: "Lyra", Ruleset: enginetest.ID}}}
	if gm {
		sh.Drafts = []store.Draft{draftRow}
		sh.Bestiary = []store.StatBlock{{ID: "goblin", Name: "Goblin", Ruleset: enginetest.ID}}
	}
	return sh, nil
}

func (f fakePrep) StatBlock(ctx context.Context, kind, campaign, id string) (store.StatBlock, error) {
	if id != "goblin" && id != "hero" {
		return store.StatBlock{}, fray.Errorf(fray.ENOTFOUND, "no stat block %q", id)
	}
	return store.StatBlock{ID: id, CampaignID: campaign, Name: id, Ruleset: enginetest.ID, Stats: []byte(`{}`)}, nil
}

func (f fakePrep) SaveStatBlock(ctx context.Context, in prep.StatSave) (string, error) {
	f.add("SaveStatBlock " + in.Kind + " " + in.Name)
	if in.Name == "" {
		return "", fray.Errorf(fray.EINVALID, "a stat block needs a name")
	}
	return "goblin", nil
}

func (f fakePrep) DeleteStatBlock(ctx context.Context, kind, campaign, id string) error {
	f.add("DeleteStatBlock " + kind + " " + id)
	return nil
}

func (f fakePrep) Bestiary(ctx context.Context, campaign string) ([]prep.BestiaryEntry, error) {
	return []prep.BestiaryEntry{{ID: "goblin", Name: "Goblin", Ruleset: enginetest.ID}}, nil
}

func (f fakePrep) ImportBestiary(ctx context.Context, campaign string, data []byte) (int, error) {
	f.add("ImportBestiary")
	if string(data) == "bad" {
		return 0, fray.Errorf(fray.EINVALID, "not a bestiary file")
	}
	return 2, nil
}

// fakeCharacters is characters.Service.
type fakeCharacters struct{ *calls }

func (f fakeCharacters) Character(ctx context.Context, campaign, id string, r characters.Reader) (store.Character, error) {
	if id != "hero" || !r.GM && len(r.Characters) == 0 {
		return store.Character{}, fray.Errorf(fray.ENOTFOUND, "character %q not found", id)
	}
	return store.Character{StatBlock: store.StatBlock{ID: "hero", Name: "Hero", Ruleset: enginetest.ID, Stats: []byte(`{}`)}, Revision: 2}, nil
}

func (f fakeCharacters) Visible(ctx context.Context, campaign string, r characters.Reader) ([]store.Character, error) {
	c, _ := f.Character(ctx, campaign, "hero", r)
	if c.ID == "" {
		return nil, nil
	}
	return []store.Character{c}, nil
}

func (f fakeCharacters) Revisions(ctx context.Context, campaign, id string) ([]store.Revision, error) {
	return []store.Revision{{CharacterID: id, Revision: 2, Kind: store.RevisionCarried, EncounterID: encounterID, EncounterName: "Toy fight"},
		{CharacterID: id, Revision: 1, Kind: store.RevisionCreated}}, nil
}

func (f fakeCharacters) Owner(ctx context.Context, campaign, id string) (string, error) {
	return "pl", nil
}

func (f fakeCharacters) Export(ctx context.Context, campaign string) ([]characters.Entry, error) {
	return []characters.Entry{{ID: "hero", Name: "Hero"}}, nil
}

func (f fakeCharacters) Import(ctx context.Context, campaign string, by characters.User, data []byte) (int, error) {
	f.add("ImportCharacters " + by.ID)
	if string(data) == "bad" {
		return 0, fray.Errorf(fray.EINVALID, "not a characters file")
	}
	return 1, nil
}

// fakeCarry is carry.Service.
type fakeCarry struct{ *calls }

func (f fakeCarry) Summary(ctx context.Context, id string) (carry.Summary, error) {
	return carry.Summary{EncounterID: id, CampaignID: campaignID, Name: "Toy fight", Status: engine.StatusFinished, Seq: 7,
		Fields:     []sheet.CarryField{{Field: sheet.Field{Name: "wounds", Label: "Wounds", Type: sheet.FieldInt}, Max: 3}},
		Characters: []carry.Entry{{ID: "hero", Name: "Hero", State: carry.StatePending}}}, nil
}

func (f fakeCarry) Confirm(ctx context.Context, id string, seq int64, by carry.User, ds []carry.Decision) ([]carry.Outcome, error) {
	f.add("Confirm " + by.ID)
	var out []carry.Outcome
	for _, d := range ds {
		out = append(out, carry.Outcome{Character: d.Character, Decision: store.CarryConfirmed, Revision: 3, Changed: true})
	}
	return out, nil
}

// fakeNotify is notify.Service: the campaign has one webhook ("hook").
type fakeNotify struct {
	*calls
	fail fail
}

func (f fakeNotify) CreateWebhook(ctx context.Context, campaignID, userID, rawURL, format string) (store.Webhook, error) {
	f.add("CreateWebhook " + rawURL + " " + format)
	if format != "discord" && format != "json" {
		return store.Webhook{}, fray.Errorf(fray.EINVALID, `a webhook's format is "discord" or "json"`)
	}
	return store.Webhook{ID: "hook2", CampaignID: campaignID, URL: rawURL, Format: format, Secret: "s3cret-shown-once", Created: time.Now()}, f.fail["CreateWebhook"]
}

func (f fakeNotify) Webhooks(ctx context.Context, campaignID string) ([]notify.WebhookStatus, error) {
	f.add("Webhooks " + campaignID)
	return []notify.WebhookStatus{{Webhook: store.Webhook{ID: "hook", CampaignID: campaignID, URL: "https://example.com/hook", Format: "json", Created: time.Now()},
		WebhookStats: store.WebhookStats{Delivered: 3, Pending: 1}}}, f.fail["Webhooks"]
}

func (f fakeNotify) DeleteWebhook(ctx context.Context, campaignID, id string) error {
	f.add("DeleteWebhook " + id)
	if id != "hook" {
		return fray.Errorf(fray.ENOTFOUND, "webhook %q not found", id)
	}
	return f.fail["DeleteWebhook"]
}

func (f fakeNotify) Settings(ctx context.Context, userID string) (notify.Settings, error) {
	f.add("Settings " + userID)
	return notify.Settings{EmailOffered: true, PushKey: "BPubKey", Campaigns: []store.NoticeSetting{{CampaignID: campaignID, CampaignName: "Camp", Role: store.RolePlayer, Push: true}}},
		f.fail["Settings"]
}

func (f fakeNotify) SetChannels(ctx context.Context, userID, campaignID string, push, email bool) error {
	f.add(fmt.Sprintf("SetChannels %s %s push=%t email=%t", userID, campaignID, push, email))
	return f.fail["SetChannels"]
}

func (f fakeNotify) SetEmail(ctx context.Context, userID, email string) error {
	f.add("SetEmail " + userID + " " + email)
	if email != "" && !strings.Contains(email, "@") {
		return fray.Errorf(fray.EINVALID, "%q is not an e-mail address", email)
	}
	return f.fail["SetEmail"]
}

func (f fakeNotify) Subscribe(ctx context.Context, userID, endpoint, p256dh, auth string) error {
	f.add("Subscribe " + userID + " " + endpoint)
	return f.fail["Subscribe"]
}

func (f fakeNotify) Unsubscribe(ctx context.Context, userID, endpoint string) error {
	f.add("Unsubscribe " + userID + " " + endpoint)
	return f.fail["Unsubscribe"]
}

// toyState is the fake encounter's state: the toy fight, started.
func toyState(t testing.TB) engine.State {
	t.Helper()
	st, err := engine.NewEncounter(enginetest.Toy{}, encounterID, enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// fakeTable is play.Service.
type fakeTable struct {
	*calls
	state engine.State
	fail  fail
}

func (f fakeTable) Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error) {
	f.add("Current " + id)
	return enginetest.Toy{}, f.state, f.fail["Current"]
}

func (f fakeTable) Submit(ctx context.Context, id string, sender play.Sender, cmdID string, cmd engine.Command) (int64, error) {
	f.add("Submit " + cmd.Kind + " " + sender.User)
	if err := f.fail["Submit"]; err != nil {
		return 0, err
	}
	return 3, nil
}

// fakeHistory is history.Service.
type fakeHistory struct {
	*calls
	state engine.State
}

func (f fakeHistory) Latest(ctx context.Context, id string) (engine.Ruleset, engine.State, error) {
	f.add("Latest " + id)
	return enginetest.Toy{}, f.state, nil
}

func (f fakeHistory) Timeline(ctx context.Context, campaign string, m history.Member) ([]history.TimelineEntry, error) {
	who := "player"
	if m.GM {
		who = "gm"
	}
	f.add("Timeline " + who)
	return []history.TimelineEntry{{ID: encounterID, Name: "Toy fight", Status: engine.StatusFinished, Outcome: "Heroes win",
		Sides: []history.TimelineSide{{Name: "Heroes", Members: []string{"Hero"}}}, Fell: []history.Fallen{{Name: "Orc", Side: "Foes"}},
		Carried: []store.Revision{{CharacterID: "hero", Name: "Hero", Revision: 2}}}}, nil
}

func (f fakeHistory) Log(ctx context.Context, rd history.Reading, lf history.LogFilter) (history.LogPage, error) {
	f.add("Log")
	if lf.Who != "" && lf.Who != "hero" {
		return history.LogPage{}, fray.Errorf(fray.EINVALID, "no character %q to filter by", lf.Who)
	}
	return history.LogPage{View: engine.Project(rd.Ruleset, rd.State, rd.Viewer), Entries: []engine.Event{{Seq: 1, Kind: "encounter-started", Text: "It begins."}},
		More: true, Undone: map[int64]bool{}, Revealed: map[int64]bool{}, Rounds: 1}, nil
}

func (f fakeHistory) Replay(ctx context.Context, rd history.Reading, seq int64) (history.Step, error) {
	f.add("Replay")
	return history.Step{Seq: max(seq, 0), Latest: 2, View: engine.Project(rd.Ruleset, rd.State, rd.Viewer), Prev: -1, Next: 1}, nil
}

func (f fakeHistory) Export(ctx context.Context, rd history.Reading) (history.Export, error) {
	f.add("Export")
	return history.Export{Format: history.ExportFormat, Encounter: history.ExportedEncounter{ID: rd.ID, Name: "Toy fight"}, Viewer: rd.Viewer}, nil
}

func (f fakeHistory) Heads(ctx context.Context, id string, after int64, limit int) ([]history.Head, error) {
	f.add("Heads")
	return []history.Head{{Seq: 1, Link: "ab01"}}, nil
}

// fakeEvents is the store's event log.
type fakeEvents struct{}

func (fakeEvents) Events(ctx context.Context, id string, after int64, limit int) ([]engine.Event, error) {
	return []engine.Event{{Seq: 1, Kind: "encounter-started", Text: "It begins."}}, nil
}

// fakeHub is realtime.Hub: it answers 101 and records the session.
type fakeHub struct{ *calls }

func (f fakeHub) Serve(w http.ResponseWriter, r *http.Request, opt realtime.ServeOptions) {
	f.add("Serve " + opt.User)
	w.WriteHeader(http.StatusSwitchingProtocols)
}

// fakePinger is the database.
type fakePinger struct{ err error }

func (f fakePinger) Ping(ctx context.Context) error { return f.err }

// sheetToy is the toy ruleset with a stat block editor and derived values.
type sheetToy struct{ enginetest.Toy }

func (sheetToy) Schema() sheet.Schema {
	return sheet.Schema{Fields: []sheet.Field{{Name: "hp", Label: "Hit points", Type: sheet.FieldInt}}}
}

func (sheetToy) Derive(stats json.RawMessage) (map[string]string, error) {
	return map[string]string{"toughness": "5"}, nil
}

// world is a Server over the fakes and what they record.
type world struct {
	*Server
	calls *calls
}

// newWorld builds a Server over the fakes; failing makes the fakes
// return errors by method name.
func newWorld(t testing.TB, failing fail) *world {
	c := &calls{}
	st := toyState(t)
	acc := fakeAccounts{calls: c, fail: failing}
	camps := fakeCampaigns{calls: c, fail: failing}
	pr := fakePrep{calls: c, fail: failing}
	srv := New(Config{
		Accounts: acc, Tokens: acc, Access: fakeAccess{fail: failing},
		Campaigns: camps, Invites: camps, Members: camps,
		Encounters: pr, Drafts: pr, StatBlocks: pr,
		Characters: fakeCharacters{c}, Carry: fakeCarry{c}, Deadlines: fakeDeadlines{c}, History: fakeHistory{c, st},
		Webhooks: fakeNotify{c, failing}, Notices: fakeNotify{c, failing},
		Table: fakeTable{calls: c, state: st, fail: failing}, Events: fakeEvents{}, Hub: fakeHub{c}, Health: fakePinger{failing["Ping"]},
		Rulesets: engine.NewRegistry(sheetToy{}), Pictures: fakePictures{c}, Sight: fakeSight{c}, Notes: fakeNotes{c},
		Standing: fakeStanding{c}, Links: links.NewSigner(linkKey), ActLog: fakeActLog{c},
	})
	return &world{Server: srv, calls: c}
}

// linkKey signs the fake world's links; plLink is one to the player's
// turn in the fake encounter.
var (
	linkKey = []byte("a key for the fake world's links!")
	plLink  = links.NewSigner(linkKey).Sign(links.Link{User: "pl", Encounter: encounterID, Seq: 1, Expires: time.Now().Add(time.Hour).Unix()})
)

// fakeStanding is the store's standing orders.
type fakeStanding struct{ *calls }

func (f fakeStanding) UserStanding(ctx context.Context, campaign, user, ruleset string) (map[string]store.Standing, error) {
	return map[string]store.Standing{}, nil
}

func (f fakeStanding) SetStanding(ctx context.Context, campaign, character, ruleset, user string, s store.Standing) error {
	f.add("SetStanding " + character + " " + user)
	return nil
}

// fakeActLog is what links need of the store.
type fakeActLog struct{ *calls }

func (f fakeActLog) LookupCommand(ctx context.Context, id, sender, cmdID string) (store.CommandState, error) {
	return store.CommandState{}, nil
}

func (f fakeActLog) RewoundSince(ctx context.Context, id string, seq int64) (bool, error) {
	return false, nil
}

func (f fakeActLog) HoldAnswer(ctx context.Context, h store.Held) error {
	f.add("HoldAnswer " + h.Decision)
	return nil
}

type fakeDeadlines struct{ *calls }

func (f fakeDeadlines) Deadline(ctx context.Context, id string) (*store.DeadlineSetting, error) {
	return &store.DeadlineSetting{After: 24 * time.Hour, RemindBefore: 2 * time.Hour, Fallback: store.FallbackPause}, nil
}

func (f fakeDeadlines) SetDeadline(ctx context.Context, id, userID string, s store.DeadlineSetting) error {
	f.add("SetDeadline " + id + " " + s.After.String() + " " + s.Fallback)
	return nil
}

func (f fakeDeadlines) ClearDeadline(ctx context.Context, id string) error {
	f.add("ClearDeadline " + id)
	return nil
}

func (f fakeDeadlines) SwitchDeadline(ctx context.Context, id string, on bool) error {
	f.add(fmt.Sprintf("SwitchDeadline %s %v", id, on))
	return nil
}

func (f fakeDeadlines) ClockStatus(ctx context.Context, st engine.State, v engine.Viewer) (deadlines.Status, error) {
	return deadlines.Status{On: true, Waiting: []deadlines.Left{}}, nil
}

func (f fakePrep) SetPortrait(ctx context.Context, kind, campaign, id, portrait string) error {
	f.add("SetPortrait " + kind + " " + id + " " + portrait)
	return nil
}
