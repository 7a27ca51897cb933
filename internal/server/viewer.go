package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// viewerFor turns the ?as= parameter into a viewer. Until accounts exist a
// viewer picks who they are: "gm", or the id of a player character.
func viewerFor(st engine.State, as string) (engine.Viewer, error) {
	if as == engine.GM {
		return engine.GMViewer(), nil
	}
	c := st.Core().Combatant(as)
	if c == nil || !c.PC {
		return engine.Viewer{}, fray.Errorf(fray.EINVALID, "open the encounter as %q or as one of its player characters", engine.GM)
	}
	return engine.PlayerViewer(c.ID), nil
}

// viewedEncounter is the encounter of a request's {id} as its ?as= viewer sees it.
type viewedEncounter struct {
	id      string
	ruleset engine.Ruleset
	state   engine.State
	viewer  engine.Viewer
}

// viewed loads the request's encounter and viewer; on error it has answered.
func (s *Server) viewed(w http.ResponseWriter, r *http.Request) (viewedEncounter, bool) {
	id := chi.URLParam(r, "id")
	rs, st, err := s.play.Current(r.Context(), id)
	if err == nil {
		var v engine.Viewer
		if v, err = viewerFor(st, r.URL.Query().Get("as")); err == nil {
			return viewedEncounter{id: id, ruleset: rs, state: st, viewer: v}, true
		}
	}
	writeError(w, r, err)
	return viewedEncounter{}, false
}
