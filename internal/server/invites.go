package server

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Invites are the campaigns' invite links; *campaigns.Service keeps them.
type Invites interface {
	// Invite makes an invite link's token (shown once).
	Invite(ctx context.Context, campaignID, byUserID string) (string, error)
	RevokeInvite(ctx context.Context, campaignID, inviteID string) error
	// Invitation is the campaign a token invites to; ENOTFOUND for an
	// unknown, revoked or expired one.
	Invitation(ctx context.Context, token string) (store.Campaign, error)
	// Join makes userID a member of the campaign the token invites to and
	// returns it with their role there.
	Join(ctx context.Context, token, userID string) (store.Campaign, string, error)
}

// inviteURL is the link a player follows to join.
func inviteURL(r *http.Request, token string) string { return baseURL(r) + "/join/" + token }

// handleCreateInvite makes an invite link and shows it once:
// POST /campaigns/{id}/invites (GMs).
func (s *Server) handleCreateInvite(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	token, err := s.Invites.Invite(r.Context(), m.campaign, m.user.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.renderCampaign(w, r, m, inviteURL(r, token), "Invite link created. Send it to your players; it works for 7 days.", "")
}

// handleRevokeInvite: POST /campaigns/{id}/invites/{inviteID}/revoke (GMs).
func (s *Server) handleRevokeInvite(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.Invites.RevokeInvite(r.Context(), m.campaign, chi.URLParam(r, "inviteID")); err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Invite revoked.")
}

// handleAPICreateInvite makes an invite link: POST /api/campaigns/{id}/invites
// (GMs) → {"url":"…"}.
func (s *Server) handleAPICreateInvite(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	token, err := s.Invites.Invite(r.Context(), m.campaign, m.user.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"url": inviteURL(r, token)})
}

// handleJoinPage shows an invite: sign up or log in, then join:
// GET /join/{token}.
func (s *Server) handleJoinPage(w http.ResponseWriter, r *http.Request) {
	token := chi.URLParam(r, "token")
	p := web.JoinProps{Token: token}
	if u := userFrom(r); u != nil {
		p.User = u.Name
	}
	c, err := s.Invites.Invitation(r.Context(), token)
	if err != nil {
		w.WriteHeader(failStatus(r, err))
		p.Error = errMessage(err)
		if errCode(err) == fray.ENOTFOUND {
			p.Error = "This invite link is not valid. Ask your GM for a new one."
		}
	}
	p.CampaignName = c.Name
	render(w, r, web.Join(p))
}

// handleJoin accepts an invite for the signed-in user: POST /join/{token}.
func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	c, _, err := s.Invites.Join(r.Context(), chi.URLParam(r, "token"), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	campaignRedirect(w, r, c.ID, flashNotice, "Welcome to "+c.Name+".")
}

// handleAPIJoin accepts an invite for the caller: POST /api/join/{token}.
func (s *Server) handleAPIJoin(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	c, role, err := s.Invites.Join(r.Context(), chi.URLParam(r, "token"), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, campaignJSON{ID: c.ID, Name: c.Name, Role: role})
}
