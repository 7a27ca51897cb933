package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// handleDeadlineForm is the encounter page's turn-deadline form in the GM's
// Menu: POST /encounters/{id}/deadline (GMs) with after, remind and
// fallback sets or changes it; with clear it is removed. Back to the page
// with what happened.
func (s *Server) handleDeadlineForm(w http.ResponseWriter, r *http.Request) {
	m, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	err := r.ParseForm()
	var done string
	switch {
	case err != nil:
	case r.PostForm.Has("clear"):
		err = s.Deadlines.ClearDeadline(r.Context(), id)
		done = "Turn deadline cleared."
	default:
		var set store.DeadlineSetting
		if set, err = parseDeadline(r.PostForm.Get("after"), r.PostForm.Get("remind"), r.PostForm.Get("fallback")); err == nil {
			err = s.Deadlines.SetDeadline(r.Context(), id, m.user.ID, set)
		}
		done = "Turn deadline set: " + shortDuration(set.After) + "."
	}
	if err != nil {
		setFlash(w, r, flashError, "The turn deadline was not changed: "+errMessage(err))
	} else {
		setFlash(w, r, flashNotice, done)
	}
	http.Redirect(w, r, encounterURL(id, "", r.URL.Query().Get("as"), nil), http.StatusSeeOther)
}

// deadlineForm is what the GM's deadline form shows: the current setting,
// or the suggested one (24 h, a reminder 2 h before, the decisions'
// defaults) when there is none.
func deadlineForm(id, as string, d *store.DeadlineSetting) *web.DeadlineForm {
	f := &web.DeadlineForm{URL: encounterURL(id, "/deadline", as, nil), After: "24h", RemindBefore: "2h", Fallback: store.FallbackDefault}
	if d != nil {
		f.Set, f.After, f.RemindBefore, f.Fallback = true, shortDuration(d.After), shortDuration(d.RemindBefore), d.Fallback
	}
	return f
}

// shortDuration writes d as a person would type it: "24h", "1h30m", "90s"
// rather than time.Duration's "24h0m0s"; "" for none.
func shortDuration(d time.Duration) string {
	if d == 0 {
		return ""
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
