package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Carry is the GM's carry-over of an encounter's results to the
// campaign's characters; *carry.Service is one.
type Carry interface {
	Summary(ctx context.Context, encounterID string) (carry.Summary, error)
	Confirm(ctx context.Context, encounterID string, seq int64, by carry.User, ds []carry.Decision) ([]carry.Outcome, error)
}

// handleCarryPage shows the GM an encounter's carry-over: GET
// /encounters/{id}/carry-over.
func (s *Server) handleCarryPage(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	sum, err := s.Carry.Summary(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := carryProps(sum, nil)
	p.Notice, p.Error = takeFlash(w, r, flashNotice), takeFlash(w, r, flashError)
	render(w, r, web.CarryOver(p))
}

// handleCarryForm saves the GM's decisions from the carry-over page: POST
// /encounters/{id}/carry-over with seq, decision.<character> (confirm or
// skip; characters left out are not decided) and value.<character>.<path>.
// A refused form is shown again with the GM's values and the reason.
func (s *Server) handleCarryForm(w http.ResponseWriter, r *http.Request) {
	m, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	sum, err := s.Carry.Summary(ctx, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	fail := func(err error) {
		p := carryProps(sum, r.PostForm)
		p.Error = errMessage(err)
		w.WriteHeader(failStatus(r, err))
		render(w, r, web.CarryOver(p))
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "malformed form"))
		return
	}
	seq, err := strconv.ParseInt(r.PostForm.Get("seq"), 10, 64)
	if err != nil {
		fail(fray.Errorf(fray.EINVALID, "the form lacks the encounter's seq; reload the page"))
		return
	}
	var ds []carry.Decision
	for _, c := range sum.Characters {
		switch r.PostForm.Get("decision." + c.ID) {
		case "":
		case "skip":
			ds = append(ds, carry.Decision{Character: c.ID, Skip: true})
		case "confirm":
			values, err := sheet.CarriedFromForm(sum.Fields, r.PostForm, "value."+c.ID+".")
			if err != nil {
				fail(fray.Errorf(fray.EINVALID, "%s: %s", c.Name, errMessage(err)))
				return
			}
			ds = append(ds, carry.Decision{Character: c.ID, Values: values})
		default:
			fail(fray.Errorf(fray.EINVALID, "%s: choose confirm or skip", c.Name))
			return
		}
	}
	if seq != sum.Seq {
		// Reload what the encounter is now rather than keep values worked
		// out from a state the GM no longer sees.
		carryRedirect(w, r, id, "error", "The encounter changed since you opened this page (a rewind, or more play). Review the carry-over again.")
		return
	}
	outcomes, err := s.Carry.Confirm(ctx, id, seq, carry.User{ID: m.user.ID, Name: m.user.Name}, ds)
	if err != nil {
		fail(err)
		return
	}
	carryRedirect(w, r, id, "notice", outcomeNotice(sum, outcomes))
}

func carryRedirect(w http.ResponseWriter, r *http.Request, id, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/encounters/"+url.PathEscape(id)+"/carry-over", http.StatusSeeOther)
}

// outcomeNotice says what a confirmation did, character by character.
func outcomeNotice(sum carry.Summary, outcomes []carry.Outcome) string {
	name := map[string]string{}
	state := map[string]string{}
	for _, c := range sum.Characters {
		name[c.ID], state[c.ID] = c.Name, c.State
	}
	var parts []string
	for _, o := range outcomes {
		n := name[o.Character]
		switch {
		case o.Decision == store.CarrySkipped && o.Changed:
			parts = append(parts, fmt.Sprintf("%s skipped (the earlier result undone, revision %d)", n, o.Revision))
		case o.Decision == store.CarrySkipped:
			parts = append(parts, n+" skipped")
		case state[o.Character] == carry.StateNew:
			parts = append(parts, n+" added to the campaign's characters")
		case o.Changed:
			parts = append(parts, fmt.Sprintf("%s carried over (revision %d)", n, o.Revision))
		default:
			parts = append(parts, n+" unchanged")
		}
	}
	if len(parts) == 0 {
		return "Nothing to save: choose confirm or skip for a character."
	}
	return "Saved: " + strings.Join(parts, "; ") + "."
}

