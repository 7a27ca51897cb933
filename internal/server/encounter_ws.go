package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/realtime"
)

// handleEncounterSocket upgrades to the websocket protocol of docs/protocol.md.
// Query: as (gm or a PC id), since (resume after this seq), html=1 (rendered
// fragments for the page), view=1 (the projection in every events message).
// The session keeps the credential it was opened with: whenever the user's
// access may have changed, the hub grants it again through Authorize and
// ends the session if it shrank.
func (s *Server) handleEncounterSocket(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	since := int64(-1)
	if v := q.Get("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeError(w, r, fray.Errorf(fray.EINVALID, "since must be a non-negative integer"))
			return
		}
		since = n
	}
	s.hub.Serve(w, r, realtime.ServeOptions{
		Encounter: e.id, Table: s.play, Viewer: e.viewer, Since: since,
		HTML: q.Get("html") == "1", View: q.Get("view") == "1",
		Campaign: e.campaign, User: e.user.ID, Access: e.access, Expires: e.expires,
		Authorize: func(ctx context.Context) (realtime.Grant, error) {
			re := e
			if err := s.regrant(ctx, &re); err != nil {
				return realtime.Grant{}, err
			}
			return realtime.Grant{Viewer: re.viewer, Access: re.access, Expires: re.expires}, nil
		},
	})
}
