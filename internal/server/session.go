package server

import (
	"net/http"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

// handleLoginPage: GET /login?next=PATH
func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	render(w, r, web.AuthForm(web.AuthFormProps{Mode: "login", Next: localPath(r.URL.Query().Get("next"))}))
}

// handleLogin signs a user in: POST /login (name, password, next). Unknown
// names and wrong passwords get the same answer after the same work, so
// names cannot be probed.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	f := readAuthForm(r, "login")
	if !s.allowAuth(w, r, f, "Too many attempts. Wait a minute and try again.") {
		return
	}
	u, err := s.Accounts.Login(r.Context(), f.name, f.password)
	if c := errCode(err); c == fray.EUNAUTHORIZED || c == fray.EFORBIDDEN {
		f.fail(w, r, failStatus(r, err), errMessage(err))
		return
	}
	if err != nil {
		writeError(w, r, err) // the database cannot say: not a wrong password
		return
	}
	s.signIn(w, r, u.ID, f.next)
}

// authForm is what the log-in and sign-up forms post.
type authForm struct {
	mode                 string // "login" or "signup"
	name, password, next string
}

func readAuthForm(r *http.Request, mode string) authForm {
	return authForm{mode: mode, name: r.PostFormValue("name"), password: r.PostFormValue("password"),
		next: localPath(r.PostFormValue("next"))}
}

// fail shows the form again with msg, the name kept.
func (f authForm) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.WriteHeader(status)
	render(w, r, web.AuthForm(web.AuthFormProps{Mode: f.mode, Next: f.next, Name: f.name, Error: msg}))
}

// allowAuth counts the attempt against the caller's address (log-ins and
// sign-ups apart); over the limit it answers with the form and tooMany,
// and reports false.
func (s *Server) allowAuth(w http.ResponseWriter, r *http.Request, f authForm, tooMany string) bool {
	ok, err := s.allow(r, f.mode+":"+s.clientIP(r))
	switch {
	case err != nil:
		writeError(w, r, err)
	case !ok:
		f.fail(w, r, http.StatusTooManyRequests, tooMany)
	}
	return err == nil && ok
}

// signIn starts userID's session on this browser and goes on to next.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request, userID, next string) {
	if err := s.startSession(w, r, userID); err != nil {
		writeError(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// handleLogout signs this browser out: POST /logout.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	s.endSession(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
