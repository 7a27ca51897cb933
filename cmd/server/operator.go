package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/store"
)

// openStore runs fn on the migrated database of cfg (the private cluster,
// started or reused, or DATABASE_URL).
func openStore(ctx context.Context, cfg config, stdout io.Writer, fn func(*store.DB) error) error {
	// Commands print their answer; the log says only what went wrong
	// (unless -log-level asks for more).
	log := slog.New(slog.NewTextHandler(stdout, &slog.HandlerOptions{Level: max(cfg.LogLevel, slog.LevelWarn)}))
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
	return fn(db)
}

// userCmd runs `server user list|disable|enable|reset-password [NAME]`.
func userCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	const use = "usage: server user list | server user disable|enable|reset-password NAME"
	if len(args) == 0 {
		return fmt.Errorf("%s", use)
	}
	action, rest := args[0], args[1:]
	name := ""
	switch action {
	case "list":
	case "disable", "enable", "reset-password":
		if len(rest) == 0 || rest[0] == "" || rest[0][0] == '-' {
			return fmt.Errorf("name the account: server user %s NAME", action)
		}
		name, rest = rest[0], rest[1:]
	default:
		return fmt.Errorf("unknown user action %q\n%s", action, use)
	}
	cfg, _, err := parseConfig("user "+action, rest, getenv, stdout)
	if err != nil {
		return err
	}
	return openStore(ctx, cfg, stdout, func(db *store.DB) error {
		if action == "list" {
			return listUsers(ctx, db, stdout)
		}
		u, err := db.UserByName(ctx, name)
		if err != nil {
			return err
		}
		switch action {
		case "disable":
			if err := db.SetUserDisabled(ctx, u.ID, true); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "disabled %s: it cannot log in, its sessions ended and its open pages were disconnected\n", u.Name)
		case "enable":
			if err := db.SetUserDisabled(ctx, u.ID, false); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "enabled %s: it can log in again\n", u.Name)
		case "reset-password":
			pw, _ := auth.NewToken("")
			pw = pw[:20]
			hash, err := auth.HashPassword(pw)
			if err != nil {
				return err
			}
			if err := db.SetPassword(ctx, u.ID, hash); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "new password for %s: %s\n", u.Name, pw)
			fmt.Fprintln(stdout, "Every session and API token of the account ended. Give them the password; they change it on their account page.")
		}
		return nil
	})
}

func listUsers(ctx context.Context, db *store.DB, stdout io.Writer) error {
	us, err := db.Users(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tCREATED\tLAST LOG-IN\tCAMPAIGNS\tSESSIONS\tTOKENS\tE-MAIL")
	for _, u := range us {
		state := "enabled"
		if u.DisabledAt != nil {
			state = "disabled " + u.DisabledAt.UTC().Format("2006-01-02")
		}
		seen := "never"
		if u.LastSeen > 0 {
			seen = time.Unix(u.LastSeen, 0).UTC().Format("2006-01-02 15:04")
		}
		email := "no"
		if u.HasEmail {
			email = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", u.Name, state, u.CreatedAt.UTC().Format("2006-01-02"), seen,
			u.Campaigns, u.Sessions, u.Tokens, email)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d accounts\n", len(us))
	return nil
}

// status runs `server status`: the database's size and each campaign's
// share of it.
func status(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, _, err := parseConfig("status", args, getenv, stdout)
	if err != nil {
		return err
	}
	return openStore(ctx, cfg, stdout, func(db *store.DB) error {
		us, total, err := db.CampaignDiskUse(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "database: %s on disk (indexes and free space included)\n\n", byteSize(total))
		const row = "%10s %8s %10s %10s %10s %10s  %s\n"
		fmt.Fprintf(stdout, row, "ENCOUNTERS", "EVENTS", "HISTORY", "PICTURES", "PREP", "TOTAL", "CAMPAIGN")
		for _, u := range us {
			fmt.Fprintf(stdout, row, strconv.Itoa(u.Encounters), strconv.FormatInt(u.Events, 10), byteSize(u.History), byteSize(u.Pictures),
				byteSize(u.Prep), byteSize(u.Total()), u.Name+" ("+u.CampaignID+")")
		}
		fmt.Fprintf(stdout, "%d campaigns; sizes are the stored (compressed) values, without indexes\n", len(us))
		return nil
	})
}

// byteSize is n bytes for people: 512 B, 3.4 KiB, 12.0 MiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
