package server

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

const (
	sessionCookie = "fray_session"
	sessionTTL    = 30 * 24 * time.Hour
	// tokenPrefix marks personal access tokens so they are recognisable in logs and secret scanners.
	tokenPrefix = "fray_pat_"
)

type userKey struct{}

// userFrom returns the signed-in user of the request, or nil.
func userFrom(r *http.Request) *store.User {
	u, _ := r.Context().Value(userKey{}).(*store.User)
	return u
}

// authenticate finds the request's user from an API token (Authorization:
// Bearer) or the session cookie. A presented but invalid token is refused
// outright; an invalid cookie just means "signed out".
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if h := r.Header.Get("Authorization"); h != "" {
			token, ok := strings.CutPrefix(h, "Bearer ")
			if !ok {
				writeError(w, r, fray.Errorf(fray.EUNAUTHORIZED, "the Authorization header must be \"Bearer TOKEN\""))
				return
			}
			u, err := s.store.TokenUser(ctx, auth.HashToken(strings.TrimSpace(token)))
			if err != nil {
				writeError(w, r, fray.Errorf(fray.EUNAUTHORIZED, "that API token is not valid"))
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, userKey{}, &u)))
			return
		}
		if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
			if u, err := s.store.SessionUser(ctx, auth.HashToken(c.Value), time.Now()); err == nil {
				r = r.WithContext(context.WithValue(ctx, userKey{}, &u))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requireUser returns the signed-in user; otherwise it answers 401 (API) or
// sends a page visitor to log in and come back.
func (s *Server) requireUser(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
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

func isWebsocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// startSession signs the user in on this browser.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, userID string) error {
	token, hash := auth.NewToken("")
	expires := time.Now().Add(sessionTTL)
	if err := s.store.CreateSession(r.Context(), userID, hash, expires); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", Expires: expires,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies || r.TLS != nil,
	})
	return nil
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		_ = s.store.DeleteSession(r.Context(), auth.HashToken(c.Value))
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies || r.TLS != nil})
}

// clientIP is the rate-limiting key: the peer address (Fray does not trust
// forwarding headers unless told to sit behind a proxy).
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// localPath keeps a post-login redirect on this site.
func localPath(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/"
	}
	return next
}

// baseURL is the site's own address as the browser sees it, for invite links.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
