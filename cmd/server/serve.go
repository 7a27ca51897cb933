package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/fray-vtt/fray/internal/accounts"
	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/campaigns"
	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/characters"
	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/origin"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/server"
	"github.com/fray-vtt/fray/internal/store"
)

// serve runs the web server until ctx is done, then shuts down gracefully:
// HTTP requests and commands in flight finish, websockets get a close frame.
// before, when set, runs once the database is ready and before listening,
// with the rulesets the server runs.
func serve(ctx context.Context, cfg config, stdout io.Writer, before func(context.Context, *store.DB, *engine.Registry) error) error {
	log := newLogger(cfg, stdout)
	url, stopDB, err := database(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stopDB()
	db, err := store.Open(ctx, url)
	if err != nil {
		return err
	}
	defer db.Close()
	rulesets := rules.Registry()
	if before != nil {
		if err := before(ctx, db, rulesets); err != nil {
			return err
		}
	}

	origins, err := origin.New(cfg.AllowedOrigins, cfg.SecureCookies, cfg.TrustedProxies.Forwarded)
	if err != nil {
		return err
	}
	var diceSecret func() dice.Seed
	if cfg.DiceSeed != 0 {
		log.Warn("FRAY_DICE_SEED is set: dice are predictable (tests and demos only)")
		diceSecret = func() dice.Seed { return dice.TestSeed(cfg.DiceSeed) }
	}
	// The hub publishes what the live encounters commit; sessions reach the
	// live encounters through the server (realtime.ServeOptions.Table).
	hub := realtime.NewHub(realtime.Config{
		Events: db, Render: server.RenderFragments, Pages: server.Pages, Logger: log, Origins: origins,
	})
	// Turn deadlines, clocks and standing orders: every instance runs a
	// worker; each wait is claimed by one (see internal/deadlines). Every
	// update wakes it, so a clock's wait starts when the table moved on
	// and an away player's standing orders answer at once.
	hooks := hooksFrom(ctx)
	now := clockOf(cfg, hooks)
	worker := &deadlines.Worker{Store: db, Logger: log, Now: now}
	if hooks.worker != nil {
		hooks.worker(worker)
	}
	svc := play.New(play.Config{Store: db, Rulesets: rulesets, Logger: log, DiceSecret: diceSecret, Publisher: play.PublisherFunc(func(u play.Update) {
		hub.Publish(u)
		worker.Wake()
	})})
	worker.Table = svc
	signer, err := linkSigner(ctx, db)
	if err != nil {
		return err
	}

	listenCtx, stopListen := context.WithCancel(context.Background())
	defer stopListen()
	go func() {
		// Notifications from every server (this one too): other servers'
		// events, and changes of access, which close or re-authorise the
		// sockets they concern. If some were lost, check everything.
		err := db.Subscribe(listenCtx, store.Listener{
			Events: svc.Sync,
			Access: hub.AccessChanged,
			Reconnected: func() {
				log.Warn("database notifications resumed; re-checking every socket and encounter")
				hub.RecheckAll()
				svc.SyncAll()
			},
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			log.Error("listen for other servers' events", "err", err)
		}
	}()

	go sweep(listenCtx, db, log)

	if cfg.BackupDir != "" {
		if err := os.MkdirAll(cfg.BackupDir, 0o700); err != nil {
			return fmt.Errorf("-backup-dir: %w", err)
		}
		go scheduledBackups(listenCtx, cfg, url, log)
	}

	go worker.Run(listenCtx)

	// The outbox worker stops with listenCtx, after the live encounters
	// have written their last commands (and notices).
	mailer, err := newMailer(cfg)
	if err != nil {
		return err
	}
	notices, noticesDone, err := startNotices(listenCtx, db, rulesets, cfg, mailer, log, signer)
	if err != nil {
		return err
	}
	defer func() { stopListen(); noticesDone() }()

	tlsSetup, err := newTLS(cfg, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	srv := server.HTTPServer(newServer(db, svc, hub, notices, mailer, rulesets, origins, log, cfg, &deadlines.Service{Store: db, Now: now, Wake: worker.Wake}, signer))
	scheme := "http"
	if tlsSetup != nil {
		scheme = "https"
		srv.Handler = withHSTS(srv.Handler)
		// HTTP/1.1 only: the table's websockets upgrade an HTTP/1.1
		// connection.
		srv.TLSConfig = tlsSetup.config
		srv.TLSConfig.NextProtos = slices.DeleteFunc(srv.TLSConfig.NextProtos, func(p string) bool { return p == "h2" })
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		tlsSetup.port.Store(port)
		ln = tls.NewListener(ln, srv.TLSConfig)
		if tlsSetup.http != nil {
			stopRedirects, err := serveHTTPRedirects(cfg, tlsSetup.http, func(addr string) {
				fmt.Fprintf(stdout, "Fray redirecting http://%s to HTTPS\n", addr)
			})
			if err != nil {
				ln.Close()
				return err
			}
			defer stopRedirects()
		}
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "Fray listening on %s://%s\n", scheme, ln.Addr())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err = srv.Shutdown(shutCtx) // stop accepting; wait for plain requests
	hub.Close()                 // close frames; commands in flight still finish
	svc.Close()                 // finish queued commands
	stopListen()
	cs := db.CommitStats()
	log.Info("group commit", "transactions", cs.Transactions, "commands", cs.Commands, "alone", cs.Alone)
	return err
}

// newServer wires the HTTP layer's services to the database, the live
// encounters and the hub.
func newServer(db *store.DB, table *play.Service, hub *realtime.Hub, notices *notify.Service, mailer notify.Mailer, rulesets *engine.Registry, origins *origin.Policy, log *slog.Logger, cfg config,
	clocks *deadlines.Service, signer *links.Signer) *server.Server {
	acc := accounts.New(db, accounts.Limits{Every: cfg.LoginRefill})
	camps := campaigns.New(db)
	prepare := prep.NewService(db, rulesets)
	hist := history.New(db, rulesets)
	return server.New(server.Config{
		Accounts: acc, Tokens: acc, Access: db,
		Campaigns: camps, Invites: camps, Members: camps,
		Encounters: prepare, Drafts: prepare, StatBlocks: prepare,
		Characters: characters.New(db, rulesets), Carry: carry.New(db, rulesets), Deadlines: clocks, Standing: db, Links: signer, ActLog: db,
		History: hist, Sight: hist, Pictures: assets.New(db, assets.Limits{Quota: cfg.AssetQuota, Every: cfg.UploadRefill}), Notes: db, Webhooks: notices, Notices: notices, Table: table, Events: db, Hub: hub, Health: db,
		Rulesets: rulesets, Logger: log, SecureCookies: cfg.SecureCookies, TrustedProxies: cfg.TrustedProxies, Origins: origins,
		Resets: accounts.NewResets(db), ResetMail: mailer, PublicURL: cfg.PublicURL,
	})
}

// sweep deletes expired sessions, password-reset links and full rate-limit
// buckets hourly so the tables do not grow without bound.
func sweep(ctx context.Context, db *store.DB, log *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if n, err := db.DeleteExpiredSessions(ctx, time.Now()); err != nil && ctx.Err() == nil {
			log.Warn("delete expired sessions", "err", err)
		} else if n > 0 {
			log.Info("deleted expired sessions", "count", n)
		}
		if _, err := db.DeleteFullRateLimits(ctx, time.Now()); err != nil && ctx.Err() == nil {
			log.Warn("delete full rate limits", "err", err)
		}
		if _, err := db.DeleteOldPasswordResets(ctx, time.Now()); err != nil && ctx.Err() == nil {
			log.Warn("delete old password resets", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// linkSigner signs the links notices carry with the key every instance
// shares, made by the first that starts.
func linkSigner(ctx context.Context, db *store.DB) (*links.Signer, error) {
	key, err := db.ServerKey(ctx, "links", links.NewKey)
	if err != nil {
		return nil, err
	}
	return links.NewSigner(key), nil
}
