package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fray-vtt/fray/internal/pgcluster"
	"github.com/fray-vtt/fray/internal/store"
)

// database returns the URL of a migrated database and a function that
// releases it, see databaseURL.
func database(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	url, stop, err := databaseURL(ctx, cfg, log)
	if err != nil {
		return "", nil, err
	}
	if err := store.Migrate(ctx, url, "up"); err != nil {
		stop()
		return "", nil, fmt.Errorf("migrate: %w", err)
	}
	return url, stop, nil
}

// databaseURL returns DATABASE_URL when set, otherwise starts a private
// PostgreSQL cluster kept in the data directory, stopped by the returned func.
func databaseURL(ctx context.Context, cfg config, log *slog.Logger) (string, func(), error) {
	url := cfg.DatabaseURL
	stop := func() {}
	if url == "" {
		if _, err := pgcluster.FindBinaries(); err != nil {
			return "", nil, err
		}
		dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "postgres"))
		if err != nil {
			return "", nil, err
		}
		log.Info("starting a private PostgreSQL cluster (set DATABASE_URL to use your own)", "dir", dir)
		cluster, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: dir, Fsync: true, Logger: log})
		if err != nil {
			return "", nil, fmt.Errorf("start private PostgreSQL: %w", err)
		}
		stop = func() {
			if err := cluster.Stop(); err != nil {
				log.Warn("stop private PostgreSQL", "err", err)
			}
		}
		if err := createDatabase(ctx, cluster.URL("postgres"), "fray"); err != nil {
			stop()
			return "", nil, err
		}
		url = cluster.URL("fray")
	}
	return url, stop, nil
}

func createDatabase(ctx context.Context, adminURL, name string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database
		return nil
	}
	return err
}
