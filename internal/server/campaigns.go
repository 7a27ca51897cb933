package server

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/campaigns"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/foundry"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/simulate"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Campaigns are the campaigns; *campaigns.Service keeps them.
type Campaigns interface {
	Create(ctx context.Context, name, gmUserID string) (store.Campaign, error)
	Campaign(ctx context.Context, id string) (store.Campaign, error)
	Mine(ctx context.Context, userID string) ([]store.CampaignRole, error)
	Summaries(ctx context.Context, userID string) ([]campaigns.Summary, error)
	Overview(ctx context.Context, campaignID string, gm bool) (campaigns.Overview, error)
}

// handleCreateCampaign makes the signed-in user the GM of a new campaign:
// POST /campaigns (name).
func (s *Server) handleCreateCampaign(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	c, err := s.Campaigns.Create(r.Context(), r.PostFormValue("name"), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	campaignRedirect(w, r, c.ID, flashNotice, "Created "+c.Name+". Add an encounter below, then invite your players.")
}

// handleCampaignPage shows a campaign to its members: encounters, members,
// characters and (for GMs) invites and the tools to manage them:
// GET /campaigns/{id}.
func (s *Server) handleCampaignPage(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	s.renderCampaign(w, r, m, "", takeFlash(w, r, flashNotice), takeFlash(w, r, flashError))
}

func (s *Server) renderCampaign(w http.ResponseWriter, r *http.Request, m membership, newInvite, notice, errMsg string) {
	ctx := r.Context()
	o, err := s.Campaigns.Overview(ctx, m.campaign, m.gm())
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.CampaignProps{ID: o.ID, Name: o.Name, IsGM: m.gm(), NewInviteURL: newInvite, Notice: notice, Error: errMsg}
	for _, e := range o.Encounters {
		p.Encounters = append(p.Encounters, web.EncounterSummary{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status})
	}
	names := map[string]string{}
	for _, c := range o.Characters {
		names[c.ID] = c.Name
		p.Characters = append(p.Characters, web.CharacterRow{ID: c.ID, Name: c.Name, OwnerID: c.OwnerID, Encounters: c.Encounters})
	}
	for _, mem := range o.Members {
		row := web.MemberRow{UserID: mem.UserID, Name: mem.Name, Role: mem.Role, IsSelf: mem.UserID == m.user.ID}
		for _, cid := range mem.Characters {
			row.Characters = append(row.Characters, cmp(names[cid], cid))
		}
		p.Members = append(p.Members, row)
	}
	now := time.Now()
	for _, in := range o.Invites {
		p.Invites = append(p.Invites, web.InviteRow{ID: in.ID, Created: in.CreatedAt.Format("2006-01-02 15:04"),
			Expires: in.ExpiresAt.Format("2006-01-02 15:04"), Revoked: in.RevokedAt != nil, Expired: now.After(in.ExpiresAt)})
	}
	if m.gm() {
		exs, err := s.Encounters.Examples()
		if err != nil {
			writeError(w, r, err)
			return
		}
		for _, ex := range exs {
			p.Examples = append(p.Examples, s.exampleOption(ex))
		}
	}
	if m.gm() {
		if p.Notes, err = s.Notes.CampaignNotes(ctx, m.campaign); err != nil {
			writeError(w, r, err)
			return
		}
	}
	if p.Prep, err = s.prepProps(ctx, m, o.Encounters); err != nil {
		writeError(w, r, err)
		return
	}
	// A character with a sheet has a page.
	pages := map[string]string{}
	for _, sum := range p.Prep.Characters {
		pages[sum.ID] = sum.Page
	}
	for i := range p.Characters {
		p.Characters[i].Page = pages[p.Characters[i].ID]
	}
	render(w, r, web.Campaign(p))
}

// exampleOption describes a shipped example for the picker: its ruleset,
// what the ruleset is like and the position model its battlefield uses.
func (s *Server) exampleOption(ex prep.Example) web.ExampleOption {
	o := web.ExampleOption{Name: ex.Name, Label: ex.Title, Ruleset: ex.Ruleset, Model: ex.Model}
	if ex.Rounds > 0 {
		o.Length = simulate.LengthOf(ex.Rounds, ex.Players, ex.Others).String()
	}
	if rs, err := s.Rulesets.Get(ex.Ruleset); err == nil {
		o.RulesetTitle = rs.Title()
		if d, ok := rs.(engine.Describer); ok {
			o.Description = d.Description()
		}
		if b, ok := rs.(engine.Boarder); ok && o.Model == "" {
			o.Model = b.Editor().Model
		}
	}
	return o
}

// prepProps is the preparation part of a campaign page: what the GMs
// prepared and the encounters by stage.
func (s *Server) prepProps(ctx context.Context, m membership, encs []store.Encounter) (*web.PrepProps, error) {
	p := &web.PrepProps{CampaignID: m.campaign, IsGM: m.gm()}
	for _, rs := range s.Rulesets.All() {
		if _, ok := rs.(sheet.Schemaer); ok {
			p.Rulesets = append(p.Rulesets, engine.Choice{Value: rs.ID(), Label: rs.Title()})
		}
		if fm, ok := rs.(foundry.Mapper); ok {
			p.Foundry = append(p.Foundry, engine.Choice{Value: rs.ID(), Label: rs.Title() + " ← Foundry " + fm.FoundrySystem()})
		}
	}
	for _, e := range encs {
		sum := web.EncounterSummary{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status}
		switch engine.Status(e.Status) {
		case engine.StatusSetup:
			p.Ready = append(p.Ready, sum)
		case engine.StatusFinished:
			p.Finished = append(p.Finished, sum)
		default:
			p.Running = append(p.Running, sum)
		}
	}
	shelf, err := s.Drafts.Shelf(ctx, m.campaign, m.gm())
	if err != nil {
		return nil, err
	}
	for _, d := range shelf.Drafts {
		p.Drafts = append(p.Drafts, web.DraftSummary{ID: d.ID, Name: d.Name, Ruleset: d.Ruleset})
	}
	summary := func(b store.StatBlock) web.StatSummary {
		sum := web.StatSummary{ID: b.ID, Name: b.Name}
		if rs, err := s.Rulesets.Get(b.Ruleset); err == nil && m.gm() {
			sum.Derived = derivedLine(rs, b.Stats)
		}
		return sum
	}
	for _, b := range shelf.Bestiary {
		p.Bestiary = append(p.Bestiary, summary(b))
	}
	for _, b := range shelf.Characters {
		sum := summary(b)
		if m.gm() || slices.Contains(m.characters, b.ID) {
			sum.Page = web.CharacterURL(m.campaign, b.ID)
		}
		p.Characters = append(p.Characters, sum)
	}
	return p, nil
}

// campaignRedirect goes back to the campaign page, leaving msg as its
// notice or error (key flashNotice or flashError).
func campaignRedirect(w http.ResponseWriter, r *http.Request, id, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(id), http.StatusSeeOther)
}

