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
	back := func(problem string) {
		setFlash(w, r, flashError, problem)
		http.Redirect(w, r, encounterURL(e.id, "", e.as, nil), http.StatusSeeOther)
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
	if kind == engine.KindChat {
		// The chat box: a message, or "/roll 2d6+1", to everyone or one party.
		raw, err := json.Marshal(engine.NewCommand(kind, "", map[string]any{"text": form.Get("text"), "to": form.Get("to")}))
		if err != nil {
			return engine.Command{}, err
		}
		return engine.DecodeCommand(raw)
	}
	if kind == engine.KindAnswer {
		actor = "" // the decision says who answers
		id := form.Get("decision")
		fields["decision"], fields["choice"] = id, form.Get("choice")
		for _, d := range view.Pending {
			if d.ID != id || len(d.Fields) == 0 {
				continue
			}
			values, err := typedFields(d.Fields, form, "values.")
			if err != nil {
				return engine.Command{}, err
			}
			fields["values"] = values
		}
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
		var err error
		if fields, err = typedFields(action.Fields, form, ""); err != nil {
			return engine.Command{}, err
		}
	}
	raw, err := json.Marshal(engine.NewCommand(kind, actor, fields))
	if err != nil {
		return engine.Command{}, err
	}
	return engine.DecodeCommand(raw)
}

// typedFields reads the form values of fields (named prefix+name), typed as
// each field declares.
func typedFields(fields []engine.Field, form url.Values, prefix string) (map[string]any, error) {
	out := map[string]any{}
	for _, f := range fields {
		v := form.Get(prefix + f.Name)
		switch f.Type {
		case engine.FieldNumber:
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fray.Errorf(fray.EINVALID, "%s must be a whole number", f.Label)
			}
			out[f.Name] = n
		case engine.FieldCheckbox:
			out[f.Name] = v != ""
		default:
			out[f.Name] = v
		}
	}
	return out, nil
}
