package server

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
)

// Members are who is in a campaign as what, and who plays which
// character; *campaigns.Service keeps them.
type Members interface {
	// SetRole changes a member's role; ENOTFOUND for a non-member.
	SetRole(ctx context.Context, campaignID, userID, role string) error
	RemoveMember(ctx context.Context, campaignID, userID string) error
	// AssignCharacter gives a character to a member; userID empty: to nobody.
	AssignCharacter(ctx context.Context, campaignID, characterID, userID string) error
}

// handleMemberRole: POST /campaigns/{id}/members/{userID}/role (role; GMs).
func (s *Server) handleMemberRole(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.Members.SetRole(r.Context(), m.campaign, chi.URLParam(r, "userID"), r.PostFormValue("role")); err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Role changed.")
}

// handleRemoveMember: POST /campaigns/{id}/members/{userID}/remove (GMs).
func (s *Server) handleRemoveMember(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.Members.RemoveMember(r.Context(), m.campaign, chi.URLParam(r, "userID")); err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Member removed.")
}

// handleAssignCharacter gives a player character to a member (or nobody):
// POST /campaigns/{id}/characters (character, user; GMs).
func (s *Server) handleAssignCharacter(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	user := r.PostFormValue("user")
	if err := s.Members.AssignCharacter(r.Context(), m.campaign, r.PostFormValue("character"), user); err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	msg := "Character assigned."
	if user == "" {
		msg = "Character unassigned."
	}
	campaignRedirect(w, r, m.campaign, flashNotice, msg)
}

// handleAPIAssignCharacter gives a character to a member:
// PUT /api/campaigns/{id}/characters/{characterID} {"user":"<user id or empty>"} (GMs).
func (s *Server) handleAPIAssignCharacter(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	var req struct {
		User string `json:"user"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Members.AssignCharacter(r.Context(), m.campaign, chi.URLParam(r, "characterID"), req.User); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"character": chi.URLParam(r, "characterID"), "user": req.User})
}
