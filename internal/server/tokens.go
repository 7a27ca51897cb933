package server

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/store"
)

// Tokens are users' personal access tokens, for bots; *accounts.Service
// keeps them.
type Tokens interface {
	// CreateToken returns the new token (shown once) and its id.
	CreateToken(ctx context.Context, userID, name string) (token, id string, err error)
	Tokens(ctx context.Context, userID string) ([]store.APIToken, error)
	RevokeToken(ctx context.Context, userID, tokenID string) error
}

// handleCreateToken makes a personal access token and shows it once:
// POST /account/tokens (name).
func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	token, _, err := s.Tokens.CreateToken(r.Context(), u.ID, r.PostFormValue("name"))
	if err != nil {
		accountRedirect(w, r, flashError, errMessage(err))
		return
	}
	s.renderAccount(w, r, u.ID, u.Name, token, "Token created. Copy it now: it is not shown again.", "")
}

// handleRevokeToken: POST /account/tokens/{tokenID}/revoke.
func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	if err := s.Tokens.RevokeToken(r.Context(), u.ID, chi.URLParam(r, "tokenID")); err != nil {
		accountRedirect(w, r, flashError, errMessage(err))
		return
	}
	accountRedirect(w, r, flashNotice, "Token revoked.")
}

// tokenJSON is an API token as the API shows it (never the token itself,
// which is shown once, when made).
type tokenJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"` // null before first use; updated at most once a minute
	RevokedAt  *time.Time `json:"revokedAt"`  // null while the token works
}

// handleAPITokens lists the caller's API tokens, newest first: GET /api/tokens.
func (s *Server) handleAPITokens(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	tokens, err := s.Tokens.Tokens(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]tokenJSON, 0, len(tokens))
	for _, t := range tokens {
		out = append(out, tokenJSON{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, RevokedAt: t.RevokedAt})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPICreateToken makes a token: POST /api/tokens {"name":"…"} →
// {"id":"…","name":"…","token":"…"} (the token is shown once).
func (s *Server) handleAPICreateToken(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	token, id, err := s.Tokens.CreateToken(r.Context(), u.ID, req.Name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id, "name": req.Name, "token": token})
}

// handleAPIRevokeToken: DELETE /api/tokens/{tokenID}.
func (s *Server) handleAPIRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	if err := s.Tokens.RevokeToken(r.Context(), u.ID, chi.URLParam(r, "tokenID")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
