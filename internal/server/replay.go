package server

import (
	"net/http"
	"strconv"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/web"
)

// replayStep reads the request's ?seq= (empty: the latest event) and the
// step it names for the viewer of e.
func (s *Server) replayStep(r *http.Request, e viewedEncounter) (history.Step, error) {
	seq := int64(-1)
	if v := r.URL.Query().Get("seq"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return history.Step{}, fray.Errorf(fray.EINVALID, "seq must be a non-negative whole number")
		}
		seq = n
	}
	return s.History.Replay(r.Context(), e.reading(), seq)
}

// handleReplay renders the battlefield as it was right after event ?seq=
// (default: the latest), for the viewer: GET /encounters/{id}/replay?seq=N.
func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.History.Latest)
	if !ok {
		return
	}
	st, err := s.replayStep(r, e)
	if err != nil {
		writeError(w, r, err)
		return
	}
	render(w, r, web.Replay(web.ReplayProps{
		View: st.View, Links: historyLinks(e.id, e.as, e.campaign), As: e.as,
		Seq: st.Seq, Latest: st.Latest, Event: st.Event, Hidden: st.Hidden,
		Log: st.Log, Earlier: st.Earlier, Prev: st.Prev, Next: st.Next,
	}))
}

// handleAPIReplay is the replay for bots: GET /api/encounters/{id}/replay?seq=N
// answers {"seq","latest","prev","next","view","event"}; view has no actions
// and event is null when the viewer may not see the event at seq.
func (s *Server) handleAPIReplay(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.History.Latest)
	if !ok {
		return
	}
	st, err := s.replayStep(r, e)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"seq": st.Seq, "latest": st.Latest, "prev": st.Prev, "next": st.Next, "view": st.View, "event": st.Event,
	})
}
