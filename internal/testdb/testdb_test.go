package testdb

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestMain(m *testing.M) { Main(m) }

func TestURL(t *testing.T) {
	ctx := context.Background()
	var names []string
	t.Run("fresh databases", func(t *testing.T) {
		for range 2 {
			conn, err := pgx.Connect(ctx, URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			var name string
			var version int
			var dirty bool
			if err := conn.QueryRow(ctx, "SELECT current_database()").Scan(&name); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
			// Migrated, and empty.
			if err := conn.QueryRow(ctx, "SELECT version, dirty FROM schema_migrations").Scan(&version, &dirty); err != nil || version < 1 || dirty {
				t.Fatalf("schema_migrations: %d %v %v", version, dirty, err)
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM campaigns").Scan(&n); err != nil || n != 0 {
				t.Fatalf("campaigns: %d, %v", n, err)
			}
			if _, err := conn.Exec(ctx, "INSERT INTO campaigns (name) VALUES ('mine')"); err != nil {
				t.Fatal(err)
			}
		}
		if names[0] == names[1] {
			t.Fatalf("two tests got database %s", names[0])
		}
	})
	// The subtest's cleanup dropped its databases, though its connections
	// were still open then.
	for _, name := range names {
		var n int
		if err := env.admin.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil || n != 0 {
			t.Errorf("database %s still exists (%d, %v)", name, n, err)
		}
	}
}

func TestWithDatabase(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:p@db:5432/fray?sslmode=disable", "postgres://u:p@db:5432/x?sslmode=disable"},
		{"postgresql:///fray?host=/run/pg&dbname=other", "postgresql:///x?host=%2Frun%2Fpg"},
		{"host=db user=u dbname=fray", "host=db user=u dbname=fray dbname=x"},
	} {
		got, err := withDatabase(c.in, "x")
		if err != nil || got != c.want {
			t.Errorf("withDatabase(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if cfg, err := pgconn.ParseConfig(got); err != nil || cfg.Database != "x" {
			t.Errorf("%q parses to database %v, %v", got, cfg, err)
		}
	}
}
