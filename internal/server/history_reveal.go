package server

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// handleRevealEvent is the log page's "reveal to players" form: the GM
// submits {"kind":"reveal-event","seq":N} and returns to the entry.
func (s *Server) handleRevealEvent(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
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
