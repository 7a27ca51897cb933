package server

import (
	"net/http"

	"github.com/fray-vtt/fray/web"
)

// handleIndex is the landing page, or the signed-in user's campaigns: GET /.
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r)
	if u == nil {
		render(w, r, web.Index(web.IndexProps{}))
		return
	}
	campaigns, err := s.Campaigns.Summaries(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	props := web.IndexProps{User: u.Name}
	for _, c := range campaigns {
		cs := web.CampaignSummary{ID: c.ID, Name: c.Name, Role: c.Role}
		for _, e := range c.Encounters {
			cs.Encounters = append(cs.Encounters, web.EncounterSummary{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status})
		}
		props.Campaigns = append(props.Campaigns, cs)
	}
	render(w, r, web.Index(props))
}
