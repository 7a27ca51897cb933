package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

const sessionCookie = "fray_session"

// Accounts signs people up and in; *accounts.Service is one.
type Accounts interface {
	// Allow counts an attempt of a rate-limited action (key: the action
	// and the client address or user) and reports whether it may go ahead.
	Allow(ctx context.Context, key string) (bool, error)
	Signup(ctx context.Context, name, password, confirm string) (store.User, error)
	Login(ctx context.Context, name, password string) (store.User, error)
	// ChangePassword sets a new password and ends every session and API
	// token of the user; EFORBIDDEN when current is wrong.
	ChangePassword(ctx context.Context, u store.User, current, password string) error
	SignOutEverywhere(ctx context.Context, userID string) (sessions, tokens int64, err error)
	StartSession(ctx context.Context, userID string) (token string, expires time.Time, err error)
	EndSession(ctx context.Context, token string) error
	// Authenticate finds the user of a credential (store.CredentialSession
	// or store.CredentialToken); EUNAUTHORIZED when it is unknown or ended.
	Authenticate(ctx context.Context, kind, token string) (store.User, store.Credential, time.Time, error)
}

type principalKey struct{}

// principal is who a request is from: a user, and the credential they
// signed in with, which sockets keep to check that it still holds.
type principal struct {
	user    *store.User
	cred    store.Credential
	expires time.Time // when the credential ends; zero for API tokens
}

// userFrom returns the signed-in user of the request, or nil.
func userFrom(r *http.Request) *store.User {
	if p := principalFrom(r); p != nil {
		return p.user
	}
	return nil
}

func principalFrom(r *http.Request) *principal {
	p, _ := r.Context().Value(principalKey{}).(*principal)
	return p
}

// authenticate finds the request's user from an API token (Authorization:
// Bearer) or the session cookie. A presented but invalid token is refused
// outright; an invalid cookie just means "signed out". When the database
// cannot say, the request fails with 503: a valid token or cookie is never
// taken for an invalid one.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if h := r.Header.Get("Authorization"); h != "" {
			token, ok := strings.CutPrefix(h, "Bearer ")
			if !ok {
				writeError(w, r, fray.Errorf(fray.EUNAUTHORIZED, "the Authorization header must be \"Bearer TOKEN\""))
				return
			}
			u, cred, _, err := s.Accounts.Authenticate(ctx, store.CredentialToken, strings.TrimSpace(token))
			if err != nil {
				writeError(w, r, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, principalKey{}, &principal{user: &u, cred: cred})))
			return
		}
		if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
			u, cred, expires, err := s.Accounts.Authenticate(ctx, store.CredentialSession, c.Value)
			switch errCode(err) {
			case "":
				r = r.WithContext(context.WithValue(ctx, principalKey{}, &principal{user: &u, cred: cred, expires: expires}))
			case fray.EUNAUTHORIZED: // signed out
			default:
				writeError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requireUser returns the signed-in user; otherwise it answers 401 (API) or
// sends a page visitor to log in and come back.
func requireUser(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if u := userFrom(r); u != nil {
		return u, true
	}
	if r.Method == http.MethodGet && !isAPI(r) && !isWebsocket(r) {
		http.Redirect(w, r, "/login?"+url.Values{"next": {r.URL.RequestURI()}}.Encode(), http.StatusSeeOther)
		return nil, false
	}
	writeError(w, r, fray.Errorf(fray.EUNAUTHORIZED, "log in first"))
	return nil, false
}

func isAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/") }

// isHTMX says htmx sent r (its HX-Request header): it wants a fragment of
// the page back, not a redirect.
func isHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

func isWebsocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// allow counts an attempt of a rate-limited action; key names the action
// and who tries it.
func (s *Server) allow(r *http.Request, key string) (bool, error) {
	return s.Accounts.Allow(r.Context(), key)
}

// startSession signs the user in on this browser.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, userID string) error {
	token, expires, err := s.Accounts.StartSession(r.Context(), userID)
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", Expires: expires,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.SecureCookies || r.TLS != nil,
	})
	return nil
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		_ = s.Accounts.EndSession(r.Context(), c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.SecureCookies || r.TLS != nil})
}

// localPath keeps a post-login redirect on this site: it returns next when
// it is a path on this site (with its query), and "/" for anything else —
// another site, a scheme, "//host", backslashes (which browsers read as
// slashes) and control characters or spaces (which browsers strip, so
// "/\t/evil.example" would become "//evil.example").
func localPath(next string) string {
	if next == "" || len(next) > 2000 || !strings.HasPrefix(next, "/") {
		return "/"
	}
	for i := 0; i < len(next); i++ {
		if c := next[i]; c <= ' ' || c == 0x7f || c == '\\' {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.ContainsRune(u.Path, '\\') {
		return "/"
	}
	out := u.EscapedPath()
	if strings.HasPrefix(out, "//") || !strings.HasPrefix(out, "/") {
		return "/"
	}
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	return out
}

// baseURL is the site's own address as the browser sees it, for invite links.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
