// Package chromium starts the headless Chromium the browser tests drive, one
// way for every package, and keeps the browser suites of different test
// binaries from running at once.
//
// `go test ./...` runs packages side by side (as many as the machine has
// cores). Two browser suites at once on a two-core machine are two
// Chromiums, two servers and two PostgreSQL clusters fighting for the same
// cores: nothing fails for it, but every step takes several times longer.
// So a test that starts a browser first takes a machine-wide lease (a lock
// on a file in the temporary directory) and keeps it until it ends; the
// other browser suite waits its turn, while packages without browsers run
// around them.
package chromium

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path finds Chromium. Without it the test is skipped on a developer's
// machine but fails in CI (CI set), where .ci/run installs it.
func Path(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH (apt-get install chromium)")
	}
	t.Skip("no chromium on PATH; install it to run the browser tests")
	return ""
}

// Options are the flags every test's Chromium starts with: headless, no
// sandbox (CI runs as root), and nothing that reaches the network on its own
// (this machine's closed network refuses it, many connections at a time).
func Options(t testing.TB, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Path(t)), chromedp.NoSandbox,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
	)
	return append(opts, extra...)
}

// Start takes the lease for t and starts a Chromium with Options and extra;
// the browser is stopped and the lease given back when t ends.
func Start(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := Options(t, extra...)
	Lease(t)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	return actx
}

// The lease is held by this process while any of its tests holds it: a
// test and its subtests, or several browsers of one test, take it once.
var lease struct {
	sync.Mutex
	holders int
	file    *os.File
}

// Lease waits until no other test binary holds the browser lease, then holds
// it until t ends. A test that drives a browser it did not start with Start
// calls it first.
func Lease(t testing.TB) {
	t.Helper()
	lease.Lock()
	defer lease.Unlock()
	if lease.holders == 0 {
		f, err := os.OpenFile(filepath.Join(os.TempDir(), "fray-chromium.lock"), os.O_CREATE|os.O_RDWR, 0o666)
		if err != nil {
			t.Fatalf("the browser lease: %v", err)
		}
		// No deadline: the other suite's test ends, or its process does and
		// the kernel lets go of its lock; go test's own -timeout catches a
		// hang in either.
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			t.Fatalf("the browser lease: %v", err)
		}
		lease.file = f
	}
	lease.holders++
	t.Cleanup(func() {
		lease.Lock()
		defer lease.Unlock()
		if lease.holders--; lease.holders == 0 {
			_ = syscall.Flock(int(lease.file.Fd()), syscall.LOCK_UN)
			lease.file.Close()
			lease.file = nil
		}
	})
}
