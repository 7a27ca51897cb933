package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// Deadlines are encounters' turn deadlines, for play between sessions
// (internal/deadlines applies them); *store.DB is one.
type Deadlines interface {
	Deadline(ctx context.Context, encounterID string) (*store.DeadlineSetting, error)
	SetDeadline(ctx context.Context, encounterID, userID string, s store.DeadlineSetting) error
	ClearDeadline(ctx context.Context, encounterID string) error
}

// deadlineJSON is a deadline as the API reads and writes it: durations as
// Go durations ("24h", "90m").
type deadlineJSON struct {
	After        string `json:"after"`
	RemindBefore string `json:"remindBefore"`
	Fallback     string `json:"fallback"`
}

// parseDeadline reads a deadline as the API and the page's form give it:
// Go durations ("24h", "90m"; the reminder may be empty) and a fallback.
func parseDeadline(after, remindBefore, fallback string) (store.DeadlineSetting, error) {
	var set store.DeadlineSetting
	var err error
	if set.After, err = time.ParseDuration(strings.TrimSpace(after)); err != nil {
		return set, fray.Errorf(fray.EINVALID, "after is a duration such as \"24h\"")
	}
	if remindBefore = strings.TrimSpace(remindBefore); remindBefore != "" {
		if set.RemindBefore, err = time.ParseDuration(remindBefore); err != nil {
			return set, fray.Errorf(fray.EINVALID, "remindBefore is a duration such as \"2h\"")
		}
	}
	set.Fallback = fallback
	return set, set.Check()
}

// handleGetDeadline is GET /api/encounters/{id}/deadline: the encounter's
// turn deadline, or null.
func (s *Server) handleGetDeadline(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	d, err := s.Deadlines.Deadline(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if d == nil {
		writeJSON(w, http.StatusOK, nil)
		return
	}
	writeJSON(w, http.StatusOK, deadlineJSON{After: d.After.String(), RemindBefore: d.RemindBefore.String(), Fallback: d.Fallback})
}

// handlePutDeadline is PUT /api/encounters/{id}/deadline
// {"after":"24h","remindBefore":"2h","fallback":"default"|"next-turn"|"pause"}.
func (s *Server) handlePutDeadline(w http.ResponseWriter, r *http.Request) {
	m, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	var req deadlineJSON
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	set, err := parseDeadline(req.After, req.RemindBefore, req.Fallback)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Deadlines.SetDeadline(r.Context(), id, m.user.ID, set); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, deadlineJSON{After: set.After.String(), RemindBefore: set.RemindBefore.String(), Fallback: set.Fallback})
}

// handleDeleteDeadline is DELETE /api/encounters/{id}/deadline.
func (s *Server) handleDeleteDeadline(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	if err := s.Deadlines.ClearDeadline(r.Context(), id); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
