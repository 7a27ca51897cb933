package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoRulesetInThePage: the page, the server's handlers and prep draw
// and edit every battlefield through package board and the engine's
// projection, so none of them — nor anything they import — depends on a
// ruleset. A new ruleset needs no page code. go list walks the imports
// (of non-test files) for us: each package it lists with what it imports.
func TestNoRulesetInThePage(t *testing.T) {
	const rules = "github.com/fray-vtt/fray/internal/rules"
	for _, start := range []string{".", "../internal/server", "../internal/prep"} {
		out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, start).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", start, err)
		}
		deps := strings.Split(strings.TrimSpace(string(out)), "\n")
		for _, line := range deps {
			pkg, imports, _ := strings.Cut(line, " ")
			for _, im := range strings.Fields(imports) {
				if strings.HasPrefix(im, rules) {
					t.Errorf("%s: %s imports a ruleset, %s", start, pkg, im)
				}
			}
		}
		if len(deps) < 3 {
			t.Errorf("%s: go list found only %v", start, deps)
		}
	}
}
