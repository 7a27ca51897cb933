package web

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/fray-vtt/fray"

// importsOf returns the module packages dir's non-test Go files import.
func importsOf(t *testing.T, root, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, dir, e.Name()), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if rest, ok := strings.CutPrefix(p, module+"/"); ok && !seen[rest] {
				seen[rest] = true
				out = append(out, rest)
			}
		}
	}
	return out
}

// TestNoRulesetInThePage: the page, the server's handlers and prep draw
// and edit every battlefield through package board and the engine's
// projection, so none of them — nor anything they import — depends on a
// ruleset. A new ruleset needs no page code.
func TestNoRulesetInThePage(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"web", "internal/server", "internal/prep"} {
		path := map[string]string{start: start}
		queue := []string{start}
		for len(queue) > 0 {
			pkg := queue[0]
			queue = queue[1:]
			if strings.HasPrefix(pkg, "internal/rules") {
				t.Errorf("%s imports a ruleset: %s", start, path[pkg])
				continue
			}
			for _, im := range importsOf(t, root, pkg) {
				if _, ok := path[im]; !ok {
					path[im] = path[pkg] + " → " + im
					queue = append(queue, im)
				}
			}
		}
		if len(path) < 3 {
			t.Errorf("%s: walked only %v", start, path)
		}
	}
}
