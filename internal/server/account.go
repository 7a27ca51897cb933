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

// changePassword counts the attempt against the user's rate limit and
// changes the password (Accounts.ChangePassword).
func (s *Server) changePassword(r *http.Request, current, password string) error {
	u := userFrom(r)
	if ok, err := s.allow(r, "password:"+u.ID); err != nil {
		return err
	} else if !ok {
		return fray.Errorf(fray.ERATELIMIT, "too many attempts; wait a minute and try again")
	}
	return s.Accounts.ChangePassword(r.Context(), *u, current, password)
}

// handleChangePassword checks the current password, sets the new one,
// signs out every other session, revokes every API token (whoever knew the
// old password may have made one) and keeps this browser signed in:
// POST /account/password (current, password, password2).
func (s *Server) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	password := r.PostFormValue("password")
	if password != r.PostFormValue("password2") {
		accountRedirect(w, r, flashError, "The two new passwords differ.")
		return
	}
	if err := s.changePassword(r, r.PostFormValue("current"), password); err != nil {
		if errCode(err) == fray.EINTERNAL || errCode(err) == fray.EUNAVAILABLE {
			writeError(w, r, err)
			return
		}
		accountRedirect(w, r, flashError, errMessage(err))
		return
	}
	if err := s.startSession(w, r, u.ID); err != nil {
		writeError(w, r, err)
		return
	}
	accountRedirect(w, r, flashNotice, "Password changed. Every other session was signed out and every API token revoked.")
}

// handleAPIChangePassword: POST /api/password {"current","password"} → 204.
// Every session and API token of the user ends, the caller's too.
func (s *Server) handleAPIChangePassword(w http.ResponseWriter, r *http.Request) {
	if _, ok := requireUser(w, r); !ok {
		return
	}
	var req struct {
		Current  string `json:"current"`
		Password string `json:"password"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.changePassword(r, req.Current, req.Password); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleSignOutEverywhere ends every session of the user, this browser's
// too, and revokes every API token; the browser goes to log in:
// POST /account/signout-everywhere.
func (s *Server) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	if _, _, err := s.Accounts.SignOutEverywhere(r.Context(), u.ID); err != nil {
		writeError(w, r, err)
		return
	}
	s.endSession(w, r)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// handleAPISignOutEverywhere: POST /api/signout-everywhere → 200
// {"sessions","tokens"}: how many sessions ended and tokens were revoked,
// the caller's token among them.
func (s *Server) handleAPISignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	sessions, tokens, err := s.Accounts.SignOutEverywhere(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"sessions": sessions, "tokens": tokens})
}

// handleAPIMe returns the caller: GET /api/me.
func (s *Server) handleAPIMe(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": u.ID, "name": u.Name})
}
