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
	u, err := s.Accounts.Login(r.Context(), name, password)
	if errCode(err) == fray.EUNAUTHORIZED {
		fail(http.StatusUnauthorized, errMessage(err))
		return
	}
	if err != nil {
		writeError(w, r, err) // the database cannot say: not a wrong password
		return
	}
	if err := s.startSession(w, r, u.ID); err != nil {
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
