package server

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

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

// handleAPICampaigns lists the caller's campaigns: GET /api/campaigns
func (s *Server) handleAPICampaigns(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	cs, err := s.store.UserCampaigns(r.Context(), u.ID)
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

// handleAPICreateCampaign makes the caller GM of a new campaign: POST /api/campaigns {"name":"…"}
func (s *Server) handleAPICreateCampaign(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
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
	c, err := s.store.CreateCampaignFor(r.Context(), req.Name, u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, campaignJSON{ID: c.ID, Name: c.Name, Role: store.RoleGM})
}

// handleAPICampaign returns a campaign with its encounters and members: GET /api/campaigns/{id}
func (s *Server) handleAPICampaign(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	c, err := s.store.Campaign(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	encs, err := s.store.Encounters(r.Context(), c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	members, err := s.store.Members(r.Context(), c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := campaignJSON{ID: c.ID, Name: c.Name, Role: m.role, Encounters: []encounterJSON{}, Members: []memberJSON{}}
	for _, e := range encs {
		out.Encounters = append(out.Encounters, encounterJSON{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status, Seq: e.Seq})
	}
	for _, mem := range members {
		out.Members = append(out.Members, memberJSON{UserID: mem.UserID, Name: mem.Name, Role: mem.Role, Characters: append([]string{}, mem.Characters...)})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPICreateInvite makes an invite link: POST /api/campaigns/{id}/invites (GM)
func (s *Server) handleAPICreateInvite(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	link, err := s.createInvite(r, m)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"url": link})
}

// handleAPIJoin accepts an invite for the caller: POST /api/join/{token}
func (s *Server) handleAPIJoin(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	c, err := s.store.AcceptInvite(r.Context(), auth.HashToken(chi.URLParam(r, "token")), u.ID, time.Now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	role, err := s.store.Membership(r.Context(), c.ID, u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, campaignJSON{ID: c.ID, Name: c.Name, Role: role})
}

// handleAPIAssignCharacter gives a character to a member:
// PUT /api/campaigns/{id}/characters/{characterID} {"user":"<user id or empty>"} (GM)
func (s *Server) handleAPIAssignCharacter(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	var req struct {
		User string `json:"user"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.store.AssignCharacter(r.Context(), m.campaign, chi.URLParam(r, "characterID"), req.User); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"character": chi.URLParam(r, "characterID"), "user": req.User})
}

// handleAPIMe returns the caller: GET /api/me
func (s *Server) handleAPIMe(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": u.ID, "name": u.Name})
}

// handleAPISignup creates an account and returns an API token for it, for
// bots and load generators: POST /api/signup {"name","password","token"}.
func (s *Server) handleAPISignup(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name      string `json:"name"`
		Password  string `json:"password"`
		TokenName string `json:"tokenName"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if ok, err := s.allow(r, "signup:"+s.clientIP(r)); err != nil {
		writeError(w, r, err)
		return
	} else if !ok {
		writeError(w, r, fray.Errorf(fray.ERATELIMIT, "too many sign-ups from here; wait a minute"))
		return
	}
	id, err := s.signup(r, req.Name, req.Password, req.Password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if req.TokenName == "" {
		req.TokenName = "signup"
	}
	token, tokenID, err := s.createToken(r, id, req.TokenName)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id, "name": req.Name, "token": token, "tokenId": tokenID})
}

// tokenJSON is an API token as the API shows it (never the token itself,
// which is shown once, when made).
type tokenJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"` // null before first use; updated at most once a minute
	RevokedAt  *time.Time `json:"revokedAt"`  // null while the token works
}

// handleAPITokens lists the caller's API tokens, newest first: GET /api/tokens
func (s *Server) handleAPITokens(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	tokens, err := s.store.APITokens(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]tokenJSON, 0, len(tokens))
	for _, t := range tokens {
		out = append(out, tokenJSON{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, RevokedAt: t.RevokedAt})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPICreateToken makes a token: POST /api/tokens {"name":"…"} →
// {"id":"…","name":"…","token":"…"} (the token is shown once)
func (s *Server) handleAPICreateToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
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
	token, id, err := s.createToken(r, u.ID, req.Name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id, "name": req.Name, "token": token})
}

// handleAPIRevokeToken: DELETE /api/tokens/{tokenID}
func (s *Server) handleAPIRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	if err := s.store.RevokeAPIToken(r.Context(), u.ID, chi.URLParam(r, "tokenID")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
