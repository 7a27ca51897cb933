package pgcluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/patience"
)

// dataDir returns a fresh directory for a cluster. t.TempDir's directories
// are 0700; when root they are opened up so that the postgres user can reach
// the cluster there (they are the test's own).
func dataDir(t *testing.T, name string) string {
	t.Helper()
	d := t.TempDir()
	if os.Geteuid() == 0 {
		for _, p := range []string{d, filepath.Dir(d)} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return filepath.Join(d, name)
}

func start(t *testing.T, dir string) *Cluster {
	t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	c, err := Start(ctx, Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	return c
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func TestFindBinaries(t *testing.T) {
	dir, err := FindBinaries()
	if err != nil {
		t.Skip(err) // Start's tests fail loudly instead
	}
	for _, name := range []string{"initdb", "postgres"} {
		if !isExecutable(filepath.Join(dir, name)) {
			t.Errorf("%s has no %s", dir, name)
		}
	}

	// Without PATH, the /usr/lib/postgresql/*/bin directories are searched.
	t.Setenv("PATH", "")
	dir, err = FindBinaries()
	if matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres"); len(matches) == 0 {
		if !errors.Is(err, ErrNoBinaries) {
			t.Fatalf("FindBinaries without PATH = %q, %v; want ErrNoBinaries", dir, err)
		}
		for _, fix := range []string{"apt-get install postgresql", "DATABASE_URL", "docker compose up"} {
			if !strings.Contains(err.Error(), fix) {
				t.Errorf("error %q does not name %q", err, fix)
			}
		}
		return
	}
	if err != nil || !strings.HasPrefix(dir, "/usr/lib/postgresql/") {
		t.Fatalf("FindBinaries without PATH = %q, %v", dir, err)
	}
}

func TestVersionLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"9.6", "15", true}, {"15", "9.6", false}, {"14", "15", true}, {"15", "15", false}, {"10", "9", false},
	} {
		if got := versionLess(c.a, c.b); got != c.less {
			t.Errorf("versionLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestStartStopRestart(t *testing.T) {
	dir := dataDir(t, "pg")
	c := start(t, dir)
	if c.Reused() {
		t.Fatal("a new cluster reports being reused")
	}
	if c.DataDir() != dir {
		t.Fatalf("DataDir = %q, want %q", c.DataDir(), dir)
	}
	if !strings.HasPrefix(c.URL("fray"), "postgres:///fray?host=/") {
		t.Errorf("URL = %q", c.URL("fray"))
	}
	if _, err := os.Stat(filepath.Join(dir, logName)); err != nil {
		t.Errorf("no server log: %v", err)
	}
	ctx := context.Background()
	conn := connect(t, c.URL("postgres"))
	if _, err := conn.Exec(ctx, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')"); err != nil {
		t.Fatal(err)
	}
	var listen string
	if err := conn.QueryRow(ctx, "SHOW listen_addresses").Scan(&listen); err != nil || listen != "" {
		t.Errorf("listen_addresses = %q, %v; want none", listen, err)
	}
	_ = conn.Close(ctx)

	if err := c.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("postmaster.pid after Stop: %v", err)
	}
	if _, err := pgx.Connect(ctx, c.URL("postgres")); err == nil {
		t.Fatal("connected after Stop")
	}

	c2 := start(t, dir)
	var v string
	if err := connect(t, c2.URL("postgres")).QueryRow(ctx, "SELECT v FROM kept").Scan(&v); err != nil || v != "still here" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
}

func TestReuseRunningCluster(t *testing.T) {
	dir := dataDir(t, "pg")
	c1 := start(t, dir)
	c2 := start(t, dir)
	if !c2.Reused() {
		t.Fatal("second Start on a running cluster did not reuse it")
	}
	ctx := context.Background()
	var one int
	if err := connect(t, c2.URL("postgres")).QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
	// Stopping the reused handle leaves the server running.
	if err := c2.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := connect(t, c1.URL("postgres")).QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("after stopping the reused handle: %v", err)
	}
	if err := c1.Stop(); err != nil {
		t.Fatal(err)
	}
}

func TestStalePostmasterPID(t *testing.T) {
	dir := dataDir(t, "pg")
	c := start(t, dir)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "postmaster.pid")
	for _, pid := range []int{
		os.Getpid(), // alive, but not a postmaster for dir
		deadPID(t),  // gone
	} {
		stale := strconv.Itoa(pid) + "\n" + dir + "\n1700000000\n5432\n" + dir + "\n\n  1234567     98304\nready   \n"
		if err := os.WriteFile(pidFile, []byte(stale), 0o600); err != nil {
			t.Fatal(err)
		}
		c := start(t, dir)
		if c.Reused() {
			t.Fatalf("pid %d: reused a stale postmaster.pid", pid)
		}
		if err := c.Stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Skip(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}

func TestLongDataDirUsesShortSocketDir(t *testing.T) {
	dir := dataDir(t, strings.Repeat("d", 50))
	for len(dir) < 120 {
		dir = filepath.Join(dir, strings.Repeat("x", 20))
	}
	if os.Geteuid() == 0 { // open up the intermediate directories (the test's own)
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		for p := filepath.Dir(dir); len(p) > 1; p = filepath.Dir(p) {
			if strings.HasPrefix(p, os.TempDir()+"/") {
				_ = os.Chmod(p, 0o755)
			}
		}
	}
	c := start(t, dir)
	if c.tmpSockDir == "" || len(c.sockDir) > 60 {
		t.Fatalf("socket dir %q for a %d-byte data dir", c.sockDir, len(dir))
	}
	st, err := os.Stat(c.sockDir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("socket dir: %v, %v", st, err)
	}
	var one int
	if err := connect(t, c.URL("postgres")).QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
	sock := c.sockDir
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket dir left behind: %v", err)
	}
}

