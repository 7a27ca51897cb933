package intake

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
)

// hold runs a job on g that blocks until release is closed, and returns
// once it runs.
func hold(t *testing.T, g *Gate, cost int64, release <-chan struct{}, done *sync.WaitGroup) {
	t.Helper()
	started := make(chan struct{})
	done.Add(1)
	go func() {
		defer done.Done()
		err := g.Run(context.Background(), Job{What: "held", Cost: cost}, func(context.Context) error {
			close(started)
			<-release
			return nil
		})
		if err != nil {
			t.Errorf("held job: %v", err)
		}
	}()
	select {
	case <-started:
	case <-time.After(patience.Hang()):
		t.Fatal("the held job never ran")
	}
}

// TestGateBoundsCoresMemoryAndQueue: no more jobs run than cores, no more
// memory is reserved than the gate's, a job that waits past Wait and one
// that finds the queue full are refused EBUSY with a Retry-After, and a
// job past its deadline is refused ETOOLARGE whatever it returned.
func TestGateBoundsCoresMemoryAndQueue(t *testing.T) {
	g := NewGate(Config{Slots: 2, Memory: 100, Wait: 50 * time.Millisecond, Queue: 1, Deadline: time.Hour})
	release := make(chan struct{})
	var done sync.WaitGroup
	hold(t, g, 10, release, &done)
	hold(t, g, 10, release, &done)
	if running, _, reserved := g.Stats(); running != 2 || reserved != 20 {
		t.Fatalf("stats: %d running, %d reserved", running, reserved)
	}

	// Both cores taken: a third job waits Wait and is refused.
	err := g.Run(context.Background(), Job{What: "picture", Cost: 1}, func(context.Context) error {
		t.Error("a third job ran beside two on two cores")
		return nil
	})
	if fray.ErrorCode(err) != fray.EBUSY || fray.RetryAfter(err) != RetryAfter || !strings.Contains(fray.ErrorMessage(err), "picture") {
		t.Errorf("third job: %v (retry after %v)", err, fray.RetryAfter(err))
	}

	// One waits (the queue holds one); the next is refused at once.
	g2 := NewGate(Config{Slots: 1, Memory: 100, Wait: time.Hour, Queue: 1})
	rel2 := make(chan struct{})
	var done2 sync.WaitGroup
	hold(t, g2, 1, rel2, &done2)
	queued := make(chan error, 1)
	go func() {
		queued <- g2.Run(context.Background(), Job{Cost: 1}, func(context.Context) error { return nil })
	}()
	patience.Until(t, "the second job to wait", func() bool { _, w, _ := g2.Stats(); return w == 1 })
	if err := g2.Run(context.Background(), Job{What: "map file", Cost: 1}, func(context.Context) error { return nil }); fray.ErrorCode(err) != fray.EBUSY {
		t.Errorf("with the queue full: %v", err)
	}
	close(rel2)
	if err := <-queued; err != nil {
		t.Errorf("the queued job: %v", err)
	}
	done2.Wait()
	close(release)
	done.Wait()

	// Memory: two jobs of 60 on a gate of 100 never run together.
	g3 := NewGate(Config{Slots: 4, Memory: 100, Wait: time.Hour})
	var mu sync.Mutex
	inside, most := int64(0), int64(0)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = g3.Run(context.Background(), Job{Cost: 60}, func(context.Context) error {
				mu.Lock()
				inside += 60
				most = max(most, inside)
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				inside -= 60
				mu.Unlock()
				return nil
			})
		}()
	}
	wg.Wait()
	if most > 100 {
		t.Errorf("jobs reserving %d bytes ran together on a gate of 100", most)
	}

	// The deadline.
	g4 := NewGate(Config{Deadline: 10 * time.Millisecond})
	err = g4.Run(context.Background(), Job{What: "picture"}, func(ctx context.Context) error {
		<-ctx.Done()
		return nil
	})
	if fray.ErrorCode(err) != fray.ETOOLARGE || !strings.Contains(fray.ErrorMessage(err), "took too long") {
		t.Errorf("past the deadline: %v", err)
	}
}

// A Run inside a running job's decode takes no second core: on a gate of
// one core it runs rather than waiting for itself.
func TestGateNested(t *testing.T) {
	g := NewGate(Config{Slots: 1, Wait: time.Hour})
	ran := false
	err := g.Run(context.Background(), Job{Cost: 10}, func(ctx context.Context) error {
		return g.Run(ctx, Job{Cost: 10}, func(context.Context) error {
			ran = true
			if _, _, reserved := g.Stats(); reserved != 20 {
				t.Errorf("nested: %d reserved, want both jobs' 20", reserved)
			}
			return nil
		})
	})
	if err != nil || !ran {
		t.Fatalf("nested run: %v, ran %v", err, ran)
	}
}

func TestReadCapsBeforeReading(t *testing.T) {
	data, err := Read(strings.NewReader("hello"), 5, "file")
	if err != nil || string(data) != "hello" {
		t.Fatalf("within: %q %v", data, err)
	}
	// A reader that never ends: Read stops after max+1 bytes.
	r := &counting{}
	_, err = Read(r, 1<<20, "map file")
	if fray.ErrorCode(err) != fray.ETOOLARGE || fray.ErrorMessage(err) != "the map file is larger than 1 MiB, the most accepted" {
		t.Errorf("endless: %v", err)
	}
	if r.n > 1<<20+64<<10 {
		t.Errorf("read %d bytes of an endless input capped at 1 MiB", r.n)
	}
	// A request body cut by the server's limit says the same.
	req := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 100)))
	req.Body = http.MaxBytesReader(httptest.NewRecorder(), req.Body, 10)
	if _, err := Read(req.Body, 50, "picture"); fray.ErrorCode(err) != fray.ETOOLARGE {
		t.Errorf("cut body: %v", err)
	}
}

type counting struct{ n int }

func (c *counting) Read(p []byte) (int, error) {
	c.n += len(p)
	return len(p), nil
}

func TestReaderStopsAtTheDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewReader(ctx, make([]byte, 10<<10))
	buf := make([]byte, 8<<10)
	if n, err := r.Read(buf); n != readChunk || err != nil {
		t.Fatalf("first read: %d %v", n, err)
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("after the deadline: %v", err)
	}
	if _, err := NewWriter(ctx, io.Discard).Write([]byte("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("writer after the deadline: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{10 << 20: "10 MiB", 96 << 20: "96 MiB", 1536 << 10: "1536 KiB", 300: "300 bytes", 25<<20 + 3: "25 MiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
