// Package server is Fray's HTTP layer: pages, the JSON API and the websocket
// endpoint, all routed in routes.go. Handlers are one per file and declare
// the narrow interfaces they consume.
package server

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is the persistence the handlers use.
type Store interface {
	Ping(ctx context.Context) error
	CreateCampaign(ctx context.Context, name string) (store.Campaign, error)
	Campaign(ctx context.Context, id string) (store.Campaign, error)
	Campaigns(ctx context.Context) ([]store.Campaign, error)
	CreateEncounter(ctx context.Context, e store.Encounter) (store.Encounter, error)
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	Encounters(ctx context.Context, campaignID string) ([]store.Encounter, error)
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
}

// Config wires a Server.
type Config struct {
	Store    Store
	Play     *play.Service
	Hub      *realtime.Hub
	Rulesets *engine.Registry
	Logger   *slog.Logger
}

// Server serves Fray over HTTP.
type Server struct {
	store  Store
	play   *play.Service
	hub    *realtime.Hub
	rules  *engine.Registry
	log    *slog.Logger
	router http.Handler
}

// New returns a Server with its routes.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{store: cfg.Store, play: cfg.Play, hub: cfg.Hub, rules: cfg.Rulesets, log: cfg.Logger}
	s.router = s.routes()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }
