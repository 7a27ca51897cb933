package server

import (
	"net/http"

	"github.com/fray-vtt/fray/internal/engine"
)

// handleEncounterWhy says why the rules would refuse an action as the
// query fills it in — the page asks when a player picks a token its open
// action does not offer as a target, so the target line gives the rules'
// own reason ("Rat is out of range: the knife reaches 50 ft") in the words
// the API's error would: GET /api/encounters/{id}/why?kind=…&actor=…&field=….
// It answers {"reason": "…"}, empty when the rules would take the action.
// Nothing is submitted.
func (s *Server) handleEncounterWhy(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	q := r.URL.Query()
	cmd, _, err := commandFromForm(engine.Project(e.ruleset, e.state, e.viewer), q)
	if err == nil {
		err = engine.Refusal(e.ruleset, e.state, e.viewer, cmd)
	}
	reason := ""
	if err != nil {
		reason = errMessage(err)
	}
	writeJSON(w, http.StatusOK, map[string]string{"reason": reason})
}
