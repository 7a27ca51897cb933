package server

import (
	"net/http"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

// handleAccount shows the password form and the user's API tokens:
// GET /account.
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	s.renderAccount(w, r, u.ID, u.Name, "", takeFlash(w, r, flashNotice), takeFlash(w, r, flashError))
}

func (s *Server) renderAccount(w http.ResponseWriter, r *http.Request, userID, name, newToken, notice, errMsg string) {
	tokens, err := s.Tokens.Tokens(r.Context(), userID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.AccountProps{User: name, NewToken: newToken, Notice: notice, Error: errMsg}
	for _, t := range tokens {
		row := web.TokenRow{ID: t.ID, Name: t.Name, Created: t.CreatedAt.Format("2006-01-02"), LastUsed: "never", Revoked: t.RevokedAt != nil}
		if t.LastUsedAt != nil {
			row.LastUsed = t.LastUsedAt.Format("2006-01-02 15:04")
		}
		p.Tokens = append(p.Tokens, row)
	}
	render(w, r, web.Account(p))
}

func accountRedirect(w http.ResponseWriter, r *http.Request, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/account", http.StatusSeeOther)
}

// handleChangePassword checks the current password, sets the new one,
// signs out every other session and keeps this browser signed in:
// POST /account/password (current, password, password2).
func (s *Server) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	if ok, err := s.allow(r, "password:"+u.ID); err != nil {
		writeError(w, r, err)
		return
	} else if !ok {
		accountRedirect(w, r, flashError, "Too many attempts. Wait a minute and try again.")
		return
	}
	err := s.Accounts.ChangePassword(r.Context(), *u, r.PostFormValue("current"), r.PostFormValue("password"), r.PostFormValue("password2"))
	if errCode(err) == fray.EINVALID {
		accountRedirect(w, r, flashError, errMessage(err))
		return
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.startSession(w, r, u.ID); err != nil {
		writeError(w, r, err)
		return
	}
	accountRedirect(w, r, flashNotice, "Password changed. Every other session was signed out.")
}

// handleAPIMe returns the caller: GET /api/me.
func (s *Server) handleAPIMe(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": u.ID, "name": u.Name})
}
