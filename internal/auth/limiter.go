package auth

import (
	"slices"
	"sync"
	"time"
)

// MaxLimiterKeys is the most keys a [Limiter] tracks at once.
const MaxLimiterKeys = 10000

// Limiter is a token bucket per key (a client address, a user name…):
// each key may do burst actions at once, and one more every `every`. It is
// safe for concurrent use.
//
// Each key is kept as the time its bucket will be full again (the generic
// cell rate algorithm), so a key whose bucket is full is forgotten: it is the
// same as a key never seen. Memory stays bounded by MaxLimiterKeys: past it,
// the keys nearest to a full bucket are forgotten first, so flooding the
// limiter with new keys frees the least-limited ones, never the ones that
// have just been refused.
type Limiter struct {
	every  time.Duration
	window time.Duration // every * burst: how far ahead of now a key's full time may be
	max    int

	mu        sync.Mutex
	full      map[string]time.Time // key → when its bucket is full again
	lastSweep time.Time
}

// NewLimiter returns a limiter allowing burst actions per key at once and one
// more every `every`. every <= 0 allows everything; burst < 1 is taken as 1.
func NewLimiter(every time.Duration, burst int) *Limiter {
	burst = max(burst, 1)
	return &Limiter{
		every:  every,
		window: every * time.Duration(burst),
		max:    MaxLimiterKeys,
		full:   map[string]time.Time{},
	}
}

// Allow reports whether key may act at now, and if so counts the action.
func (l *Limiter) Allow(key string, now time.Time) bool {
	if l.every <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= l.window || now.Before(l.lastSweep) {
		l.sweep(now)
	}
	full, seen := l.full[key]
	if !seen || full.Before(now) {
		full = now
	}
	next := full.Add(l.every)
	if next.Sub(now) > l.window {
		return false
	}
	if !seen && len(l.full) >= l.max {
		l.sweep(now)
		if len(l.full) >= l.max {
			l.evict()
		}
	}
	l.full[key] = next
	return true
}

// Len returns how many keys the limiter tracks (those not back to a full
// bucket at the last sweep).
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.full)
}

// sweep forgets the keys whose bucket is full at now.
func (l *Limiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, full := range l.full {
		if !full.After(now) {
			delete(l.full, k)
		}
	}
}

// evict forgets at least a tenth of the keys, those whose buckets fill
// soonest.
func (l *Limiter) evict() {
	times := make([]time.Time, 0, len(l.full))
	for _, full := range l.full {
		times = append(times, full)
	}
	slices.SortFunc(times, time.Time.Compare)
	cut := times[len(times)/10]
	for k, full := range l.full {
		if !full.After(cut) {
			delete(l.full, k)
		}
	}
}
