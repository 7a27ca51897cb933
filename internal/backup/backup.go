// Package backup writes and restores a whole Fray database — every
// campaign, encounter, account and picture (pictures live in the database)
// — with PostgreSQL's own tools: pg_dump in its custom format, which reads
// one consistent snapshot while the server goes on writing, and
// pg_restore, in a single transaction.
//
// # The file
//
// A backup file is
//
//	FRAY BACKUP 1\n
//	{"created":"…","schema":N,"format":"pg_dump-custom"}\n
//	the pg_dump archive
//	FRAY BACKUP END <SHA-256 of everything before this line, hex> <its length, 20 digits>\n
//
// The last line is written only once pg_dump finished without an error,
// so a backup that was cut short — its process killed, its disk full, a
// copy interrupted — has none, and [Open] refuses it, as it refuses one
// whose bytes changed. [WriteFile] also writes under a temporary name and
// renames the file into place once it is complete and synced.
package backup

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/pgcluster"
	"github.com/fray-vtt/fray/internal/strictjson"
)

const (
	magic      = "FRAY BACKUP 1\n"
	endPrefix  = "FRAY BACKUP END "
	trailerLen = len(endPrefix) + 64 + 1 + 20 + 1
	maxMeta    = 4096
	// Format names the archive inside: pg_dump's custom format.
	Format = "pg_dump-custom"
)

// Meta describes a backup.
type Meta struct {
	Created time.Time `json:"created"`
	// Schema is the database's migration version when it was written: a
	// server older than that cannot restore it.
	Schema int    `json:"schema"`
	Format string `json:"format"`
}

// Write dumps the database at dbURL into w as a backup file and returns
// how many bytes it wrote. pg_dump reads one snapshot, so the backup is
// consistent however busy the server is. Only a Write that returns nil
// wrote the last line that makes the file complete.
func Write(ctx context.Context, w io.Writer, dbURL string, meta Meta) (int64, error) {
	meta.Format = Format
	line, err := json.Marshal(meta)
	if err != nil {
		return 0, err
	}
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(w, h)}
	if _, err := io.WriteString(cw, magic); err != nil {
		return cw.n, err
	}
	if _, err := cw.Write(append(line, '\n')); err != nil {
		return cw.n, err
	}
	pgDump, err := pgcluster.Tool("pg_dump")
	if err != nil {
		return cw.n, err
	}
	conn, env, err := connArgs(dbURL)
	if err != nil {
		return cw.n, err
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, pgDump, "--format=custom", "--no-owner", "--no-acl", "--dbname="+conn)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = cw, &stderr
	// pg_dump dies with this process: a backup killed with SIGKILL leaves
	// no dump reading the database behind it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Run(); err != nil {
		return cw.n, fmt.Errorf("pg_dump: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if _, err := io.WriteString(w, trailer(h, cw.n)); err != nil {
		return cw.n, err
	}
	return cw.n + int64(trailerLen), nil
}

func trailer(h hash.Hash, n int64) string {
	return fmt.Sprintf("%s%s %020d\n", endPrefix, hex.EncodeToString(h.Sum(nil)), n)
}

// WriteFile writes a backup to name: to a temporary file beside it first,
// synced and renamed into place once complete, so name is either absent,
// an older complete backup, or this one.
func WriteFile(ctx context.Context, name, dbURL string, meta Meta) (int64, error) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".partial-*")
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	n, err := Write(ctx, bw, dbURL, meta)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return n, err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename itself survives a crash
		d.Close()
	}
	return n, nil
}

// File is a backup file that was read whole and found complete.
type File struct {
	Meta
	f        *os.File
	off, len int64 // the pg_dump archive
}

// ErrIncomplete and ErrCorrupt say why a file is not a usable backup.
var (
	ErrIncomplete = errors.New("the backup is incomplete: it ends before its last line (was it interrupted, or cut short in a copy?)")
	ErrCorrupt    = errors.New("the backup is damaged: its bytes do not match the checksum written at its end")
	ErrNotBackup  = errors.New("not a Fray backup (it does not start with FRAY BACKUP 1)")
)

