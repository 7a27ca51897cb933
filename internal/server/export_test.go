package server

import (
	"strings"
	"testing"
)

func TestExports(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/api/encounters/enc/export.json", as: "pl"})
	if cd := res.Header.Get("Content-Disposition"); cd != "attachment; filename=fray-toy-fight-enc.json" {
		t.Fatalf("Content-Disposition %q", cd)
	}
	if body := text(t, res); !strings.Contains(body, `"format":"fray-encounter-log"`) || !strings.Contains(body, `"controls":["hero"]`) {
		t.Fatalf("the export is not the player's: %.300s", body)
	}
	res = w.do(t, req{method: "GET", path: "/encounters/enc/export.md", as: "pl"})
	if res.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || !strings.HasPrefix(text(t, res), "# Toy fight") {
		t.Fatalf("the report: %q", res.Header.Get("Content-Type"))
	}
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Fatal("a viewer's report may be cached")
	}
}