// As root, a data directory the postgres user cannot reach is replaced by
// one under /var/lib/fray.
func TestRootFallbackDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	private := t.TempDir()
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(private, "pg")
	c := start(t, dir)
	t.Cleanup(func() { _ = os.RemoveAll(c.DataDir()); _ = os.Remove(c.DataDir() + ownerSuffix) })
	if record, err := os.ReadFile(c.DataDir() + ownerSuffix); err != nil || strings.TrimSpace(string(record)) != dir {
		t.Errorf("the fallback's record of its data directory: %q, %v; want %q", record, err, dir)
	}
	if !strings.HasPrefix(c.DataDir(), fallbackRoot+"/pg-") || len(filepath.Base(c.DataDir())) != len("pg-")+12 {
		t.Fatalf("DataDir = %q, want %s/pg-<12 hex>", c.DataDir(), fallbackRoot)
	}
	if st, err := os.Stat(private); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the private directory was changed: %v %v", st, err)
	}
	// The data directory exists while it is wanted, so the next fallback
	// start does not take the cluster for a deleted temporary one.
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("the data directory was not made: %v", err)
	}
	if _, err := connect(t, c.URL("postgres")).Exec(context.Background(), "CREATE TABLE kept (x int)"); err != nil {
		t.Fatal(err)
	}
	c.Stop()
	c = start(t, dir)
	if _, err := connect(t, c.URL("postgres")).Exec(context.Background(), "SELECT * FROM kept"); err != nil {
		t.Errorf("the cluster did not survive a restart: %v", err)
	}
	var one int
	if err := connect(t, c.URL("postgres")).QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
}

func TestUntraversable(t *testing.T) {
	d := t.TempDir()
	blocked := filepath.Join(d, "blocked")
	inner := filepath.Join(blocked, "inner")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(blocked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(filepath.Dir(d), 0o755)
	other := owner{uid: 1 << 20, gid: 1 << 20, groups: map[int]bool{1 << 20: true}}
	if got := untraversable(inner, other); got != blocked {
		t.Errorf("untraversable = %q, want %q", got, blocked)
	}
	self := owner{uid: os.Geteuid(), gid: os.Getegid(), groups: map[int]bool{os.Getegid(): true}}
	if got := untraversable(inner, self); got != "" {
		t.Errorf("untraversable for the owner = %q", got)
	}
}

// TestHelperProcess is not a test: TestKilledParent runs the test binary
// with FRAY_PGCLUSTER_HELPER set, as a parent that starts a cluster and
// then waits to be killed.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("FRAY_PGCLUSTER_HELPER")
	if dir == "" {
		t.Skip("helper process only")
	}
	c, err := Start(context.Background(), Options{DataDir: dir})
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ready " + c.URL("postgres") + "\n")
	time.Sleep(time.Minute)
	os.Exit(2)
}

// A program killed without stopping its cluster does not leave the server
// running, and the next Start works.
func TestKilledParent(t *testing.T) {
	dir := dataDir(t, "pg")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "FRAY_PGCLUSTER_HELPER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "ready ") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper: %q", line)
	}
	pm, err := readPostmasterPID(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()

	deadline := patience.Deadline()
	for !gone(pm.pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pm.pid, syscall.SIGQUIT)
			t.Fatalf("postmaster %d outlived its killed parent", pm.pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	c := start(t, dir)
	if c.Reused() {
		t.Fatal("reused a server that should be gone")
	}
}

// gone reports whether pid has exited (a zombie counts: in a container
// nobody may reap it).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z'
	}
	return false
}

// The cluster of a deleted temporary data directory is removed; one whose
// data directory exists, lies outside the temporary directory, or is held
// by a running postgres is kept.
func TestSweepOrphans(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	existing := filepath.Join(tmp, "still-here")
	if err := os.Mkdir(existing, 0o700); err != nil {
		t.Fatal(err)
	}
	clusters := map[string]string{ // cluster name → the data directory it records
		"pg-deleted":   filepath.Join(tmp, "gone", "data"),
		"pg-existing":  existing,
		"pg-elsewhere": filepath.Join(t.TempDir(), "unmounted", "data") + "-missing",
		"pg-running":   filepath.Join(tmp, "gone-too"),
	}
	for name, dataDir := range clusters {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(dir, "base"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := recordOwner(dir, dataDir); err != nil {
			t.Fatal(err)
		}
	}
	// A process whose working directory is pg-running stands for its
	// postmaster (isPostmasterFor reads /proc/<pid>/cwd).
	sleeper := exec.Command("sleep", "60")
	sleeper.Dir = filepath.Join(root, "pg-running")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	pid := fmt.Sprintf("%d\n%s\n0\n5432\n%s\n", sleeper.Process.Pid, sleeper.Dir, sleeper.Dir)
	if err := os.WriteFile(filepath.Join(sleeper.Dir, "postmaster.pid"), []byte(pid), 0o600); err != nil {
		t.Fatal(err)
	}

	sweepOrphans(root, tmp, slog.New(slog.DiscardHandler))

	for name := range clusters {
		_, err := os.Stat(filepath.Join(root, name))
		_, rerr := os.Stat(filepath.Join(root, name+ownerSuffix))
		gone := errors.Is(err, os.ErrNotExist) && errors.Is(rerr, os.ErrNotExist)
		if want := name == "pg-deleted"; gone != want {
			t.Errorf("%s removed = %v, want %v (cluster: %v, record: %v)", name, gone, want, err, rerr)
		}
	}
}
