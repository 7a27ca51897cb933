package server

import (
	"net/http"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

const badLogin = "Wrong name or password."

func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	render(w, r, web.AuthForm(web.AuthFormProps{Mode: "login", Next: localPath(r.URL.Query().Get("next"))}))
}

func (s *Server) handleSignupPage(w http.ResponseWriter, r *http.Request) {
	render(w, r, web.AuthForm(web.AuthFormProps{Mode: "signup", Next: localPath(r.URL.Query().Get("next"))}))
}

// handleLogin signs a user in. Unknown names and wrong passwords get the
// same answer after the same work, so names cannot be probed.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	name, password, next := r.PostFormValue("name"), r.PostFormValue("password"), localPath(r.PostFormValue("next"))
	fail := func(status int, msg string) {
		w.WriteHeader(status)
		render(w, r, web.AuthForm(web.AuthFormProps{Mode: "login", Next: next, Name: name, Error: msg}))
	}
	if ok, err := s.allow(r, "login:"+s.clientIP(r)); err != nil {
		writeError(w, r, err)
		return
	} else if !ok {
		fail(http.StatusTooManyRequests, "Too many attempts. Wait a minute and try again.")
		return
	}
	u, err := s.store.UserByName(r.Context(), name)
	if err != nil && errCode(err) != fray.ENOTFOUND {
		writeError(w, r, err) // the database cannot say: not a wrong password
		return
	}
	if err != nil {
		auth.SpendPasswordCheck(password)
		fail(http.StatusUnauthorized, badLogin)
		return
	}
	if !auth.CheckPassword(u.PasswordHash, password) {
		fail(http.StatusUnauthorized, badLogin)
		return
	}
	if err := s.startSession(w, r, u.ID); err != nil {
		writeError(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// handleSignup creates an account and signs it in.
func (s *Server) handleSignup(w http.ResponseWriter, r *http.Request) {
	name, password, next := r.PostFormValue("name"), r.PostFormValue("password"), localPath(r.PostFormValue("next"))
	fail := func(status int, msg string) {
		w.WriteHeader(status)
		render(w, r, web.AuthForm(web.AuthFormProps{Mode: "signup", Next: next, Name: name, Error: msg}))
	}
	if ok, err := s.allow(r, "signup:"+s.clientIP(r)); err != nil {
		writeError(w, r, err)
		return
	} else if !ok {
		fail(http.StatusTooManyRequests, "Too many sign-ups from here. Wait a minute and try again.")
		return
	}
	u, err := s.signup(r, name, password, r.PostFormValue("password2"))
	if err != nil {
		fail(failStatus(r, err), errMessage(err))
		return
	}
	if err := s.startSession(w, r, u); err != nil {
		writeError(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// signup validates and creates an account, returning its id.
func (s *Server) signup(r *http.Request, name, password, confirm string) (string, error) {
	if err := auth.ValidateName(name); err != nil {
		return "", err
	}
	if err := auth.ValidatePassword(password, name); err != nil {
		return "", err
	}
	if password != confirm {
		return "", fray.Errorf(fray.EINVALID, "the two passwords differ")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return "", err
	}
	u, err := s.store.CreateUser(r.Context(), name, hash)
	if err != nil {
		return "", err
	}
	return u.ID, nil
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	s.endSession(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
