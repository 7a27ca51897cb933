package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// CampaignNotes keeps the GMs' private notes on a campaign; *store.DB is
// one (a read and a write: nothing is left to do but store them).
type CampaignNotes interface {
	CampaignNotes(ctx context.Context, campaignID string) (string, error)
	SetCampaignNotes(ctx context.Context, campaignID, notes string) error
}

// maxCampaignNotes bounds the campaign's notes, in characters.
const maxCampaignNotes = 20000

func checkNotes(notes string) error {
	if !utf8.ValidString(notes) || strings.ContainsRune(notes, 0) {
		return fray.Errorf(fray.EINVALID, "the notes are not valid text")
	}
	if n := utf8.RuneCountInString(notes); n > maxCampaignNotes {
		return fray.Errorf(fray.EINVALID, "notes are at most %d characters, these have %d", maxCampaignNotes, n)
	}
	return nil
}

// handleAPICampaignNotes reads the GMs' notes: GET
// /api/campaigns/{id}/notes (GMs) → {"notes"}.
func (s *Server) handleAPICampaignNotes(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	notes, err := s.Notes.CampaignNotes(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"notes": notes})
}

// handleAPISetCampaignNotes replaces them: PUT /api/campaigns/{id}/notes
// (GMs) with {"notes"}.
func (s *Server) handleAPISetCampaignNotes(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	var body struct {
		Notes string `json:"notes"`
	}
	err := readJSON(r, &body)
	if err == nil {
		err = checkNotes(body.Notes)
	}
	if err == nil {
		err = s.Notes.SetCampaignNotes(r.Context(), m.campaign, body.Notes)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"notes": body.Notes})
}

// handleSetCampaignNotes is the campaign page's form: POST
// /campaigns/{id}/notes (GMs), notes.
func (s *Server) handleSetCampaignNotes(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	back := "/campaigns/" + url.PathEscape(m.campaign) + "#gm-notes"
	err := r.ParseForm()
	if err == nil {
		err = checkNotes(r.PostForm.Get("notes"))
	}
	if err == nil {
		err = s.Notes.SetCampaignNotes(r.Context(), m.campaign, r.PostForm.Get("notes"))
	}
	if err != nil {
		setFlash(w, r, flashError, "The notes were not saved: "+errMessage(err))
	} else {
		setFlash(w, r, flashNotice, "Notes saved.")
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}
