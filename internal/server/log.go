package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/web"
)

// logPageSize is how many entries one page of an encounter's log shows.
const logPageSize = 500

// logBatch is how many events the log page reads from the store at a time.
const logBatch = 1000

// logFilter is what the log page shows: ?who= (a character), ?round=,
// and ?after= (the seq the page starts after).
type logFilter struct {
	who   string
	round int
	after int64
}

func parseLogFilter(q url.Values, e viewedEncounter) (logFilter, error) {
	var f logFilter
	if who := q.Get("who"); who != "" {
		// Hidden and unknown characters get the same answer, so a player
		// cannot probe for hidden ones.
		if !engine.Visible(e.state, e.viewer, who) {
			return f, fray.Errorf(fray.EINVALID, "no character %q to filter by", who)
		}
		f.who = who
	}
	if v := q.Get("round"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return f, fray.Errorf(fray.EINVALID, "round must be a positive whole number")
		}
		f.round = n
	}
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return f, fray.Errorf(fray.EINVALID, "after must be a non-negative whole number")
		}
		f.after = n
	}
	return f, nil
}

func (f logFilter) query(after int64) url.Values {
	q := url.Values{}
	if f.who != "" {
		q.Set("who", f.who)
	}
	if f.round > 0 {
		q.Set("round", strconv.Itoa(f.round))
	}
	if after > 0 {
		q.Set("after", strconv.FormatInt(after, 10))
	}
	return q
}

// handleEncounterLog renders the viewer's log of an encounter, filtered:
// GET /encounters/{id}/log?who=ID&round=N&after=SEQ.
func (s *Server) handleEncounterLog(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	f, err := parseLogFilter(q, e)
	if err != nil {
		writeError(w, r, err)
		return
	}
	entries, more, err := s.logPage(r.Context(), e, f)
	if err != nil {
		writeError(w, r, err)
		return
	}
	undone, err := s.undone(r.Context(), e.id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	view := engine.Project(e.ruleset, e.state, e.viewer)
	p := web.LogProps{
		View: view, Links: historyLinks(e), As: e.as, Entries: entries, Undone: undone,
		CanReveal: e.viewer.GM, Revealed: map[int64]bool{}, RevealURL: encounterURL(e.id, "/log/reveal", e.as, nil),
		Rounds: max(e.state.Core().Round, f.round), Who: f.who, Round: f.round, Notice: takeFlash(w, r, flashNotice), Error: takeFlash(w, r, flashError),
	}
	for _, ev := range entries { // a rewind may have gone back to an earlier round
		p.Rounds = max(p.Rounds, ev.Round)
	}
	for _, seq := range e.state.Core().Revealed {
		p.Revealed[seq] = true
	}
	for _, c := range view.Combatants {
		p.Characters = append(p.Characters, engine.Choice{Value: c.ID, Label: c.Name})
	}
	if more {
		p.Next = encounterURL(e.id, "/log", e.as, f.query(entries[len(entries)-1].Seq))
	}
	render(w, r, web.EncounterLog(p))
}

// logPage returns up to logPageSize events after f.after that the viewer
// may see and that match the filters, and whether more follow.
func (s *Server) logPage(ctx context.Context, e viewedEncounter, f logFilter) ([]engine.Event, bool, error) {
	var out []engine.Event
	cursor := f.after
	for {
		batch, err := s.store.Events(ctx, e.id, cursor, logBatch)
		if err != nil {
			return nil, false, err
		}
		if len(batch) == 0 {
			return out, false, nil
		}
		cursor = batch[len(batch)-1].Seq
		for _, ev := range engine.FilterEvents(e.state, e.viewer, batch) {
			if f.round > 0 && ev.Round != f.round || !engine.Involves(ev, f.who) {
				continue
			}
			if len(out) == logPageSize {
				return out, true, nil
			}
			out = append(out, ev)
		}
		if len(batch) < logBatch {
			return out, false, nil
		}
	}
}
