package server

import (
	"net/http"
	"time"

	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

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
	sum, err := s.carryService().Summary(r.Context(), id)
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
	outcomes, err := s.carryService().Confirm(r.Context(), id, *req.Seq, carry.User{ID: m.user.ID, Name: m.user.Name}, ds)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"seq": *req.Seq, "results": outcomes})
}
