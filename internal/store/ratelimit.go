package store

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// MaxRateKeyLen is the longest rate-limit key, in characters.
const MaxRateKeyLen = 300

// AllowRate reports whether key may act now under a limit of burst actions
// at once and one more every `every`, and if so counts the action. The
// buckets live in the database, so every server instance shares them. Each
// key is kept as the time its bucket is full again (the generic cell rate
// algorithm); DeleteFullRateLimits forgets keys whose bucket is full, which
// are the same as keys never seen. every <= 0 allows everything.
func (db *DB) AllowRate(ctx context.Context, key string, every time.Duration, burst int) (bool, error) {
	if every <= 0 {
		return true, nil
	}
	if key == "" || utf8.RuneCountInString(key) > MaxRateKeyLen || !validText(key) {
		return false, fray.Errorf(fray.EINTERNAL, "rate limit key %q", key)
	}
	burst = max(burst, 1)
	// The update happens only when the bucket has room, so a refused key's
	// bucket keeps filling.
	var one int
	err := db.pool.QueryRow(ctx, `
		INSERT INTO rate_limits AS r (key, full_at) VALUES ($1, now() + $2 * interval '1 microsecond')
		ON CONFLICT (key) DO UPDATE SET full_at = GREATEST(r.full_at, now()) + $2 * interval '1 microsecond'
		WHERE GREATEST(r.full_at, now()) + $2 * interval '1 microsecond' - now() <= $3 * interval '1 microsecond'
		RETURNING 1`,
		key, every.Microseconds(), (every * time.Duration(burst)).Microseconds()).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: rate limit: %w", err)
	}
	return true, nil
}

// DeleteFullRateLimits forgets the rate-limit keys whose bucket is full at
// now and returns how many; run it now and then to keep the table small.
func (db *DB) DeleteFullRateLimits(ctx context.Context, now time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM rate_limits WHERE full_at <= $1`, now)
	if err != nil {
		return 0, fmt.Errorf("store: delete full rate limits: %w", err)
	}
	return tag.RowsAffected(), nil
}
