// Package server is Fray's HTTP layer: pages, the JSON API and the websocket
// endpoint, all routed in routes.go.
//
// One resource per file: a file holds every handler of one resource (its
// pages and its API alike), the narrow interface of the service they
// consume, and its own test file. Handlers only parse the request, call
// a service and render the answer; the work is the services' (packages
// accounts, campaigns, prep, characters, carry, history, notify, play,
// simulate), which the one caller of New wires to the store.
package server

import (
	"context"
	"github.com/fray-vtt/fray/internal/intake"
	"log/slog"
	"net/http"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/origin"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/simulate"
)

// Config wires a Server: a service for each resource.
type Config struct {
	Accounts   Accounts
	Tokens     Tokens
	Access     Access
	Campaigns  Campaigns
	Invites    Invites
	Members    Members
	Encounters Encounters
	Drafts     Drafts
	StatBlocks StatBlocks
	Characters Characters
	Carry      Carry
	Deadlines  Deadlines
	// Standing is the players' standing orders (orders.go).
	Standing StandingOrders
	// Links checks the links notices carry, ActLog what following one
	// needs (act.go).
	Links    *links.Signer
	ActLog   ActLog
	History  History
	Webhooks Webhooks
	Notices  Notices
	Table    Table
	Events   EventLog
	Hub      Hub
	Pictures Pictures
	Sight    PictureSight
	Notes    CampaignNotes
	Health   Pinger
	Rulesets *engine.Registry
	// Odds runs drafts' encounter odds (a *simulate.Jobs with its
	// defaults when nil).
	Odds   Odds
	Logger *slog.Logger
	// SecureCookies marks session cookies Secure even on plain-HTTP
	// requests (set it behind a TLS-terminating proxy).
	SecureCookies bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (for rate limits); none means the peer is the client.
	TrustedProxies TrustedProxies
	// Origins decides which browser origins may make state-changing
	// requests (CSRF); nil: this site's own origin only, over HTTPS when
	// SecureCookies or a trusted proxy's X-Forwarded-Proto says so.
	Origins *origin.Policy
	// Resets, ResetMail and PublicURL offer password resets by e-mail
	// (all three are needed; see reset.go): the links, the mailer, and
	// the server's address as its users reach it, for the link.
	Resets    PasswordResets
	ResetMail notify.Mailer
	PublicURL string
}

// Hub serves an encounter's websocket sessions; *realtime.Hub is one.
type Hub interface {
	Serve(w http.ResponseWriter, r *http.Request, opt realtime.ServeOptions)
}

// Pinger says whether the database answers; *store.DB is one.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Server serves Fray over HTTP.
type Server struct {
	Config
	router http.Handler
	// uploads holds a token for each picture upload being read, waiting
	// or decoded: as many as the decoders' gate can run and queue, so
	// that uploads past what it would take are refused before their
	// bodies are read.
	uploads chan struct{}
}

// New returns a Server with its routes.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Odds == nil {
		cfg.Odds = simulate.NewJobs(simulate.JobsConfig{})
	}
	if cfg.Origins == nil {
		cfg.Origins, _ = origin.New(nil, cfg.SecureCookies, cfg.TrustedProxies.Forwarded)
	}
	g := intake.Default.Config()
	s := &Server{Config: cfg, uploads: make(chan struct{}, g.Queue+g.Slots)}
	s.router = s.routes()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }
