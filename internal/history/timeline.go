package history

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/store"
)

// Member is who reads a campaign's history: one of its GMs, who sees
// everything, or a player, who sees what their characters may.
type Member struct {
	GM         bool
	Characters []string // the player's characters in the campaign
}

// viewer is m's viewer in an encounter in state st.
func (m Member) viewer(st engine.State) engine.Viewer {
	if m.GM {
		return engine.GMViewer()
	}
	b := st.Core()
	return engine.PlayerViewer(slices.DeleteFunc(slices.Clone(m.Characters), func(id string) bool { return b.Combatant(id) == nil })...)
}

// TimelineEntry is one encounter of a campaign's timeline as a member may
// see it.
type TimelineEntry struct {
	ID, Name, Ruleset string
	Status            engine.Status
	Events            int64 // its seq
	Created           time.Time
	Sides             []TimelineSide // the sides with someone the member sees
	// Outcome is who won, in words ("Heroes win — the ford is held");
	// empty while the encounter has none.
	Outcome string
	// Fell are the combatants out now (so a fall a rewind undid does not
	// count), each with what the board shows of its state, or else the
	// reason of its last visible combatant-out event.
	Fell []Fallen
	// Carried are the revisions of the campaign's characters the encounter
	// made (carry-over) that the member may see.
	Carried []store.Revision
}

// TimelineSide is a side of an encounter and its members the reader sees.
type TimelineSide struct {
	Index   int // the side's place in the encounter (for its colour)
	Name    string
	Members []string
}

// Fallen is a combatant out of an encounter.
type Fallen struct{ Name, Side, Reason string }

// Timeline lists a campaign's encounters, oldest first, as m may see
// them. It reads the campaign in a fixed number of statements, however
// many encounters it has, and loads none of them live.
func (s *Service) Timeline(ctx context.Context, campaignID string, m Member) ([]TimelineEntry, error) {
	lives, err := s.db.LoadEncounters(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	outs, err := s.db.CampaignEventsOfKind(ctx, campaignID, engine.KindCombatantOut)
	if err != nil {
		return nil, err
	}
	revs, err := s.db.EncounterRevisions(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	carried := map[string][]store.Revision{}
	for _, v := range revs {
		if m.GM || slices.Contains(m.Characters, v.CharacterID) {
			carried[v.EncounterID] = append(carried[v.EncounterID], v)
		}
	}
	entries := make([]TimelineEntry, 0, len(lives))
	for _, l := range lives {
		rs, st, err := play.Fold(s.rules, l)
		if err != nil {
			return nil, err
		}
		e := timelineEntry(rs, st, m.viewer(st), outs[l.ID])
		e.ID, e.Created, e.Carried = l.ID, l.CreatedAt, carried[l.ID]
		entries = append(entries, e)
	}
	return entries, nil
}

// timelineEntry is what viewer may see of an encounter in state st, whose
// combatant-out events are outs.
func timelineEntry(rs engine.Ruleset, st engine.State, viewer engine.Viewer, outs []engine.Event) TimelineEntry {
	b := st.Core()
	view := engine.Project(rs, st, viewer)
	e := TimelineEntry{Name: b.Name, Ruleset: b.Ruleset, Status: b.Status, Events: b.Seq}
	sideName := map[string]string{}
	for i, side := range view.Sides {
		sideName[side.ID] = side.Name
		ts := TimelineSide{Index: i, Name: side.Name}
		for _, c := range view.Combatants {
			if c.Side == side.ID {
				ts.Members = append(ts.Members, c.Name)
			}
		}
		if len(ts.Members) > 0 {
			e.Sides = append(e.Sides, ts)
		}
	}
	if o := b.Outcome; o != nil {
		e.Outcome = "No winner"
		if o.Winner != "" {
			e.Outcome = sideName[o.Winner] + " win"
		}
		if o.Summary != "" {
			e.Outcome += " — " + o.Summary
		}
	}
	reason := map[string]string{}
	for _, ev := range engine.FilterEvents(st, viewer, outs) {
		var d engine.CombatantOut
		if ev.Decode(&d) == nil {
			reason[d.Combatant] = d.Reason
		}
	}
	// Each in the board's words as it stands now (a fighter who was dying
	// when taken out may have died since); the reason it was taken out
	// when the board says nothing.
	for _, c := range view.Combatants {
		if c.Out {
			why := reason[c.ID]
			if words := boardState(view.Board, c.ID); words != "" {
				why = words
			}
			e.Fell = append(e.Fell, Fallen{Name: c.Name, Side: sideName[c.Side], Reason: why})
		}
	}
	return e
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
