package realtime

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/tabletest"
)

// TestIdleSocketMemory reports what an idle encounter page's socket holds
// on the server: it opens page sockets (html=1, the GM of
// sw-zones-dusty-gulch, each sent its rendered snapshot, which the client
// reads and drops) and reads the heap and the goroutine stacks in use
// (after a collection) before and after, per socket. The clients are
// connections in a child process (this test binary again), so the
// figure is the server's alone. It reports, and fails only above 24 KiB a
// socket (about 8 now; 32 when the session ran on net/http's handler):
//
//	go test ./internal/realtime -run TestIdleSocketMemory -v
//
// 400 sockets by default; FRAY_IDLE_SOCKETS=10000 opens that many (the
// Go runtime raises the open files' soft limit to the hard one).
func TestIdleSocketMemory(t *testing.T) {
	if addr := os.Getenv("FRAY_IDLE_CLIENTS_OF"); addr != "" {
		idleClients(addr)
		return
	}
	idleSockets := 400
	if v := os.Getenv("FRAY_IDLE_SOCKETS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("FRAY_IDLE_SOCKETS=%q: want a positive count", v)
		}
		idleSockets = n
	}
	example := tabletest.Example(t, "sw-zones-dusty-gulch")
	table := fixedEncounter{rs: example.RS, st: example.St}
	// The clients answer no pings: none may come while the test runs.
	hub := pageHub(Config{Events: table, PingInterval: time.Hour})
	url := serveWS(t, hub, ServeOptions{Encounter: "e", Table: table, Viewer: engine.GMViewer(), Since: -1, HTML: true})
	defer hub.Close()

	child := exec.Command(os.Args[0], "-test.run=^TestIdleSocketMemory$")
	child.Env = append(os.Environ(), "FRAY_IDLE_CLIENTS_OF="+strings.TrimPrefix(url, "ws://"))
	child.Stderr = os.Stderr
	toChild, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer toChild.Close() // the clients hang up and the child ends
	fromChild := bufio.NewScanner(out)
	open := func(n int) {
		want, goroutines := hub.Count("e")+n, runtime.NumGoroutine()+n
		fmt.Fprintln(toChild, n)
		if !fromChild.Scan() || fromChild.Text() != "opened" {
			t.Fatalf("the clients: %q %v", fromChild.Text(), fromChild.Err())
		}
		patience.Until(t, fmt.Sprint(want, " sockets connected"), func() bool { return hub.Count("e") == want })
		// net/http's goroutines of the handshakes ended: one goroutine
		// a session is left.
		for deadline := patience.Deadline(); runtime.NumGoroutine() > goroutines && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond) // the sessions settled
	}
	measure := func() (heap, stack, rss uint64, goroutines int) {
		var m runtime.MemStats
		for range 3 {
			runtime.GC()
		}
		debug.FreeOSMemory()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc, m.StackInuse, residentBytes(), runtime.NumGoroutine()
	}
	open(20) // warm up: pools, the first render
	heap0, stack0, rss0, g0 := measure()
	open(idleSockets)
	heap1, stack1, rss1, g1 := measure()
	n := float64(idleSockets)
	kib := func(a, b uint64) float64 { return (float64(b) - float64(a)) / n / 1024 }
	perSocket := kib(heap0, heap1) + kib(stack0, stack1)
	t.Logf("%d idle page sockets: %.1f KiB each, %.1f MiB in all (heap %.1f KiB, goroutine stacks %.1f KiB, %.2f goroutines; "+
		"the process's resident memory %+.1f KiB each once the runtime returned what it could)",
		idleSockets, perSocket, perSocket*n/1024, kib(heap0, heap1), kib(stack0, stack1), float64(g1-g0)/n, kib(rss0, rss1))
	if perSocket > 24 {
		t.Errorf("%.1f KiB per idle socket (about 8 when this test was written)", perSocket)
	}
}

// idleClients is TestIdleSocketMemory's child: for every count read from
// stdin it opens that many page sockets to addr, reads and drops each
// one's first frame (the snapshot), and answers "opened"; the sockets stay
// open, idle, until stdin closes.
func idleClients(addr string) {
	var conns []*websocket.Conn
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		n, err := strconv.Atoi(in.Text())
		for i := 0; i < n && err == nil; i++ {
			var c *websocket.Conn
			if c, _, err = websocket.Dial(context.Background(), "ws://"+addr, nil); err == nil {
				conns = append(conns, c)
				c.SetReadLimit(-1)
				_, _, err = c.Read(context.Background())
			}
		}
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("opened")
	}
	for _, c := range conns {
		c.CloseNow()
	}
}

// residentBytes is the process's resident memory (VmRSS), 0 where /proc
// does not say.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
