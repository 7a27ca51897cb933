package backup_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/backup"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// emptyDatabase creates a database with no schema on the test cluster and
// returns its URL; it is dropped when t ends.
func emptyDatabase(t *testing.T, nextTo string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, nextTo)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := "fray_restore_" + strings.ReplaceAll(strings.ToLower(t.Name()), "/", "_")
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), nextTo)
		if err == nil {
			c.Exec(context.Background(), "DROP DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
			c.Close(context.Background())
		}
	})
	u, err := url.Parse(nextTo)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// rows reads a query's rows as text, for comparing two databases.
func rows(t *testing.T, dbURL, query string) []string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var out []string
	rs, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		vs, err := rs.Values()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vs {
			fmt.Fprintf(&b, "%v", v)
			b.WriteByte('|')
		}
		out = append(out, b.String())
	}
	if rs.Err() != nil {
		t.Fatal(rs.Err())
	}
	return out
}

// seed writes an account, a campaign and a picture.
func seed(t *testing.T, dbURL string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), `
		WITH u AS (INSERT INTO users (name, password_hash) VALUES ('keeper', 'hash') RETURNING id),
		c AS (INSERT INTO campaigns (name) VALUES ('The long road') RETURNING id)
		INSERT INTO assets (campaign_id, id, content_type, width, height, data, thumb_type, thumb, bytes)
		SELECT c.id, repeat('a', 64), 'image/png', 1, 1, '\x89504e47'::bytea, 'image/png', '\x89504e47'::bytea, 8 FROM c`)
	if err != nil {
		t.Fatal(err)
	}
}

const compare = `SELECT u.name, c.name, a.id, a.data FROM users u, campaigns c JOIN assets a ON a.campaign_id = c.id ORDER BY 1, 2, 3`

// A backup restores whole into an empty database, and a second restore
// over it is refused.
func TestBackupRestoresIntoAnEmptyDatabase(t *testing.T) {
	src := testdb.URL(t)
	seed(t, src)
	file := filepath.Join(t.TempDir(), "fray.backup")
	n, err := backup.WriteFile(context.Background(), file, src, backup.Meta{Created: time.Now(), Schema: 17})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(file); err != nil || st.Size() != n {
		t.Fatalf("the file: %v, %d bytes written", err, n)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*partial*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	b, err := backup.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Schema != 17 || b.Format != backup.Format {
		t.Errorf("meta: %+v", b.Meta)
	}
	dst := emptyDatabase(t, src)
	if err := b.Restore(context.Background(), dst); err != nil {
		t.Fatal(err)
	}
	want, got := rows(t, src, compare), rows(t, dst, compare)
	if len(want) != 1 || strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("restored %q, want %q", got, want)
	}
	if err := b.Restore(context.Background(), dst); !errors.Is(err, backup.ErrNotEmpty) {
		t.Errorf("a restore over data: %v", err)
	}
}

// A backup cut short anywhere — in its first line, its description, the
// dump, or its last line — is refused as incomplete, a changed byte as
// damaged, and a file that is no backup as such: Open never hands any of
// them to pg_restore.
func TestPartialOrDamagedBackupsAreRefused(t *testing.T) {
	src := testdb.URL(t)
	seed(t, src)
	var buf bytes.Buffer
	if _, err := backup.Write(context.Background(), &buf, src, backup.Meta{Schema: 17}); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	dir := t.TempDir()
	try := func(name string, data []byte) error {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := backup.Open(p)
		if err == nil {
			b.Close()
		}
		return err
	}
	if err := try("whole", whole); err != nil {
		t.Fatalf("the whole backup: %v", err)
	}
	metaEnd := bytes.IndexByte(whole[len("FRAY BACKUP 1\n"):], '\n') + len("FRAY BACKUP 1\n") + 1
	for _, cut := range []int{metaEnd - 5, metaEnd, metaEnd + 1, len(whole) / 2, len(whole) - 103, len(whole) - 102, len(whole) - 50, len(whole) - 1} {
		err := try("cut", whole[:cut])
		if !errors.Is(err, backup.ErrIncomplete) && !errors.Is(err, backup.ErrCorrupt) {
			t.Errorf("cut at %d of %d: %v, want incomplete", cut, len(whole), err)
		}
		if err != nil && !strings.Contains(err.Error(), "incomplete") && !strings.Contains(err.Error(), "damaged") {
			t.Errorf("cut at %d: the message %q says neither incomplete nor damaged", cut, err)
		}
	}
	if err := try("cut", whole[:len(whole)/2]); !errors.Is(err, backup.ErrIncomplete) {
		t.Errorf("cut in the middle: %v, want incomplete", err)
	}
	for _, at := range []int{metaEnd + 10, len(whole) / 2, len(whole) - 110} {
		bad := bytes.Clone(whole)
		bad[at] ^= 0x20
		if err := try("flipped", bad); !errors.Is(err, backup.ErrCorrupt) {
			t.Errorf("a byte changed at %d: %v, want damaged", at, err)
		}
	}
	if err := try("longer", append(bytes.Clone(whole), '\n')); err == nil {
		t.Error("a backup with a byte after its last line was accepted")
	}
	for _, foreign := range [][]byte{nil, []byte("FRAY"), []byte("PGDMP\x01\x0e"), []byte("FRAY BACKUP 1\n" + strings.Repeat("x", 5000))} {
		if err := try("foreign", foreign); err == nil {
			t.Errorf("%.20q accepted", foreign)
		}
	}
}
