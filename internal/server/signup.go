package server

import (
	"net/http"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

// handleSignupPage: GET /signup?next=PATH
func (s *Server) handleSignupPage(w http.ResponseWriter, r *http.Request) {
	render(w, r, web.AuthForm(web.AuthFormProps{Mode: "signup", Next: localPath(r.URL.Query().Get("next"))}))
}

// handleSignup creates an account and signs it in: POST /signup (name,
// password, password2, next).
func (s *Server) handleSignup(w http.ResponseWriter, r *http.Request) {
	f := readAuthForm(r, "signup")
	if !s.allowAuth(w, r, f, "Too many sign-ups from here. Wait a minute and try again.") {
		return
	}
	u, err := s.Accounts.Signup(r.Context(), f.name, f.password, r.PostFormValue("password2"))
	if err != nil {
		f.fail(w, r, failStatus(r, err), errMessage(err))
		return
	}
	// An account made from an invite's page was made to join: it joins at
	// once and lands in the campaign, instead of being shown the invite
	// again to click "Join". (Logging in to an existing account from the
	// invite still asks, as that account may not be the one meant.)
	if token, ok := strings.CutPrefix(f.next, "/join/"); ok && token != "" && !strings.Contains(token, "/") {
		if err := s.startSession(w, r, u.ID); err != nil {
			writeError(w, r, err)
			return
		}
		c, _, err := s.Invites.Join(r.Context(), token, u.ID)
		if err != nil { // an invite gone stale meanwhile: its page says why
			http.Redirect(w, r, f.next, http.StatusSeeOther)
			return
		}
		campaignRedirect(w, r, c.ID, flashNotice, "Welcome to "+c.Name+".")
		return
	}
	s.signIn(w, r, u.ID, f.next)
}

// handleAPISignup creates an account and returns an API token for it, for
// bots and load generators: POST /api/signup {"name","password","tokenName"}.
func (s *Server) handleAPISignup(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name      string `json:"name"`
		Password  string `json:"password"`
		TokenName string `json:"tokenName"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if ok, err := s.allow(r, "signup:"+s.clientIP(r)); err != nil {
		writeError(w, r, err)
		return
	} else if !ok {
		writeError(w, r, fray.Errorf(fray.ERATELIMIT, "too many sign-ups from here; wait a minute"))
		return
	}
	u, err := s.Accounts.Signup(r.Context(), req.Name, req.Password, req.Password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if req.TokenName == "" {
		req.TokenName = "signup"
	}
	token, tokenID, err := s.Tokens.CreateToken(r.Context(), u.ID, req.TokenName)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": u.ID, "name": req.Name, "token": token, "tokenId": tokenID})
}
