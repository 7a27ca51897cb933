package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/accounts"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// PasswordResets make and use password-reset links; *accounts.Resets is
// one.
type PasswordResets interface {
	Start(ctx context.Context, email string) ([]accounts.ResetLink, error)
	User(ctx context.Context, token string) (store.User, error)
	Reset(ctx context.Context, token, password, confirm string) (store.User, error)
}

// resetsOffered reports whether this server resets passwords by e-mail:
// it needs the resets, a mailer, and its public address for the link (a
// link built from the request's Host could be pointed elsewhere).
func (s *Server) resetsOffered() bool {
	return s.Resets != nil && s.ResetMail != nil && s.PublicURL != ""
}

// handleResetPage: GET /reset, the form that asks for a link.
func (s *Server) handleResetPage(w http.ResponseWriter, r *http.Request) {
	step := "ask"
	if !s.resetsOffered() {
		step = "off"
	}
	render(w, r, web.Reset(web.ResetProps{Step: step}))
}

// handleResetRequest: POST /reset (email). Every well-formed request gets
// the same answer at once, whether or not an account has the address:
// the links are made and mailed afterwards, out of the request's way, so
// neither the answer nor its timing tells. Requests are rate-limited per
// client and per address (a mailbox cannot be flooded).
func (s *Server) handleResetRequest(w http.ResponseWriter, r *http.Request) {
	if !s.resetsOffered() {
		render(w, r, web.Reset(web.ResetProps{Step: "off"}))
		return
	}
	email := strings.TrimSpace(r.PostFormValue("email"))
	if email == "" || len(email) > 254 || !strings.Contains(email, "@") {
		w.WriteHeader(http.StatusBadRequest)
		render(w, r, web.Reset(web.ResetProps{Step: "ask", Error: "Give the e-mail address of your account."}))
		return
	}
	for _, key := range []string{"reset:" + s.clientIP(r), "reset-to:" + strings.ToLower(email)} {
		ok, err := s.allow(r, key)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if !ok {
			w.WriteHeader(http.StatusTooManyRequests)
			render(w, r, web.Reset(web.ResetProps{Step: "ask", Error: "Too many requests. Wait a few minutes and try again."}))
			return
		}
	}
	log := requestLogger(r)
	go s.mailResets(email, log.Warn)
	render(w, r, web.Reset(web.ResetProps{Step: "sent"}))
}

// mailResets makes the links for email's accounts and mails each; failures
// are logged, never shown (the answer was given already).
func (s *Server) mailResets(email string, warn func(msg string, args ...any)) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	links, err := s.Resets.Start(ctx, email)
	if err != nil {
		warn("password reset", "err", err)
		return
	}
	for _, l := range links {
		link := s.PublicURL + "/reset/" + l.Token
		text := fmt.Sprintf("Someone asked to reset the password of the Fray account %q on %s.\n\n"+
			"To set a new password, open this link within an hour (it works once):\n%s\n\n"+
			"If it was not you, ignore this mail: your password stays as it is.\n", l.User.Name, s.PublicURL, link)
		m := notify.Mail{To: l.Email, Subject: "Reset your Fray password", Text: text, MessageID: "reset-" + l.Token[:16]}
		if err := s.ResetMail.Send(ctx, m); err != nil {
			warn("password reset mail", "user", l.User.Name, "err", err)
		}
	}
}

// handleResetForm: GET /reset/{token}, the new password's form while the
// link works. Opening the link does not use it (mail scanners open links).
func (s *Server) handleResetForm(w http.ResponseWriter, r *http.Request) {
	if s.Resets == nil {
		render(w, r, web.Reset(web.ResetProps{Step: "off"}))
		return
	}
	token := chi.URLParam(r, "token")
	u, err := s.Resets.User(r.Context(), token)
	if err != nil {
		writeErrorPage(w, r, failStatus(r, err), errMessage(err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	render(w, r, web.Reset(web.ResetProps{Step: "form", Token: token, User: u.Name}))
}

// handleReset: POST /reset/{token} (password, password2) sets the new
// password, using the link, and signs the browser in.
func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	if s.Resets == nil {
		render(w, r, web.Reset(web.ResetProps{Step: "off"}))
		return
	}
	token := chi.URLParam(r, "token")
	if ok, err := s.allow(r, "reset:"+s.clientIP(r)); err != nil || !ok {
		if err == nil {
			err = fray.Errorf(fray.ERATELIMIT, "too many attempts; wait a few minutes")
		}
		writeError(w, r, err)
		return
	}
	u, err := s.Resets.Reset(r.Context(), token, r.PostFormValue("password"), r.PostFormValue("password2"))
	switch errCode(err) {
	case "":
	case fray.EINVALID:
		// The link still works: show its form again with the reason.
		name := ""
		if u, err := s.Resets.User(r.Context(), token); err == nil {
			name = u.Name
		}
		w.WriteHeader(http.StatusBadRequest)
		render(w, r, web.Reset(web.ResetProps{Step: "form", Token: token, User: name, Error: errMessage(err)}))
		return
	default:
		writeErrorPage(w, r, failStatus(r, err), errMessage(err))
		return
	}
	s.signIn(w, r, u.ID, "/")
}
