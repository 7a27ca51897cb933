package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// parseLogFilter reads the log page's ?who= (a character), ?round= and
// ?after= (the seq the page starts after).
func parseLogFilter(q url.Values) (history.LogFilter, error) {
	f := history.LogFilter{Who: q.Get("who")}
	if v := q.Get("round"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return f, fray.Errorf(fray.EINVALID, "round must be a positive whole number")
		}
		f.Round = n
	}
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return f, fray.Errorf(fray.EINVALID, "after must be a non-negative whole number")
		}
		f.After = n
	}
	return f, nil
}

// logQuery is the query of the log page with filter f starting after seq
// after.
func logQuery(f history.LogFilter, after int64) url.Values {
	q := url.Values{}
	if f.Who != "" {
		q.Set("who", f.Who)
	}
	if f.Round > 0 {
		q.Set("round", strconv.Itoa(f.Round))
	}
	if after > 0 {
		q.Set("after", strconv.FormatInt(after, 10))
	}
	return q
}

// handleEncounterLog renders the viewer's log of an encounter, filtered:
// GET /encounters/{id}/log?who=ID&round=N&after=SEQ.
func (s *Server) handleEncounterLog(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.History.Latest)
	if !ok {
		return
	}
	f, err := parseLogFilter(r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, err := s.History.Log(r.Context(), e.reading(), f)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.LogProps{
		View: page.View, Links: historyLinks(e.id, e.as, e.campaign), As: e.as, Entries: page.Entries, Undone: page.Undone,
		CanReveal: e.viewer.GM, Revealed: page.Revealed, RevealURL: encounterURL(e.id, "/log/reveal", e.as, nil),
		Rounds: page.Rounds, Who: f.Who, Round: f.Round, Notice: takeFlash(w, r, flashNotice), Error: takeFlash(w, r, flashError),
	}
	for _, c := range page.View.Combatants {
		p.Characters = append(p.Characters, engine.Choice{Value: c.ID, Label: c.Name})
	}
	if page.More {
		p.Next = encounterURL(e.id, "/log", e.as, logQuery(f, page.Entries[len(page.Entries)-1].Seq))
	}
	render(w, r, web.EncounterLog(p))
}

// handleRevealEvent is the log page's "reveal to players" form: the GM
// submits {"kind":"reveal-event","seq":N} and returns to the entry:
// POST /encounters/{id}/log/reveal (seq).
func (s *Server) handleRevealEvent(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	if !e.viewer.GM {
		writeError(w, r, fray.Errorf(fray.EFORBIDDEN, "only the GM may reveal events"))
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "the form could not be read"))
		return
	}
	seq, err := strconv.ParseInt(r.PostForm.Get("seq"), 10, 64)
	if err != nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "seq must be a whole number"))
		return
	}
	cmd := engine.NewCommand(engine.KindRevealEvent, "", map[string]any{"seq": seq})
	if _, err := s.submit(r.Context(), &e, "reveal-"+store.NewID(), cmd); err != nil {
		if errCode(err) == fray.EINTERNAL {
			writeError(w, r, err)
			return
		}
		setFlash(w, r, flashError, errMessage(err))
	} else {
		setFlash(w, r, flashNotice, fmt.Sprintf("Event %d is now visible to the players.", seq))
	}
	back := encounterURL(e.id, "/log", e.as, nil) + fmt.Sprintf("#ev-%d", seq)
	http.Redirect(w, r, back, http.StatusSeeOther)
}