// carryProps is the carry-over page of sum; posted (after a refused form)
// keeps the GM's choices and values.
func carryProps(sum carry.Summary, posted url.Values) web.CarryProps {
	p := web.CarryProps{EncounterID: sum.EncounterID, Name: sum.Name, CampaignID: sum.CampaignID, Status: sum.Status,
		Seq: sum.Seq, Carries: len(sum.Fields) > 0, Ruleset: sum.Ruleset}
	for _, c := range sum.Characters {
		row := web.CarryRow{ID: c.ID, Name: c.Name, State: c.State, Problem: c.Problem, Invalid: c.Invalid,
			Skip: c.State == carry.StateSkipped}
		if c.Revision > 0 {
			row.PageURL = web.CharacterURL(sum.CampaignID, c.ID)
		}
		if d := c.Decided; d != nil {
			verb := "Carried over"
			if d.Decision == store.CarrySkipped {
				verb = "Skipped"
			}
			row.Decided = verb + " by " + orSomeone(d.UserName) + ", " + d.DecidedAt.UTC().Format("2 Jan 2006, 15:04 UTC")
			if d.Revision > 0 {
				row.Decided += fmt.Sprintf(" (revision %d)", d.Revision)
			}
			if c.State == carry.StateChanged {
				row.Decided = "Before the encounter was reopened: " + strings.ToLower(row.Decided[:1]) + row.Decided[1:]
			}
		}
		if c.Problem == "" {
			for _, f := range sum.Fields {
				v := web.CarryValueRow{Field: f,
					Start: sheet.FormatCarried(f, c.Start[f.Name]), End: sheet.FormatCarried(f, c.End[f.Name]),
					Now: sheet.FormatCarried(f, c.Current[f.Name]), Input: sheet.FormValue(c.Proposal[f.Name]),
					Changed: c.Proposal[f.Name] != c.Current[f.Name]}
				if posted != nil {
					v.Input = posted.Get("value." + c.ID + "." + f.Name)
				}
				row.Values = append(row.Values, v)
			}
		}
		if posted != nil {
			row.Skip = posted.Get("decision."+c.ID) == "skip"
		}
		p.Characters = append(p.Characters, row)
	}
	return p
}

func orSomeone(name string) string {
	if name == "" {
		return "someone"
	}
	return name
}

type carryJSON struct {
	Encounter  string             `json:"encounter"`
	Campaign   string             `json:"campaign"`
	Name       string             `json:"name"`
	Ruleset    string             `json:"ruleset"`
	Status     string             `json:"status"`
	Seq        int64              `json:"seq"`
	Finished   bool               `json:"finished"`
	Fields     []sheet.CarryField `json:"fields"`
	Characters []carryEntryJSON   `json:"characters"`
}

type carryEntryJSON struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	State    string            `json:"state"`
	Problem  string            `json:"problem,omitempty"`
	Revision int               `json:"revision"`
	Start    sheet.CarryValues `json:"start,omitempty"`
	End      sheet.CarryValues `json:"end,omitempty"`
	Current  sheet.CarryValues `json:"current,omitempty"`
	Proposal sheet.CarryValues `json:"proposal,omitempty"`
	Changes  []sheet.Change    `json:"changes"`
	Invalid  string            `json:"invalid,omitempty"`
	Decided  *decidedJSON      `json:"decided"`
}

type decidedJSON struct {
	Decision string    `json:"decision"`
	Seq      int64     `json:"seq"`
	Revision int       `json:"revision,omitempty"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// handleAPICarry returns an encounter's carry-over summary to a GM: GET
// /api/encounters/{id}/carry-over.
func (s *Server) handleAPICarry(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	sum, err := s.Carry.Summary(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := carryJSON{Encounter: sum.EncounterID, Campaign: sum.CampaignID, Name: sum.Name, Ruleset: sum.Ruleset,
		Status: string(sum.Status), Seq: sum.Seq, Finished: sum.Finished(), Fields: sum.Fields, Characters: []carryEntryJSON{}}
	if out.Fields == nil {
		out.Fields = []sheet.CarryField{}
	}
	for _, c := range sum.Characters {
		e := carryEntryJSON{ID: c.ID, Name: c.Name, State: c.State, Problem: c.Problem, Revision: c.Revision,
			Start: c.Start, End: c.End, Current: c.Current, Proposal: c.Proposal, Changes: c.Changes, Invalid: c.Invalid}
		if e.Changes == nil {
			e.Changes = []sheet.Change{}
		}
		if d := c.Decided; d != nil {
			e.Decided = &decidedJSON{Decision: d.Decision, Seq: d.Seq, Revision: d.Revision, By: d.UserName, At: d.DecidedAt.UTC()}
		}
		out.Characters = append(out.Characters, e)
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPICarryConfirm records a GM's carry-over decisions: POST
// /api/encounters/{id}/carry-over
// {"seq":N,"characters":[{"id":"brak"},{"id":"tess","values":{"wounds":1}},{"id":"lyra","skip":true}]}.
func (s *Server) handleAPICarryConfirm(w http.ResponseWriter, r *http.Request) {
	m, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	var req struct {
		Seq        *int64 `json:"seq"`
		Characters []struct {
			ID     string         `json:"id"`
			Skip   bool           `json:"skip"`
			Values map[string]any `json:"values"`
		} `json:"characters"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if req.Seq == nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "seq is required: the encounter's seq the carry-over was reviewed at (GET …/carry-over)"))
		return
	}
	ds := make([]carry.Decision, 0, len(req.Characters))
	for _, c := range req.Characters {
		ds = append(ds, carry.Decision{Character: c.ID, Skip: c.Skip, Values: c.Values})
	}
	outcomes, err := s.Carry.Confirm(r.Context(), id, *req.Seq, carry.User{ID: m.user.ID, Name: m.user.Name}, ds)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"seq": *req.Seq, "results": outcomes})
}
