package server

import (
	"mime"
	"net/http"

	"github.com/fray-vtt/fray/internal/history"
)

// handleExportJSON downloads the encounter's log as the viewer may see it:
// GET /api/encounters/{id}/export.json.
func (s *Server) handleExportJSON(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.History.Latest)
	if !ok {
		return
	}
	doc, err := s.History.Export(r.Context(), e.reading())
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", attachment(doc.Filename("json")))
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, doc)
}

// handleExportMarkdown downloads a readable report of the encounter as the
// viewer may see it: GET /encounters/{id}/export.md.
func (s *Server) handleExportMarkdown(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.History.Latest)
	if !ok {
		return
	}
	doc, err := s.History.Export(r.Context(), e.reading())
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	w.Header().Set("Content-Disposition", attachment(doc.Filename("md")))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(history.Markdown(doc)))
}

// attachment is a Content-Disposition header offering a download.
func attachment(filename string) string {
	return mime.FormatMediaType("attachment", map[string]string{"filename": filename})
}
