package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// handleDeadlineForm is the encounter page's turn-deadline form in the GM's
// Menu: POST /encounters/{id}/deadline (GMs) with mode ("deadline" or
// "clock"), after or bank and increment, remind and fallback sets or
// changes it; with switch ("on" or "off") it is switched on or off; with
// clear it is removed. Back to the page with what happened.
func (s *Server) handleDeadlineForm(w http.ResponseWriter, r *http.Request) {
	m, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	err := r.ParseForm()
	var done string
	f := r.PostForm
	switch {
	case err != nil:
	case f.Has("clear"):
		err = s.Deadlines.ClearDeadline(r.Context(), id)
		done = "Turn deadline cleared."
	case f.Has("switch"):
		on := f.Get("switch") == "on"
		err = s.Deadlines.SwitchDeadline(r.Context(), id, on)
		done = "Turn deadline switched off: live play, nothing runs out."
		if on {
			done = "Turn deadline switched on."
		}
	default:
		j := deadlineJSON{After: f.Get("after"), RemindBefore: f.Get("remind"), Fallback: f.Get("fallback")}
		if f.Get("mode") == "clock" {
			j.After, j.Bank, j.Increment = "", f.Get("bank"), f.Get("increment")
		}
		var set store.DeadlineSetting
		if set, err = parseDeadline(j); err == nil {
			err = s.Deadlines.SetDeadline(r.Context(), id, m.user.ID, set)
		}
		done = "Turn deadline set: " + shortDuration(set.After) + "."
		if set.Clock() {
			done = "Clock set: " + shortDuration(set.Bank) + " each, plus " + orNothing(shortDuration(set.Increment)) + " a turn."
		}
	}
	if err != nil {
		setFlash(w, r, flashError, "The turn deadline was not changed: "+errMessage(err))
	} else {
		setFlash(w, r, flashNotice, done)
	}
	http.Redirect(w, r, encounterURL(id, "", r.URL.Query().Get("as"), nil), http.StatusSeeOther)
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// deadlineForm is what the GM's deadline form shows: the current setting,
// or the suggested one (24 h, a reminder 2 h before, the decisions'
// defaults; for a clock, 3 h each plus 30 min a turn) when there is none.
func deadlineForm(id, as string, d *store.DeadlineSetting) *web.DeadlineForm {
	f := &web.DeadlineForm{URL: encounterURL(id, "/deadline", as, nil), After: "24h", RemindBefore: "2h", Fallback: store.FallbackDefault,
		Bank: "3h", Increment: "30m"}
	if d != nil {
		f.Set, f.RemindBefore, f.Fallback, f.Clock, f.Off = true, shortDuration(d.RemindBefore), d.Fallback, d.Clock(), d.Off
		if d.Clock() {
			f.Bank, f.Increment = shortDuration(d.Bank), shortDuration(d.Increment)
		} else {
			f.After = shortDuration(d.After)
		}
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
