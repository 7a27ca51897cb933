package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestHelp: -h (or help) prints the usage with every subcommand and
// succeeds, whichever subcommand it follows; an unknown command fails.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"serve", "-h"}, {"demo", "-h"}, {"migrate", "-h"}, {"encounter", "-h"}, {"simulate", "-h"}} {
		var out strings.Builder
		if err := run(context.Background(), args, func(string) string { return "" }, &out); err != nil {
			t.Errorf("%v: %v", args, err)
		}
		for _, want := range []string{"server [serve]", "server demo", "server migrate", "server healthcheck", "server encounter import", "server simulate"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: usage lacks %q:\n%s", args, want, out.String())
			}
		}
	}
	if err := run(context.Background(), []string{"dance"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Error("an unknown command succeeded")
	}
}

// A log-in refill that is not a positive duration stops the server at
// start with a message naming the setting.
func TestBadLoginRefillIsRefused(t *testing.T) {
	for _, v := range []string{"soon", "-1s", "0s"} {
		_, _, err := parseConfig("server", nil, func(k string) string {
			if k == "FRAY_LOGIN_REFILL" {
				return v
			}
			return ""
		}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "login refill") {
			t.Errorf("FRAY_LOGIN_REFILL=%s: %v", v, err)
		}
	}
	cfg, _, err := parseConfig("server", []string{"-login-refill", "90s"}, func(string) string { return "" }, io.Discard)
	if err != nil || cfg.LoginRefill != 90*time.Second {
		t.Fatalf("-login-refill 90s: %v, %v", cfg.LoginRefill, err)
	}
}

// TestFrayScript: the README's first command, ./fray, says what it is doing
// before it builds anything (on a cold build cache that takes minutes), says
// it is building, then runs the server with its arguments.
func TestFrayScript(t *testing.T) {
	cmd := exec.Command("bash", filepath.Join("..", "..", "fray"), "help")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("./fray help: %v\n%s", err, out.String())
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "fray: checking the Go modules") {
		t.Fatalf("./fray's first words are %q, not what it is doing", lines[0])
	}
	building, usage := -1, -1
	for i, l := range lines {
		if building < 0 && strings.HasPrefix(l, "fray: building the server") {
			building = i
		}
		if usage < 0 && strings.HasPrefix(l, "usage:") {
			usage = i
		}
	}
	if building < 0 || usage < building {
		t.Fatalf("./fray help did not say it builds, then run the server's help:\n%s", out.String())
	}
}
