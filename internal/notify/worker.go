// Package notify delivers the outbox's notices (package outbox) when the
// page is closed: to a campaign's webhooks (Discord-compatible or signed
// JSON), to members' browsers by Web Push, and by e-mail when the server
// has an SMTP server. A Worker runs on every server instance: it expands
// each notice into deliveries — one per target, each with the text its
// recipient may read, built through the engine's one filter — and delivers
// them at least once, with retries and exponential backoff, each under a
// delivery id that stays the same across attempts. Service holds what the
// pages and the API change: webhooks, push subscriptions, the members'
// choices and e-mail addresses.
package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is what the worker needs of the database; *store.DB provides it.
type Store interface {
	ExpandNotices(ctx context.Context, limit int, expand func(context.Context, []store.WaitingNotice) ([]store.NewDelivery, error)) (int, error)
	ClaimDeliveries(ctx context.Context, limit int, lease time.Duration) ([]store.Delivery, error)
	FinishDelivery(ctx context.Context, id string, attempt int, o store.Outcome) error
	DropPushSubscription(ctx context.Context, id string) error
	DeleteOldNotices(ctx context.Context, before time.Time) (int64, error)
	NoticeAudience(ctx context.Context, encounterID string) (store.NoticeAudience, error)
	LoadEncounter(ctx context.Context, id string) (store.Live, error)
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
	NoticesWritten() <-chan struct{}
}

// WorkerConfig configures a Worker. Zero values take the defaults.
type WorkerConfig struct {
	Store    Store
	Rulesets *engine.Registry
	Logger   *slog.Logger
	// PublicURL is the server's address as its users reach it
	// ("https://fray.example.com"), for links in notices; "" leaves links
	// out of e-mails and webhooks (push notices open relative links).
	PublicURL string
	Guard     Guard
	// Mailer sends e-mail; nil when the server has no SMTP server (then no
	// e-mail delivery is made).
	Mailer Mailer
	// Push sends Web Push messages; nil makes no push delivery.
	Push *Pusher
	// Links signs the links turn and decision notices carry (nil: none).
	Links *links.Signer
	// Lease is how long a claimed delivery is a worker's own before another
	// may try it again (default 60 s); it must exceed Timeout.
	Lease time.Duration
	// Timeout bounds one attempt (default 15 s, at most half the lease).
	Timeout time.Duration
	// Poll is how often the worker looks for work it was not woken for —
	// other instances' notices, retries that came due (default 2 s).
	Poll time.Duration
	// Backoff is the wait after a first failed attempt, doubled after each
	// next one up to MaxBackoff (defaults 10 s, 1 h).
	Backoff, MaxBackoff time.Duration
	// MaxAttempts is how many attempts a delivery gets (default 12: about
	// four hours of retries).
	MaxAttempts int
	// Keep is how long finished deliveries are kept (default 7 days).
	Keep time.Duration
}

func (c WorkerConfig) withDefaults() WorkerConfig {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Lease <= 0 {
		c.Lease = 60 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = min(15*time.Second, c.Lease/2)
	}
	if c.Lease < c.Timeout+time.Second {
		c.Lease = c.Timeout + time.Second
	}
	if c.Poll <= 0 {
		c.Poll = 2 * time.Second
	}
	if c.Backoff <= 0 {
		c.Backoff = 10 * time.Second
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = time.Hour
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 12
	}
	if c.Keep <= 0 {
		c.Keep = 7 * 24 * time.Hour
	}
	c.PublicURL = strings.TrimSuffix(c.PublicURL, "/")
	return c
}

// Worker expands and delivers notices. Run one per server instance: the
// store's claims keep instances from doing the same work.
type Worker struct {
	cfg    WorkerConfig
	client *http.Client // guarded: webhooks and push
}

// NewWorker returns a worker.
func NewWorker(cfg WorkerConfig) *Worker {
	cfg = cfg.withDefaults()
	return &Worker{cfg: cfg, client: cfg.Guard.Client(cfg.Timeout)}
}

