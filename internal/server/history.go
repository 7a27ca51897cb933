package server

import (
	"context"
	"mime"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/web"
)

// historyLinks are the URLs of an encounter's pages for the viewer of e.
func historyLinks(e viewedEncounter) web.HistoryLinks {
	return web.HistoryLinks{
		Encounter:  encounterURL(e.id, "", e.as, nil),
		Log:        encounterURL(e.id, "/log", e.as, nil),
		Replay:     encounterURL(e.id, "/replay", e.as, nil),
		ExportMD:   encounterURL(e.id, "/export.md", e.as, nil),
		ExportJSON: "/api" + encounterURL(e.id, "/export.json", e.as, nil),
		Timeline:   timelineURL(e.campaign),
	}
}

// undone returns the events of encounter id that a rewind undid.
func (s *Server) undone(ctx context.Context, id string) (map[int64]bool, error) {
	rewinds, err := s.store.EventsOfKind(ctx, id, engine.KindRewound)
	if err != nil {
		return nil, err
	}
	return engine.Undone(rewinds), nil
}

// exportFilename is a download's name: fray-<encounter name>-<id prefix>.<ext>.
func exportFilename(name, id, ext string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	base := strings.TrimSuffix(b.String(), "-")
	if base == "" {
		base = "encounter"
	}
	if len(id) > 8 {
		id = id[:8]
	}
	return "fray-" + base + "-" + id + "." + ext
}

// attachment is a Content-Disposition header offering a download.
func attachment(filename string) string {
	return mime.FormatMediaType("attachment", map[string]string{"filename": filename})
}
