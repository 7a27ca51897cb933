// Package pgcluster runs a private PostgreSQL cluster for one program: the
// server when DATABASE_URL is unset, and the tests.
//
// The cluster lives in a data directory of its own (initdb'd on first use) and
// is reached only through a unix socket: the server is started with
// an empty listen_addresses so it opens no TCP port, and local connections use trust
// authentication. The socket directory is mode 0700, so only the owner of the
// cluster (and root) can connect. The socket is placed in the data directory
// itself when its path fits the ~107 byte limit of unix socket paths, and in a
// fresh 0700 directory under os.TempDir otherwise.
//
// # Running as root
//
// initdb and postgres refuse to run as root. When the current process is root,
// the cluster runs as the unprivileged "postgres" system user: the data
// directory (and the socket directory) are chowned to that user and the
// processes get its uid and gid. That user must be able to traverse every
// ancestor directory of the data directory. When it cannot (a data directory
// under /root, mode 0700, say), pgcluster does not loosen the permissions of
// the user's directories; it places the cluster in
// /var/lib/fray/pg-<first 12 hex digits of sha256(absolute data dir)> instead
// and logs that at info level. [Cluster.DataDir] reports where the cluster
// really is. Beside it, pg-<hex>.data-dir records the data directory; when
// that was a temporary directory (under os.TempDir) that is gone, and no
// postgres runs the cluster, the next fallback Start removes the cluster.
//
// # Lifetime
//
// [Start] runs the postgres server process directly (no pg_ctl), with its
// standard output and error appended to postgres.log in the data directory,
// in a process group of its own (a terminal's Ctrl-C reaches the program, which
// then stops the cluster in order) and with a parent-death signal, so a killed
// program does not leave the server behind. [Cluster.Stop] asks for a fast
// shutdown and waits for it.
//
// When a live postmaster from an earlier run still holds the data directory
// and accepts connections, Start reuses it instead of failing; Stop then leaves
// it running, since this Cluster did not start it. A stale postmaster.pid (its
// process is gone, or is not a postgres server for this directory) does not
// block a start.
package pgcluster

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Options configure [Start].
type Options struct {
	// DataDir is the cluster directory. It is created and initdb'd when it
	// has no PG_VERSION file. See the package documentation for where the
	// cluster goes instead when running as root and the postgres user cannot
	// reach DataDir.
	DataDir string
	// Fsync makes the cluster crash-safe. When false (tests), initdb runs
	// with --no-sync and the server with fsync=off, synchronous_commit=off
	// and full_page_writes=off.
	Fsync bool
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
}

// ErrNoBinaries is returned (wrapped) by [FindBinaries] and [Start] when no
// PostgreSQL server binaries can be found.
var ErrNoBinaries = errors.New("PostgreSQL server binaries (initdb, postgres) not found on PATH or under /usr/lib/postgresql/*/bin: " +
	"install PostgreSQL (apt-get install postgresql), set DATABASE_URL, or run `docker compose up`")

const (
	fallbackRoot = "/var/lib/fray" // where root's clusters go when postgres cannot reach DataDir
	systemUser   = "postgres"      // the OS user a root process runs the cluster as
	superuser    = "postgres"      // the cluster's superuser role (initdb -U)
	defaultPort  = 5432            // only names the socket file: no TCP port is opened
	logName      = "postgres.log"
	maxLogSize   = 10 << 20 // rotate postgres.log to postgres.log.1 beyond this at start
	readyTimeout = 30 * time.Second
	stopTimeout  = 60 * time.Second
	maxSockPath  = 100 // sun_path is 108 bytes with the NUL; keep a margin
)

// FindBinaries returns the directory holding PostgreSQL's initdb and postgres:
// a PATH directory with both, else the highest version's
// /usr/lib/postgresql/<version>/bin. The error wraps [ErrNoBinaries] and
// names the fixes.
func FindBinaries() (dir string, err error) {
	for _, name := range []string{"postgres", "initdb"} {
		if p, err := exec.LookPath(name); err == nil {
			d := filepath.Dir(p)
			if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "postgres")) {
				if abs, err := filepath.Abs(d); err == nil {
					d = abs
				}
				return d, nil
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		return versionLess(filepath.Base(filepath.Dir(dirs[j])), filepath.Base(filepath.Dir(dirs[i])))
	})
	for _, d := range dirs {
		if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("pgcluster: %w", ErrNoBinaries)
}

