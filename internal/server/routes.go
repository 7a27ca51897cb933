package server

import (
	"io/fs"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/fray-vtt/fray/web"
)

func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.Recoverer)
	r.Use(securityHeaders)
	r.Use(limitBody(maxBodyBytes))

	r.Get("/healthz", s.handleHealth)

	static, _ := fs.Sub(web.Static, "static")
	r.Handle("/static/*", http.StripPrefix("/static/", cacheStatic(http.FileServerFS(static))))

	r.Get("/", s.handleIndex)
	r.Get("/encounters/{id}", s.handleEncounterPage)
	r.Post("/encounters/{id}/act", s.handleEncounterAct)
	r.Get("/encounters/{id}/ws", s.handleEncounterSocket)

	r.Route("/api", func(r chi.Router) {
		r.Get("/rulesets", s.handleRulesets)
		r.Get("/campaigns", s.handleCampaigns)
		r.Post("/campaigns", s.handleCreateCampaign)
		r.Get("/campaigns/{id}", s.handleCampaign)
		r.Post("/campaigns/{id}/encounters", s.handleImportEncounter)
		r.Post("/encounters", s.handleImportEncounter)
		r.Get("/encounters/{id}", s.handleEncounterView)
		r.Get("/encounters/{id}/events", s.handleEncounterEvents)
		r.Post("/encounters/{id}/commands", s.handleEncounterCommand)
		r.Get("/encounters/{id}/ws", s.handleEncounterSocket)
	})
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, errNotFound)
	})
	return r
}
