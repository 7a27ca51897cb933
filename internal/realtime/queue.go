package realtime

import "sync"

// queue is a client's outgoing frames, at most limit of them. Unlike a
// channel of that capacity it holds no memory while empty: an idle socket
// (most of them, most of the time) costs nothing here.
type queue struct {
	mu    sync.Mutex
	items []frame
	limit int
	// writing says a writer owns the queue's frames: it writes them until
	// the queue is empty (done). A new queue's frames wait for its owner
	// to start writing (done too).
	writing bool
}

func newQueue(limit int) *queue {
	return &queue{limit: limit, writing: true}
}

// push adds f, or reports false when the queue is full. start says the
// caller must start a writer: none was writing.
func (q *queue) push(f frame) (ok, start bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) >= q.limit {
		return false, false
	}
	q.items = append(q.items, f)
	start = !q.writing
	q.writing = true
	return true, start
}

// done is the writer's end: it reports true, and the writer stops, when
// no frame waits; otherwise the writer goes on.
func (q *queue) done() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) > 0 {
		return false
	}
	q.writing = false
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
