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
// seq, in order, from one goroutine; see Subscribe.
func (db *DB) Listen(ctx context.Context, fn func(encounterID string, seq int64)) error {
	return db.Subscribe(ctx, Listener{Events: fn})
}

// Listener is what [DB.Subscribe] calls. Any field may be nil.
type Listener struct {
	// Events gets each notification of NotifyChannel: an encounter reached seq.
	Events func(encounterID string, seq int64)
	// Access gets each notification of AccessNotifyChannel: user userID's
	// access to campaign campaignID may have changed; the campaign's access
	// version is now version (-1: the campaign was deleted).
	Access func(campaignID, userID string, version int64)
	// Reconnected is called when the listening connection was lost and made
	// again: notifications sent while it was down are lost, so whatever
	// depends on them must be checked afresh.
	Reconnected func()
}

// Subscribe listens on NotifyChannel and AccessNotifyChannel on a connection
// of its own and calls l's functions, in notification order (which is
// commit order), from one goroutine: each call returns before the next
// notification is handled. It returns nil when ctx is done, and an error only
// when its first connection fails (so a misconfiguration shows at start); a
// connection lost later is re-established with backoff, and then
// l.Reconnected is called.
//
// Notifications sent while the connection is down are lost: a consumer that
// fetches Events(after = the last seq it has) on each notification catches up
// at the next one.
func (db *DB) Subscribe(ctx context.Context, l Listener) error {
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
			switch n.Channel {
			case NotifyChannel:
				id, seqText, ok := strings.Cut(n.Payload, ":")
				seq, err := strconv.ParseInt(seqText, 10, 64)
				if ok && err == nil && l.Events != nil {
					l.Events(id, seq)
				}
			case AccessNotifyChannel:
				parts := strings.Split(n.Payload, ":")
				if len(parts) != 3 {
					continue // not ours
				}
				version, err := strconv.ParseInt(parts[2], 10, 64)
				if err == nil && l.Access != nil {
					l.Access(parts[0], parts[1], version)
				}
			}
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
		if conn, _ = db.listenConn(ctx); conn != nil && l.Reconnected != nil {
			l.Reconnected()
		}
	}
}

func (db *DB) listenConn(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, db.conn.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(cctx, "LISTEN "+NotifyChannel+"; LISTEN "+AccessNotifyChannel); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}
