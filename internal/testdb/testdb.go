// Package testdb gives each test a real PostgreSQL database of its own,
// cloned from a migrated template.
//
// Use it from a package's TestMain:
//
//	func TestMain(m *testing.M) { testdb.Main(m) }
//
// and call [URL] in a test for a fresh database. With DATABASE_URL unset, the
// test binary runs one private cluster (internal/pgcluster, fsync off) in a
// temporary directory; with DATABASE_URL set, it uses that server, whose user
// must be allowed to create databases. Either way a template database
// fray_template_<random> is created and migrated once, on the first call to
// URL, and dropped at the end with every database made from it.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fray-vtt/fray/internal/pgcluster"
	"github.com/fray-vtt/fray/internal/store"
)

var (
	mainCalled bool
	once       sync.Once
	setupErr   error
	env        *server // set by setup
)

// server is the database server the tests use.
type server struct {
	admin    *pgxpool.Pool // to the maintenance database
	template string
	urlFor   func(dbname string) (string, error)
	cluster  *pgcluster.Cluster // nil with DATABASE_URL
	dir      string             // the private cluster's temporary directory
}

// Main runs the tests of a package (m.Run) and then drops the template
// database and stops and removes the private cluster, if URL made them, and
// exits with the tests' code.
func Main(m *testing.M) {
	mainCalled = true
	code := m.Run()
	if env != nil {
		if err := env.close(); err != nil {
			fmt.Fprintln(os.Stderr, "testdb:", err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}

// URL creates a fresh database for t, with the schema migrated, and returns
// its URL. The database is dropped (its connections ended) when t finishes.
func URL(t testing.TB) string {
	t.Helper()
	if !mainCalled {
		t.Fatal("testdb: call testdb.Main(m) from the package's TestMain")
	}
	once.Do(func() { env, setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("testdb: %v", setupErr)
	}
	name := "fray_test_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := env.admin.Exec(ctx, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(env.template)); err != nil {
		t.Fatalf("testdb: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := env.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
			t.Errorf("testdb: drop database %s: %v", name, err)
		}
	})
	u, err := env.urlFor(name)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return u
}

func setup() (s *server, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s = &server{template: "fray_template_" + randomHex(8)}
	defer func() {
		if err != nil {
			_ = s.close()
			s = nil
		}
	}()

	adminURL := os.Getenv("DATABASE_URL")
	if adminURL != "" {
		s.urlFor = func(dbname string) (string, error) { return withDatabase(adminURL, dbname) }
	} else {
		// Under os.TempDir, which root's postgres user can reach; pgcluster
		// hands the directory itself to that user.
		if s.dir, err = os.MkdirTemp("", "fray-testdb-"); err != nil {
			return s, err
		}
		if s.cluster, err = pgcluster.Start(ctx, pgcluster.Options{DataDir: s.dir}); err != nil {
			return s, err
		}
		adminURL = s.cluster.URL("postgres")
		s.urlFor = func(dbname string) (string, error) { return s.cluster.URL(dbname), nil }
	}

	cfg, err := pgxpool.ParseConfig(adminURL)
	if err != nil {
		return s, fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.MaxConns = 4
	if s.admin, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return s, err
	}
	if _, err = s.admin.Exec(ctx, "CREATE DATABASE "+ident(s.template)); err != nil {
		return s, fmt.Errorf("create template database: %w", err)
	}
	tmplURL, err := s.urlFor(s.template)
	if err != nil {
		return s, err
	}
	if err = store.Migrate(ctx, tmplURL, "up"); err != nil {
		return s, fmt.Errorf("migrate template database: %w", err)
	}
	// No connection may use a template while it is being copied.
	if _, err = s.admin.Exec(ctx, "ALTER DATABASE "+ident(s.template)+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return s, err
	}
	return s, nil
}

func (s *server) close() error {
	var errs []string
	if s.admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := s.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(s.template)+" WITH (FORCE)"); err != nil {
			errs = append(errs, "drop template: "+err.Error())
		}
		s.admin.Close()
	}
	if s.cluster != nil {
		if err := s.cluster.Stop(); err != nil {
			errs = append(errs, err.Error())
		}
		if d := s.cluster.DataDir(); d != s.dir {
			_ = os.RemoveAll(d)
		}
	}
	if s.dir != "" {
		if err := os.RemoveAll(s.dir); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("cleanup: %s", strings.Join(errs, "; "))
	}
	return nil
}

// withDatabase returns dsn (a URL or a keyword/value string) pointing at
// database dbname instead.
func withDatabase(dsn, dbname string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("DATABASE_URL: %w", err)
		}
		u.Path, u.RawPath = "/"+dbname, ""
		q := u.Query()
		q.Del("dbname")
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " dbname=" + dbname, nil // the last setting of a key wins
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
