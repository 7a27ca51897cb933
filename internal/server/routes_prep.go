package server

import (
	"context"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/store"
)

// prepRoutes are the GM's encounter preparation pages: drafts, the
// encounter editor, bestiary and characters, import and export. Paths are
// relative to the authenticated group.
func (s *Server) prepRoutes(r chi.Router) {
	r.Post("/campaigns/{id}/drafts", s.handleNewDraft)
	r.Post("/campaigns/{id}/drafts/import", s.handleImportDraft)
	r.Get("/drafts/{draft}", s.handleDraftPage)
	r.Post("/drafts/{draft}/edit", s.handleDraftEdit)
	r.Post("/drafts/{draft}/create", s.handleDraftCreate)
	r.Post("/drafts/{draft}/delete", s.handleDraftDelete)
	r.Post("/drafts/{draft}/import", s.handleDraftReplace)
	r.Get("/drafts/{draft}/setup.json", s.handleDraftExport)
	r.Get("/drafts/{draft}/odds", s.handleOdds)
	r.Post("/drafts/{draft}/odds", s.handleSimulate)
	r.Post("/drafts/{draft}/odds/cancel", s.handleCancelOdds)
	r.Get("/encounters/{id}/setup.json", s.handleEncounterSetup)
	r.Post("/encounters/{id}/duplicate", s.handleDuplicateEncounter)

	r.Get("/campaigns/{id}/bestiary.json", s.handleExportBestiary)
	r.Post("/campaigns/{id}/bestiary/import", s.handleImportBestiary)
	r.Get("/campaigns/{id}/{kind:bestiary|pcs}/new", s.handleStatNew)
	r.Post("/campaigns/{id}/{kind:bestiary|pcs}", s.handleStatSave)
	r.Get("/campaigns/{id}/{kind:bestiary|pcs}/{entry}", s.handleStatPage)
	r.Post("/campaigns/{id}/{kind:bestiary|pcs}/{entry}", s.handleStatSave)
	r.Post("/campaigns/{id}/{kind:bestiary|pcs}/{entry}/delete", s.handleStatDelete)
}

// PrepStore is the persistence the preparation pages need beyond Store;
// *store.DB provides it.
type PrepStore interface {
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	CreateDraft(ctx context.Context, d store.Draft) (store.Draft, error)
	Draft(ctx context.Context, id string) (store.Draft, error)
	Drafts(ctx context.Context, campaignID string) ([]store.Draft, error)
	UpdateDraft(ctx context.Context, id, name string, setup []byte) error
	DeleteDraft(ctx context.Context, id string) error
	StatBlocks(ctx context.Context, kind, campaignID string) ([]store.StatBlock, error)
	StatBlock(ctx context.Context, kind, campaignID, id string) (store.StatBlock, error)
	SaveStatBlocks(ctx context.Context, kind string, create bool, bs []store.StatBlock) error
	DeleteStatBlock(ctx context.Context, kind, campaignID, id string) error
}

// prep returns the store's preparation side; the server's store must
// implement it when prepRoutes are mounted.
func (s *Server) prep() PrepStore {
	ps, ok := s.store.(PrepStore)
	if !ok {
		panic("server: the store does not support encounter preparation")
	}
	return ps
}
