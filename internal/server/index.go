package server

import (
	"net/http"

	"github.com/fray-vtt/fray/web"
)

// handleIndex lists campaigns and their encounters.
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	campaigns, err := s.store.Campaigns(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	props := web.IndexProps{}
	for _, c := range campaigns {
		encs, err := s.store.Encounters(r.Context(), c.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		cs := web.CampaignSummary{ID: c.ID, Name: c.Name}
		for _, e := range encs {
			cs.Encounters = append(cs.Encounters, web.EncounterSummary{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status})
		}
		props.Campaigns = append(props.Campaigns, cs)
	}
	render(w, r, web.Index(props))
}
