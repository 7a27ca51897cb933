package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/backup"
	"github.com/fray-vtt/fray/internal/store"
)

// backupCmd runs `server backup FILE|-`: a consistent snapshot of the whole
// database (pictures included) while the server runs, or while it is
// stopped. "-" writes it to standard output.
func backupCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "" || (args[0][0] == '-' && args[0] != "-") {
		return fmt.Errorf("usage: server backup FILE (or - for standard output)")
	}
	file := args[0]
	cfg, _, err := parseConfig("backup", args[1:], getenv, stdout)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: max(cfg.LogLevel, slog.LevelWarn)}))
	url, stop, err := databaseURL(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stop()
	meta, err := backupMeta(ctx, url)
	if err != nil {
		return err
	}
	if file == "-" {
		_, err := backup.Write(ctx, stdout, url, meta)
		return err
	}
	n, err := backup.WriteFile(ctx, file, url, meta)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s): restore it with `server restore %s` into an empty data directory\n", file, byteSize(n), file)
	return nil
}

func backupMeta(ctx context.Context, url string) (backup.Meta, error) {
	v, err := store.SchemaVersion(ctx, url)
	if err != nil {
		return backup.Meta{}, err
	}
	return backup.Meta{Created: time.Now().UTC(), Schema: v}, nil
}

// restoreCmd runs `server restore FILE`: into an empty data directory (a
// new private cluster) or an empty DATABASE_URL, in one transaction, then
// migrates the schema up if the backup was made by an older server.
func restoreCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		return fmt.Errorf("usage: server restore FILE")
	}
	file := args[0]
	cfg, _, err := parseConfig("restore", args[1:], getenv, stdout)
	if err != nil {
		return err
	}
	b, err := backup.Open(file)
	if err != nil {
		return fmt.Errorf("refusing to restore: %w", err)
	}
	defer b.Close()
	if latest := store.LatestSchema(); b.Schema > latest {
		return fmt.Errorf("refusing to restore: %s was made by a newer Fray (schema %d; this one knows up to %d): restore it with that version or a later one", file, b.Schema, latest)
	}
	log := slog.New(slog.NewTextHandler(stdout, &slog.HandlerOptions{Level: max(cfg.LogLevel, slog.LevelWarn)}))
	url, stop, err := databaseURL(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stop()
	if err := b.Restore(ctx, url); err != nil {
		if errors.Is(err, backup.ErrNotEmpty) {
			return fmt.Errorf("refusing to restore: %w", err)
		}
		return err
	}
	if err := store.Migrate(ctx, url, "up"); err != nil {
		return fmt.Errorf("restored, but migrating the schema up failed: %w", err)
	}
	where := "DATABASE_URL"
	if cfg.DatabaseURL == "" {
		where = "the data directory " + cfg.DataDir
	}
	fmt.Fprintf(stdout, "restored %s (made %s) into %s\n", file, b.Created.Format(time.RFC3339), where)
	return nil
}

// backupName is the file name of a scheduled backup made at t; names sort
// as their times do.
func backupName(t time.Time) string {
	return "fray-" + t.UTC().Format("20060102T150405Z") + ".backup"
}

// scheduledBackups writes a backup into cfg.BackupDir every
// cfg.BackupEvery (the first once the newest there is that old) and keeps
// the newest cfg.BackupKeep of them, until ctx ends.
func scheduledBackups(ctx context.Context, cfg config, url string, log *slog.Logger) {
	next := time.Now()
	if names := listBackups(cfg.BackupDir); len(names) > 0 {
		if t, err := time.Parse("20060102T150405Z", strings.TrimSuffix(strings.TrimPrefix(names[len(names)-1], "fray-"), ".backup")); err == nil {
			next = t.Add(cfg.BackupEvery)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		began := time.Now()
		next = began.Add(cfg.BackupEvery)
		name := filepath.Join(cfg.BackupDir, backupName(began))
		meta, err := backupMeta(ctx, url)
		var n int64
		if err == nil {
			n, err = backup.WriteFile(ctx, name, url, meta)
		}
		if err != nil {
			if ctx.Err() == nil {
				log.Error("scheduled backup failed", "file", name, "err", err)
			}
			continue
		}
		log.Info("backup written", "file", name, "bytes", n, "took", time.Since(began).Round(time.Millisecond))
		names := listBackups(cfg.BackupDir)
		for len(names) > cfg.BackupKeep {
			if err := os.Remove(filepath.Join(cfg.BackupDir, names[0])); err != nil {
				log.Warn("remove an old backup", "err", err)
			}
			names = names[1:]
		}
	}
}

// listBackups returns the scheduled backups' names in dir, oldest first
// (other files are left alone).
func listBackups(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, "fray-") && strings.HasSuffix(n, ".backup") && len(n) == len(backupName(time.Time{})) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
