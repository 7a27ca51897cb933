package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Table is the live encounters, where commands are decided;
// *play.Service is one.
type Table interface {
	// Current is an encounter's current state: read-only, shared.
	Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error)
	Submit(ctx context.Context, id string, sender play.Sender, cmdID string, cmd engine.Command) (int64, error)
}

// EventLog reads an encounter's events; *store.DB is one.
type EventLog interface {
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
}

// pageLog is how many recent events the encounter page renders.
const pageLog = 200

// handleEncounterPage renders the encounter for the signed-in member: the
// GM's view (or, with ?choose=1, the list of players to preview as), or a
// player's view of their own characters: GET /encounters/{id}.
func (s *Server) handleEncounterPage(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	if e.gm() && r.URL.Query().Get("choose") != "" {
		render(w, r, web.Choose(chooseProps(e.state)))
		return
	}
	seq := e.state.Core().Seq
	events, err := s.Events.Events(r.Context(), e.id, max(0, seq-pageLog), pageLog)
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
	var deadline *web.DeadlineForm
	if e.gm() {
		d, err := s.Deadlines.Deadline(r.Context(), e.id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		deadline = deadlineForm(e.id, e.as, d)
	}
	render(w, r, web.Encounter(web.EncounterProps{
		Deadline:   deadline,
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

// handleEncounterAct takes an action form posted without JavaScript, submits
// it like a websocket command, and redirects back to the page:
// POST /encounters/{id}/act (kind, actor, the action's fields, cid).
func (s *Server) handleEncounterAct(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
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
	cmd, offered, err := commandFromForm(engine.Project(e.ruleset, e.state, e.viewer), r.PostForm)
	if err != nil {
		back(errMessage(err))
		return
	}
	if !offered {
		// A form from a page the table has moved past: the rules say why
		// they no longer take it (whose turn it is, what waits, what is
		// spent) — or take it, if it still may be.
		if err := engine.Refusal(e.ruleset, e.state, e.viewer, cmd); err != nil {
			back(errMessage(err))
			return
		}
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

// handleEncounterSocket upgrades to the websocket protocol of docs/protocol.md:
// GET /encounters/{id}/ws and /api/encounters/{id}/ws. Query: as (gm or a
// PC id), since (resume after this seq), html=1 (rendered fragments for the
// page), view=1 (the projection in every events message). The session
// keeps the credential it was opened with: whenever the user's access may
// have changed, the hub grants it again (socketGrantee: one query for the
// encounter's sessions) and ends the session if it shrank.
func (s *Server) handleEncounterSocket(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	q := r.URL.Query()
	since := int64(-1)
	if v := q.Get("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeError(w, r, fray.Errorf(fray.EINVALID, "since must be a non-negative integer"))
			return
		}
		since = n
	}
	s.Hub.Serve(w, r, realtime.ServeOptions{
		Encounter: e.id, Table: s.Table, Viewer: e.viewer, Since: since,
		HTML: q.Get("html") == "1", View: q.Get("view") == "1",
		Campaign: e.campaign, User: e.user.ID, Access: e.access, Expires: e.expires,
		Grantee: newSocketGrantee(s, e),
	})
}

// handleEncounterView returns the caller's projection: GET /api/encounters/{id}
// (GMs may add ?as=PC to preview).
func (s *Server) handleEncounterView(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, engine.Project(e.ruleset, e.state, e.viewer))
}

// handleEncounterEvents returns the events after ?since= that the viewer may
// see, at most ?limit= (default and maximum 1000):
// GET /api/encounters/{id}/events.
func (s *Server) handleEncounterEvents(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	q := r.URL.Query()
	since, err := intParam(q.Get("since"), 0)
	if err != nil || since < 0 {
		writeError(w, r, fray.Errorf(fray.EINVALID, "since must be a non-negative integer"))
		return
	}
	limit, err := intParam(q.Get("limit"), 1000)
	if err != nil || limit < 1 || limit > 1000 {
		writeError(w, r, fray.Errorf(fray.EINVALID, "limit must be between 1 and 1000"))
		return
	}
	events, err := s.Events.Events(r.Context(), e.id, since, int(limit))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"seq": e.state.Core().Seq, "events": engine.FilterEvents(e.state, e.viewer, events)})
}

func intParam(v string, def int64) (int64, error) {
	if v == "" {
		return def, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

type commandRequest struct {
	ID      string          `json:"id"`
	Command json.RawMessage `json:"command"`
}

// handleEncounterCommand submits one command over HTTP, for bots and tests:
// POST /api/encounters/{id}/commands {"id":"…","command":{"kind":…}}.
func (s *Server) handleEncounterCommand(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	var req commandRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	cmd, err := engine.DecodeCommand(req.Command)
	if err != nil {
		writeError(w, r, err)
		return
	}
	seq, err := s.submit(r.Context(), &e, req.ID, cmd)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": req.ID, "seq": seq})
}

// commandFromForm builds a command from form values, typing each field as
// the action (or decision) on the viewer's page declares it. An action the
// view does not offer (a form from a page the table has moved past) is
// built with its values as text, and offered is false: the caller asks the
// rules why they refuse it rather than saying only that it is not offered.
func commandFromForm(view engine.View, form url.Values) (cmd engine.Command, offered bool, err error) {
	kind, actor := form.Get("kind"), form.Get("actor")
	fields := map[string]any{}
	if kind == engine.KindChat {
		// The chat box: a message, or "/roll 2d6+1", to everyone or one party.
		raw, err := json.Marshal(engine.NewCommand(kind, "", map[string]any{"text": form.Get("text"), "to": form.Get("to")}))
		if err != nil {
			return engine.Command{}, true, err
		}
		cmd, err := engine.DecodeCommand(raw)
		return cmd, true, err
	}
	offered = true
	if kind == engine.KindAnswer {
		actor = "" // the decision says who answers
		id := form.Get("decision")
		fields["decision"], fields["choice"] = id, form.Get("choice")
		if form.Get("override") != "" {
			fields["override"] = true // "Decide for …", confirmed
		}
		for _, d := range view.Pending {
			if d.ID != id || len(d.Fields) == 0 {
				continue
			}
			values, err := typedFields(d.Fields, form, "values.")
			if err != nil {
				return engine.Command{}, true, err
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
			offered = false
			for name := range form {
				if name != "kind" && name != "actor" && name != "cid" {
					fields[name] = form.Get(name)
				}
			}
		} else if fields, err = typedFields(action.Fields, form, ""); err != nil {
			return engine.Command{}, true, err
		}
	}
	raw, err := json.Marshal(engine.NewCommand(kind, actor, fields))
	if err != nil {
		return engine.Command{}, offered, err
	}
	cmd, err = engine.DecodeCommand(raw)
	return cmd, offered, err
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
