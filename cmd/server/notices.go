package main

import (
	"context"
	"log/slog"
	"net/mail"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/store"
)

// startNotices sets up notices when the page is closed: the server's VAPID
// keys (made once and kept in the database), the mailer (nil when no SMTP
// server is configured), and this instance's outbox worker, which runs
// until ctx ends. It returns the settings service the handlers use and a
// function that waits for the worker to stop.
func startNotices(ctx context.Context, db *store.DB, rulesets *engine.Registry, cfg config, mailer notify.Mailer, log *slog.Logger, signer *links.Signer) (*notify.Service, func(), error) {
	pub, priv, err := db.VAPIDKeys(ctx, notify.GenerateVAPIDKeys)
	if err != nil {
		return nil, nil, err
	}
	guard := notify.Guard{AllowPrivate: cfg.NotifyAllowPrivate}
	if guard.AllowPrivate {
		log.Warn("-notify-allow-private is set: webhooks and push may reach loopback and private addresses")
	}
	w := notify.NewWorker(notify.WorkerConfig{
		Store: db, Rulesets: rulesets, Logger: log, PublicURL: cfg.PublicURL, Guard: guard, Mailer: mailer,
		Push:  &notify.Pusher{PublicKey: pub, PrivateKey: priv, Contact: vapidContact(cfg)},
		Lease: cfg.NotifyLease, Backoff: cfg.NotifyBackoff, Links: signer,
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	svc := notify.NewService(db, notify.ServiceConfig{Guard: guard, EmailOffered: mailer != nil, PushKey: pub})
	return svc, func() { <-done }, nil
}

// vapidContact is how a push service may reach the operator (the VAPID
// token's "sub"): the e-mail sender's address, else the server's https
// address, else a placeholder.
func vapidContact(cfg config) string {
	if a, err := mail.ParseAddress(cfg.MailFrom); err == nil {
		return "mailto:" + a.Address
	}
	if strings.HasPrefix(cfg.PublicURL, "https://") {
		return cfg.PublicURL
	}
	return "mailto:fray@localhost"
}

// notifyTimings reads the outbox worker's lease and first backoff from
// FRAY_NOTIFY_LEASE and FRAY_NOTIFY_BACKOFF (Go durations), for tests
// that kill a server mid-delivery; unset, the worker's defaults.
func notifyTimings(getenv func(string) string) (lease, backoff time.Duration) {
	lease, _ = time.ParseDuration(getenv("FRAY_NOTIFY_LEASE"))
	backoff, _ = time.ParseDuration(getenv("FRAY_NOTIFY_BACKOFF"))
	return lease, backoff
}

// newMailer is the SMTP mailer of cfg, nil when none is configured.
func newMailer(cfg config) (notify.Mailer, error) {
	if cfg.SMTPURL == "" {
		return nil, nil
	}
	return notify.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
}
