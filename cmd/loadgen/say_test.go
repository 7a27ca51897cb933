package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// startFray builds the server and runs it on a loopback port with a
// database of its own, until the test ends; it returns the server's URL.
func startFray(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fray-server")
	build := exec.Command("go", "build", "-o", bin, "github.com/fray-vtt/fray/cmd/server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the server: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testdb.URL(t), "FRAY_ADDR=127.0.0.1:0", "FRAY_LOG_LEVEL=warn")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "Fray listening on "); ok {
				ready <- addr
			}
		}
	}()
	select {
	case addr := <-ready:
		return addr
	case <-time.After(patience.Hang()):
		t.Fatal("the server did not start")
	}
	return ""
}

// TestSayFlag: -say has the GM say "end turn" in words over HTTP. Run
// against a real server (behind a proxy that counts what reaches it),
// every measured command goes to POST …/say and none to the command API,
// each is acknowledged and its events reach every client.
func TestSayFlag(t *testing.T) {
	o, err := parseFlags([]string{"-say", "-encounters", "2"}, io.Discard)
	if err != nil || !o.say {
		t.Fatalf("-say: %+v, %v", o, err)
	}
	if o, _ := parseFlags(nil, io.Discard); o.say {
		t.Error("words by default")
	}
	target, err := url.Parse(startFray(t))
	if err != nil {
		t.Fatal(err)
	}
	var said, commands atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/encounters/") {
			switch {
			case strings.HasSuffix(r.URL.Path, "/say"):
				said.Add(1)
			case strings.HasSuffix(r.URL.Path, "/commands"):
				commands.Add(1)
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()

	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	args := []string{"-url", front.URL, "-encounters", "2", "-clients", "3", "-warmup", "0s", "-duration", "2s", "-json", "-say"}
	if err := run(ctx, args, &stdout, &stderr); err != nil {
		t.Fatalf("loadgen %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	text := stdout.String()
	i := strings.Index(text, "\n{")
	if i < 0 {
		t.Fatalf("no JSON result in:\n%s", text)
	}
	var res result
	if err := json.Unmarshal([]byte(text[i+1:]), &res); err != nil {
		t.Fatal(err)
	}
	if res.CommandsAcked == 0 || res.Errors != 0 || res.Timeouts != 0 || res.Undelivered != 0 || res.Disconnects != 0 {
		t.Errorf("-say: %d sent, %d acked, %d errors %v, %d timeouts, %d undelivered, %d disconnects\n%s",
			res.CommandsSent, res.CommandsAcked, res.Errors, res.ErrorsByCode, res.Timeouts, res.Undelivered, res.Disconnects, stderr.String())
	}
	// Setup starts each encounter with the command API; every end-turn
	// after that went as words.
	if n := commands.Load(); n != int64(res.Encounters) {
		t.Errorf("%d commands sent to the command API, want only the %d starts", n, res.Encounters)
	}
	if n := said.Load(); n < int64(res.CommandsAcked) {
		t.Errorf("%d sentences said for %d commands acknowledged", n, res.CommandsAcked)
	}
	t.Logf("-say: %d end turns said in words, %.0f/s, submit → last client p50 %.1f ms", said.Load(), res.CommandsPerSecond, res.Latency.P50)
}
