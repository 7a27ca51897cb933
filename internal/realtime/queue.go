package realtime

import "sync"

// queue is a client's outgoing frames, at most limit of them. Unlike a
// channel of that capacity it holds no memory while empty: an idle socket
// (most of them, most of the time) costs nothing here.
type queue struct {
	mu    sync.Mutex
	items []frame
	limit int
	// ready holds a token while frames may be waiting.
	ready chan struct{}
}

func newQueue(limit int) *queue {
	return &queue{limit: limit, ready: make(chan struct{}, 1)}
}

// push adds f, or reports false when the queue is full.
func (q *queue) push(f frame) bool {
	q.mu.Lock()
	if len(q.items) >= q.limit {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, f)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return true
}

// take moves every waiting frame into buf (emptied first) and returns it.
func (q *queue) take(buf []frame) []frame {
	q.mu.Lock()
	defer q.mu.Unlock()
	buf = append(buf[:0], q.items...)
	clear(q.items)
	if cap(q.items) > 16 {
		q.items = nil // a burst's room goes back
	} else {
		q.items = q.items[:0]
	}
	return buf
}

// pop takes the oldest waiting frame, if any.
func (q *queue) pop() (frame, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return frame{}, false
	}
	f := q.items[0]
	q.items = q.items[1:]
	return f, true
}