// Tool returns the path of one of PostgreSQL's client programs (pg_dump,
// pg_restore): the one beside the server binaries FindBinaries finds (the
// same version as a private cluster), else the one on PATH.
func Tool(name string) (string, error) {
	if dir, err := FindBinaries(); err == nil && isExecutable(filepath.Join(dir, name)) {
		return filepath.Join(dir, name), nil
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("pgcluster: PostgreSQL's %s not found beside the server binaries or on PATH: install PostgreSQL's client programs (apt-get install postgresql-client)", name)
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// versionLess orders dotted version numbers ("9.6" < "15"); non-numeric
// parts compare as strings.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		ai, aerr := strconv.Atoi(as[i])
		bi, berr := strconv.Atoi(bs[i])
		switch {
		case aerr == nil && berr == nil && ai != bi:
			return ai < bi
		case (aerr != nil || berr != nil) && as[i] != bs[i]:
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}

// Cluster is a running private PostgreSQL cluster.
type Cluster struct {
	dataDir string
	sockDir string
	port    int
	log     *slog.Logger

	// Set only when this Cluster started the server.
	cmd        *exec.Cmd
	done       chan struct{} // closed when the server process has exited
	waitErr    error         // the process's exit, valid once done is closed
	logFile    *os.File
	tmpSockDir string // removed by Stop

	stopOnce sync.Once
	stopErr  error
}

// owner is who the cluster's files and processes belong to.
type owner struct {
	asRoot   bool // the current process is root: run as the postgres user
	uid, gid int
	groups   map[int]bool
}

// Start starts (initdb'ing first if needed) or reuses the cluster of
// opt.DataDir and returns once it accepts connections. ctx bounds the start,
// not the cluster's life.
func Start(ctx context.Context, opt Options) (*Cluster, error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.DataDir == "" {
		return nil, errors.New("pgcluster: Options.DataDir is empty")
	}
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	dataDir, err := filepath.Abs(opt.DataDir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	own, err := currentOwner()
	if err != nil {
		return nil, err
	}
	if dataDir, err = prepareDataDir(dataDir, own, log); err != nil {
		return nil, err
	}

	if c, err := reuse(ctx, dataDir, log); c != nil || err != nil {
		return c, err
	}

	if _, err := os.Stat(filepath.Join(dataDir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := initdb(ctx, bin, dataDir, opt.Fsync, own, log); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}

	c := &Cluster{dataDir: dataDir, port: defaultPort, log: log, done: make(chan struct{})}
	if err := c.start(ctx, bin, opt.Fsync, own); err != nil {
		return nil, err
	}
	return c, nil
}

// Attach returns the cluster that a running postgres holds for dataDir —
// where Start put it: dataDir, or its fallback under /var/lib/fray — without
// starting one (an error says none runs). Its Stop does nothing. Tools use
// it to reach a Fray server's private cluster.
func Attach(ctx context.Context, dataDir string) (*Cluster, error) {
	dataDir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	own, err := currentOwner()
	if err != nil {
		return nil, err
	}
	if own.asRoot && untraversable(filepath.Dir(dataDir), own) != "" {
		sum := sha256.Sum256([]byte(dataDir))
		dataDir = filepath.Join(fallbackRoot, "pg-"+hex.EncodeToString(sum[:])[:12])
	}
	c, err := reuse(ctx, dataDir, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("pgcluster: no PostgreSQL server is running for %s", dataDir)
	}
	return c, nil
}

func currentOwner() (owner, error) {
	if os.Geteuid() != 0 {
		return owner{uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup(systemUser)
	if err != nil {
		return owner{}, fmt.Errorf("pgcluster: running as root, PostgreSQL must run as the %q system user, which cannot be found (%v): "+
			"create it (apt-get install postgresql does), run as a normal user, or set DATABASE_URL", systemUser, err)
	}
	o := owner{asRoot: true, groups: map[int]bool{}}
	if o.uid, err = strconv.Atoi(u.Uid); err != nil {
		return owner{}, fmt.Errorf("pgcluster: uid of %s: %w", systemUser, err)
	}
	if o.gid, err = strconv.Atoi(u.Gid); err != nil {
		return owner{}, fmt.Errorf("pgcluster: gid of %s: %w", systemUser, err)
	}
	o.groups[o.gid] = true
	if gids, err := u.GroupIds(); err == nil {
		for _, g := range gids {
			if n, err := strconv.Atoi(g); err == nil {
				o.groups[n] = true
			}
		}
	}
	return o, nil
}

// prepareDataDir creates the data directory (0700, owned by the cluster's
// user) and returns where the cluster really goes: dataDir, or the fallback
// under /var/lib/fray when root's postgres user cannot reach dataDir.
func prepareDataDir(dataDir string, own owner, log *slog.Logger) (string, error) {
	if own.asRoot {
		parent := filepath.Dir(dataDir)
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return "", fmt.Errorf("pgcluster: %w", err)
		}
		if blocked := untraversable(parent, own); blocked != "" {
			sum := sha256.Sum256([]byte(dataDir))
			alt := filepath.Join(fallbackRoot, "pg-"+hex.EncodeToString(sum[:])[:12])
			log.Info("the postgres user cannot reach the data directory; using another directory for the cluster",
				"data_dir", dataDir, "blocked_at", blocked, "cluster_dir", alt)
			if err := os.MkdirAll(fallbackRoot, 0o755); err != nil {
				return "", fmt.Errorf("pgcluster: %w", err)
			}
			if blocked := untraversable(fallbackRoot, own); blocked != "" {
				return "", fmt.Errorf("pgcluster: the %s user cannot traverse %s (needed for %s)", systemUser, blocked, alt)
			}
			sweepOrphans(fallbackRoot, os.TempDir(), log)
			// The data directory itself is made too (empty, root's): it is
			// what says the cluster is still wanted (see sweepOrphans).
			if err := os.MkdirAll(dataDir, 0o700); err != nil {
				return "", fmt.Errorf("pgcluster: %w", err)
			}
			if err := recordOwner(alt, dataDir); err != nil {
				return "", fmt.Errorf("pgcluster: %w", err)
			}
			dataDir = alt
		}
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("pgcluster: %w", err)
	}
	if own.asRoot {
		if err := ownDir(dataDir, own); err != nil {
			return "", err
		}
	}
	return dataDir, nil
}

// ownDir makes dir a 0700 directory of the cluster's user. A directory that
// already holds a cluster is left as it is: postgres checks it.
func ownDir(dir string, own owner) error {
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err == nil {
		return nil
	}
	if err := os.Chown(dir, own.uid, own.gid); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	return nil
}

// untraversable returns the first directory among dir and its ancestors
// (both as written and with symlinks resolved) that own's user may not
// search, or "" when it may search them all.
func untraversable(dir string, own owner) string {
	paths := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		paths = append(paths, real)
	}
	for _, p := range paths {
		for d := p; ; d = filepath.Dir(d) {
			st, err := os.Stat(d)
			if err != nil {
				return d
			}
			sys, ok := st.Sys().(*syscall.Stat_t)
			if !ok {
				break
			}
			mode := st.Mode().Perm()
			var x bool
			switch {
			case int(sys.Uid) == own.uid:
				x = mode&0o100 != 0
			case own.groups[int(sys.Gid)]:
				x = mode&0o010 != 0
			default:
				x = mode&0o001 != 0
			}
			if !x || !st.IsDir() {
				return d
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return ""
}

// sysProcAttr runs a child as the cluster's user, in its own process group,
// killed (fast shutdown) when this process dies.
func sysProcAttr(own owner) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGINT}
	if own.asRoot {
		attr.Credential = &syscall.Credential{Uid: uint32(own.uid), Gid: uint32(own.gid)}
	}
	return attr
}

func initdb(ctx context.Context, bin, dataDir string, fsync bool, own owner, log *slog.Logger) error {
	log.Info("initialising PostgreSQL cluster", "dir", dataDir)
	args := []string{"-D", dataDir, "--auth=trust", "-U", superuser, "--encoding=UTF8", "--no-locale"}
	if !fsync {
		args = append(args, "--no-sync")
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), args...)
	cmd.Dir = "/" // the cluster's user may not be able to enter our working directory
	cmd.Env = childEnv()
	cmd.SysProcAttr = sysProcAttr(own)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgcluster: initdb %s: %v\n%s", dataDir, err, tail(out, 20))
	}
	log.Debug("initdb done", "output", string(out))
	return nil
}

// childEnv is the environment of initdb and postgres: ours, less the PG*
// variables that could point them elsewhere, with a locale every system has.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

func (c *Cluster) start(ctx context.Context, bin string, fsync bool, own owner) error {
	// The socket goes into the data directory when its path is short enough.
	c.sockDir = c.dataDir
	// (unix_socket_directories is a comma-separated list, so an awkward
	// name gets a temporary directory too).
	if len(filepath.Join(c.dataDir, ".s.PGSQL."+strconv.Itoa(c.port))) > maxSockPath || strings.ContainsAny(c.dataDir, ", \t\"\\") {
		tmp := os.TempDir()
		if len(tmp) > maxSockPath-40 {
			tmp = "/tmp"
		}
		d, err := os.MkdirTemp(tmp, "fray-pg-")
		if err != nil {
			return fmt.Errorf("pgcluster: socket directory: %w", err)
		}
		c.sockDir, c.tmpSockDir = d, d
		if own.asRoot {
			if err := os.Chown(d, own.uid, own.gid); err != nil {
				c.cleanup()
				return fmt.Errorf("pgcluster: %w", err)
			}
		}
	}

	logPath := filepath.Join(c.dataDir, logName)
	if st, err := os.Stat(logPath); err == nil && st.Size() > maxLogSize {
		_ = os.Rename(logPath, logPath+".1")
	}
	lf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		c.cleanup()
		return fmt.Errorf("pgcluster: %w", err)
	}
	c.logFile = lf
	if own.asRoot {
		_ = lf.Chown(own.uid, own.gid)
	}
	logStart, _ := lf.Seek(0, io.SeekEnd)

	args := []string{"-D", c.dataDir,
		"-c", "listen_addresses=",
		"-c", "unix_socket_directories=" + c.sockDir,
		"-c", "unix_socket_permissions=0700",
		"-c", "port=" + strconv.Itoa(c.port),
		"-c", "logging_collector=off",
	}
	if !fsync {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"), args...)
	cmd.Dir = "/"
	cmd.Env = childEnv()
	cmd.Stdout, cmd.Stderr = lf, lf
	cmd.SysProcAttr = sysProcAttr(own)
	c.log.Info("starting PostgreSQL", "dir", c.dataDir, "socket_dir", c.sockDir, "log", logPath)
	if err := cmd.Start(); err != nil {
		c.cleanup()
		return fmt.Errorf("pgcluster: start postgres: %w", err)
	}
	c.cmd = cmd
	go func() {
		c.waitErr = cmd.Wait()
		close(c.done)
	}()

	if err := c.waitReady(ctx); err != nil {
		_ = c.Stop()
		return fmt.Errorf("pgcluster: PostgreSQL in %s did not start: %w\n%s", c.dataDir, err, c.logTail(logStart))
	}
	c.log.Info("PostgreSQL ready", "url", c.URL("postgres"))
	return nil
}

// waitReady polls until a connection succeeds, the server exits, ctx ends or
// readyTimeout passes.
func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	var last error
	for {
		if last = ping(ctx, c.URL("postgres")); last == nil {
			return nil
		}
		select {
		case <-c.done:
			return fmt.Errorf("postgres exited: %v", c.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func ping(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgconn.Connect(ctx, url)
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}

// logTail returns the last lines the server logged since offset from.
func (c *Cluster) logTail(from int64) string {
	b, err := os.ReadFile(filepath.Join(c.dataDir, logName))
	if err != nil {
		return ""
	}
	if from > 0 && from <= int64(len(b)) {
		b = b[from:]
	}
	return tail(b, 20)
}

func tail(b []byte, lines int) string {
	b = bytes.TrimRight(b, "\n")
	for i, n := len(b)-1, 0; i >= 0; i-- {
		if b[i] == '\n' {
			if n++; n == lines {
				return string(b[i+1:])
			}
		}
	}
	return string(b)
}

// reuse returns a Cluster for a live postmaster that already holds dataDir,
// nil when there is none (removing a stale postmaster.pid), or an error when
// one is alive but never accepts connections.
func reuse(ctx context.Context, dataDir string, log *slog.Logger) (*Cluster, error) {
	pidFile := filepath.Join(dataDir, "postmaster.pid")
	pm, err := readPostmasterPID(pidFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil || !isPostmasterFor(pm.pid, dataDir) {
		log.Info("removing stale postmaster.pid", "file", pidFile)
		if err := os.Remove(pidFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("pgcluster: %w", err)
		}
		return nil, nil
	}
	c := &Cluster{dataDir: dataDir, sockDir: pm.sockDir, port: pm.port, log: log}
	if c.sockDir == "" {
		return nil, fmt.Errorf("pgcluster: a postgres server (pid %d) holds %s but has no unix socket; stop it first", pm.pid, dataDir)
	}
	// It may be starting up or shutting down: wait for either.
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		last := ping(ctx, c.URL("postgres"))
		if last == nil {
			log.Info("reusing running PostgreSQL", "dir", dataDir, "pid", pm.pid, "url", c.URL("postgres"))
			return c, nil
		}
		if !isPostmasterFor(pm.pid, dataDir) {
			return nil, nil // it exited: start afresh
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("pgcluster: a postgres server (pid %d) holds %s but does not accept connections: %v", pm.pid, dataDir, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

type postmasterPID struct {
	pid     int
	port    int
	sockDir string
}

// readPostmasterPID parses postmaster.pid: pid, data directory, start time,
// port, first socket directory, listen address, shared memory key, status.
func readPostmasterPID(path string) (postmasterPID, error) {
	f, err := os.Open(path)
	if err != nil {
		return postmasterPID{}, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) < 1 {
		return postmasterPID{}, errors.New("empty postmaster.pid")
	}
	var pm postmasterPID
	if pm.pid, err = strconv.Atoi(strings.TrimSpace(lines[0])); err != nil || pm.pid <= 0 {
		return postmasterPID{}, fmt.Errorf("bad pid in postmaster.pid: %q", lines[0])
	}
	pm.port = defaultPort
	if len(lines) > 3 {
		if p, err := strconv.Atoi(strings.TrimSpace(lines[3])); err == nil {
			pm.port = p
		}
	}
	if len(lines) > 4 {
		pm.sockDir = strings.TrimSpace(lines[4])
	}
	return pm, nil
}

// isPostmasterFor reports whether pid is a live postgres process whose
// working directory is dataDir (a postmaster chdirs to its data directory).
func isPostmasterFor(pid int, dataDir string) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid)); err == nil {
		real, rerr := filepath.EvalSymlinks(dataDir)
		return cwd == dataDir || (rerr == nil && cwd == real)
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) // no /proc: trust kill(pid, 0)
	}
	return strings.TrimSpace(string(comm)) == "postgres"
}

// DataDir returns the directory the cluster really lives in: Options.DataDir
// made absolute, or the fallback under /var/lib/fray (see the package doc).
func (c *Cluster) DataDir() string { return c.dataDir }

// Reused reports whether Start found the cluster already running, in which
// case Stop leaves it running.
func (c *Cluster) Reused() bool { return c.cmd == nil }

// URL returns a pgx-compatible URL for database dbname of this cluster, as
// the superuser postgres over the unix socket, e.g.
// postgres:///fray?host=/var/lib/fray/pg-0123456789ab&port=5432&user=postgres&sslmode=disable.
func (c *Cluster) URL(dbname string) string {
	q := "host=" + queryEscape(c.sockDir) + "&port=" + strconv.Itoa(c.port) + "&user=" + superuser + "&sslmode=disable"
	return "postgres:///" + url.PathEscape(dbname) + "?" + q
}

// queryEscape escapes a query value but keeps slashes readable.
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "%2F", "/")
}

// Stop shuts down a cluster this Cluster started (fast shutdown: SIGINT, which
// ends open sessions) and waits for the server to exit, escalating to an
// immediate shutdown after a minute. It is idempotent, and a no-op for a
// reused cluster.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() {
		if c.cmd == nil {
			return
		}
		c.log.Info("stopping PostgreSQL", "dir", c.dataDir)
		_ = c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.done:
		case <-time.After(stopTimeout):
			c.log.Warn("PostgreSQL did not stop in time; immediate shutdown", "dir", c.dataDir)
			_ = c.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-c.done:
			case <-time.After(10 * time.Second):
				_ = c.cmd.Process.Kill()
				<-c.done
			}
		}
		var exit *exec.ExitError
		if c.waitErr != nil && !errors.As(c.waitErr, &exit) {
			c.stopErr = fmt.Errorf("pgcluster: stop: %w", c.waitErr)
		} else if exit != nil && !exit.Success() {
			// A server that died before or during shutdown: report it
			// unless it was our own signal.
			if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
				c.stopErr = fmt.Errorf("pgcluster: postgres exited: %v", c.waitErr)
			}
		}
		c.cleanup()
	})
	return c.stopErr
}

func (c *Cluster) cleanup() {
	if c.logFile != nil {
		_ = c.logFile.Close()
		c.logFile = nil
	}
	if c.tmpSockDir != "" {
		_ = os.RemoveAll(c.tmpSockDir)
		c.tmpSockDir = ""
	}
}
