package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/account/tokens", form: url.Values{"name": {"bot"}}, as: "pl", html: true})
	if body := text(t, res); res.StatusCode != 200 || !strings.Contains(body, "fray_pat_secret") {
		t.Fatalf("the new token is not shown once: %d", res.StatusCode)
	}
	res = w.do(t, req{method: "POST", path: "/account/tokens", form: url.Values{"name": {""}}, as: "pl"})
	if res.StatusCode != 303 || !strings.Contains(flashOf(t, res, flashError), "name") {
		t.Fatalf("a token without a name: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}
	res = w.do(t, req{method: "POST", path: "/account/tokens/tok/revoke", form: url.Values{}, as: "pl"})
	if res.StatusCode != 303 || flashOf(t, res, flashNotice) != "Token revoked." || !w.calls.has("RevokeToken pl tok") {
		t.Fatalf("revoke: %d", res.StatusCode)
	}

	res = w.do(t, req{method: "GET", path: "/api/tokens", as: "pl"})
	var list []map[string]any
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil || len(list) != 1 || list[0]["id"] != "tok" {
		t.Fatalf("list: %v %v", list, err)
	}
	if _, shown := list[0]["token"]; shown {
		t.Fatal("the list shows a token itself")
	}
	if res := w.do(t, req{method: "POST", path: "/api/tokens", json: `{"name":""}`, as: "pl"}); res.StatusCode != 400 {
		t.Fatalf("API: a token without a name: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "POST", path: "/api/tokens", json: `{"nom":"bot"}`, as: "pl"}); res.StatusCode != 400 {
		t.Fatalf("API: an unknown field: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "DELETE", path: "/api/tokens/tok", as: "pl"}); res.StatusCode != 204 || !w.calls.has("RevokeToken pl tok") {
		t.Fatalf("API revoke: %d", res.StatusCode)
	}
}
