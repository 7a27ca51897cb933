package server

import (
	"net/http"
	"strconv"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/history"
)

// maxHeads bounds the links one chain request returns.
const maxHeads = 5000

// handleChain gives the links of the encounter's hash chain after seq
// ?after= (default 0), at most 5000: GET /api/encounters/{id}/chain. The
// page compares them with the heads it showed before (docs/protocol.md,
// "Fingerprints"). Links tell nothing of the events, so every viewer gets
// them all.
func (s *Server) handleChain(w http.ResponseWriter, r *http.Request) {
	after := int64(0)
	if q := r.URL.Query().Get("after"); q != "" {
		n, err := strconv.ParseInt(q, 10, 64)
		if err != nil || n < 0 {
			writeError(w, r, fray.Errorf(fray.EINVALID, "after must be a seq: a whole number, 0 or more"))
			return
		}
		after = n
	}
	e, ok := s.viewed(w, r, s.History.Latest)
	if !ok {
		return
	}
	heads, err := s.History.Heads(r.Context(), e.id, after, maxHeads)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, struct {
		Encounter string         `json:"encounter"`
		Heads     []history.Head `json:"heads"`
	}{e.id, heads})
}
