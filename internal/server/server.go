// Package server is Fray's HTTP layer: pages, the JSON API and the websocket
// endpoint, all routed in routes.go. Handlers are one per file and declare
// the narrow interfaces they consume.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/origin"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is the persistence the handlers use.
type Store interface {
	Ping(ctx context.Context) error

	CreateUser(ctx context.Context, name, passwordHash string) (store.User, error)
	UserByName(ctx context.Context, name string) (store.User, error)
	SetPassword(ctx context.Context, userID, passwordHash string) error
	CreateSession(ctx context.Context, userID string, tokenHash []byte, expires time.Time) error
	DeleteSession(ctx context.Context, tokenHash []byte) error
	CreateAPIToken(ctx context.Context, userID, name string, tokenHash []byte) (store.APIToken, error)
	APITokens(ctx context.Context, userID string) ([]store.APIToken, error)
	RevokeAPIToken(ctx context.Context, userID, tokenID string) error
	SignOutEverywhere(ctx context.Context, userID string) (sessions, tokens int64, err error)
	Authenticate(ctx context.Context, cred store.Credential, now time.Time) (store.User, time.Time, error)
	Access(ctx context.Context, cred store.Credential, userID, campaignID string, now time.Time) (store.Access, error)
	AllowRate(ctx context.Context, key string, every time.Duration, burst int) (bool, error)

	CreateCampaignFor(ctx context.Context, name, gmUserID string) (store.Campaign, error)
	Campaign(ctx context.Context, id string) (store.Campaign, error)
	UserCampaigns(ctx context.Context, userID string) ([]store.CampaignRole, error)
	Membership(ctx context.Context, campaignID, userID string) (string, error)
	Members(ctx context.Context, campaignID string) ([]store.Member, error)
	SetMember(ctx context.Context, campaignID, userID, role string) error
	RemoveMember(ctx context.Context, campaignID, userID string) error
	AssignCharacter(ctx context.Context, campaignID, characterID, userID string) error
	CharacterOwners(ctx context.Context, campaignID string) (map[string]string, error)
	UserCharacters(ctx context.Context, campaignID, userID string) ([]string, error)
	CreateInvite(ctx context.Context, campaignID, createdBy string, tokenHash []byte, expires time.Time) (store.Invite, error)
	Invites(ctx context.Context, campaignID string) ([]store.Invite, error)
	RevokeInvite(ctx context.Context, campaignID, inviteID string) error
	InviteByToken(ctx context.Context, tokenHash []byte, now time.Time) (store.Invite, store.Campaign, error)
	AcceptInvite(ctx context.Context, tokenHash []byte, userID string, now time.Time) (store.Campaign, error)

	CreateEncounter(ctx context.Context, e store.Encounter) (store.Encounter, error)
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	EncounterCampaign(ctx context.Context, id string) (string, error)
	Encounters(ctx context.Context, campaignID string) ([]store.Encounter, error)
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
	EventsOfKind(ctx context.Context, encounterID string, kinds ...string) ([]engine.Event, error)
}

// Config wires a Server.
type Config struct {
	Store    Store
	Play     *play.Service
	Hub      *realtime.Hub
	Rulesets *engine.Registry
	Logger   *slog.Logger
	// SecureCookies marks session cookies Secure even on plain-HTTP
	// requests (set it behind a TLS-terminating proxy).
	SecureCookies bool
	// RateEvery and RateBurst limit log-ins, sign-ups and password changes
	// per client address (or user): a burst of RateBurst, then one every
	// RateEvery. The buckets live in the database, shared by every server
	// instance. Zero means a burst of 10, then one every 6 seconds;
	// negative RateEvery turns the limit off.
	RateEvery time.Duration
	RateBurst int
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (for rate limits); none means the peer is the client.
	TrustedProxies TrustedProxies
	// Origins decides which browser origins may make state-changing
	// requests (CSRF); nil: this site's own origin only, over HTTPS when
	// SecureCookies or a trusted proxy's X-Forwarded-Proto says so.
	Origins *origin.Policy
}

// Server serves Fray over HTTP.
type Server struct {
	store          Store
	play           *play.Service
	hub            *realtime.Hub
	rules          *engine.Registry
	log            *slog.Logger
	secureCookies  bool
	rateEvery      time.Duration
	rateBurst      int
	trustedProxies TrustedProxies
	origins        *origin.Policy
	router         http.Handler
}

// New returns a Server with its routes.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.RateEvery == 0 {
		cfg.RateEvery = 6 * time.Second
	}
	if cfg.RateBurst == 0 {
		cfg.RateBurst = 10
	}
	if cfg.Origins == nil {
		cfg.Origins, _ = origin.New(nil, cfg.SecureCookies, cfg.TrustedProxies.Forwarded)
	}
	s := &Server{store: cfg.Store, play: cfg.Play, hub: cfg.Hub, rules: cfg.Rulesets, log: cfg.Logger,
		secureCookies: cfg.SecureCookies, rateEvery: cfg.RateEvery, rateBurst: cfg.RateBurst,
		trustedProxies: cfg.TrustedProxies, origins: cfg.Origins}
	s.router = s.routes()
	return s
}

// allow counts an attempt of a rate-limited action (key: the action and
// the client address or user) and reports whether it may go ahead.
func (s *Server) allow(r *http.Request, key string) (bool, error) {
	return s.store.AllowRate(r.Context(), key, s.rateEvery, s.rateBurst)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }
