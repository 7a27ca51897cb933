package main

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestOriginsCompareSchemeHostAndPort: a state-changing form and a
// websocket handshake from a page of another origin are refused — another
// scheme (https against this plain-HTTP server), host or port — while this
// site's own origin, an allowed origin and bots without browser headers
// pass; behind a trusted proxy, X-Forwarded-Proto names the scheme.
func TestOriginsCompareSchemeHostAndPort(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServerEnv(t, dbURL, map[string]string{"FRAY_ALLOWED_ORIGINS": "https://app.example.test, tools.example.test:9000",
		"FRAY_TRUSTED_PROXIES": "10.9.9.9"})
	proxied := startServerEnv(t, dbURL, map[string]string{"FRAY_TRUSTED_PROXIES": "127.0.0.1"})
	gm := srv.signup("gamemaster")
	id := srv.withUser(gm).importExample()
	own := srv.URL // http://127.0.0.1:PORT
	host := strings.TrimPrefix(own, "http://")
	_, port, _ := strings.Cut(host, ":")

	post := func(s *testServer, headers map[string]string) int {
		t.Helper()
		jar, _ := cookiejar.New(nil)
		client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		req, _ := http.NewRequest("POST", s.URL+"/api/campaigns", strings.NewReader(`{"name":"From a page"}`))
		req.Header.Set("Authorization", "Bearer "+gm.Token)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		name    string
		s       *testServer
		headers map[string]string
		want    int
	}{
		{"no browser headers (a bot)", srv, nil, 201},
		{"this site's origin", srv, map[string]string{"Origin": own}, 201},
		{"the browser says same-origin", srv, map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": own}, 201},
		{"https instead of http", srv, map[string]string{"Origin": "https://" + host}, 403},
		{"https, and the default port", srv, map[string]string{"Origin": "https://127.0.0.1"}, 403},
		{"another port", srv, map[string]string{"Origin": "http://127.0.0.1:1"}, 403},
		{"another host, same port", srv, map[string]string{"Origin": "http://localhost:" + port}, 403},
		{"null", srv, map[string]string{"Origin": "null"}, 403},
		{"cross-site without an Origin", srv, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"an allowed origin", srv, map[string]string{"Origin": "https://app.example.test", "Sec-Fetch-Site": "cross-site"}, 201},
		{"an allowed origin with another scheme", srv, map[string]string{"Origin": "http://app.example.test"}, 403},
		{"an allowed host:port takes this site's scheme", srv, map[string]string{"Origin": "http://tools.example.test:9000"}, 201},
		{"an allowed host on another port", srv, map[string]string{"Origin": "http://tools.example.test"}, 403},
		{"X-Forwarded-Proto from a peer that is no trusted proxy", srv, map[string]string{"Origin": "https://" + host, "X-Forwarded-Proto": "https"}, 403},
		{"behind a trusted proxy that says https", proxied, map[string]string{"Origin": "https://" + strings.TrimPrefix(proxied.URL, "http://"), "X-Forwarded-Proto": "https"}, 201},
		{"behind a trusted proxy that says https, an http page", proxied, map[string]string{"Origin": proxied.URL, "X-Forwarded-Proto": "https"}, 403},
	} {
		if got := post(tc.s, tc.headers); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}

	dial := func(origin string) (int, error) {
		t.Helper()
		ctx, cancel := patience.Context(context.Background())
		defer cancel()
		hdr := http.Header{"Authorization": {"Bearer " + gm.Token}}
		if origin != "" {
			hdr.Set("Origin", origin)
		}
		conn, resp, err := websocket.Dial(ctx, "ws://"+host+"/encounters/"+id+"/ws", &websocket.DialOptions{HTTPHeader: hdr})
		if err != nil {
			if resp != nil {
				return resp.StatusCode, err
			}
			return 0, err
		}
		conn.CloseNow()
		return http.StatusSwitchingProtocols, nil
	}
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusSwitchingProtocols},
		{own, http.StatusSwitchingProtocols},
		{"https://app.example.test", http.StatusSwitchingProtocols},
		{"https://" + host, http.StatusForbidden},
		{"http://localhost:" + port, http.StatusForbidden},
		{"http://evil.example", http.StatusForbidden},
	} {
		if got, err := dial(tc.origin); got != tc.want {
			t.Errorf("websocket with Origin %q: %d (%v), want %d", tc.origin, got, err, tc.want)
		}
	}
}
