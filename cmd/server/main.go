// Command server runs Fray: the web server by default, plus maintenance
// subcommands.
//
//	server [serve]                       run the web server
//	server demo                          seed a demo campaign, print its URL, serve
//	server migrate up|down|force N       manage the database schema
//	server encounter import FILE         import an encounter setup document
//	server verify FILE [HEAD…]           check an encounter's JSON export
//	server simulate FILE                 the odds of a setup document's fight
//	server map FILE -ruleset ID          a setup document from a battlemap file
//	server user list|disable|enable|reset-password NAME   operate accounts
//	server status                        disk use by campaign
//	server backup FILE / restore FILE    a whole server's backup
//	server campaign export|import        one campaign moved between servers
//
// Configuration comes from flags or environment variables, see config.go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	if os.Getenv("GOGC") == "" {
		tuneGC() // see gc.go
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopProfile, err := cpuProfile(os.Getenv("FRAY_CPUPROFILE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fray:", err)
		os.Exit(1)
	}
	err = run(ctx, os.Args[1:], os.Getenv, os.Stdout)
	stopProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fray:", err)
		os.Exit(1)
	}
}

// cpuProfile starts a CPU profile of the whole process into the file named
// by $FRAY_CPUPROFILE, for measuring (docs/performance.md, The JSON path and PostgreSQL):
// the profile is complete once the server has shut down on SIGINT or
// SIGTERM. Off unless the variable is set; nothing is served over HTTP.
func cpuProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("FRAY_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("FRAY_CPUPROFILE: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "fray: FRAY_CPUPROFILE:", err)
		}
	}, nil
}

// run is the whole program; tests call it in-process. -h (or help) prints
// the usage, subcommands included, and succeeds.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	err := runCommand(ctx, args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil // the flag set printed the usage
	}
	return err
}

func runCommand(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && (len(args[0]) > 0 && args[0][0] != '-' || args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		cfg, _, err := parseConfig("serve", args, getenv, stdout)
		if err != nil {
			return err
		}
		return serve(ctx, cfg, stdout, nil)
	case "demo":
		cfg, _, err := parseConfig("demo", args, getenv, stdout)
		if err != nil {
			return err
		}
		return demo(ctx, cfg, stdout)
	case "migrate", "encounter":
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, usage)
			return nil
		}
		if cmd == "migrate" {
			return migrate(ctx, args, getenv, stdout)
		}
		return encounter(ctx, args, getenv, stdout)
	case "verify":
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, usage)
			return nil
		}
		return verify(args, stdout)
	case "simulate":
		return simulateCmd(ctx, args, stdout)
	case "map":
		return mapCmd(ctx, args, stdout, os.Stderr)
	case "campaign":
		return campaignCmd(ctx, args, getenv, stdout)
	case "backup":
		return backupCmd(ctx, args, getenv, stdout)
	case "restore":
		return restoreCmd(ctx, args, getenv, stdout)
	case "user", "status":
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, usage)
			return nil
		}
		if cmd == "user" {
			return userCmd(ctx, args, getenv, stdout)
		}
		return status(ctx, args, getenv, stdout)
	case "healthcheck":
		cfg, _, err := parseConfig("healthcheck", args, getenv, stdout)
		if err != nil {
			return err
		}
		return healthcheck(ctx, cfg, stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

const usage = `usage:
  server [serve] [flags]                 run the web server
  server demo [flags]                    seed a demo campaign, print its URL, then serve
  server migrate up|down|force N [flags] manage the database schema
  server healthcheck                     exit 0 when the server at -addr answers /healthz (for containers)
  server encounter import FILE [-campaign ID] [flags]
                                         import an encounter setup document (see examples/encounters)
  server verify FILE [HEAD…]             check an encounter's JSON export: its hash chain, dice and
                                         sealed answers, and that it passed through each HEAD a page showed
  server simulate FILE [-runs N] [-seed S] [-rounds R] [-json]
                                         the odds of a setup document's fight: N fights (default 200)
                                         played by the ruleset's tactics, no database needed
  server map FILE -ruleset ID [-model MODEL] [-name NAME] [-zone N] [-gap N] [-min N] [-place WHO=ROOM]… [-picture OUT]
                                         a setup document from a battlemap (.dd2vtt, .uvtt, .df2vtt,
                                         Foundry scene JSON): rooms become zones, doors links (on pairs
                                         or distance categories, places: -place starts a side or fighter
                                         in a room and the distances follow); its picture re-encoded to
                                         OUT (upload it as the scene); no database
  server backup FILE|-                   write a backup of everything (accounts, campaigns, pictures)
                                         while the server runs; - writes it to standard output
  server restore FILE                    restore a backup into an empty data directory or DATABASE_URL
  server campaign export ID FILE         write one campaign (encounters with their whole history,
                                         characters, bestiary, drafts, pictures) to an archive
  server campaign import FILE -gm NAME   import a campaign archive, run by the account NAME
  server user list                       every account: state, last log-in, campaigns, sessions
  server user disable|enable NAME        stop an account logging in (its sessions end, its pages
                                         disconnect), or let it again
  server user reset-password NAME        give an account a new random password (printed)
  server status                          the database's size and each campaign's disk use
flags (each also an environment variable):
  -addr ADDR          FRAY_ADDR         listen address (default 127.0.0.1:8080)
  -database-url URL   DATABASE_URL      PostgreSQL URL; unset: a private cluster in the data directory
  -data-dir DIR       FRAY_DATA_DIR     where the private cluster keeps its data (default ./fray-data)
  -log-level LEVEL    FRAY_LOG_LEVEL    debug, info, warn or error (default info)
  -allowed-origins L  FRAY_ALLOWED_ORIGINS comma-separated other origins for forms and websockets (scheme://host[:port] or host[:port])
  -secure-cookies     FRAY_SECURE_COOKIES=true  Secure session cookies (behind a TLS proxy)
  -trusted-proxies L  FRAY_TRUSTED_PROXIES comma-separated IPs/CIDRs of reverse proxies whose
                                        X-Forwarded-For names the client (for rate limits)
  -public-url URL     FRAY_PUBLIC_URL   the server's address as users reach it, for links in notices
  -smtp-url URL       FRAY_SMTP_URL     smtp://[user:pass@]host[:port] or smtps://…: offer notices by e-mail
  -mail-from ADDR     FRAY_MAIL_FROM    the sender of those e-mails (needed with -smtp-url)
  -notify-allow-private FRAY_NOTIFY_ALLOW_PRIVATE=true  let webhooks and push reach loopback and private
                                        addresses (a server and its receivers on one network)
  -login-refill D     FRAY_LOGIN_REFILL after a burst of 10 log-in attempts, one more every D (default 6s)
  -backup-dir DIR     FRAY_BACKUP_DIR   write a backup into DIR every -backup-every (default 24h),
  -backup-every D     FRAY_BACKUP_EVERY keeping the newest -backup-keep (default 7)
  -backup-keep N      FRAY_BACKUP_KEEP
  -upload-refill D    FRAY_UPLOAD_REFILL after a burst of 60 pictures, an account may send one more every D (default 2s)
environment only:
  FRAY_CPUPROFILE=FILE  write a CPU profile of the server to FILE, complete once it has shut down
                        (SIGINT or SIGTERM); for measuring, see docs/performance.md
`
