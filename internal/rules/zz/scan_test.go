package zz

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/rules"
)

func TestScan(t *testing.T) {
	words := map[string]string{}
	for _, rs := range rules.Registry().All() {
		for _, c := range rs.Commands() {
			words[strings.ToLower(c.Kind)] = rs.ID() + " kind"
		}
		for _, o := range rs.Options() {
			words[strings.ToLower(o.Name)] = rs.ID() + " option"
		}
	}
	for _, w := range strings.Split(os.Getenv("EXTRA"), ",") {
		if w != "" {
			words[strings.ToLower(w)] = "extra"
		}
	}
	wordRe := regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*`)
	root := "../../.."
	hits := map[string]int{}
	for _, dir := range strings.Split(os.Getenv("DIRS"), ",") {
		filepath.Walk(filepath.Join(root, dir), func(p string, info os.FileInfo, err error) error {
			if info.IsDir() && (strings.HasSuffix(p, "boardtest") || strings.HasSuffix(p, "enginetest") || strings.HasSuffix(p, "testdata")) {
				return filepath.SkipDir
			}
			if info.IsDir() || strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, "_templ.go") {
				return nil
			}
			ext := filepath.Ext(p)
			if ext != ".go" && ext != ".templ" && ext != ".js" && ext != ".css" {
				return nil
			}
			b, _ := os.ReadFile(p)
			for i, line := range strings.Split(string(b), "\n") {
				for _, w := range wordRe.FindAllString(line, -1) {
					if src, ok := words[strings.ToLower(w)]; ok {
						hits[w]++
						if os.Getenv("V") != "" {
							fmt.Printf("%s:%d: %q (%s): %s\n", p[9:], i+1, w, src, strings.TrimSpace(line))
						}
					}
				}
			}
			return nil
		})
	}
	fmt.Println(hits)
}
