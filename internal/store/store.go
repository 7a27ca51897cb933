// Package store persists campaigns and encounters in PostgreSQL with plain
// SQL over pgx/v5.
//
// An encounter is an append-only event log with gapless seq numbers
// starting at 1, its initial state, and snapshots of its state every
// SnapshotEvery events. [DB.AppendCommand] writes a command's events and its
// client id — nothing else: the (encounter, seq) key of the log is its
// optimistic concurrency — in a transaction shared with the commands of other
// encounters that arrive together (group commit), and announces the new seq
// with NOTIFY fray_events, which [DB.Listen] receives on every server
// instance. [DB.LoadEncounter] reads the latest snapshot and the events
// after it.
//
// Errors a client may see carry a fray error code (fray.ENOTFOUND,
// fray.ECONFLICT, fray.EINVALID); anything else is internal.
package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is a pool of connections to the database.
type DB struct {
	pool    *pgxpool.Pool
	conn    *pgx.ConnConfig // for Listen's dedicated connection
	notes   *notifier
	commits *committer
	wake    chan struct{} // notices committed here (NoticesWritten)
}

// Open connects to the database at url (a postgres:// URL or a keyword/value
// DSN) and pings it; commands are group-committed with the default
// CommitConfig.
func Open(ctx context.Context, url string) (*DB, error) {
	return OpenWith(ctx, url, CommitConfig{})
}

// OpenWith is Open with group commit tuned by commits.
func OpenWith(ctx context.Context, url string, commits CommitConfig) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// Fray never leaves a transaction idle; one that is was abandoned by a
	// writer whose connection broke mid-commit without the server noticing,
	// and it would hold its encounter's row (see Settle) until TCP gives up.
	if _, set := cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"]; !set {
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = "60000"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: ping: %w", err)
	}
	db := &DB{pool: pool, conn: cfg.ConnConfig.Copy(), notes: newNotifier(pool), wake: make(chan struct{}, 1)}
	db.commits = newCommitter(db, commits)
	return db, nil
}

// Close commits the commands already queued, sends the notifications still
// pending, then closes every connection of the pool, waiting for those in
// use.
func (db *DB) Close() {
	db.commits.close()
	db.notes.close()
	db.pool.Close()
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.pool.Ping(ctx) }

// NewID returns a random (version 4) UUID in its canonical text form.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store.NewID: " + err.Error()) // crypto/rand never fails on Linux
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], b[10:16])
	return string(s[:])
}

// validUUID reports whether s is a UUID in canonical text form (either case).
// Ids that are not are reported as not found, never as database errors.
func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

const (
	sqlForeignKeyViolation = "23503"
	sqlUniqueViolation     = "23505"
	sqlCheckViolation      = "23514"
	sqlLockNotAvailable    = "55P03"
)
