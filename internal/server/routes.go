package server

import (
	"io/fs"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

// routes maps every path to its handler, resource by resource (each
// resource's handlers are in the file named after it).
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(s.requestLog)
	r.Use(securityHeaders)
	r.Use(cleanPaths)
	r.Use(s.limitBody(maxBodyBytes))
	// Refuse state-changing requests from other origins' pages (CSRF):
	// scheme, host and port must be this site's or an allowed origin's;
	// bots without browser headers and same-origin forms pass.
	r.Use(s.Origins.Protect(writeError))

	r.Get("/healthz", s.handleHealth)
	static, _ := fs.Sub(web.Static, "static")
	r.Get("/sw.js", s.handleServiceWorker)           // push.go
	r.Get("/manifest.webmanifest", s.handleManifest) // push.go
	r.Handle("/static/*", http.StripPrefix("/static/", cacheStatic(http.FileServerFS(static))))

	r.Group(func(r chi.Router) {
		r.Use(s.authenticate)

		// index.go
		r.Get("/", s.handleIndex)
		// session.go
		r.Get("/login", s.handleLoginPage)
		r.Post("/login", s.handleLogin)
		r.Post("/logout", s.handleLogout)
		// reset.go
		r.Get("/reset", s.handleResetPage)
		r.Post("/reset", s.handleResetRequest)
		r.Get("/reset/{token}", s.handleResetForm)
		r.Post("/reset/{token}", s.handleReset)
		// signup.go
		r.Get("/signup", s.handleSignupPage)
		r.Post("/signup", s.handleSignup)
		r.Post("/api/signup", s.handleAPISignup)
		// account.go
		r.Get("/account", s.handleAccount)
		r.Post("/account/password", s.handleChangePassword)
		r.Post("/account/signout-everywhere", s.handleSignOutEverywhere)
		r.Get("/api/me", s.handleAPIMe)
		r.Post("/api/password", s.handleAPIChangePassword)
		r.Post("/api/signout-everywhere", s.handleAPISignOutEverywhere)
		// tokens.go
		r.Post("/account/tokens", s.handleCreateToken)
		r.Post("/account/tokens/{tokenID}/revoke", s.handleRevokeToken)
		r.Get("/api/tokens", s.handleAPITokens)
		r.Post("/api/tokens", s.handleAPICreateToken)
		r.Delete("/api/tokens/{tokenID}", s.handleAPIRevokeToken)
		// notifications.go, push.go
		r.Get("/account/notifications", s.handleNotificationsPage)
		r.Post("/account/notifications/email", s.handleSetEmail)
		r.Post("/account/notifications/{id}", s.handleSetChannels)
		r.Get("/api/notifications", s.handleAPINotifications)
		r.Put("/api/notifications/email", s.handleAPISetEmail)
		r.Put("/api/campaigns/{id}/notifications", s.handleAPISetChannels)
		r.Post("/api/push/subscriptions", s.handleAPISubscribe)
		r.Delete("/api/push/subscriptions", s.handleAPIUnsubscribe)

		// campaigns.go
		r.Post("/campaigns", s.handleCreateCampaign)
		r.Get("/campaigns/{id}", s.handleCampaignPage)
		r.Get("/api/campaigns", s.handleAPICampaigns)
		r.Post("/api/campaigns", s.handleAPICreateCampaign)
		r.Get("/api/campaigns/{id}", s.handleAPICampaign)
		// invites.go
		r.Post("/campaigns/{id}/invites", s.handleCreateInvite)
		r.Post("/campaigns/{id}/invites/{inviteID}/revoke", s.handleRevokeInvite)
		r.Post("/api/campaigns/{id}/invites", s.handleAPICreateInvite)
		r.Get("/join/{token}", s.handleJoinPage)
		r.Post("/join/{token}", s.handleJoin)
		r.Post("/api/join/{token}", s.handleAPIJoin)
		// webhooks.go
		r.Get("/campaigns/{id}/webhooks", s.handleWebhooksPage)
		r.Post("/campaigns/{id}/webhooks", s.handleCreateWebhook)
		r.Post("/campaigns/{id}/webhooks/{hook}/delete", s.handleDeleteWebhook)
		r.Get("/api/campaigns/{id}/webhooks", s.handleAPIWebhooks)
		r.Post("/api/campaigns/{id}/webhooks", s.handleAPICreateWebhook)
		r.Delete("/api/campaigns/{id}/webhooks/{hook}", s.handleAPIDeleteWebhook)
		// members.go
		r.Post("/campaigns/{id}/members/{userID}/role", s.handleMemberRole)
		r.Post("/campaigns/{id}/members/{userID}/remove", s.handleRemoveMember)
		r.Post("/campaigns/{id}/characters", s.handleAssignCharacter)
		r.Put("/api/campaigns/{id}/characters/{characterID}", s.handleAPIAssignCharacter)

		// assets.go: pictures
		r.Post("/api/campaigns/{id}/assets", s.handleUploadAsset)
		r.Get("/api/campaigns/{id}/assets", s.handleAPIAssets)
		r.Delete("/api/campaigns/{id}/assets/{asset}", s.handleDeleteAsset)
		r.Post("/campaigns/{id}/pictures/{asset}/delete", s.handleDeleteAsset)
		r.Get("/assets/{asset}", s.handleAsset)
		// notes.go: the campaign's GM notes
		r.Get("/api/campaigns/{id}/notes", s.handleAPICampaignNotes)
		r.Put("/api/campaigns/{id}/notes", s.handleAPISetCampaignNotes)
		r.Post("/campaigns/{id}/notes", s.handleSetCampaignNotes)

		// encounters.go: making encounters
		r.Post("/campaigns/{id}/encounters/example", s.handleAddExample)
		r.Post("/campaigns/{id}/encounters/import", s.handleImportFile)
		r.Post("/api/campaigns/{id}/encounters", s.handleImportEncounter)
		r.Post("/api/encounters", s.handleImportEncounter)
		r.Get("/encounters/{id}/setup.json", s.handleEncounterSetup)
		r.Post("/encounters/{id}/duplicate", s.handleDuplicateEncounter)
		// encounter.go: the table
		r.Get("/encounters/{id}", s.handleEncounterPage)
		r.Post("/encounters/{id}/act", s.handleEncounterAct)
		r.Get("/encounters/{id}/ws", s.handleEncounterSocket)
		r.Get("/api/encounters/{id}", s.handleEncounterView)
		r.Get("/api/encounters/{id}/events", s.handleEncounterEvents)
		r.Post("/api/encounters/{id}/commands", s.handleEncounterCommand)
		r.Get("/api/encounters/{id}/why", s.handleEncounterWhy)
		r.Get("/api/encounters/{id}/ws", s.handleEncounterSocket)
		// say.go: playing by words
		r.Post("/api/encounters/{id}/say", s.handleAPISay)
		r.Get("/api/encounters/{id}/say", s.handleAPISayComplete)
		r.Post("/encounters/{id}/say", s.handleSayForm)

		// timeline.go, log.go, replay.go, export.go, chain.go: history
		r.Get("/campaigns/{id}/timeline", s.handleTimeline)
		r.Get("/encounters/{id}/log", s.handleEncounterLog)
		r.Post("/encounters/{id}/log/reveal", s.handleRevealEvent)
		r.Get("/encounters/{id}/replay", s.handleReplay)
		r.Get("/api/encounters/{id}/replay", s.handleAPIReplay)
		r.Get("/encounters/{id}/export.md", s.handleExportMarkdown)
		r.Get("/api/encounters/{id}/export.json", s.handleExportJSON)
		// chain.go
		r.Get("/api/encounters/{id}/chain", s.handleChain)

		// drafts.go
		r.Post("/campaigns/{id}/drafts", s.handleNewDraft)
		r.Post("/campaigns/{id}/drafts/import", s.handleImportDraft)
		r.Get("/drafts/{draft}", s.handleDraftPage)
		r.Post("/drafts/{draft}/edit", s.handleDraftEdit)
		r.Post("/drafts/{draft}/create", s.handleDraftCreate)
		r.Post("/drafts/{draft}/delete", s.handleDraftDelete)
		r.Post("/drafts/{draft}/import", s.handleDraftReplace)
		r.Post("/drafts/{draft}/map", s.handleDraftMap)
		r.Post("/drafts/{draft}/pictures", s.handleDraftPicture)
		r.Get("/drafts/{draft}/setup.json", s.handleDraftExport)
		// odds.go: a draft's encounter odds
		r.Get("/drafts/{draft}/odds", s.handleOdds)
		r.Post("/drafts/{draft}/odds", s.handleSimulate)
		r.Post("/drafts/{draft}/odds/cancel", s.handleCancelOdds)
		r.Get("/api/drafts/{draft}/odds", s.handleOdds)
		r.Post("/api/drafts/{draft}/odds", s.handleSimulate)
		r.Post("/api/drafts/{draft}/odds/cancel", s.handleCancelOdds)
		// statblocks.go
		r.Get("/campaigns/{id}/bestiary.json", s.handleExportBestiary)
		r.Post("/campaigns/{id}/bestiary/import", s.handleImportBestiary)
		r.Get("/campaigns/{id}/{kind:bestiary|pcs}/new", s.handleStatNew)
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}/paste", s.handleStatPaste) // statpaste.go
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}/{entry}/paste", s.handleStatPaste)
		r.Get("/campaigns/{id}/{kind:bestiary|pcs}/{entry}/export", s.handleStatExport) // statexport.go
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}/foundry", s.handleFoundryImport)    // foundry.go
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}", s.handleStatSave)
		r.Get("/campaigns/{id}/{kind:bestiary|pcs}/{entry}", s.handleStatPage)
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}/{entry}", s.handleStatSave)
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}/{entry}/delete", s.handleStatDelete)
		r.Post("/campaigns/{id}/{kind:bestiary|pcs}/{entry}/portrait", s.handleStatPortrait)
		// characters.go
		r.Get("/campaigns/{id}/characters/{character}", s.handleCharacterPage)
		r.Get("/campaigns/{id}/characters.json", s.handleExportCharacters)
		r.Post("/campaigns/{id}/characters/import", s.handleImportCharacters)
		r.Get("/api/campaigns/{id}/characters", s.handleAPICharacters)
		r.Get("/api/campaigns/{id}/characters/{character}/revisions", s.handleAPIRevisions)
		// carry.go
		r.Get("/encounters/{id}/carry-over", s.handleCarryPage)
		r.Post("/encounters/{id}/carry-over", s.handleCarryForm)
		r.Get("/api/encounters/{id}/carry-over", s.handleAPICarry)
		r.Post("/api/encounters/{id}/carry-over", s.handleAPICarryConfirm)
		// deadline.go, deadline_page.go
		r.Post("/encounters/{id}/deadline", s.handleDeadlineForm)
		r.Get("/api/encounters/{id}/deadline", s.handleGetDeadline)
		r.Put("/api/encounters/{id}/deadline", s.handlePutDeadline)
		r.Delete("/api/encounters/{id}/deadline", s.handleDeleteDeadline)
		r.Put("/api/encounters/{id}/deadline/on", s.handleSwitchDeadline)
		r.Get("/api/encounters/{id}/clock", s.handleClock)
		// act.go: acting from a notice's link
		r.Get("/act/{token}", s.handleActPage)
		r.Post("/act/{token}", s.handleActAnswer)
		r.Get("/api/act/{token}", s.handleAPIActGet)
		r.Post("/api/act/{token}", s.handleAPIAct)
		// orders.go: standing orders
		r.Get("/encounters/{id}/orders", s.handleOrdersPage)
		r.Post("/encounters/{id}/orders", s.handleOrdersForm)
		r.Get("/api/encounters/{id}/orders", s.handleAPIOrders)
		r.Put("/api/encounters/{id}/orders", s.handleAPISetOrders)
		// rulesets.go
		r.Get("/api/rulesets", s.handleRulesets)
	})
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, fray.Errorf(fray.ENOTFOUND, "no such page"))
	})
	return r
}
