package server

import (
	"net/http"

	"github.com/fray-vtt/fray/internal/engine"
)

// handleRulesets lists the rulesets and their options: GET /api/rulesets.
func (s *Server) handleRulesets(w http.ResponseWriter, r *http.Request) {
	type rulesetJSON struct {
		ID      string              `json:"id"`
		Title   string              `json:"title"`
		Options []engine.OptionSpec `json:"options"`
	}
	var out []rulesetJSON
	for _, rs := range s.Rulesets.All() {
		out = append(out, rulesetJSON{ID: rs.ID(), Title: rs.Title(), Options: rs.Options()})
	}
	writeJSON(w, http.StatusOK, out)
}
