package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Acting from a notice (docs/protocol.md, "Acting from a notice"): a turn
// or decision notice carries a signed link (internal/links) bound to its
// user, its encounter, its decision and the log position it was about.
// GET /act/{token} shows that one decision (web.Act) or, for a turn, opens
// the table; POST /act/{token} (a form) and POST /api/act/{token} (JSON:
// a notification's button, a bot) answer it. A link works for its user
// alone, signed in, and only while they may answer the decision; it is
// refused once used (its answer's command id is the link's: the play
// service applies it once), once the decision is gone, and once the log
// no longer stands where the link found it (a rewind since).

// ActLog is what the links need of the store; *store.DB is one.
type ActLog interface {
	LookupCommand(ctx context.Context, encounterID, sender, commandID string) (store.CommandState, error)
	// RewoundSince reports whether the encounter was rewound after seq.
	RewoundSince(ctx context.Context, encounterID string, seq int64) (bool, error)
	// HoldAnswer keeps a sealed answer the server commits to for the
	// player, revealed once the group has answered (deadlines).
	HoldAnswer(ctx context.Context, h store.Held) error
}

// actLink is a followed link: who follows it and what it stands for.
type actLink struct {
	token    string
	link     links.Link
	e        viewedEncounter
	decision engine.Decision // as the follower's projection holds it
}

// Refusals of a link, as a stranger to it may read them.
var (
	errLinkUsed  = fray.Errorf(fray.ECONFLICT, "this link was already used: the answer is in the log")
	errLinkGone  = fray.Errorf(fray.EILLEGAL, "this decision no longer waits for an answer")
	errLinkStale = fray.Errorf(fray.ECONFLICT, "this link is out of date: the table has moved since (a newer notice has your decision)")
	errLinkOther = fray.Errorf(fray.EFORBIDDEN, "this link is for another account: sign in as the player it was sent to")
)

// followLink checks the request's link and loads what it stands for. On
// error it has answered (a page or JSON).
func (s *Server) followLink(w http.ResponseWriter, r *http.Request, fail func(error)) (*actLink, bool) {
	if s.Links == nil {
		fail(fray.Errorf(fray.ENOTFOUND, "this link is not valid"))
		return nil, false
	}
	u, ok := requireUser(w, r)
	if !ok {
		return nil, false
	}
	if ok, err := s.allow(r, "act:"+u.ID); err != nil || !ok {
		if err == nil {
			err = fray.Errorf(fray.ERATELIMIT, "too many links followed; wait a minute")
		}
		fail(err)
		return nil, false
	}
	token := chi.URLParam(r, "token")
	l, err := s.Links.Verify(token, time.Now()) // a link lives on the wall clock, as its notice does
	if err != nil {
		fail(err)
		return nil, false
	}
	if u.ID != l.User {
		fail(errLinkOther)
		return nil, false
	}
	a := &actLink{token: token, link: l}
	campaignID, err := s.Access.EncounterCampaign(r.Context(), l.Encounter)
	if errCode(err) == fray.ENOTFOUND {
		err = noSuchEncounter()
	}
	if err != nil {
		fail(err)
		return nil, false
	}
	p := principalFrom(r)
	acc, err := s.access(r.Context(), p, campaignID)
	if err != nil {
		fail(err)
		return nil, false
	}
	rs, st, err := s.Table.Current(r.Context(), l.Encounter)
	if err != nil {
		fail(err)
		return nil, false
	}
	a.e = viewedEncounter{id: l.Encounter, ruleset: rs, state: st,
		membership: membership{user: p.user, principal: p, campaign: campaignID, role: acc.Role, characters: acc.Characters}}
	if a.e.grant, err = grantFrom(acc, st, "", p.user.Name); err != nil {
		fail(err)
		return nil, false
	}
	if err := s.linkStands(r.Context(), a); err != nil {
		fail(err)
		return nil, false
	}
	return a, true
}

// linkStands checks that a's link may still be used: not used, its log
// position not rewound past, and its decision still the viewer's to
// answer (for a turn link: nothing more).
func (s *Server) linkStands(ctx context.Context, a *actLink) error {
	l := a.link
	look, err := s.ActLog.LookupCommand(ctx, l.Encounter, a.e.user.ID, links.CommandID(a.token))
	if err != nil {
		return err
	}
	if look.Applied {
		return errLinkUsed
	}
	if l.Decision == "" {
		return nil
	}
	evs, err := s.Events.Events(ctx, l.Encounter, l.Seq-1, 1)
	if err != nil {
		return err
	}
	var opened engine.DecisionOpened
	if len(evs) != 1 || evs[0].Seq != l.Seq || evs[0].Kind != engine.KindDecisionOpened || evs[0].Decode(&opened) != nil || opened.Decision.ID != l.Decision {
		return errLinkStale
	}
	if rewound, err := s.ActLog.RewoundSince(ctx, l.Encounter, l.Seq); err != nil || rewound {
		if err == nil {
			err = errLinkStale
		}
		return err
	}
	view := engine.Project(a.e.ruleset, a.e.state, a.e.viewer)
	for _, d := range view.Pending {
		if d.ID == l.Decision && !a.e.viewer.PlayerOwned(d.For) {
			a.decision = d
			return nil
		}
	}
	return errLinkGone
}

// handleActPage is GET /act/{token}: the decision page, or, for a turn,
// the table.
func (s *Server) handleActPage(w http.ResponseWriter, r *http.Request) {
	a, ok := s.followLink(w, r, func(err error) { s.actProblem(w, r, nil, err) })
	if !ok {
		return
	}
	if a.link.Decision == "" {
		http.Redirect(w, r, encounterURL(a.e.id, "", "", nil)+"#pane-act", http.StatusSeeOther)
		return
	}
	p := s.actProps(r.Context(), a)
	render(w, r, web.Act(p))
}

