package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
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
// signs out every other session and keeps this browser signed in.
func (s *Server) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	u, ok := s.requireUser(w, r)
	if !ok {
		return
	}
	if ok, err := s.allow(r, "password:"+u.ID); err != nil {
		writeError(w, r, err)
		return
	} else if !ok {
		accountRedirect(w, r, "error", "Too many attempts. Wait a minute and try again.")
		return
	}
	if !auth.CheckPassword(u.PasswordHash, r.PostFormValue("current")) {
		accountRedirect(w, r, "error", "Your current password is wrong.")
		return
	}
	password := r.PostFormValue("password")
	if err := auth.ValidatePassword(password); err != nil {
		accountRedirect(w, r, "error", errMessage(err))
		return
	}
	if password != r.PostFormValue("password2") {
		accountRedirect(w, r, "error", "The two new passwords differ.")
		return
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.store.SetPassword(r.Context(), u.ID, hash); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.startSession(w, r, u.ID); err != nil {
		writeError(w, r, err)
		return
	}
	accountRedirect(w, r, "notice", "Password changed. Every other session was signed out.")
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