// Run works until ctx ends: whenever this instance committed notices, at
// every poll, and once an hour it deletes what is older than Keep.
func (w *Worker) Run(ctx context.Context) {
	poll := time.NewTicker(w.cfg.Poll)
	defer poll.Stop()
	var lastSweep time.Time
	for {
		w.Step(ctx)
		if time.Since(lastSweep) > time.Hour {
			lastSweep = time.Now()
			if _, err := w.cfg.Store.DeleteOldNotices(ctx, time.Now().Add(-w.cfg.Keep)); err != nil && ctx.Err() == nil {
				w.cfg.Logger.Warn("delete old notices", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-w.cfg.Store.NoticesWritten():
		case <-poll.C:
		}
	}
}

// Step expands every waiting notice and makes every due delivery's
// attempt, then returns.
func (w *Worker) Step(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := w.cfg.Store.ExpandNotices(ctx, 50, w.expand)
		if err != nil {
			if ctx.Err() == nil {
				w.cfg.Logger.Warn("expand notices", "err", err)
			}
			break
		}
		if n == 0 {
			break
		}
	}
	for ctx.Err() == nil {
		ds, err := w.cfg.Store.ClaimDeliveries(ctx, 32, w.cfg.Lease)
		if err != nil {
			if ctx.Err() == nil {
				w.cfg.Logger.Warn("claim deliveries", "err", err)
			}
			return
		}
		if len(ds) == 0 {
			return
		}
		var wg sync.WaitGroup
		sem := make(chan struct{}, 8)
		for _, d := range ds {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				w.attempt(ctx, d)
			})
		}
		wg.Wait()
	}
}

// encounterNow is an encounter's current state and audience, read once
// per expansion however many of its notices it holds.
type encounterNow struct {
	state    engine.State
	audience store.NoticeAudience
	events   map[int64]engine.Event
	after    int64 // events after this seq are in events
}

// expand makes the deliveries of notices: for each, the public (every
// webhook) and each member who chose a channel is told what the filter
// lets them see of the notice's event (tell).
func (w *Worker) expand(ctx context.Context, notices []store.WaitingNotice) ([]store.NewDelivery, error) {
	encounters := map[string]*encounterNow{}
	var out []store.NewDelivery
	for _, n := range notices {
		e := encounters[n.EncounterID]
		if e == nil {
			var err error
			if e, err = w.load(ctx, n.EncounterID); err != nil {
				return nil, err
			}
			encounters[n.EncounterID] = e
		}
		ev, ok := e.events[n.Seq]
		if !ok {
			evs, err := w.cfg.Store.Events(ctx, n.EncounterID, n.Seq-1, 1)
			if err != nil {
				return nil, err
			}
			if len(evs) == 0 || evs[0].Seq != n.Seq {
				continue // rewound out of the log? nothing to tell
			}
			ev = evs[0]
		}
		out = append(out, w.deliveries(e, n, ev)...)
	}
	return out, nil
}

