package layers

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/fray-vtt/fray"

// layers are the module's packages from the foundations up. A package may
// import only packages of a lower layer (tests may import anything): no
// package imports one above it or beside it. A new package must be given
// a layer here.
var layers = [][]string{
	// error codes
	{"internal/fray"},
	// the bounds on taking in a user's file (size, memory, cores, time)
	{"internal/intake"},
	// dice, strict JSON, reading HTML fragments, browser origins, uploaded pictures, embedded files, a private
	// PostgreSQL; the tests' deadlines and their Chromium
	{"internal/dice", "internal/strictjson", "internal/htmlscan", "internal/origin", "internal/images", "examples", "migrations", "internal/pgcluster",
		"internal/patience", "internal/chromium", "internal/statblock", "internal/uvtt/uvtttest"},
	// the position models' vocabulary; what anyone can check of a history
	// (the hash chain, provable dice, sealed answers: a third party's
	// verifier, over the dice derivation alone)
	{"internal/board", "internal/proof", "internal/uvtt", "internal/foundry"},
	// the pure engine; password hashing and tokens; signed links
	{"internal/engine", "internal/auth", "internal/links", "internal/battlemap"},
	// character sheets and carry-over arithmetic; the notices' outbox
	// (what a command's events cause); the encounter odds, fights played
	// on the pure engine; the kit every ruleset is built with
	{"internal/sheet", "internal/outbox", "internal/simulate", "internal/rules/kit", "internal/say"},
	// the rulesets, and the test kits (imagestest: hostile pictures)
	{"internal/rules/*", "internal/engine/enginetest", "internal/board/boardtest", "internal/prep/preptest", "internal/images/imagestest"},
	// the registry of every ruleset
	{"internal/rules"},
	// PostgreSQL; whole-database backups (pg_dump, pg_restore)
	{"internal/store", "internal/backup", "internal/tabletest"},
	// the live encounters; a database per test
	{"internal/play", "internal/testdb"},
	// websocket sessions
	{"internal/realtime"},
	// the services between handlers and the store, and the templ components
	// (notify: the notices' settings and the worker that delivers them)
	{"internal/accounts", "internal/campaigns", "internal/prep", "internal/carry", "internal/history", "internal/assets", "internal/notify", "internal/deadlines", "web"},
	// the campaign's characters (their files enter through prep's limits);
	// notices received as their targets do, for tests; a campaign moved
	// between servers (its archive does too)
	{"internal/characters", "internal/notify/notifytest", "internal/archive"},
	// HTTP
	{"internal/server"},
	// the commands
	{"cmd/*"},
}

// layerOf is the layer of a package (a path relative to the module), -1
// for none.
func layerOf(pkg string) int {
	for i, l := range layers {
		for _, p := range l {
			if p == pkg || strings.HasSuffix(p, "/*") && strings.HasPrefix(pkg, strings.TrimSuffix(p, "*")) {
				return i
			}
		}
	}
	return -1
}

// TestImportsGoDown reads every package of the module and checks that its
// imports of the module's packages go to lower layers only.
func TestImportsGoDown(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(path, 0)
		if err != nil {
			if _, none := err.(*build.NoGoError); none {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		pkg := filepath.ToSlash(rel)
		if len(p.GoFiles) == 0 || pkg == "internal/layers" {
			return nil
		}
		mine := layerOf(pkg)
		if mine < 0 {
			t.Errorf("%s has no layer: add it to layers", pkg)
			return nil
		}
		checked++
		for _, im := range p.Imports {
			dep, ok := strings.CutPrefix(im, module+"/")
			if !ok {
				continue
			}
			if theirs := layerOf(dep); theirs >= mine {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports go down only", pkg, mine, dep, theirs)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 25 {
		t.Fatalf("checked only %d packages", checked)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("the walk did not start at the module's root")
	}
}

// A layer list that says what the test means: a package placed in a layer
// that is above everything it imports, and one placed below an import,
// are told apart.
func TestLayerOf(t *testing.T) {
	for pkg, want := range map[string]int{
		"internal/fray": 0, "internal/intake": 1, "internal/rules/kit": 5, "internal/rules/swzones": 6, "internal/rules/kitskirmish": 6,
		"internal/rules": 7, "internal/engine/enginetest": 6, "internal/server": 13, "cmd/server": 14, "internal/nope": -1,
	} {
		if got := layerOf(pkg); got != want {
			t.Errorf("layerOf(%s) = %d, want %d", pkg, got, want)
		}
	}
}
