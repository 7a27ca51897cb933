package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// Deadlines are encounters' turn deadlines and clocks, for play between
// sessions (internal/deadlines applies them); *deadlines.Service is one.
type Deadlines interface {
	Deadline(ctx context.Context, encounterID string) (*store.DeadlineSetting, error)
	SetDeadline(ctx context.Context, encounterID, userID string, s store.DeadlineSetting) error
	SwitchDeadline(ctx context.Context, encounterID string, on bool) error
	ClearDeadline(ctx context.Context, encounterID string) error
	// ClockStatus is whom the encounter waits on and their time left, as
	// viewer v may see it.
	ClockStatus(ctx context.Context, st engine.State, v engine.Viewer) (deadlines.Status, error)
}

// deadlineJSON is a deadline as the API reads and writes it: durations as
// Go durations ("24h", "90m"). With bank it is a clock.
type deadlineJSON struct {
	After        string `json:"after,omitempty"`
	RemindBefore string `json:"remindBefore"`
	Fallback     string `json:"fallback"`
	Bank         string `json:"bank,omitempty"`
	Increment    string `json:"increment,omitempty"`
	Off          bool   `json:"off,omitempty"`
}

func toDeadlineJSON(d store.DeadlineSetting) deadlineJSON {
	out := deadlineJSON{RemindBefore: d.RemindBefore.String(), Fallback: d.Fallback, Off: d.Off}
	if d.Clock() {
		out.Bank, out.Increment = d.Bank.String(), d.Increment.String()
	} else {
		out.After = d.After.String()
	}
	return out
}

// parseDeadline reads a deadline as the API and the page's form give it:
// Go durations ("24h", "90m"; the reminder and the increment may be
// empty), a fallback; a bank makes it a clock, and then after is empty.
func parseDeadline(j deadlineJSON) (store.DeadlineSetting, error) {
	set := store.DeadlineSetting{Fallback: j.Fallback, Off: j.Off}
	dur := func(s, name, example string, to *time.Duration) error {
		if s = strings.TrimSpace(s); s == "" {
			return nil
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return fray.Errorf(fray.EINVALID, "%s is a duration such as %q", name, example)
		}
		*to = d
		return nil
	}
	for _, f := range []struct {
		s, name, example string
		to               *time.Duration
	}{
		{j.After, "after", "24h", &set.After}, {j.RemindBefore, "remindBefore", "2h", &set.RemindBefore},
		{j.Bank, "bank", "3h", &set.Bank}, {j.Increment, "increment", "30m", &set.Increment},
	} {
		if err := dur(f.s, f.name, f.example, f.to); err != nil {
			return set, err
		}
	}
	if strings.TrimSpace(j.After) == "" && strings.TrimSpace(j.Bank) == "" {
		return set, fray.Errorf(fray.EINVALID, "after is a duration such as \"24h\" (or give a clock's bank)")
	}
	return set, set.Check()
}

// handleGetDeadline is GET /api/encounters/{id}/deadline: the encounter's
// turn deadline or clock, or null.
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
	writeJSON(w, http.StatusOK, toDeadlineJSON(*d))
}

// handlePutDeadline is PUT /api/encounters/{id}/deadline
// {"after":"24h","remindBefore":"2h","fallback":"default"|"next-turn"|"pause"},
// or a clock: {"bank":"3h","increment":"30m",…}; "off":true keeps it
// switched off.
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
	set, err := parseDeadline(req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Deadlines.SetDeadline(r.Context(), id, m.user.ID, set); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toDeadlineJSON(set))
}

// handleSwitchDeadline is PUT /api/encounters/{id}/deadline/on
// {"on":false}: the GM switches the deadline or clock off (live play; a
// clock's banks keep what is left) and on again, mid-round.
func (s *Server) handleSwitchDeadline(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	var req struct {
		On *bool `json:"on"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if req.On == nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "on is true or false"))
		return
	}
	if err := s.Deadlines.SwitchDeadline(r.Context(), id, *req.On); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"on": *req.On})
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

// handleClock is GET /api/encounters/{id}/clock (members): whom the table
// waits on and how long each has left before their standing orders and
// the fallback act, with every player character's bank under a clock —
// what the page's clock shows (deadlines.Status).
func (s *Server) handleClock(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	st, err := s.Deadlines.ClockStatus(r.Context(), e.state, e.viewer)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, st)
}
