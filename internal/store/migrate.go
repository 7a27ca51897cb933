package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/fray-vtt/fray/migrations"
)

// Migrate applies the embedded migrations to the database at url: direction
// "up" applies all pending ones, "down" reverts all of them. Already being at
// the target version is not an error. Concurrent callers serialise on an
// advisory lock.
func Migrate(ctx context.Context, url string, direction string) error {
	if direction != "up" && direction != "down" {
		return fmt.Errorf("store: migrate: direction %q: want up or down", direction)
	}
	return withMigrate(ctx, url, func(m *migrate.Migrate) error {
		var err error
		if direction == "up" {
			err = m.Up()
		} else {
			err = m.Down()
		}
		if errors.Is(err, migrate.ErrNoChange) {
			return nil
		}
		return err
	})
}

// Force sets the recorded schema version to version and clears the dirty
// flag, without running any migration: the way out after a migration failed
// half-way and the schema was repaired by hand. version -1 means none.
func Force(ctx context.Context, url string, version int) error {
	return withMigrate(ctx, url, func(m *migrate.Migrate) error { return m.Force(version) })
}

// withMigrate runs fn on a migrate instance over migrations.FS and a
// database/sql connection made by pgx (so every URL pgx accepts, unix sockets
// included, works). Cancelling ctx stops after the running migration.
func withMigrate(ctx context.Context, url string, fn func(*migrate.Migrate) error) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	sqlDB := stdlib.OpenDB(*cfg)
	driver, err := migratepgx.WithInstance(sqlDB, &migratepgx.Config{})
	if err != nil {
		_ = sqlDB.Close()
		return fmt.Errorf("store: migrate: %w", err)
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		_ = driver.Close()
		return fmt.Errorf("store: migrate: %w", err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		_ = src.Close()
		_ = driver.Close()
		return fmt.Errorf("store: migrate: %w", err)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			m.GracefulStop <- true
		case <-done:
		}
	}()
	err = fn(m)
	close(done)
	srcErr, dbErr := m.Close() // closes sqlDB too
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	if err := errors.Join(srcErr, dbErr); err != nil {
		return fmt.Errorf("store: migrate: close: %w", err)
	}
	return ctx.Err()
}

// SchemaVersion returns the migration version of the database at url (0
// when none was applied); a version left dirty by a failed migration is an
// error.
func SchemaVersion(ctx context.Context, url string) (int, error) {
	var v uint
	err := withMigrate(ctx, url, func(m *migrate.Migrate) error {
		var dirty bool
		var err error
		v, dirty, err = m.Version()
		if errors.Is(err, migrate.ErrNilVersion) {
			v, err = 0, nil
		}
		if err == nil && dirty {
			err = fmt.Errorf("the schema is dirty at version %d: a migration failed half-way (see server migrate force)", v)
		}
		return err
	})
	return int(v), err
}

// LatestSchema is the version of the newest migration this server has.
func LatestSchema() int {
	latest := 0
	files, _ := fs.Glob(migrations.FS, "*.up.sql")
	for _, f := range files {
		if n, err := strconv.Atoi(strings.SplitN(f, "_", 2)[0]); err == nil {
			latest = max(latest, n)
		}
	}
	return latest
}
