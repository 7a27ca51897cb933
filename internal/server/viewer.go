package server

import (
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// membership is a signed-in user's place in one campaign.
type membership struct {
	user     *store.User
	campaign string
	role     string
}

func (m membership) gm() bool { return m.role == store.RoleGM }

// member resolves the signed-in user's role in campaignID. Non-members are
// told the campaign does not exist, so its existence is not revealed.
func (s *Server) member(w http.ResponseWriter, r *http.Request, campaignID string) (membership, bool) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return membership{}, false
	}
	role, err := s.store.Membership(r.Context(), campaignID, u.ID)
	if err != nil {
		if fray.ErrorCode(err) == fray.ENOTFOUND {
			err = fray.Errorf(fray.ENOTFOUND, "no such campaign")
		}
		writeError(w, r, err)
		return membership{}, false
	}
	return membership{user: u, campaign: campaignID, role: role}, true
}

// gmOf is member, refusing anyone but the campaign's GMs.
func (s *Server) gmOf(w http.ResponseWriter, r *http.Request, campaignID string) (membership, bool) {
	m, ok := s.member(w, r, campaignID)
	if ok && !m.gm() {
		writeError(w, r, fray.Errorf(fray.EFORBIDDEN, "only the campaign's GMs may do that"))
		return membership{}, false
	}
	return m, ok
}

// viewedEncounter is the encounter of a request's {id} as its user sees it.
type viewedEncounter struct {
	membership
	id      string
	as      string // the ?as= a GM previews the page with, "" otherwise
	ruleset engine.Ruleset
	state   engine.State
	viewer  engine.Viewer
}

// viewed loads the request's encounter and the viewer its user is: the GM
// (who may preview as a player character with ?as=ID), or a player
// commanding the characters they own in the campaign. Non-members get 404.
// On error it has answered.
func (s *Server) viewed(w http.ResponseWriter, r *http.Request) (viewedEncounter, bool) {
	if _, ok := s.requireUser(w, r); !ok {
		return viewedEncounter{}, false
	}
	id := chi.URLParam(r, "id")
	campaignID, err := s.store.EncounterCampaign(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	m, ok := s.member(w, r, campaignID)
	if !ok {
		return viewedEncounter{}, false
	}
	rs, st, err := s.play.Current(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	e := viewedEncounter{membership: m, id: id, ruleset: rs, state: st}
	if m.gm() {
		e.viewer = engine.GMViewer()
		if as := r.URL.Query().Get("as"); as != "" && as != engine.GM {
			c := st.Core().Combatant(as)
			if c == nil || !c.PC {
				writeError(w, r, fray.Errorf(fray.EINVALID, "preview as %q, or as one of the player characters", engine.GM))
				return viewedEncounter{}, false
			}
			e.viewer, e.as = engine.PlayerViewer(c.ID), c.ID
		}
		e.viewer.Name = m.user.Name // chat messages carry it
		return e, true
	}
	owned, err := s.store.UserCharacters(r.Context(), campaignID, m.user.ID)
	if err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	owned = slices.DeleteFunc(owned, func(cid string) bool { return st.Core().Combatant(cid) == nil })
	e.viewer = engine.PlayerViewer(owned...)
	e.viewer.Name = m.user.Name
	return e, true
}
