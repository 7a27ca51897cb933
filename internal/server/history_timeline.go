package server

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/web"
)

// handleTimeline shows a campaign's encounters to its members, oldest
// first: date, participants, who fell and who won, as each member may see
// them: GET /campaigns/{id}/timeline.
func (s *Server) handleTimeline(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	ctx := r.Context()
	c, err := s.store.Campaign(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	encs, err := s.store.Encounters(ctx, c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	slices.Reverse(encs) // the store lists newest first
	var owned []string
	if !m.gm() {
		if owned, err = s.store.UserCharacters(ctx, c.ID, m.user.ID); err != nil {
			writeError(w, r, err)
			return
		}
	}
	p := web.TimelineProps{CampaignID: c.ID, Name: c.Name}
	carried, err := s.carriedByEncounter(ctx, m, owned)
	if err != nil {
		writeError(w, r, err)
		return
	}
	for _, rec := range encs {
		rs, st, err := s.play.Current(ctx, rec.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		b := st.Core()
		viewer := engine.GMViewer()
		if !m.gm() {
			mine := slices.DeleteFunc(slices.Clone(owned), func(id string) bool { return b.Combatant(id) == nil })
			viewer = engine.PlayerViewer(mine...)
		}
		view := engine.Project(rs, st, viewer)
		e := viewedEncounter{membership: m, id: rec.ID, ruleset: rs, state: st, grant: grant{viewer: viewer}}
		entry := web.TimelineEntry{
			ID: rec.ID, Name: b.Name, Ruleset: b.Ruleset, Status: string(b.Status), Events: b.Seq,
			Date: rec.CreatedAt.UTC().Format("2 Jan 2006, 15:04 UTC"), DateISO: rec.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
			Links: historyLinks(e),
		}
		entry.Links.Timeline = ""
		sideName := map[string]string{}
		for i, side := range view.Sides {
			sideName[side.ID] = side.Name
			ts := web.TimelineSide{Name: side.Name, Class: "side-" + strconv.Itoa(i%6)}
			for _, cb := range view.Combatants {
				if cb.Side == side.ID {
					ts.Members = append(ts.Members, cb.Name)
				}
			}
			if len(ts.Members) > 0 {
				entry.Sides = append(entry.Sides, ts)
			}
		}
		if o := b.Outcome; o != nil {
			entry.Outcome = "No winner"
			if o.Winner != "" {
				entry.Outcome = sideName[o.Winner] + " win"
			}
			if o.Summary != "" {
				entry.Outcome += " — " + o.Summary
			}
		}
		// Who fell: the combatants out now (so an undone fall does not
		// count), with the reason of their last visible combatant-out event.
		outs, err := s.store.EventsOfKind(ctx, rec.ID, engine.KindCombatantOut)
		if err != nil {
			writeError(w, r, err)
			return
		}
		reason := map[string]string{}
		for _, ev := range engine.FilterEvents(st, viewer, outs) {
			var d engine.CombatantOut
			if ev.Decode(&d) == nil {
				reason[d.Combatant] = d.Reason
			}
		}
		// Each in the board's words as it stands now (a fighter who was
		// dying when taken out may have died since); the reason it
		// was taken out when the board says nothing.
		for _, cb := range view.Combatants {
			if cb.Out {
				why := reason[cb.ID]
				if words := boardState(view.Board, cb.ID); words != "" {
					why = words
				}
				entry.Fell = append(entry.Fell, web.Fallen{Name: cb.Name, Side: sideName[cb.Side], Reason: why})
			}
		}
		entry.Carried = carried[rec.ID]
		if m.gm() && b.Status == engine.StatusFinished {
			entry.CarryURL = "/encounters/" + url.PathEscape(rec.ID) + "/carry-over"
		}
		p.Entries = append(p.Entries, entry)
	}
	render(w, r, web.Timeline(p))
}

// boardState is what a board's token of combatant id shows of its state,
// in the ruleset's words ("Dead"), or "".
func boardState(b *board.Board, id string) string {
	if b == nil {
		return ""
	}
	for _, t := range b.Tokens {
		if t.ID != id {
			continue
		}
		var words []string
		for _, c := range t.Conditions {
			words = append(words, c.Label)
		}
		return strings.Join(words, ", ")
	}
	return ""
}

// carriedByEncounter lists, by encounter id, the character revisions each
// encounter made that m may see (GMs: all; players: their characters').
func (s *Server) carriedByEncounter(ctx context.Context, m membership, owned []string) (map[string][]web.TimelineCarry, error) {
	cs, ok := s.store.(CharacterStore)
	if !ok {
		return nil, nil
	}
	revs, err := cs.EncounterRevisions(ctx, m.campaign)
	if err != nil {
		return nil, err
	}
	out := map[string][]web.TimelineCarry{}
	for _, v := range revs {
		if !m.gm() && !slices.Contains(owned, v.CharacterID) {
			continue
		}
		out[v.EncounterID] = append(out[v.EncounterID], web.TimelineCarry{Name: v.Name, Revision: v.Revision,
			URL: web.CharacterURL(m.campaign, v.CharacterID) + "#rev-" + strconv.Itoa(v.Revision)})
	}
	return out, nil
}

// timelineURL is a campaign's timeline page.
func timelineURL(campaignID string) string {
	return "/campaigns/" + url.PathEscape(campaignID) + "/timeline"
}
