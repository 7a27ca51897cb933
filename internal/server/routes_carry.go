package server

import (
	"context"
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// carryRoutes are the campaign characters' pages and API and the GM's
// carry-over of an encounter's results to them. routes.go calls it inside
// the authenticated group.
func (s *Server) carryRoutes(r chi.Router) {
	r.Get("/encounters/{id}/carry-over", s.handleCarryPage)
	r.Post("/encounters/{id}/carry-over", s.handleCarryForm)
	r.Get("/campaigns/{id}/characters/{character}", s.handleCharacterPage)
	r.Get("/campaigns/{id}/characters.json", s.handleExportCharacters)
	r.Post("/campaigns/{id}/characters/import", s.handleImportCharacters)

	r.Get("/api/encounters/{id}/carry-over", s.handleAPICarry)
	r.Post("/api/encounters/{id}/carry-over", s.handleAPICarryConfirm)
	r.Get("/api/campaigns/{id}/characters", s.handleAPICharacters)
	r.Get("/api/campaigns/{id}/characters/{character}/revisions", s.handleAPIRevisions)
}

// CharacterStore is the persistence of versioned characters and
// carry-overs; *store.DB provides it.
type CharacterStore interface {
	carry.Store
	Character(ctx context.Context, campaignID, id string) (store.Character, error)
	Revisions(ctx context.Context, campaignID, characterID string) ([]store.Revision, error)
	EncounterRevisions(ctx context.Context, campaignID string) ([]store.Revision, error)
	SaveCharacter(ctx context.Context, s store.CharacterSave) (int, error)
	ImportCharacters(ctx context.Context, campaignID string, cs []store.CharacterImport) error
}

// characters returns the store's character side; the server's store must
// implement it when carryRoutes are mounted.
func (s *Server) characters() CharacterStore {
	cs, ok := s.store.(CharacterStore)
	if !ok {
		panic("server: the store does not keep character revisions")
	}
	return cs
}

func (s *Server) carryService() *carry.Service { return carry.New(s.characters(), s.rules) }

// encounterGM resolves the request's encounter {id} for a GM of its
// campaign; anyone else is refused (non-members with 404). On error it has
// answered.
func (s *Server) encounterGM(w http.ResponseWriter, r *http.Request) (membership, string, bool) {
	if _, ok := s.requireUser(w, r); !ok {
		return membership{}, "", false
	}
	id := chi.URLParam(r, "id")
	campaignID, err := s.store.EncounterCampaign(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return membership{}, "", false
	}
	m, ok := s.gmOf(w, r, campaignID)
	return m, id, ok
}

// characterOf resolves the request's character {character} of campaign
// {id} for someone who may see it: the campaign's GMs and the player who
// owns it. Anyone else is told it does not exist, as for an unknown one,
// so players cannot learn about others' characters. On error it has
// answered.
func (s *Server) characterOf(w http.ResponseWriter, r *http.Request) (membership, store.Character, bool) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return membership{}, store.Character{}, false
	}
	id := chi.URLParam(r, "character")
	if !m.gm() {
		mine, err := s.store.UserCharacters(r.Context(), m.campaign, m.user.ID)
		if err != nil {
			writeError(w, r, err)
			return membership{}, store.Character{}, false
		}
		if !slices.Contains(mine, id) {
			writeError(w, r, fray.Errorf(fray.ENOTFOUND, "character %q not found", id))
			return membership{}, store.Character{}, false
		}
	}
	ch, err := s.characters().Character(r.Context(), m.campaign, id)
	if err != nil {
		writeError(w, r, err)
		return membership{}, store.Character{}, false
	}
	return m, ch, true
}

// visibleCharacters are the ids of the campaign's characters m may see:
// nil means all (GMs).
func (s *Server) visibleCharacters(ctx context.Context, m membership) (map[string]bool, error) {
	if m.gm() {
		return nil, nil
	}
	mine, err := s.store.UserCharacters(ctx, m.campaign, m.user.ID)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, id := range mine {
		out[id] = true
	}
	return out, nil
}
