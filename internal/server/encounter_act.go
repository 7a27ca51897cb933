package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// handleEncounterAct takes an action form posted without JavaScript, submits
// it like a websocket command, and redirects back to the page.
func (s *Server) handleEncounterAct(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	back := func(notice string) {
		q := url.Values{}
		if notice != "" {
			q.Set("notice", notice)
		}
		http.Redirect(w, r, encounterURL(e.id, "", e.as, q), http.StatusSeeOther)
	}
	if err := r.ParseForm(); err != nil {
		back("The form could not be read.")
		return
	}
	cmd, err := commandFromForm(engine.Project(e.ruleset, e.state, e.viewer), r.PostForm)
	if err != nil {
		back(errMessage(err))
		return
	}
	cmdID := r.PostForm.Get("cid")
	if cmdID == "" {
		cmdID = "form-" + store.NewID()
	}
	if _, err := s.submit(r.Context(), &e, cmdID, cmd); err != nil {
		back(errMessage(err))
		return
	}
	back("")
}

// commandFromForm builds a command from form values, typing each field as
// the action (or decision) on the viewer's page declares it.
func commandFromForm(view engine.View, form url.Values) (engine.Command, error) {
	kind, actor := form.Get("kind"), form.Get("actor")
	fields := map[string]any{}
	if kind == engine.KindAnswer {
		fields["decision"] = form.Get("decision")
		fields["choice"] = form.Get("choice")
	} else {
		var action *engine.Action
		for i := range view.Actions {
			if view.Actions[i].Kind == kind && view.Actions[i].Actor == actor {
				action = &view.Actions[i]
				break
			}
		}
		if action == nil {
			return engine.Command{}, fray.Errorf(fray.EILLEGAL, "that action is not available now")
		}
		for _, f := range action.Fields {
			v := form.Get(f.Name)
			switch f.Type {
			case "number":
				n, err := strconv.Atoi(v)
				if err != nil {
					return engine.Command{}, fray.Errorf(fray.EINVALID, "%s must be a whole number", f.Label)
				}
				fields[f.Name] = n
			case "checkbox":
				fields[f.Name] = v != ""
			default:
				fields[f.Name] = v
			}
		}
	}
	raw, err := json.Marshal(engine.NewCommand(kind, actor, fields))
	if err != nil {
		return engine.Command{}, err
	}
	return engine.DecodeCommand(raw)
}