// Open reads the backup file name whole, checks its first and last lines
// and its checksum, and returns it ready to restore; a partial, damaged
// or foreign file is refused with an error that says which.
func Open(name string) (*File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	b, err := check(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

func check(f *os.File) (*File, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != magic {
		return nil, ErrNotBackup
	}
	br := bufio.NewReaderSize(io.NewSectionReader(f, int64(len(magic)), maxMeta+1), maxMeta+1)
	line, err := br.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("not a Fray backup: its description is longer than %d bytes", maxMeta)
		}
		return nil, ErrIncomplete
	}
	var meta Meta
	if err := strictjson.DecodeWith(line, &meta, strictjson.Limits{MaxBytes: maxMeta}); err != nil {
		return nil, fmt.Errorf("not a Fray backup: its description: %w", err)
	}
	if meta.Format != Format {
		return nil, fmt.Errorf("a backup in the format %q, which this server does not read", meta.Format)
	}
	off := int64(len(magic) + len(line))
	if size < off+int64(trailerLen) {
		return nil, ErrIncomplete
	}
	tail := make([]byte, trailerLen)
	if _, err := f.ReadAt(tail, size-int64(trailerLen)); err != nil {
		return nil, err
	}
	sum, n, ok := parseTrailer(tail)
	if !ok {
		return nil, ErrIncomplete
	}
	if n != size-int64(trailerLen) {
		return nil, ErrCorrupt
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, n)); err != nil {
		return nil, err
	}
	if !bytes.Equal(h.Sum(nil), sum) {
		return nil, ErrCorrupt
	}
	return &File{Meta: meta, f: f, off: off, len: n - off}, nil
}

func parseTrailer(t []byte) (sum []byte, n int64, ok bool) {
	s, found := strings.CutPrefix(string(t), endPrefix)
	if !found || !strings.HasSuffix(s, "\n") {
		return nil, 0, false
	}
	hexSum, digits, found := strings.Cut(strings.TrimSuffix(s, "\n"), " ")
	if !found || len(hexSum) != 64 || len(digits) != 20 {
		return nil, 0, false
	}
	sum, err := hex.DecodeString(hexSum)
	if err != nil {
		return nil, 0, false
	}
	n, err = strconv.ParseInt(digits, 10, 64)
	return sum, n, err == nil && n >= 0
}

// Close closes the file.
func (b *File) Close() error { return b.f.Close() }

// ErrNotEmpty refuses a restore over data.
var ErrNotEmpty = errors.New("the database to restore into is not empty: restore into a new data directory (-data-dir) or an empty database (DATABASE_URL)")

// Restore loads the backup into the database at dbURL, which must be empty
// (no table in its public schema), in a single transaction: it is restored
// whole or not at all.
func (b *File) Restore(ctx context.Context, dbURL string) error {
	empty, err := Empty(ctx, dbURL)
	if err != nil {
		return err
	}
	if !empty {
		return ErrNotEmpty
	}
	pgRestore, err := pgcluster.Tool("pg_restore")
	if err != nil {
		return err
	}
	conn, env, err := connArgs(dbURL)
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, pgRestore, "--no-owner", "--no-acl", "--single-transaction", "--exit-on-error", "--dbname="+conn)
	cmd.Env = env
	cmd.Stdin = io.NewSectionReader(b.f, b.off, b.len)
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pg_restore: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// Empty reports whether the database at dbURL has no table in its public
// schema.
func Empty(ctx context.Context, dbURL string) (bool, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return false, err
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&n)
	return n == 0, err
}

// connArgs turns a database URL into pg_dump's and pg_restore's --dbname
// and environment: a password moves out of the URL into PGPASSWORD, so it
// is not on the process list; the PG* variables of this process that
// could point elsewhere are dropped.
func connArgs(dbURL string) (string, []string, error) {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	if !strings.HasPrefix(dbURL, "postgres://") && !strings.HasPrefix(dbURL, "postgresql://") {
		return dbURL, env, nil // a keyword/value string: as it is
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", nil, fmt.Errorf("the database URL: %w", err)
	}
	if u.User != nil {
		if pw, set := u.User.Password(); set {
			env = append(env, "PGPASSWORD="+pw)
			u.User = url.User(u.User.Username())
		}
	}
	return u.String(), env, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
