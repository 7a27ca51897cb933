package main

import (
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/acme/autocert"

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
	// ClockSpeed, from FRAY_CLOCK_SPEED (tests that kill a server process
	// only), runs deadlines and clocks that many times faster than real
	// time; 0 or 1: real time.
	ClockSpeed int
	// BackupDir, when set, receives a backup every BackupEvery, of which
	// the newest BackupKeep are kept.
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int
	// TLSDomain, when set, serves HTTPS with a certificate obtained over
	// ACME for that name (see tls.go); TLSCert and TLSKey serve the
	// operator's certificate instead. HTTPAddr is the plain-HTTP listener
	// that redirects to HTTPS and answers the ACME challenge.
	TLSDomain, TLSCert, TLSKey, HTTPAddr string
	// ACMEDirectory is the CA's ACME directory (Let's Encrypt by
	// default), ACMEEmail the contact it is given, ACMERoots the roots to
	// trust for talking to it (nil: the system's; FRAY_ACME_CA), and
	// ACMERenewBefore how long before expiry a certificate is renewed
	// (zero: autocert's 30 days; FRAY_ACME_RENEW_BEFORE).
	ACMEDirectory, ACMEEmail string
	ACMERoots                *x509.CertPool
	ACMERenewBefore          time.Duration
	// UploadRefill is how often one more picture may be sent by an account
	// after a burst of assets.DefaultBurst; zero means the default
	// (assets.DefaultEvery).
	UploadRefill time.Duration
}

// TLS reports whether the server serves HTTPS itself.
func (c config) TLS() bool { return c.TLSDomain != "" || c.TLSCert != "" }

// domainName is a DNS name a certificate can be had for: dot-separated
// labels of letters, digits and hyphens, at least two of them.
var domainName = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

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
	tlsDomain := fs.String("tls-domain", env("FRAY_TLS_DOMAIN", ""), "serve HTTPS with a certificate obtained over ACME for this name")
	tlsCert := fs.String("tls-cert", env("FRAY_TLS_CERT", ""), "serve HTTPS with this certificate (PEM, with its chain)")
	tlsKey := fs.String("tls-key", env("FRAY_TLS_KEY", ""), "the private key of -tls-cert (PEM)")
	httpAddr := fs.String("http-addr", env("FRAY_HTTP_ADDR", ""), "plain-HTTP address that redirects to HTTPS (and answers ACME's challenge)")
	acmeDir := fs.String("acme-directory", env("FRAY_ACME_DIRECTORY", autocert.DefaultACMEDirectory), "the ACME directory of the CA for -tls-domain")
	acmeEmail := fs.String("acme-email", env("FRAY_ACME_EMAIL", ""), "a contact address the CA may write to about the certificate")
	backupDir := fs.String("backup-dir", env("FRAY_BACKUP_DIR", ""), "write scheduled backups into this directory")
	backupEvery := fs.String("backup-every", env("FRAY_BACKUP_EVERY", "24h"), "how often to write a scheduled backup")
	backupKeep := fs.Int("backup-keep", int(envInt(env("FRAY_BACKUP_KEEP", "7"))), "how many scheduled backups to keep")
	uploadRefill := fs.String("upload-refill", env("FRAY_UPLOAD_REFILL", ""), "after a burst of 60 pictures, an account may send one more every D (default 2s)")
	fs.String("campaign", "", "campaign id (encounter import; read with Lookup)")
	fs.String("gm", "", "the account that runs an imported campaign (campaign import; read with Lookup)")
	if err := fs.Parse(args); err != nil {
		return config{}, nil, err
	}
	cfg := config{Addr: *addr, DatabaseURL: *dbURL, DataDir: *dataDir, SecureCookies: *secure,
		PublicURL: strings.TrimSuffix(*publicURL, "/"), SMTPURL: *smtpURL, MailFrom: *mailFrom, NotifyAllowPrivate: *allowPrivate, AssetQuota: *quota}
	cfg.NotifyLease, cfg.NotifyBackoff = notifyTimings(getenv)
	speed, err := clockSpeed(getenv("FRAY_CLOCK_SPEED"))
	if err != nil {
		return config{}, nil, err
	}
	cfg.ClockSpeed = speed
	if *refill != "" {
		d, err := time.ParseDuration(*refill)
		if err != nil || d <= 0 {
			return config{}, nil, fmt.Errorf("login refill must be a positive duration such as 6s or 1m, not %q", *refill)
		}
		cfg.LoginRefill = d
	}
	if err := cfg.parseTLS(fs, getenv, *tlsDomain, *tlsCert, *tlsKey, *httpAddr, *acmeDir, *acmeEmail); err != nil {
		return config{}, nil, err
	}
	if cfg.BackupDir = *backupDir; cfg.BackupDir != "" {
		d, err := time.ParseDuration(*backupEvery)
		if err != nil || d < time.Second {
			return config{}, nil, fmt.Errorf("-backup-every must be a duration of a second or more, such as 24h or 6h, not %q", *backupEvery)
		}
		if *backupKeep < 1 || *backupKeep > 10000 {
			return config{}, nil, fmt.Errorf("-backup-keep must be between 1 and 10000, not %d", *backupKeep)
		}
		cfg.BackupEvery, cfg.BackupKeep = d, *backupKeep
	}
	if *uploadRefill != "" {
		d, err := time.ParseDuration(*uploadRefill)
		if err != nil || d <= 0 {
			return config{}, nil, fmt.Errorf("upload refill must be a positive duration such as 2s or 1m, not %q", *uploadRefill)
		}
		cfg.UploadRefill = d
	}
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

