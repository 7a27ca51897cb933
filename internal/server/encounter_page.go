package server

import (
	"net/http"
	"net/url"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/web"
)

// pageLog is how many recent events the encounter page renders.
const pageLog = 200

// handleEncounterPage renders the encounter for the signed-in member: the
// GM's view (or, with ?choose=1, the list of players to preview as), or a
// player's view of their own characters.
func (s *Server) handleEncounterPage(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	if e.gm() && r.URL.Query().Get("choose") != "" {
		render(w, r, web.Choose(chooseProps(e.state)))
		return
	}
	seq := e.state.Core().Seq
	events, err := s.store.Events(r.Context(), e.id, max(0, seq-pageLog), pageLog)
	if err != nil {
		writeError(w, r, err)
		return
	}
	as := e.as
	switch {
	case as == "" && e.gm():
		as = engine.GM
	case as == "" && len(e.viewer.Controls) > 0:
		as = e.viewer.Controls[0]
	}
	render(w, r, web.Encounter(web.EncounterProps{
		View:       engine.Project(e.ruleset, e.state, e.viewer),
		Log:        engine.FilterEvents(e.state, e.viewer, events),
		As:         as,
		WSURL:      encounterURL(e.id, "/ws", e.as, url.Values{"html": {"1"}}),
		ActURL:     actURL(e.id, e.as),
		Notice:     takeFlash(w, r, flashError),
		Info:       takeFlash(w, r, flashNotice),
		CanSwitch:  e.gm(),
		CampaignID: e.campaign,
		LogURL:     encounterURL(e.id, "/log", e.as, nil),
		ReplayURL:  encounterURL(e.id, "/replay", e.as, nil),
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
