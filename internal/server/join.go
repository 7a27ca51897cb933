package server

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

// handleJoinPage shows an invite: sign up or log in, then join.
func (s *Server) handleJoinPage(w http.ResponseWriter, r *http.Request) {
	token := chi.URLParam(r, "token")
	p := web.JoinProps{Token: token}
	if u := userFrom(r); u != nil {
		p.User = u.Name
	}
	_, c, err := s.store.InviteByToken(r.Context(), auth.HashToken(token), time.Now())
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

// handleJoin accepts an invite for the signed-in user.
func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	c, err := s.store.AcceptInvite(r.Context(), auth.HashToken(chi.URLParam(r, "token")), u.ID, time.Now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	campaignRedirect(w, r, c.ID, "notice", "Welcome to "+c.Name+".")
}
