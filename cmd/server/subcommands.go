package main

import (
	"context"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
)

// demo seeds a demo campaign with the example encounters, run by a new GM
// account with a new player who owns every player character; prints how to
// log in, and serves.
func demo(ctx context.Context, cfg config, stdout io.Writer) error {
	return serve(ctx, cfg, stdout, func(ctx context.Context, db *store.DB, rulesets *engine.Registry) error {
		suffix := hex.EncodeToString(auth.HashToken(store.NewID())[:2])
		var users [2]store.User
		var passwords [2]string
		for i, name := range []string{"gm-" + suffix, "player-" + suffix} {
			pw, _ := auth.NewToken("")
			passwords[i] = pw[:16]
			hash, err := auth.HashPassword(passwords[i])
			if err != nil {
				return err
			}
			if users[i], err = db.CreateUser(ctx, name, hash); err != nil {
				return err
			}
		}
		c, err := db.CreateCampaignFor(ctx, "Demo campaign", users[0].ID)
		if err != nil {
			return err
		}
		if err := db.SetMember(ctx, c.ID, users[1].ID, store.RolePlayer); err != nil {
			return err
		}
		encs, err := prep.ImportExamples(ctx, db, rulesets, c.ID)
		if err != nil {
			return err
		}
		for _, e := range encs {
			for _, pc := range e.PCs {
				if err := db.AssignCharacter(ctx, c.ID, pc, users[1].ID); err != nil {
					return err
				}
			}
		}
		fmt.Fprintf(stdout, "Seeded %q with %d encounters.\n", c.Name, len(encs))
		fmt.Fprintf(stdout, "  GM:     log in as %s with password %s\n", users[0].Name, passwords[0])
		fmt.Fprintf(stdout, "  Player: log in as %s with password %s (owns every player character)\n", users[1].Name, passwords[1])
		fmt.Fprintf(stdout, "  Campaign: http://%s/campaigns/%s\n", cfg.Addr, c.ID)
		for _, e := range encs {
			fmt.Fprintf(stdout, "  http://%s/encounters/%s  (%s)\n", cfg.Addr, e.ID, e.Name)
		}
		return nil
	})
}

// migrate runs `server migrate up|down|force N`.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: server migrate up|down|force N")
	}
	action, rest := args[0], args[1:]
	version := 0
	if action == "force" {
		if len(rest) == 0 {
			return fmt.Errorf("usage: server migrate force N")
		}
		n, err := strconv.Atoi(rest[0])
		if err != nil {
			return fmt.Errorf("force needs a version number: %w", err)
		}
		version, rest = n, rest[1:]
	} else if action != "up" && action != "down" {
		return fmt.Errorf("unknown migrate action %q (up, down or force N)", action)
	}
	cfg, _, err := parseConfig("migrate", rest, getenv, stdout)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stdout)
	url, stop, err := databaseURL(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stop()
	switch action {
	case "up":
		if err := store.Migrate(ctx, url, "up"); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "migrated up")
		return nil
	case "down":
		if err := store.Migrate(ctx, url, "down"); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "migrated down")
		return nil
	}
	if err := store.Force(ctx, url, version); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "forced version %d\n", version)
	return nil
}

// encounter runs `server encounter import FILE [-campaign ID]`.
func encounter(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) < 2 || args[0] != "import" {
		return fmt.Errorf("usage: server encounter import FILE [-campaign ID]")
	}
	file := args[1]
	cfg, fs, err := parseConfig("encounter import", args[2:], getenv, stdout)
	if err != nil {
		return err
	}
	data, err := readSetupFile(file)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stdout)
	url, stop, err := database(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stop()
	db, err := store.Open(ctx, url)
	if err != nil {
		return err
	}
	defer db.Close()
	campaign := fs.Lookup("campaign").Value.String()
	if campaign == "" {
		return fmt.Errorf("name the campaign to import into: -campaign ID (see /api/campaigns or the campaign page's address)")
	}
	e, err := prep.Import(ctx, db, rules.Registry(), campaign, data)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %q as encounter %s in campaign %s\nopen it at http://%s/encounters/%s\n", e.Name, e.ID, campaign, cfg.Addr, e.ID)
	return nil
}

// readSetupFile reads an encounter file of at most prep.MaxSetupBytes
// without reading more of a larger one.
func readSetupFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, prep.MaxSetupBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > prep.MaxSetupBytes {
		return nil, fmt.Errorf("%s: encounter file is larger than %d bytes", name, prep.MaxSetupBytes)
	}
	return data, nil
}

// healthcheck asks the server at cfg.Addr for /healthz; containers without a
// shell or curl use it as their health probe.
func healthcheck(ctx context.Context, cfg config, stdout io.Writer) error {
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return err
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	scheme, client := "http", http.DefaultClient
	if cfg.TLS() {
		// The probe asks this machine's own server: which certificate it
		// shows is not the question.
		scheme = "https"
		// It names the domain, which an ACME certificate is chosen by.
		client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ServerName: cfg.TLSDomain}}}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, scheme+"://"+net.JoinHostPort(host, port)+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: %s", resp.Status)
	}
	fmt.Fprintln(stdout, "healthy")
	return nil
}

// verify runs `server verify FILE [HEAD…]`: it checks an encounter's JSON
// export as anyone can (proof.Verify) and, given heads (fingerprints a
// page showed, 12 or 64 hexadecimal digits), that the history passed
// through each. It needs no database.
func verify(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: server verify FILE [HEAD…]")
	}
	raw, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	rep, bad := proof.Verify(raw)
	if bad != nil {
		return fmt.Errorf("%s does not verify: %w", args[0], bad)
	}
	for _, h := range args[1:] {
		h = strings.ToLower(h)
		if !slices.ContainsFunc(rep.Links, func(l proof.Hash) bool { return len(h) >= 12 && strings.HasPrefix(l.String(), h) }) {
			return fmt.Errorf("%s verifies, but its history never passed through head %s: the history you saw was changed", args[0], h)
		}
	}
	fmt.Fprintln(stdout, rep)
	fmt.Fprintln(stdout, "OK: the history is intact.")
	return nil
}
