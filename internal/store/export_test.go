package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// LockEncounterForTest locks encounter id's row against appends, as Settle
// and DecideCarryOver do, until the returned transaction ends.
func (db *DB) LockEncounterForTest(ctx context.Context, id string) (pgx.Tx, error) {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM encounters WHERE id = $1::uuid FOR UPDATE`, id); err != nil {
		_ = tx.Rollback(ctx)
		return nil, err
	}
	return tx, nil
}

// QueryRowForTest runs one query on the store's pool.
func (db *DB) QueryRowForTest(ctx context.Context, sql string, args ...any) pgx.Row {
	return db.pool.QueryRow(ctx, sql, args...)
}
