package server

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/web"
)

// pageLog is how many recent events the encounter page renders.
const pageLog = 200

// handleEncounterPage renders the encounter for the chosen viewer, or the
// chooser when no viewer was chosen.
func (s *Server) handleEncounterPage(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	rs, st, err := s.play.Current(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	as := r.URL.Query().Get("as")
	if as == "" {
		render(w, r, web.Choose(chooseProps(st)))
		return
	}
	viewer, err := viewerFor(st, as)
	if err != nil {
		writeError(w, r, err)
		return
	}
	seq := st.Core().Seq
	events, err := s.store.Events(r.Context(), id, max(0, seq-pageLog), pageLog)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := url.Values{"as": {as}}
	render(w, r, web.Encounter(web.EncounterProps{
		View:   engine.Project(rs, st, viewer),
		Log:    engine.FilterEvents(st, viewer, events),
		As:     as,
		WSURL:  fmt.Sprintf("/encounters/%s/ws?%s&html=1", url.PathEscape(id), q.Encode()),
		ActURL: actURL(id, as),
		Notice: r.URL.Query().Get("notice"),
	}))
}

func chooseProps(st engine.State) web.ChooseProps {
	b := st.Core()
	p := web.ChooseProps{EncounterID: b.ID, Name: b.Name}
	p.Options = append(p.Options, web.ViewerOption{As: engine.GM, Label: "Game master", Hint: "sees and commands everything"})
	for _, c := range b.Combatants {
		if c.PC {
			hint := "player character"
			if side := b.Side(c.Side); side != nil {
				hint = side.Name
			}
			p.Options = append(p.Options, web.ViewerOption{As: c.ID, Label: c.Name, Hint: hint})
		}
	}
	return p
}
