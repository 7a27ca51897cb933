package server

import "github.com/go-chi/chi/v5"

// historyRoutes registers the campaign timeline, the encounter log, replay
// and exports. routes.go calls it inside the authenticated group, so every
// path here is relative to the site root.
func (s *Server) historyRoutes(r chi.Router) {
	r.Get("/campaigns/{id}/timeline", s.handleTimeline)
	r.Get("/encounters/{id}/log", s.handleEncounterLog)
	r.Post("/encounters/{id}/log/reveal", s.handleRevealEvent)
	r.Get("/encounters/{id}/replay", s.handleReplay)
	r.Get("/encounters/{id}/export.md", s.handleExportMarkdown)
	r.Get("/api/encounters/{id}/export.json", s.handleExportJSON)
	r.Get("/api/encounters/{id}/replay", s.handleAPIReplay)
}
