package server

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/simulate"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Odds runs drafts' encounter odds off the request's path, one simulation
// at a time per campaign, within a time budget; *simulate.Jobs is one.
type Odds interface {
	Start(campaign, key string, rs engine.Ruleset, setup engine.Setup, opt simulate.Options) (simulate.Status, error)
	Status(campaign string) (simulate.Status, bool)
	Cancel(campaign string) bool
}

// The encounter odds of a draft (GMs), as a page fragment or, under /api,
// as JSON:
//
//	GET  /drafts/{draft}/odds          the section: the form, progress, the result
//	POST /drafts/{draft}/odds          start a simulation (runs: 1–2000, default 200; seed)
//	POST /drafts/{draft}/odds/cancel   stop it, keeping what was played
//
// A browser's form posts come back to the draft's page; htmx's (with its
// HX-Request header) get the section back.

// oddsDraft loads the request's draft for a GM with what a simulation
// plays: the setup as creating the encounter would make it (player
// characters with their sheets' latest revisions), its ruleset, and why it
// cannot be played yet ("" when it can). On error it has answered.
func (s *Server) oddsDraft(w http.ResponseWriter, r *http.Request) (store.Draft, engine.Ruleset, engine.Setup, string, bool) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return d, nil, engine.Setup{}, "", false
	}
	rs, setup, problem, err := s.Drafts.Playable(r.Context(), d)
	if err != nil {
		writeError(w, r, err)
		return d, nil, setup, "", false
	}
	return d, rs, setup, problem, true
}

// oddsProps is the odds section of draft d (of campaign) for its page.
func (s *Server) oddsProps(draft, campaign, problem string) web.OddsProps {
	p := web.OddsProps{DraftID: draft, Problem: problem}
	if st, ok := s.Odds.Status(campaign); ok {
		if st.Key == draft {
			p.Status = &st
		} else {
			p.Elsewhere = st.Active()
		}
	}
	return p
}

// oddsBody is the JSON of the odds of a draft: its last simulation, if
// any, and why it cannot be simulated yet.
type oddsBody struct {
	Problem    string           `json:"problem,omitempty"`
	Elsewhere  bool             `json:"elsewhere,omitempty"`
	Simulation *simulate.Status `json:"simulation"`
}

// handleOdds shows a draft's odds: GET /drafts/{draft}/odds (the
// section), GET /api/drafts/{draft}/odds (JSON).
func (s *Server) handleOdds(w http.ResponseWriter, r *http.Request) {
	d, _, _, problem, ok := s.oddsDraft(w, r)
	if !ok {
		return
	}
	s.answerOdds(w, r, s.oddsProps(d.ID, d.CampaignID, problem), http.StatusOK)
}

// handleSimulate starts simulating a draft: POST /drafts/{draft}/odds
// (form: runs) or POST /api/drafts/{draft}/odds ({"runs":N,"seed":S}).
func (s *Server) handleSimulate(w http.ResponseWriter, r *http.Request) {
	d, rs, setup, problem, ok := s.oddsDraft(w, r)
	if !ok {
		return
	}
	opt, err := oddsOptions(r)
	if err == nil && problem != "" {
		err = fray.Errorf(fray.EILLEGAL, "the draft cannot be played yet: %s", problem)
	}
	if err == nil {
		_, err = s.Odds.Start(d.CampaignID, d.ID, rs, setup, opt)
	}
	if err != nil {
		s.oddsRefused(w, r, d, problem, err)
		return
	}
	s.answerOdds(w, r, s.oddsProps(d.ID, d.CampaignID, problem), http.StatusAccepted)
}

// handleCancelOdds stops a draft's simulation, keeping what it played:
// POST /drafts/{draft}/odds/cancel (or under /api). Another draft's is
// left alone; with none under way it does nothing.
func (s *Server) handleCancelOdds(w http.ResponseWriter, r *http.Request) {
	d, _, _, problem, ok := s.oddsDraft(w, r)
	if !ok {
		return
	}
	if st, ok := s.Odds.Status(d.CampaignID); ok && st.Key == d.ID {
		s.Odds.Cancel(d.CampaignID)
	}
	s.answerOdds(w, r, s.oddsProps(d.ID, d.CampaignID, problem), http.StatusOK)
}

// oddsOptions reads how many fights to play, and the seed (a random one
// when none is given).
func oddsOptions(r *http.Request) (simulate.Options, error) {
	var in struct {
		Runs int    `json:"runs"`
		Seed uint64 `json:"seed"`
	}
	if isAPI(r) {
		if r.ContentLength != 0 {
			if err := readJSON(r, &in); err != nil {
				return simulate.Options{}, err
			}
		}
	} else if v := r.PostFormValue("runs"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return simulate.Options{}, fray.Errorf(fray.EINVALID, "runs must be a whole number, not %q", v)
		}
		in.Runs = n
	}
	if in.Runs == 0 {
		in.Runs = simulate.DefaultRuns
	}
	if in.Runs < 1 || in.Runs > simulate.MaxRuns {
		return simulate.Options{}, fray.Errorf(fray.EINVALID, "runs must be between 1 and %d", simulate.MaxRuns)
	}
	if in.Seed == 0 {
		in.Seed = rand.Uint64()
	}
	return simulate.Options{Runs: in.Runs, Seed: in.Seed}, nil
}

// oddsRefused answers a refused request: the error (JSON), the section
// with the message (htmx), or the draft's page with it.
func (s *Server) oddsRefused(w http.ResponseWriter, r *http.Request, d store.Draft, problem string, err error) {
	if isAPI(r) || !isHTMX(r) {
		if !isAPI(r) && fray.ErrorCode(err) != fray.EINTERNAL {
			draftRedirect(w, r, d.ID, flashError, errMessage(err))
			return
		}
		writeError(w, r, err)
		return
	}
	p := s.oddsProps(d.ID, d.CampaignID, problem)
	p.Error = errMessage(err)
	s.answerOdds(w, r, p, statusOf(fray.ErrorCode(err)))
}

// answerOdds sends the odds: JSON under /api, the section to htmx, else
// back to the draft's page (after a form's post).
func (s *Server) answerOdds(w http.ResponseWriter, r *http.Request, p web.OddsProps, status int) {
	switch {
	case isAPI(r):
		writeJSON(w, status, oddsBody{Problem: p.Problem, Elsewhere: p.Elsewhere, Simulation: p.Status})
	case r.Method == http.MethodGet || isHTMX(r):
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_ = web.Odds(p).Render(r.Context(), w)
	default:
		http.Redirect(w, r, "/drafts/"+url.PathEscape(p.DraftID)+"#odds", http.StatusSeeOther)
	}
}
