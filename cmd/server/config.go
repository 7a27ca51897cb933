package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/origin"
	"github.com/fray-vtt/fray/internal/server"
)

// config is the server's configuration: flags override environment
// variables, which override the defaults.
type config struct {
	Addr           string
	DatabaseURL    string
	DataDir        string
	LogLevel       slog.Level
	AllowedOrigins []string
	// DiceSeed, from FRAY_DICE_SEED, makes every encounter's dice
	// reproducible. For tests and demos only: players could predict rolls.
	DiceSeed uint64
	// SecureCookies marks session cookies Secure on plain-HTTP requests too,
	// for a server behind a TLS-terminating proxy.
	SecureCookies bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client, for rate limits.
	TrustedProxies server.TrustedProxies
	// AssetQuota bounds each campaign's uploaded pictures, in bytes (0:
	// assets.DefaultQuota; negative: no bound).
	AssetQuota int64
	// PublicURL is the server's address as its users reach it, for links
	// in notices ("" leaves them out of e-mails and webhooks).
	PublicURL string
	// SMTPURL and MailFrom configure e-mail notices; unset, e-mail is not
	// offered.
	SMTPURL, MailFrom string
	// NotifyAllowPrivate lets webhooks and push reach loopback and private
	// addresses (see notify.Guard).
	NotifyAllowPrivate bool
	// NotifyLease and NotifyBackoff tune the outbox worker (tests only;
	// zero: its defaults).
	NotifyLease, NotifyBackoff time.Duration
	// LoginRefill is how often one more log-in, sign-up or password-change
	// attempt is allowed after a burst of ten; zero means the default (6s).
	LoginRefill time.Duration
	// UploadRefill is how often one more picture may be sent by an account
	// after a burst of assets.DefaultBurst; zero means the default
	// (assets.DefaultEvery).
	UploadRefill time.Duration
}

func parseConfig(name string, args []string, getenv func(string) string, stdout io.Writer) (config, *flag.FlagSet, error) {
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() { fmt.Fprint(stdout, usage) }
	addr := fs.String("addr", env("FRAY_ADDR", "127.0.0.1:8080"), "listen address")
	dbURL := fs.String("database-url", env("DATABASE_URL", ""), "PostgreSQL URL (unset: a private cluster)")
	dataDir := fs.String("data-dir", env("FRAY_DATA_DIR", "fray-data"), "data directory")
	level := fs.String("log-level", env("FRAY_LOG_LEVEL", "info"), "log level")
	secure := fs.Bool("secure-cookies", env("FRAY_SECURE_COOKIES", "") == "true", "Secure session cookies behind a TLS proxy")
	origins := fs.String("allowed-origins", env("FRAY_ALLOWED_ORIGINS", ""), "extra browser origins (scheme://host[:port] or host[:port], wildcards allowed)")
	proxies := fs.String("trusted-proxies", env("FRAY_TRUSTED_PROXIES", ""), "reverse proxies (IPs, CIDRs) whose X-Forwarded-For names the client")
	quota := fs.Int64("asset-quota", envInt(getenv("FRAY_ASSET_QUOTA")), "bytes of pictures each campaign may store (0: 200 MiB, -1: no limit)")
	publicURL := fs.String("public-url", env("FRAY_PUBLIC_URL", ""), "the server's address as users reach it, for links in notices")
	smtpURL := fs.String("smtp-url", env("FRAY_SMTP_URL", ""), "SMTP server for e-mail notices (smtp://[user:pass@]host[:port] or smtps://…)")
	mailFrom := fs.String("mail-from", env("FRAY_MAIL_FROM", ""), "sender address of e-mail notices")
	allowPrivate := fs.Bool("notify-allow-private", env("FRAY_NOTIFY_ALLOW_PRIVATE", "") == "true", "let webhooks and push reach loopback and private addresses")
	refill := fs.String("login-refill", env("FRAY_LOGIN_REFILL", ""), "after a burst of 10 attempts, one more log-in every D (default 6s)")
	uploadRefill := fs.String("upload-refill", env("FRAY_UPLOAD_REFILL", ""), "after a burst of 60 pictures, an account may send one more every D (default 2s)")
	fs.String("campaign", "", "campaign id (encounter import; read with Lookup)")
	if err := fs.Parse(args); err != nil {
		return config{}, nil, err
	}
	cfg := config{Addr: *addr, DatabaseURL: *dbURL, DataDir: *dataDir, SecureCookies: *secure,
		PublicURL: strings.TrimSuffix(*publicURL, "/"), SMTPURL: *smtpURL, MailFrom: *mailFrom, NotifyAllowPrivate: *allowPrivate, AssetQuota: *quota}
	cfg.NotifyLease, cfg.NotifyBackoff = notifyTimings(getenv)
	if *refill != "" {
		d, err := time.ParseDuration(*refill)
		if err != nil || d <= 0 {
			return config{}, nil, fmt.Errorf("login refill must be a positive duration such as 6s or 1m, not %q", *refill)
		}
		cfg.LoginRefill = d
	}
	if *uploadRefill != "" {
		d, err := time.ParseDuration(*uploadRefill)
		if err != nil || d <= 0 {
			return config{}, nil, fmt.Errorf("upload refill must be a positive duration such as 2s or 1m, not %q", *uploadRefill)
		}
		cfg.UploadRefill = d
	}
	var err error
	if cfg.PublicURL != "" {
		if u, err := url.Parse(cfg.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return config{}, nil, fmt.Errorf("-public-url must be http(s)://host[:port][/path], not %q", cfg.PublicURL)
		}
	}
	if cfg.SMTPURL != "" {
		if _, err := notify.NewSMTP(cfg.SMTPURL, cfg.MailFrom); err != nil {
			return config{}, nil, fmt.Errorf("-smtp-url: %w", err)
		}
	}
	if cfg.TrustedProxies, err = server.ParseTrustedProxies(*proxies); err != nil {
		return config{}, nil, err
	}
	if v := getenv("FRAY_ASSET_QUOTA"); v != "" {
		if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
			return config{}, nil, fmt.Errorf("FRAY_ASSET_QUOTA must be a whole number of bytes: %w", err)
		}
	}
	if v := getenv("FRAY_DICE_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return config{}, nil, fmt.Errorf("FRAY_DICE_SEED must be a whole number: %w", err)
		}
		cfg.DiceSeed = seed
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(*level)); err != nil {
		return config{}, nil, fmt.Errorf("bad log level %q: %w", *level, err)
	}
	for _, o := range strings.Split(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			cfg.AllowedOrigins = append(cfg.AllowedOrigins, o)
		}
	}
	if _, err := origin.New(cfg.AllowedOrigins, cfg.SecureCookies, nil); err != nil {
		return config{}, nil, err
	}
	return cfg, fs, nil
}

// envInt reads a whole number from the environment (0 when unset or not
// one; flag parsing reports a bad -asset-quota itself).
func envInt(v string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return n
}

func newLogger(cfg config, stdout io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stdout, &slog.HandlerOptions{Level: cfg.LogLevel}))
}
