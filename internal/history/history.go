// Package history reads what happened: a campaign's timeline, an
// encounter's log, its replay step by step and its exports, each as one
// viewer may see it. Everything is read from the stored snapshots and
// events — never from the live encounters of package play, so reading the
// past of a hundred encounters loads none of them — in a number of
// statements that does not grow with the campaign.
package history

import (
	"context"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is what reading history needs; *store.DB provides it. Each method
// is one statement.
type Store interface {
	play.HistoryStore // SnapshotAt and Events: the state at any seq
	LoadEncounter(ctx context.Context, id string) (store.Live, error)
	LoadEncounters(ctx context.Context, campaignID string) ([]store.Live, error)
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	EventsOfKind(ctx context.Context, encounterID string, kinds ...string) ([]engine.Event, error)
	CampaignEventsOfKind(ctx context.Context, campaignID string, kinds ...string) (map[string][]engine.Event, error)
	EncounterRevisions(ctx context.Context, campaignID string) ([]store.Revision, error)
	// Chain is the hash chain of an encounter's events after seq after
	// (docs/protocol.md, "The chain").
	Chain(ctx context.Context, id string, after int64) ([]store.Chained, error)
}

// Service reads history.
type Service struct {
	db    Store
	rules *engine.Registry
}

// New returns a Service over db for the rulesets of rules.
func New(db Store, rules *engine.Registry) *Service { return &Service{db: db, rules: rules} }

// Reading is one viewer's look at one encounter: its current state (see
// Service.Latest) and who looks. What they may see of the past is judged
// by it.
type Reading struct {
	ID, Campaign string
	Ruleset      engine.Ruleset
	State        engine.State
	Viewer       engine.Viewer
}

// Latest is encounter id's current state as stored: its latest snapshot
// with the events after it folded in, read in one statement.
func (s *Service) Latest(ctx context.Context, id string) (engine.Ruleset, engine.State, error) {
	l, err := s.db.LoadEncounter(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return play.Fold(s.rules, l)
}

// undone returns the events of encounter id that a rewind undid.
func (s *Service) undone(ctx context.Context, id string) (map[int64]bool, error) {
	rewinds, err := s.db.EventsOfKind(ctx, id, engine.KindRewound)
	if err != nil {
		return nil, err
	}
	return engine.Undone(rewinds), nil
}