// parseTLS checks the HTTPS settings and derives what they imply: the
// listen addresses (443, and 80 for ACME's challenge, unless given), Secure
// cookies, and the public URL (unless given).
func (cfg *config) parseTLS(fs *flag.FlagSet, getenv func(string) string, domain, cert, key, httpAddr, acmeDir, acmeEmail string) error {
	domain = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(domain), "."))
	switch {
	case domain != "" && (cert != "" || key != ""):
		return fmt.Errorf("-tls-domain obtains a certificate; -tls-cert and -tls-key bring one: choose one way")
	case (cert == "") != (key == ""):
		return fmt.Errorf("-tls-cert and -tls-key go together")
	case domain != "" && (len(domain) > 253 || !domainName.MatchString(domain)):
		return fmt.Errorf("-tls-domain must be the server's DNS name, such as fray.example.com, not %q", domain)
	}
	cfg.TLSDomain, cfg.TLSCert, cfg.TLSKey, cfg.HTTPAddr, cfg.ACMEEmail = domain, cert, key, httpAddr, acmeEmail
	if !cfg.TLS() {
		if httpAddr != "" {
			return fmt.Errorf("-http-addr redirects to HTTPS: it needs -tls-domain or -tls-cert")
		}
		return nil
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["addr"] && getenv("FRAY_ADDR") == "" {
		cfg.Addr = ":443"
	}
	if domain != "" && cfg.HTTPAddr == "" {
		cfg.HTTPAddr = ":80" // the CA asks for the challenge on port 80
	}
	if domain != "" {
		u, err := url.Parse(acmeDir)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("-acme-directory must be an https:// URL, not %q", acmeDir)
		}
		cfg.ACMEDirectory = acmeDir
		if f := getenv("FRAY_ACME_CA"); f != "" {
			roots, err := readRoots(f)
			if err != nil {
				return fmt.Errorf("FRAY_ACME_CA: %w", err)
			}
			cfg.ACMERoots = roots
		}
		if v := getenv("FRAY_ACME_RENEW_BEFORE"); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("FRAY_ACME_RENEW_BEFORE must be a positive duration such as 720h, not %q", v)
			}
			cfg.ACMERenewBefore = d
		}
	}
	cfg.SecureCookies = true
	if cfg.PublicURL == "" && domain != "" {
		cfg.PublicURL = "https://" + domain
		if _, port, err := net.SplitHostPort(cfg.Addr); err == nil && port != "443" {
			cfg.PublicURL = "https://" + net.JoinHostPort(domain, port)
		}
	}
	return nil
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
