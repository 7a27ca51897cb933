package server

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestWebhooks(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/webhooks", form: url.Values{"url": {"https://example.com/h"}, "format": {"json"}}, as: "gm", html: true})
	if body := text(t, res); res.StatusCode != 200 || !strings.Contains(body, "s3cret-shown-once") || !strings.Contains(body, "https://example.com/hook") {
		t.Fatalf("the new webhook's secret is not shown once beside the list: %d", res.StatusCode)
	}
	if body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/webhooks", as: "gm", html: true})); strings.Contains(body, "s3cret") ||
		!strings.Contains(body, "3 delivered, 1 waiting, 0 failed") {
		t.Fatalf("the page: %.500s", body)
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/webhooks", form: url.Values{"url": {"https://example.com/h"}, "format": {"xml"}}, as: "gm"})
	if res.StatusCode != 303 || !strings.Contains(flashOf(t, res, flashError), "format") {
		t.Fatalf("a bad format: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/webhooks/nope/delete", form: url.Values{}, as: "gm"})
	if res.StatusCode != 303 || !strings.Contains(flashOf(t, res, flashError), "not found") {
		t.Fatalf("deleting an unknown webhook: %d", res.StatusCode)
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/webhooks/hook/delete", form: url.Values{}, as: "gm"})
	if res.StatusCode != 303 || flashOf(t, res, flashNotice) != "Webhook removed." || !w.calls.has("DeleteWebhook hook") {
		t.Fatalf("delete: %d", res.StatusCode)
	}

	res = w.do(t, req{method: "POST", path: "/api/campaigns/camp/webhooks", json: `{"url":"https://example.com/h","format":"discord"}`, as: "gm"})
	var made map[string]any
	if err := json.NewDecoder(res.Body).Decode(&made); err != nil || res.StatusCode != 201 || made["secret"] != "s3cret-shown-once" || made["format"] != "discord" {
		t.Fatalf("API create: %d %v %v", res.StatusCode, made, err)
	}
	res = w.do(t, req{method: "GET", path: "/api/campaigns/camp/webhooks", as: "gm"})
	var list []map[string]any
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil || len(list) != 1 || list[0]["id"] != "hook" || list[0]["delivered"] != 3.0 {
		t.Fatalf("API list: %v %v", list, err)
	}
	if _, shown := list[0]["secret"]; shown {
		t.Fatal("the list shows a secret")
	}
	for _, bad := range []string{`{"url":"https://example.com/h","format":"xml"}`, `{"url":"https://example.com/h","format":"json","x":1}`, `{"url":`} {
		if res := w.do(t, req{method: "POST", path: "/api/campaigns/camp/webhooks", json: bad, as: "gm"}); res.StatusCode != 400 {
			t.Fatalf("API create %s: %d", bad, res.StatusCode)
		}
	}
	if res := w.do(t, req{method: "DELETE", path: "/api/campaigns/camp/webhooks/nope", as: "gm"}); res.StatusCode != 404 {
		t.Fatalf("API delete of an unknown webhook: %d", res.StatusCode)
	}
}

// A database that fails is the server's fault: the error page, not a
// flash that blames the form.
func TestWebhooksServerFault(t *testing.T) {
	w := newWorld(t, fail{"CreateWebhook": errors.New("connection reset")})
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/webhooks", form: url.Values{"url": {"https://example.com/h"}, "format": {"json"}}, as: "gm", html: true})
	if res.StatusCode != 500 {
		t.Fatalf("status %d, want 500", res.StatusCode)
	}
}
