package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listen receives the notifications Append sends (LISTEN fray_events on a
// connection of its own) and calls fn with each one's encounter id and new
// seq, in order, from one goroutine. It returns nil when ctx is done, and an
// error only when its first connection fails (so a misconfiguration shows at
// start); a connection lost later is re-established with backoff.
//
// Notifications sent while the connection is down are lost: a consumer that
// fetches Events(after = the last seq it has) on each notification catches up
// at the next one.
func (db *DB) Listen(ctx context.Context, fn func(encounterID string, seq int64)) error {
	conn, err := db.listenConn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("store: listen: %w", err)
	}
	const minWait, maxWait = 100 * time.Millisecond, 5 * time.Second
	wait := minWait
	for {
		for conn != nil {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				_ = conn.Close(context.WithoutCancel(ctx))
				conn = nil
				break
			}
			wait = minWait
			id, seqText, ok := strings.Cut(n.Payload, ":")
			seq, err := strconv.ParseInt(seqText, 10, 64)
			if !ok || err != nil {
				continue // not ours
			}
			fn(id, seq)
		}
		if ctx.Err() != nil {
			return nil
		}
		// Reconnect with jittered exponential backoff.
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait/2 + rand.N(wait/2+1)):
		}
		wait = min(2*wait, maxWait)
		conn, _ = db.listenConn(ctx)
	}
}

func (db *DB) listenConn(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, db.conn.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(cctx, "LISTEN "+NotifyChannel); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}
