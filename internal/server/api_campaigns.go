package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

type campaignJSON struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Encounters []encounterJSON `json:"encounters,omitempty"`
}

type encounterJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	Status  string `json:"status"`
	Seq     int64  `json:"seq"`
}

// handleCampaigns lists campaigns: GET /api/campaigns
func (s *Server) handleCampaigns(w http.ResponseWriter, r *http.Request) {
	cs, err := s.store.Campaigns(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]campaignJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, campaignJSON{ID: c.ID, Name: c.Name})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleCreateCampaign creates a campaign: POST /api/campaigns {"name":"…"}
func (s *Server) handleCreateCampaign(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.store.CreateCampaign(r.Context(), req.Name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, campaignJSON{ID: c.ID, Name: c.Name})
}

// handleCampaign returns a campaign with its encounters: GET /api/campaigns/{id}
func (s *Server) handleCampaign(w http.ResponseWriter, r *http.Request) {
	c, err := s.store.Campaign(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	encs, err := s.store.Encounters(r.Context(), c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := campaignJSON{ID: c.ID, Name: c.Name, Encounters: []encounterJSON{}}
	for _, e := range encs {
		out.Encounters = append(out.Encounters, encounterJSON{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status, Seq: e.Seq})
	}
	writeJSON(w, http.StatusOK, out)
}
