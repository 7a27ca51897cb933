package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// handleCarryPage shows the GM an encounter's carry-over: GET
// /encounters/{id}/carry-over.
func (s *Server) handleCarryPage(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.encounterGM(w, r)
	if !ok {
		return
	}
	sum, err := s.carryService().Summary(r.Context(), id)
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
	svc := s.carryService()
	sum, err := svc.Summary(ctx, id)
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
	outcomes, err := svc.Confirm(ctx, id, seq, carry.User{ID: m.user.ID, Name: m.user.Name}, ds)
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
