package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/characters"
	"github.com/fray-vtt/fray/internal/prep"
)

// handleStatExport downloads one bestiary entry or character sheet as a
// file the campaign's import reads back unchanged: GET
// /campaigns/{id}/{bestiary|pcs}/{entry}/export (GMs). A bestiary entry
// is a bestiary file of one entry; a character is a characters file of
// one sheet without its history (Export characters keeps the history),
// so that importing it and exporting it again gives the same bytes.
func (s *Server) handleStatExport(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind := chi.URLParam(r, "kind")
	b, err := s.StatBlocks.StatBlock(r.Context(), storeKind(kind), m.campaign, chi.URLParam(r, "entry"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	if kind == "pcs" {
		writeJSONFile(w, b.ID+".json", []characters.Entry{{ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Stats: b.Stats, Portrait: b.Portrait}})
		return
	}
	writeJSONFile(w, b.ID+".json", []prep.BestiaryEntry{{ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Stats: b.Stats, Portrait: b.Portrait}})
}
