package auth_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
)

func TestLimiter(t *testing.T) {
	l := auth.NewLimiter(time.Second, 3)
	t0 := time.Unix(1_700_000_000, 0)
	steps := []struct {
		key  string
		at   time.Duration
		want bool
	}{
		{"a", 0, true},
		{"a", 0, true},
		{"a", 0, true},
		{"a", 0, false}, // burst spent
		{"b", 0, true},  // keys are independent
		{"a", 500 * time.Millisecond, false},
		{"a", time.Second, true}, // one more per second
		{"a", time.Second, false},
		{"a", 1500 * time.Millisecond, false},
		{"a", 2 * time.Second, true},
		{"a", 10 * time.Second, true}, // refilled to the burst, no more
		{"a", 10 * time.Second, true},
		{"a", 10 * time.Second, true},
		{"a", 10 * time.Second, false},
		{"a", 5 * time.Second, false}, // a clock going back refills nothing
	}
	for i, s := range steps {
		if got := l.Allow(s.key, t0.Add(s.at)); got != s.want {
			t.Fatalf("step %d: Allow(%q, +%v) = %v, want %v", i, s.key, s.at, got, s.want)
		}
	}

	// Refused attempts do not push the refill back.
	l = auth.NewLimiter(time.Minute, 1)
	if !l.Allow("k", t0) {
		t.Fatal("first attempt refused")
	}
	for i := range 10 {
		if l.Allow("k", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatal("second attempt within a minute allowed")
		}
	}
	if !l.Allow("k", t0.Add(time.Minute)) {
		t.Fatal("refused after a minute")
	}

	// Degenerate settings.
	free := auth.NewLimiter(0, 1)
	for range 100 {
		if !free.Allow("k", t0) {
			t.Fatal("every <= 0 refused")
		}
	}
	one := auth.NewLimiter(time.Second, 0)
	if !one.Allow("k", t0) || one.Allow("k", t0) {
		t.Fatal("burst 0 is not a burst of 1")
	}
}

func TestLimiterForgets(t *testing.T) {
	l := auth.NewLimiter(time.Second, 2)
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 100 {
		l.Allow(fmt.Sprint("k", i), t0)
	}
	if n := l.Len(); n != 100 {
		t.Fatalf("%d keys, want 100", n)
	}
	// Once their buckets are full again, keys are forgotten.
	l.Allow("late", t0.Add(2*time.Second))
	if n := l.Len(); n != 1 {
		t.Fatalf("%d keys after refill, want 1", n)
	}
}

func TestLimiterBounded(t *testing.T) {
	l := auth.NewLimiter(time.Minute, 3)
	t0 := time.Unix(1_700_000_000, 0)
	// A key that has spent its burst.
	for range 3 {
		l.Allow("attacker", t0)
	}
	if l.Allow("attacker", t0) {
		t.Fatal("burst not spent")
	}
	// A flood of new keys stays under the bound…
	for i := range 3 * auth.MaxLimiterKeys {
		at := t0.Add(time.Duration(i) * time.Millisecond)
		if !l.Allow(fmt.Sprint("flood", i), at) {
			t.Fatalf("new key %d refused", i)
		}
		if n := l.Len(); n > auth.MaxLimiterKeys {
			t.Fatalf("%d keys after %d new ones", n, i+1)
		}
	}
	// …and does not free the key that was refused.
	if l.Allow("attacker", t0.Add(30*time.Second)) {
		t.Fatal("flooding reset the refused key")
	}
}

func TestLimiterConcurrent(t *testing.T) {
	l := auth.NewLimiter(time.Hour, 10)
	t0 := time.Now()
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				if l.Allow(fmt.Sprint("k", i%5), t0) {
					allowed.Add(1)
				}
				l.Allow(fmt.Sprint("g", g, "-", i), t0)
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 50 {
		t.Fatalf("%d allowed, want 5 keys × burst 10", n)
	}
}
