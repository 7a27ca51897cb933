package main

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
	"github.com/fray-vtt/fray/migrations"
)

func runCmd(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), args, func(k string) string { return env[k] }, &out)
	return out.String(), err
}

func TestMigrateAndImportCommands(t *testing.T) {
	url := testdb.URL(t)
	env := map[string]string{"DATABASE_URL": url, "FRAY_LOG_LEVEL": "error"}
	// Forcing the latest version (as after a repaired failure) leaves
	// nothing for "up" to do.
	latest := 0
	files, _ := fs.Glob(migrations.FS, "*.up.sql")
	for _, f := range files {
		if n, err := strconv.Atoi(strings.SplitN(f, "_", 2)[0]); err == nil {
			latest = max(latest, n)
		}
	}
	for _, args := range [][]string{{"migrate", "down"}, {"migrate", "up"}, {"migrate", "force", strconv.Itoa(latest)}, {"migrate", "up"}} {
		if out, err := runCmd(t, env, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	if _, err := runCmd(t, env, "migrate", "sideways"); err == nil {
		t.Fatal("unknown migrate action accepted")
	}
	db, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gm, err := db.CreateUser(context.Background(), "gamemaster", "x")
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateCampaignFor(context.Background(), "Imports", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("..", "..", "examples", "encounters", "sw-zones-goblin-ford.json")
	if _, err := runCmd(t, env, "encounter", "import", file); err == nil {
		t.Fatal("import without a campaign succeeded")
	}
	out, err := runCmd(t, env, "encounter", "import", file, "-campaign", c.ID)
	if err != nil || !strings.Contains(out, "imported") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	encs, _ := db.Encounters(context.Background(), c.ID)
	if len(encs) != 1 || encs[0].Status != "setup" {
		t.Fatalf("imported encounters: %+v", encs)
	}
	if _, err := runCmd(t, env, "encounter", "import", "/nonexistent.json", "-campaign", c.ID); err == nil {
		t.Fatal("importing a missing file succeeded")
	}
	if _, err := runCmd(t, env, "bogus"); err == nil {
		t.Fatal("unknown command accepted")
	}
}
