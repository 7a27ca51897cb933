package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
)

// defaultCampaign holds encounters imported without naming a campaign.
const defaultCampaign = "Imported encounters"

// handleImportEncounter creates an encounter from a setup document (the
// format of examples/encounters) in a campaign the caller runs:
// POST /api/campaigns/{id}/encounters, or POST /api/encounters?campaign=ID;
// without a campaign, a new one with the caller as GM. An invalid document
// stores nothing.
func (s *Server) handleImportEncounter(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	campaignID := chi.URLParam(r, "id")
	if campaignID == "" {
		campaignID = r.URL.Query().Get("campaign")
	}
	if campaignID != "" {
		if _, ok := s.gmOf(w, r, campaignID); !ok {
			return
		}
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, prep.MaxSetupBytes+1))
	if err != nil {
		writeError(w, r, fray.Errorf(fray.ETOOLARGE, "request body is too large"))
		return
	}
	if len(data) > prep.MaxSetupBytes {
		writeError(w, r, fray.Errorf(fray.ETOOLARGE, "encounter file is larger than %d bytes", prep.MaxSetupBytes))
		return
	}
	prepared, err := prep.Prepare(s.rules, data)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if campaignID == "" {
		c, err := s.store.CreateCampaignFor(r.Context(), defaultCampaign, u.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		campaignID = c.ID
	}
	e, err := prep.Save(r.Context(), s.store, campaignID, prepared)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": e.ID, "campaign": e.CampaignID, "name": e.Name, "ruleset": e.Ruleset, "status": e.Status,
		"url": "/encounters/" + e.ID,
	})
}

// handleEncounterView returns the caller's projection: GET /api/encounters/{id} (GMs may add ?as=PC to preview)
func (s *Server) handleEncounterView(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, engine.Project(e.ruleset, e.state, e.viewer))
}

// handleEncounterEvents returns the events after ?since= that the viewer may
// see, at most ?limit= (default and maximum 1000).
func (s *Server) handleEncounterEvents(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	since, err := intParam(q.Get("since"), 0)
	if err != nil || since < 0 {
		writeError(w, r, fray.Errorf(fray.EINVALID, "since must be a non-negative integer"))
		return
	}
	limit, err := intParam(q.Get("limit"), 1000)
	if err != nil || limit < 1 || limit > 1000 {
		writeError(w, r, fray.Errorf(fray.EINVALID, "limit must be between 1 and 1000"))
		return
	}
	events, err := s.store.Events(r.Context(), e.id, since, int(limit))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"seq": e.state.Core().Seq, "events": engine.FilterEvents(e.state, e.viewer, events)})
}

func intParam(v string, def int64) (int64, error) {
	if v == "" {
		return def, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

type commandRequest struct {
	ID      string          `json:"id"`
	Command json.RawMessage `json:"command"`
}

// handleEncounterCommand submits one command over HTTP, for bots and tests:
// POST /api/encounters/{id}/commands {"id":"…","command":{"kind":…}}
func (s *Server) handleEncounterCommand(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	var req commandRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	cmd, err := engine.DecodeCommand(req.Command)
	if err != nil {
		writeError(w, r, err)
		return
	}
	seq, err := s.submit(r.Context(), &e, req.ID, cmd)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": req.ID, "seq": seq})
}
