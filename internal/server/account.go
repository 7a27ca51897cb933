package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// handleAccount shows the password form and the user's API tokens.
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	s.renderAccount(w, r, u.ID, u.Name, "", takeFlash(w, r, flashNotice), takeFlash(w, r, flashError))
}

func (s *Server) renderAccount(w http.ResponseWriter, r *http.Request, userID, name, newToken, notice, errMsg string) {
	tokens, err := s.store.APITokens(r.Context(), userID)
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
// signs out every other session, revokes every API token (whoever knew the
// old password may have made one) and keeps this browser signed in.
func (s *Server) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	password := r.PostFormValue("password")
	if password != r.PostFormValue("password2") {
		accountRedirect(w, r, "error", "The two new passwords differ.")
		return
	}
	if err := s.changePassword(r, u, r.PostFormValue("current"), password); err != nil {
		if errCode(err) == fray.EINTERNAL || errCode(err) == fray.EUNAVAILABLE {
			writeError(w, r, err)
			return
		}
		accountRedirect(w, r, "error", errMessage(err))
		return
	}
	if err := s.startSession(w, r, u.ID); err != nil {
		writeError(w, r, err)
		return
	}
	accountRedirect(w, r, "notice", "Password changed. Every other session was signed out and every API token revoked.")
}

// changePassword sets u's password after checking the current one and the
// new one's rules; it ends every session and revokes every token of u's.
func (s *Server) changePassword(r *http.Request, u *store.User, current, password string) error {
	if ok, err := s.allow(r, "password:"+u.ID); err != nil {
		return err
	} else if !ok {
		return fray.Errorf(fray.ERATELIMIT, "too many attempts; wait a minute and try again")
	}
	if !auth.CheckPassword(u.PasswordHash, current) {
		return fray.Errorf(fray.EFORBIDDEN, "your current password is wrong")
	}
	if err := auth.ValidatePassword(password, u.Name); err != nil {
		return err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	return s.store.SetPassword(r.Context(), u.ID, hash)
}

// handleAPIChangePassword: POST /api/password {"current","password"} → 204.
// Every session and API token of the user ends, the caller's too.
func (s *Server) handleAPIChangePassword(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
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
	if err := s.changePassword(r, u, req.Current, req.Password); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleSignOutEverywhere ends every session of the user, this browser's
// too, and revokes every API token; the browser goes to log in.
func (s *Server) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	if _, _, err := s.store.SignOutEverywhere(r.Context(), u.ID); err != nil {
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
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	sessions, tokens, err := s.store.SignOutEverywhere(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"sessions": sessions, "tokens": tokens})
}

// handleCreateToken makes a personal access token and shows it once.
func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	token, _, err := s.createToken(r, u.ID, r.PostFormValue("name"))
	if err != nil {
		accountRedirect(w, r, "error", errMessage(err))
		return
	}
	s.renderAccount(w, r, u.ID, u.Name, token, "Token created. Copy it now: it is not shown again.", "")
}

// createToken makes a personal access token and returns it (shown once)
// and its id.
func (s *Server) createToken(r *http.Request, userID, name string) (string, string, error) {
	if name == "" || len(name) > 100 {
		return "", "", fray.Errorf(fray.EINVALID, "give the token a name of 1–100 characters")
	}
	token, hash := auth.NewToken(tokenPrefix)
	t, err := s.store.CreateAPIToken(r.Context(), userID, name, hash)
	if err != nil {
		return "", "", err
	}
	return token, t.ID, nil
}

func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	if err := s.store.RevokeAPIToken(r.Context(), u.ID, chi.URLParam(r, "tokenID")); err != nil {
		accountRedirect(w, r, "error", errMessage(err))
		return
	}
	accountRedirect(w, r, "notice", "Token revoked.")
}
