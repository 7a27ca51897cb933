package server

import (
	"io/fs"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(s.requestLog)
	r.Use(securityHeaders)
	r.Use(cleanPaths)
	r.Use(limitBody(maxBodyBytes))
	// Refuse state-changing requests from other origins' pages (CSRF):
	// scheme, host and port must be this site's or an allowed origin's;
	// bots without browser headers and same-origin forms pass.
	r.Use(s.origins.Protect(writeError))

	r.Get("/healthz", s.handleHealth)
	static, _ := fs.Sub(web.Static, "static")
	r.Handle("/static/*", http.StripPrefix("/static/", cacheStatic(http.FileServerFS(static))))

	r.Group(func(r chi.Router) {
		r.Use(s.authenticate)

		r.Get("/", s.handleIndex)
		r.Get("/login", s.handleLoginPage)
		r.Post("/login", s.handleLogin)
		r.Get("/signup", s.handleSignupPage)
		r.Post("/signup", s.handleSignup)
		r.Post("/logout", s.handleLogout)
		r.Get("/account", s.handleAccount)
		r.Post("/account/password", s.handleChangePassword)
		r.Post("/account/signout-everywhere", s.handleSignOutEverywhere)
		r.Post("/account/tokens", s.handleCreateToken)
		r.Post("/account/tokens/{tokenID}/revoke", s.handleRevokeToken)

		r.Post("/campaigns", s.handleCreateCampaign)
		r.Get("/campaigns/{id}", s.handleCampaignPage)
		r.Post("/campaigns/{id}/invites", s.handleCreateInvite)
		r.Post("/campaigns/{id}/invites/{inviteID}/revoke", s.handleRevokeInvite)
		r.Post("/campaigns/{id}/members/{userID}/role", s.handleMemberRole)
		r.Post("/campaigns/{id}/members/{userID}/remove", s.handleRemoveMember)
		r.Post("/campaigns/{id}/characters", s.handleAssignCharacter)
		r.Post("/campaigns/{id}/encounters/example", s.handleAddExample)
		r.Post("/campaigns/{id}/encounters/import", s.handleImportFile)
		r.Get("/join/{token}", s.handleJoinPage)
		r.Post("/join/{token}", s.handleJoin)

		s.prepRoutes(r)
		r.Get("/encounters/{id}", s.handleEncounterPage)
		r.Post("/encounters/{id}/act", s.handleEncounterAct)
		r.Get("/encounters/{id}/ws", s.handleEncounterSocket)
		s.historyRoutes(r)
		s.carryRoutes(r)

		r.Route("/api", func(r chi.Router) {
			r.Get("/rulesets", s.handleRulesets)
			r.Post("/signup", s.handleAPISignup)
			r.Get("/me", s.handleAPIMe)
			r.Post("/password", s.handleAPIChangePassword)
			r.Post("/signout-everywhere", s.handleAPISignOutEverywhere)
			r.Get("/tokens", s.handleAPITokens)
			r.Post("/tokens", s.handleAPICreateToken)
			r.Delete("/tokens/{tokenID}", s.handleAPIRevokeToken)
			r.Get("/campaigns", s.handleAPICampaigns)
			r.Post("/campaigns", s.handleAPICreateCampaign)
			r.Get("/campaigns/{id}", s.handleAPICampaign)
			r.Post("/campaigns/{id}/invites", s.handleAPICreateInvite)
			r.Put("/campaigns/{id}/characters/{characterID}", s.handleAPIAssignCharacter)
			r.Post("/campaigns/{id}/encounters", s.handleImportEncounter)
			r.Post("/join/{token}", s.handleAPIJoin)
			r.Post("/encounters", s.handleImportEncounter)
			r.Get("/encounters/{id}", s.handleEncounterView)
			r.Get("/encounters/{id}/events", s.handleEncounterEvents)
			r.Post("/encounters/{id}/commands", s.handleEncounterCommand)
			r.Get("/encounters/{id}/ws", s.handleEncounterSocket)
		})
	})
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, fray.Errorf(fray.ENOTFOUND, "no such page"))
	})
	return r
}
