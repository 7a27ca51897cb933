package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
)

// characterJSON is a campaign character in the API and in characters files.
type characterJSON struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Ruleset   string          `json:"ruleset"`
	Revision  int             `json:"revision,omitempty"`
	Stats     json.RawMessage `json:"stats"`
	Revisions []revisionJSON  `json:"revisions,omitempty"`
}

// revisionJSON is one revision of a character.
type revisionJSON struct {
	Revision      int             `json:"revision"`
	Kind          string          `json:"kind"`
	Name          string          `json:"name,omitempty"`
	Stats         json.RawMessage `json:"stats"`
	Changes       []sheet.Change  `json:"changes"`
	EncounterID   string          `json:"encounterId,omitempty"`
	EncounterName string          `json:"encounterName,omitempty"`
	By            string          `json:"by,omitempty"`
	At            time.Time       `json:"at"`
}

func revisionOut(v store.Revision) revisionJSON {
	changes := v.Changes
	if changes == nil {
		changes = []sheet.Change{}
	}
	return revisionJSON{Revision: v.Revision, Kind: v.Kind, Name: v.Name, Stats: v.Stats, Changes: changes,
		EncounterID: v.EncounterID, EncounterName: v.EncounterName, By: v.UserName, At: v.CreatedAt.UTC()}
}

// handleAPICharacters lists the campaign characters the caller may see
// (GMs: all; players: their own) with their current stats: GET
// /api/campaigns/{id}/characters.
func (s *Server) handleAPICharacters(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	ctx := r.Context()
	visible, err := s.visibleCharacters(ctx, m)
	if err != nil {
		writeError(w, r, err)
		return
	}
	chars, err := s.characters().Characters(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := []characterJSON{}
	for _, c := range chars {
		if visible == nil || visible[c.ID] {
			out = append(out, characterJSON{ID: c.ID, Name: c.Name, Ruleset: c.Ruleset, Revision: c.Revision, Stats: c.Stats})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPIRevisions returns a character with its revisions, newest first,
// to the GMs and the player who owns it: GET
// /api/campaigns/{id}/characters/{character}/revisions.
func (s *Server) handleAPIRevisions(w http.ResponseWriter, r *http.Request) {
	m, ch, ok := s.characterOf(w, r)
	if !ok {
		return
	}
	revs, err := s.characters().Revisions(r.Context(), m.campaign, ch.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := struct {
		Character characterJSON  `json:"character"`
		Revisions []revisionJSON `json:"revisions"`
	}{characterJSON{ID: ch.ID, Name: ch.Name, Ruleset: ch.Ruleset, Revision: ch.Revision, Stats: ch.Stats}, []revisionJSON{}}
	for _, v := range revs {
		out.Revisions = append(out.Revisions, revisionOut(v))
	}
	writeJSON(w, http.StatusOK, out)
}