// handleActAnswer is POST /act/{token} (choice, values.<field>): the
// decision page's answer.
func (s *Server) handleActAnswer(w http.ResponseWriter, r *http.Request) {
	a, ok := s.followLink(w, r, func(err error) { s.actProblem(w, r, nil, err) })
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil {
		s.actProblem(w, r, a, fray.Errorf(fray.EINVALID, "the form could not be read"))
		return
	}
	var values map[string]any
	if len(a.decision.Fields) > 0 {
		var err error
		if values, err = typedFields(a.decision.Fields, r.PostForm, "values."); err != nil {
			s.actProblem(w, r, a, err)
			return
		}
	}
	done, err := s.answerByLink(r.Context(), a, r.PostForm.Get("choice"), values)
	if err != nil {
		s.actProblem(w, r, a, err)
		return
	}
	p := s.actProps(r.Context(), a)
	p.Done = done
	render(w, r, web.Act(p))
}

// handleAPIAct is POST /api/act/{token} {"choice":"<an option>","values":{…}}:
// a notification's button, or a bot, answers the link's decision.
// Answers {"seq","answered"}.
func (s *Server) handleAPIAct(w http.ResponseWriter, r *http.Request) {
	a, ok := s.followLink(w, r, func(err error) { writeError(w, r, err) })
	if !ok {
		return
	}
	var req struct {
		Choice string                     `json:"choice"`
		Values map[string]json.RawMessage `json:"values,omitempty"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if a.link.Decision == "" {
		writeError(w, r, fray.Errorf(fray.EINVALID, "this link is to a turn: act on the table"))
		return
	}
	var values map[string]any
	if req.Values != nil {
		values = map[string]any{}
		for k, v := range req.Values {
			values[k] = v
		}
	}
	done, err := s.answerByLink(r.Context(), a, req.Choice, values)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"answered": done})
}

// handleAPIActGet is GET /api/act/{token}: the link's decision as its
// page shows it, for a bot: {"encounter","decision","clock"}.
func (s *Server) handleAPIActGet(w http.ResponseWriter, r *http.Request) {
	a, ok := s.followLink(w, r, func(err error) { writeError(w, r, err) })
	if !ok {
		return
	}
	out := map[string]any{"encounter": a.e.id}
	if a.link.Decision != "" {
		out["decision"] = a.decision
		if st, err := s.Deadlines.ClockStatus(r.Context(), a.e.state, a.e.viewer); err == nil {
			out["clock"] = st
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// answerByLink sends a's answer with the link's command id, as its user:
// a sealed decision's answer is committed to, the server holding it until
// the whole group has answered (deadlines reveals it). It returns what
// to tell them.
func (s *Server) answerByLink(ctx context.Context, a *actLink, choice string, values map[string]any) (string, error) {
	d := a.decision
	if !d.HasOption(choice) {
		return "", fray.Errorf(fray.EINVALID, "%q is not an answer to this question", choice)
	}
	args := map[string]any{"decision": d.ID, "choice": choice}
	if values != nil {
		args["values"] = values
	}
	done := "Answered: " + d.Label(choice) + ". The encounter goes on."
	if d.Sealed && !a.e.viewer.GM {
		var raw json.RawMessage
		if values != nil {
			var err error
			if raw, err = json.Marshal(values); err != nil {
				return "", err
			}
		}
		h, err := deadlines.NewHeld(d, choice, raw, "")
		if err != nil {
			return "", err
		}
		h.EncounterID = a.e.id
		if err := s.ActLog.HoldAnswer(ctx, h); err != nil {
			return "", err
		}
		args = map[string]any{"decision": d.ID, "commitment": h.Commitment}
		done = "Answered: " + d.Label(choice) + " — sealed until everyone has answered."
	}
	if _, err := s.submit(ctx, &a.e, links.CommandID(a.token), engine.NewCommand(engine.KindAnswer, "", args)); err != nil {
		return "", err
	}
	return done, nil
}

// actProps is the decision page of a.
func (s *Server) actProps(ctx context.Context, a *actLink) web.ActProps {
	p := web.ActProps{Title: a.e.state.Core().Name, Decision: a.decision, PostURL: "/act/" + url.PathEscape(a.token),
		TableURL: encounterURL(a.e.id, "", "", nil), OrdersURL: encounterURL(a.e.id, "/orders", "", nil)}
	if st, err := s.Deadlines.ClockStatus(ctx, a.e.state, a.e.viewer); err == nil {
		for _, l := range st.Waiting {
			if l.Character != a.decision.For {
				continue
			}
			kind := "deadline"
			if st.Clock {
				kind = "clock"
			}
			left := time.Duration(l.Remaining) * time.Millisecond
			p.Clock = &web.ActClock{Kind: kind, Name: l.Name, Remaining: l.Remaining,
				Text: l.Name + ": " + shortDuration(left.Round(time.Second)) + " left before your standing orders and the fallback answer"}
		}
	}
	return p
}

// actProblem shows why a link cannot be used, with the status its error
// has; a is nil when the link did not resolve to an encounter.
func (s *Server) actProblem(w http.ResponseWriter, r *http.Request, a *actLink, err error) {
	status := failStatus(r, err)
	p := web.ActProps{Title: "A link from a notice", Problem: errMessage(err)}
	if a != nil {
		p.Title, p.TableURL = a.e.state.Core().Name, encounterURL(a.e.id, "", "", nil)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = web.Act(p).Render(r.Context(), w)
}
