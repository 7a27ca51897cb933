package realtime

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/web"
)

// exampleTable serves one unchanging encounter with its ruleset.
type exampleTable struct {
	rs engine.Ruleset
	st engine.State
}

func (e exampleTable) Submit(context.Context, string, play.Sender, string, engine.Command) (int64, error) {
	return 0, nil
}
func (e exampleTable) Current(context.Context, string) (engine.Ruleset, engine.State, error) {
	return e.rs, e.st, nil
}
func (e exampleTable) Events(context.Context, string, int64, int) ([]engine.Event, error) {
	return nil, nil
}

// TestIdleSocketMemory reports what an idle encounter page's socket holds
// on the server: it opens idleSockets page sockets (html=1, the GM of
// sw-zones-dusty-gulch, each sent its rendered snapshot) from raw TCP
// clients that keep no buffers of their own, and reads the heap and the
// goroutine stacks in use (after a collection) before and after, per
// socket. It reports; it fails only far above the 25 KiB target (a leak):
//
//	go test ./internal/realtime -run TestIdleSocketMemory -v
func TestIdleSocketMemory(t *testing.T) {
	const idleSockets = 400
	table := exampleTable{}
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		if ex.Name == "sw-zones-dusty-gulch" {
			setup, err := engine.DecodeSetup(ex.Data)
			if err != nil {
				t.Fatal(err)
			}
			if table.rs, err = rules.Registry().Get(setup.Ruleset); err != nil {
				t.Fatal(err)
			}
			if table.st, err = engine.NewEncounter(table.rs, "e", setup); err != nil {
				t.Fatal(err)
			}
		}
	}
	if table.st == nil {
		t.Fatal("no example sw-zones-dusty-gulch")
	}
	hub := NewHub(Config{Events: table, Render: web.Fragments, Pages: func() PageRenderer { return web.NewSections() }})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub.Serve(w, r, ServeOptions{Encounter: "e", Table: table, Viewer: engine.GMViewer(), Since: -1, HTML: true})
	}))
	defer srv.Close()
	defer hub.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	open := func(n int) {
		for range n {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			_, err = c.Write([]byte("GET / HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
				"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReaderSize(c, 16), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusSwitchingProtocols {
				t.Fatalf("status %d", resp.StatusCode)
			}
			// The snapshot is left unread, in the kernel's buffers.
		}
		deadline := time.Now().Add(10 * time.Second)
		for hub.Count("e") < len(conns) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond) // the snapshots written
	}
	measure := func() (heap, stack uint64, goroutines int) {
		var m runtime.MemStats
		for range 3 {
			runtime.GC()
		}
		runtime.ReadMemStats(&m)
		return m.HeapAlloc, m.StackInuse, runtime.NumGoroutine()
	}
	open(20) // warm up: pools, the first render
	heap0, stack0, g0 := measure()
	open(idleSockets)
	heap1, stack1, g1 := measure()
	kib := func(a, b uint64) float64 { return (float64(b) - float64(a)) / idleSockets / 1024 }
	perSocket := kib(heap0, heap1) + kib(stack0, stack1)
	t.Logf("%d idle page sockets: %.1f KiB each (heap %.1f KiB, goroutine stacks %.1f KiB, %.1f goroutines)",
		idleSockets, perSocket, kib(heap0, heap1), kib(stack0, stack1), float64(g1-g0)/idleSockets)
	if perSocket > 200 {
		t.Errorf("%.1f KiB per idle socket", perSocket)
	}
}
