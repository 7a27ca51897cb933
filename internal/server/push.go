package server

import (
	"net/http"

	"github.com/fray-vtt/fray/web"
)

// handleAPISubscribe keeps this browser's push subscription:
// POST /api/push/subscriptions (a PushSubscription.toJSON(); the script
// static/push.js sends it when the user clicks). Notices.Subscribe checks
// the endpoint and keys.
func (s *Server) handleAPISubscribe(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Endpoint string `json:"endpoint"`
		// ExpirationTime is what browsers send; it is not kept (a push
		// service that ends the subscription answers 404 or 410).
		ExpirationTime *float64 `json:"expirationTime"`
		Keys           struct {
			P256dh string `json:"p256dh"`
			Auth   string `json:"auth"`
		} `json:"keys"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Notices.Subscribe(r.Context(), u.ID, req.Endpoint, req.Keys.P256dh, req.Keys.Auth); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleAPIUnsubscribe forgets a browser: DELETE /api/push/subscriptions
// {"endpoint":"…"}.
func (s *Server) handleAPIUnsubscribe(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Endpoint string `json:"endpoint"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Notices.Unsubscribe(r.Context(), u.ID, req.Endpoint); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleServiceWorker serves the service worker that shows push notices
// (web/static/sw.js) at /sw.js, so that its scope is the whole site.
func (s *Server) handleServiceWorker(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, web.Static, "static/sw.js")
}

// handleManifest serves the web app manifest (drawn by cmd/icons with the
// icons it lists) with its own media type: phones offer to install Fray
// from it.
func (s *Server) handleManifest(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/manifest+json")
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, web.Static, "static/manifest.webmanifest")
}