// load reads an encounter's current state and audience.
func (w *Worker) load(ctx context.Context, id string) (*encounterNow, error) {
	a, err := w.cfg.Store.NoticeAudience(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := w.cfg.Store.LoadEncounter(ctx, id)
	if err != nil {
		return nil, err
	}
	rs, err := w.cfg.Rulesets.Get(l.Ruleset)
	if err != nil {
		return nil, err
	}
	st, err := rs.Decode(l.Snapshot)
	if err != nil {
		return nil, fmt.Errorf("encounter %s: %w", id, err)
	}
	if err := engine.Replay(rs, st, l.Events); err != nil {
		return nil, fmt.Errorf("encounter %s: %w", id, err)
	}
	e := &encounterNow{state: st, audience: a, events: map[int64]engine.Event{}, after: l.SnapshotSeq}
	for _, ev := range l.Events {
		e.events[ev.Seq] = ev
	}
	return e, nil
}

// deliveries are notice n's deliveries, caused by ev.
func (w *Worker) deliveries(e *encounterNow, n store.WaitingNotice, ev engine.Event) []store.NewDelivery {
	a := e.audience
	var out []store.NewDelivery
	base := Message{
		Type: n.Type, Created: n.Created, Seq: n.Seq, Round: ev.Round, Due: due(n.Data),
		Campaign:  Ref{ID: a.CampaignID, Name: a.CampaignName, URL: w.link("/campaigns/" + a.CampaignID)},
		Encounter: Ref{ID: n.EncounterID, Name: a.EncounterName, URL: w.link("/encounters/" + n.EncounterID)},
	}
	add := func(channel, target, user string, m Message) {
		m.ID = store.NewID()
		payload, err := marshal(m)
		if err != nil {
			w.cfg.Logger.Error("notice payload", "err", err)
			return
		}
		out = append(out, store.NewDelivery{NoticeID: n.ID, ID: m.ID, Channel: channel, Target: target, User: user, Type: n.Type, Payload: payload})
	}
	if len(a.Webhooks) > 0 {
		if _, seen, ok := told(e.state, n, ev, recipient{public: true, viewer: publicViewer}, a.Owned); ok {
			m := base
			m.Title, m.Text = a.EncounterName, seen.Text
			// The link in a channel the table reads is its player's: only
			// they, signed in, may follow it.
			if abs := w.link(""); abs != "" {
				m.Act = actOf(w.cfg.Links, abs, n, seen, a.OwnerOf[whose(seen)])
			}
			for _, h := range a.Webhooks {
				add(store.ChannelWebhook, h.ID, "", m)
			}
		}
	}
	for _, mem := range a.Members {
		title, seen, ok := told(e.state, n, ev, recipient{member: mem, viewer: memberViewer(mem)}, a.Owned)
		if !ok {
			continue
		}
		m := base
		m.Title, m.Text = title+" in "+a.EncounterName, seen.Text
		m.Act = actOf(w.cfg.Links, w.link(""), n, seen, mem.UserID)
		if w.cfg.Push != nil {
			for _, p := range mem.Push {
				add(store.ChannelPush, p, mem.UserID, m)
			}
		}
		if w.cfg.Mailer != nil && mem.Email != "" {
			add(store.ChannelEmail, mem.UserID, mem.UserID, m)
		}
	}
	return out
}

// whose is the character a turn or decision event is for ("" for none,
// or the GM's).
func whose(seen engine.Event) string {
	switch seen.Kind {
	case engine.KindTurnStarted:
		var d engine.TurnStarted
		if seen.Decode(&d) == nil {
			return d.Combatant
		}
	case engine.KindDecisionOpened:
		var d engine.DecisionOpened
		if seen.Decode(&d) == nil {
			return d.Decision.For
		}
	}
	return ""
}

// link is the absolute URL of path on this server, "" without PublicURL.
func (w *Worker) link(path string) string {
	if w.cfg.PublicURL == "" {
		return ""
	}
	return w.cfg.PublicURL + path
}

// failure is why an attempt failed, and whether to try again.
type failure struct {
	err        error
	permanent  bool
	gone       bool          // the target no longer exists (push 404/410)
	retryAfter time.Duration // the target asked to wait (429 Retry-After)
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

func permanent(err error) error { return &failure{err: err, permanent: true} }

// attempt makes one attempt at a claimed delivery and records how it went.
func (w *Worker) attempt(ctx context.Context, d store.Delivery) {
	var err error
	if d.Gone {
		err = permanent(errors.New("the target was removed"))
	} else {
		var m Message
		if err = unmarshal(d.Payload, &m); err != nil {
			err = permanent(err)
		} else {
			actx, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
			err = w.send(actx, d, m)
			cancel()
		}
	}
	o := store.Outcome{Delivered: err == nil}
	if err != nil {
		if ctx.Err() != nil {
			return // shutting down: the lease runs out and someone tries again
		}
		o.Error = err.Error()
		var f *failure
		switch {
		case errors.As(err, &f) && f.gone && d.PushID != "":
			if derr := w.cfg.Store.DropPushSubscription(ctx, d.PushID); derr != nil {
				w.cfg.Logger.Warn("drop push subscription", "err", derr)
			}
		case errors.As(err, &f) && f.permanent:
		case d.Attempt < w.cfg.MaxAttempts:
			o.RetryAfter = w.backoff(d.Attempt)
			if errors.As(err, &f) && f.retryAfter > o.RetryAfter {
				o.RetryAfter = min(f.retryAfter, w.cfg.MaxBackoff)
			}
		}
		w.cfg.Logger.Info("notice not delivered", "delivery", d.ID, "channel", d.Channel, "attempt", d.Attempt,
			"retry_in", o.RetryAfter, "err", err)
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := w.cfg.Store.FinishDelivery(fctx, d.ID, d.Attempt, o); err != nil {
		w.cfg.Logger.Warn("record delivery outcome", "delivery", d.ID, "err", err)
	}
}

// backoff is the wait after failed attempt n: Backoff doubled n-1 times,
// at most MaxBackoff, less up to a fifth at random so that the retries of
// many deliveries spread out.
func (w *Worker) backoff(n int) time.Duration {
	d := w.cfg.Backoff
	for i := 1; i < n && d < w.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, w.cfg.MaxBackoff)
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// send makes one attempt through d's channel.
func (w *Worker) send(ctx context.Context, d store.Delivery, m Message) error {
	switch d.Channel {
	case store.ChannelWebhook:
		return postWebhook(ctx, w.client, d, m)
	case store.ChannelPush:
		if w.cfg.Push == nil {
			return permanent(errors.New("web push is not set up"))
		}
		return w.cfg.Push.send(ctx, w.client, d, m)
	case store.ChannelEmail:
		if w.cfg.Mailer == nil {
			return permanent(errors.New("e-mail is not set up"))
		}
		return w.cfg.Mailer.Send(ctx, Mail{To: d.Email, Subject: "Fray: " + m.Title, Text: mailText(m, w.cfg.PublicURL), MessageID: d.ID})
	}
	return permanent(fmt.Errorf("unknown channel %q", d.Channel))
}
