package server

import (
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/store"
)

// inviteTTL is how long an invite link works.
const inviteTTL = 7 * 24 * time.Hour

// handleCreateCampaign makes the signed-in user the GM of a new campaign.
func (s *Server) handleCreateCampaign(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	c, err := s.store.CreateCampaignFor(r.Context(), r.PostFormValue("name"), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	campaignRedirect(w, r, c.ID, flashNotice, "Created "+c.Name+". Add an encounter below, then invite your players.")
}

// handleCreateInvite makes an invite link and shows it once.
func (s *Server) handleCreateInvite(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	link, err := s.createInvite(r, m)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.renderCampaign(w, r, m, link, "Invite link created. Send it to your players; it works for 7 days.", "")
}

func (s *Server) createInvite(r *http.Request, m membership) (string, error) {
	token, hash := auth.NewToken("")
	if _, err := s.store.CreateInvite(r.Context(), m.campaign, m.user.ID, hash, time.Now().Add(inviteTTL)); err != nil {
		return "", err
	}
	return baseURL(r) + "/join/" + token, nil
}

func (s *Server) handleRevokeInvite(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.store.RevokeInvite(r.Context(), m.campaign, chi.URLParam(r, "inviteID")); err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Invite revoked.")
}

func (s *Server) handleMemberRole(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	target := chi.URLParam(r, "userID")
	if _, err := s.store.Membership(r.Context(), m.campaign, target); err != nil {
		campaignRedirect(w, r, m.campaign, "error", "That person is not a member.")
		return
	}
	if err := s.store.SetMember(r.Context(), m.campaign, target, r.PostFormValue("role")); err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Role changed.")
}

func (s *Server) handleRemoveMember(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.store.RemoveMember(r.Context(), m.campaign, chi.URLParam(r, "userID")); err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Member removed.")
}

// handleAssignCharacter gives a player character to a member (or nobody).
func (s *Server) handleAssignCharacter(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.store.AssignCharacter(r.Context(), m.campaign, r.PostFormValue("character"), r.PostFormValue("user")); err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	msg := "Character assigned."
	if r.PostFormValue("user") == "" {
		msg = "Character unassigned."
	}
	campaignRedirect(w, r, m.campaign, "notice", msg)
}

// handleAddExample adds one of the shipped example encounters.
func (s *Server) handleAddExample(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	ex, err := prep.ExampleNamed(r.PostFormValue("example"))
	if err == nil {
		_, err = prep.Import(r.Context(), s.store, s.rules, m.campaign, ex.Data)
	}
	if err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Added "+ex.Title+".")
}

// handleImportFile imports an uploaded encounter file; a bad file stores nothing.
func (s *Server) handleImportFile(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	f, _, err := r.FormFile("file")
	if err != nil {
		campaignRedirect(w, r, m.campaign, "error", "Choose an encounter file (JSON, at most 1 MiB).")
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, prep.MaxSetupBytes+1))
	if err == nil {
		var e store.Encounter
		e, err = prep.Import(r.Context(), s.store, s.rules, m.campaign, data)
		if err == nil {
			campaignRedirect(w, r, m.campaign, "notice", "Imported "+e.Name+".")
			return
		}
	}
	campaignRedirect(w, r, m.campaign, "error", "The file was not imported: "+errMessage(err))
}
