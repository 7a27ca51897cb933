package server

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

func TestHealth(t *testing.T) {
	if res := newWorld(t, nil).do(t, req{method: "GET", path: "/healthz"}); res.StatusCode != 200 {
		t.Fatalf("healthy: %d", res.StatusCode)
	}
	res := newWorld(t, fail{"Ping": fray.Errorf(fray.EUNAVAILABLE, "down")}).do(t, req{method: "GET", path: "/healthz"})
	if res.StatusCode != 503 || !strings.Contains(text(t, res), "unreachable") {
		t.Fatalf("without a database: %d", res.StatusCode)
	}
}

func TestRulesets(t *testing.T) {
	body := text(t, newWorld(t, nil).do(t, req{method: "GET", path: "/api/rulesets"}))
	if !strings.Contains(body, `"id":"toy"`) {
		t.Fatalf("%s", body)
	}
}
