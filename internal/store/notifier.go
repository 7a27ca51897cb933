package store

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// notifier announces appended seqs to other server instances with NOTIFY,
// after the append committed and off the caller's path. It keeps only the
// newest seq per encounter, since a listener catches up on everything up to
// the seq it is told. If the process dies between a commit and its
// notification, other instances learn of the change with the encounter's
// next notification (or their next append's seq conflict).
type notifier struct {
	pool    *pgxpool.Pool
	mu      sync.Mutex
	pending map[string]int64
	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}
}

func newNotifier(pool *pgxpool.Pool) *notifier {
	n := &notifier{pool: pool, pending: map[string]int64{}, wake: make(chan struct{}, 1),
		done: make(chan struct{}), stopped: make(chan struct{})}
	go n.run()
	return n
}

// post records that encounterID reached seq and wakes the sender.
func (n *notifier) post(encounterID string, seq int64) {
	n.mu.Lock()
	if seq > n.pending[encounterID] {
		n.pending[encounterID] = seq
	}
	n.mu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

func (n *notifier) run() {
	defer close(n.stopped)
	for {
		select {
		case <-n.wake:
			n.flush()
		case <-n.done:
			n.flush()
			return
		}
	}
}

// flush sends every pending notification in one statement.
func (n *notifier) flush() {
	n.mu.Lock()
	if len(n.pending) == 0 {
		n.mu.Unlock()
		return
	}
	payloads := make([]string, 0, len(n.pending))
	for id, seq := range n.pending {
		payloads = append(payloads, id+":"+strconv.FormatInt(seq, 10))
	}
	n.pending = map[string]int64{}
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Best effort: a lost notification only delays other instances' live
	// updates until the encounter's next one.
	_, _ = n.pool.Exec(ctx, `SELECT pg_notify('`+NotifyChannel+`', p) FROM unnest($1::text[]) AS p`, payloads)
}

func (n *notifier) close() {
	select {
	case <-n.done:
	default:
		close(n.done)
	}
	<-n.stopped
}
