package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

const (
	// replayLog is how many events before the step the replay reads for
	// its log and its Previous link.
	replayLog = 200
	// replayAhead is how many events after the step it reads to find Next.
	replayAhead = 100
)

// replayStep is an encounter as one viewer saw it right after event seq.
type replayStep struct {
	seq, latest int64
	state       engine.State
	event       *engine.Event // the event at seq, when the viewer may see it
	hidden      bool          // there is an event at seq the viewer may not see
	log         []engine.Event
	earlier     bool
	prev, next  int64 // -1 for none
}

// replaySeq reads ?seq=: empty means the latest event; beyond it, the latest.
func replaySeq(r *http.Request, latest int64) (int64, error) {
	v := r.URL.Query().Get("seq")
	if v == "" {
		return latest, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fray.Errorf(fray.EINVALID, "seq must be a non-negative whole number")
	}
	return min(n, latest), nil
}

// replayAt rebuilds the state after event seq (the nearest snapshot plus a
// fold) and what the viewer may see of the events around it, each as the
// viewer saw it when it happened (engine.Sight): the replay never shows
// what the viewer's live page did not show at that point.
func (s *Server) replayAt(ctx context.Context, e viewedEncounter, seq int64) (replayStep, error) {
	latest := e.state.Core().Seq
	st := replayStep{seq: seq, latest: latest, state: e.state, prev: -1, next: -1}
	if seq != latest {
		var err error
		if st.state, err = s.play.StateAt(ctx, e.id, e.ruleset, seq); err != nil {
			return st, err
		}
	}
	if latest == 0 {
		return st, nil
	}
	from, to := max(0, seq-replayLog), min(seq+replayAhead, latest)
	events, err := s.store.Events(ctx, e.id, from, int(to-from))
	if err != nil {
		return st, err
	}
	st.earlier = from > 0
	cut := len(events)
	for i, ev := range events {
		if ev.Seq > seq {
			cut = i
			break
		}
	}
	st.log = engine.FilterEvents(st.state, e.viewer, events[:cut])
	if n := len(st.log); n > 0 && st.log[n-1].Seq == seq {
		st.event = &st.log[n-1]
	} else if seq > 0 {
		st.hidden = true
	}
	for i := len(st.log) - 1; i >= 0; i-- {
		if st.log[i].Seq < seq {
			st.prev = st.log[i].Seq
			break
		}
	}
	if st.prev < 0 && seq > 0 {
		st.prev = from // nothing visible in reach: step back over it all
	}
	ahead := engine.NewSight(e.state, e.viewer) // knows who was hidden at every seq
	for _, ev := range events[cut:] {
		if _, ok, _ := ahead.See(ev); ok {
			st.next = ev.Seq
			break
		}
	}
	if st.next < 0 && seq < latest {
		st.next = to
	}
	return st, nil
}

// handleReplay renders the battlefield as it was right after event ?seq=
// (default: the latest), for the viewer: GET /encounters/{id}/replay?seq=N.
func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	seq, err := replaySeq(r, e.state.Core().Seq)
	if err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.replayAt(r.Context(), e, seq)
	if err != nil {
		writeError(w, r, err)
		return
	}
	render(w, r, web.Replay(web.ReplayProps{
		View: engine.Project(e.ruleset, st.state, e.viewer), Links: historyLinks(e), As: e.as,
		Seq: st.seq, Latest: st.latest, Event: st.event, Hidden: st.hidden,
		Log: st.log, Earlier: st.earlier, Prev: st.prev, Next: st.next,
	}))
}

// handleAPIReplay is the replay for bots: GET /api/encounters/{id}/replay?seq=N
// answers {"seq","latest","prev","next","view","event"}; view has no actions
// and event is null when the viewer may not see the event at seq.
func (s *Server) handleAPIReplay(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	seq, err := replaySeq(r, e.state.Core().Seq)
	if err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.replayAt(r.Context(), e, seq)
	if err != nil {
		writeError(w, r, err)
		return
	}
	view := engine.Project(e.ruleset, st.state, e.viewer)
	view.Actions, view.Pending = []engine.Action{}, nil
	writeJSON(w, http.StatusOK, map[string]any{
		"seq": st.seq, "latest": st.latest, "prev": st.prev, "next": st.next, "view": view, "event": st.event,
	})
}