type campaignJSON struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Role       string          `json:"role,omitempty"`
	Encounters []encounterJSON `json:"encounters,omitempty"`
	Members    []memberJSON    `json:"members,omitempty"`
}

type encounterJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	Status  string `json:"status"`
	Seq     int64  `json:"seq"`
}

type memberJSON struct {
	UserID     string   `json:"userId"`
	Name       string   `json:"name"`
	Role       string   `json:"role"`
	Characters []string `json:"characters"`
}

// handleAPICampaigns lists the caller's campaigns: GET /api/campaigns.
func (s *Server) handleAPICampaigns(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	cs, err := s.Campaigns.Mine(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]campaignJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, campaignJSON{ID: c.ID, Name: c.Name, Role: c.Role})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPICreateCampaign makes the caller GM of a new campaign:
// POST /api/campaigns {"name":"…"}.
func (s *Server) handleAPICreateCampaign(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.Campaigns.Create(r.Context(), req.Name, u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, campaignJSON{ID: c.ID, Name: c.Name, Role: store.RoleGM})
}

// handleAPICampaign returns a campaign with its encounters and members:
// GET /api/campaigns/{id}.
func (s *Server) handleAPICampaign(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	o, err := s.Campaigns.Overview(r.Context(), m.campaign, false)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := campaignJSON{ID: o.ID, Name: o.Name, Role: m.role, Encounters: []encounterJSON{}, Members: []memberJSON{}}
	for _, e := range o.Encounters {
		out.Encounters = append(out.Encounters, encounterJSON{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status, Seq: e.Seq})
	}
	for _, mem := range o.Members {
		out.Members = append(out.Members, memberJSON{UserID: mem.UserID, Name: mem.Name, Role: mem.Role, Characters: append([]string{}, mem.Characters...)})
	}
	writeJSON(w, http.StatusOK, out)
}

// cmp is a if it is set, else b.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
