package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
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
	for _, args := range [][]string{{"migrate", "down"}, {"migrate", "up"}, {"migrate", "force", "2"}, {"migrate", "up"}} {
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
