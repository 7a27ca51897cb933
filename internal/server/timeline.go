package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/web"
)

// History reads what happened, from the stored snapshots and events
// (never the live encounters); *history.Service is one.
type History interface {
	// Latest is an encounter's current state as stored.
	Latest(ctx context.Context, id string) (engine.Ruleset, engine.State, error)
	Timeline(ctx context.Context, campaignID string, m history.Member) ([]history.TimelineEntry, error)
	Log(ctx context.Context, rd history.Reading, f history.LogFilter) (history.LogPage, error)
	Replay(ctx context.Context, rd history.Reading, seq int64) (history.Step, error)
	Export(ctx context.Context, rd history.Reading) (history.Export, error)
	// Heads are the links of an encounter's hash chain (chain.go).
	Heads(ctx context.Context, id string, after int64, limit int) ([]history.Head, error)
}

// handleTimeline shows a campaign's encounters to its members, oldest
// first: date, participants, who fell and who won, as each member may see
// them: GET /campaigns/{id}/timeline.
func (s *Server) handleTimeline(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	ctx := r.Context()
	c, err := s.Campaigns.Campaign(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	entries, err := s.History.Timeline(ctx, m.campaign, history.Member{GM: m.gm(), Characters: m.characters})
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.TimelineProps{CampaignID: c.ID, Name: c.Name}
	for _, e := range entries {
		entry := web.TimelineEntry{
			ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: string(e.Status), Events: e.Events,
			Date: e.Created.UTC().Format("2 Jan 2006, 15:04 UTC"), DateISO: e.Created.UTC().Format("2006-01-02T15:04:05Z"),
			Links: historyLinks(e.ID, "", ""), Outcome: e.Outcome,
		}
		for _, side := range e.Sides {
			entry.Sides = append(entry.Sides, web.TimelineSide{Name: side.Name, Class: "side-" + strconv.Itoa(side.Index%6), Members: side.Members})
		}
		for _, f := range e.Fell {
			entry.Fell = append(entry.Fell, web.Fallen{Name: f.Name, Side: f.Side, Reason: f.Reason})
		}
		for _, v := range e.Carried {
			entry.Carried = append(entry.Carried, web.TimelineCarry{Name: v.Name, Revision: v.Revision,
				URL: web.CharacterURL(m.campaign, v.CharacterID) + "#rev-" + strconv.Itoa(v.Revision)})
		}
		if m.gm() && e.Status == engine.StatusFinished {
			entry.CarryURL = "/encounters/" + url.PathEscape(e.ID) + "/carry-over"
		}
		p.Entries = append(p.Entries, entry)
	}
	render(w, r, web.Timeline(p))
}

// reading is what history.Service needs of a viewed encounter.
func (e viewedEncounter) reading() history.Reading {
	return history.Reading{ID: e.id, Campaign: e.campaign, Ruleset: e.ruleset, State: e.state, Viewer: e.viewer}
}

// historyLinks are the URLs of an encounter's pages for a viewer previewing
// as as; timeline is its campaign's, when the page links back to it.
func historyLinks(id, as, campaign string) web.HistoryLinks {
	l := web.HistoryLinks{
		Encounter:  encounterURL(id, "", as, nil),
		Log:        encounterURL(id, "/log", as, nil),
		Replay:     encounterURL(id, "/replay", as, nil),
		ExportMD:   encounterURL(id, "/export.md", as, nil),
		ExportJSON: "/api" + encounterURL(id, "/export.json", as, nil),
	}
	if campaign != "" {
		l.Timeline = timelineURL(campaign)
	}
	return l
}

// timelineURL is a campaign's timeline page.
func timelineURL(campaignID string) string {
	return "/campaigns/" + url.PathEscape(campaignID) + "/timeline"
}
