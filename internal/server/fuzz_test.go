package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzPaths: whatever the path and method, the router (over the fake
// services, signed out) answers without a 500 — ids with NUL or bytes that are not UTF-8 ("/static/%ff",
// "/campaigns/x/pcs/%00") are 404 before any handler sees them — and
// localPath keeps any "next" on this site.
func FuzzPaths(f *testing.F) {
	for _, p := range []string{"/static/%ff", "/static/app.js", "/static/%2e%2e/%2e%2e/etc/passwd", "/campaigns/x/pcs/%00",
		"/campaigns/%00", "/encounters/%00/ws", "/api/encounters/%c0%80/events", "/drafts/%00", "/join/%00", "/join/abc",
		"/api/campaigns/%ff/characters/%00", "/healthz", "/", "/login?next=%00", "/%e2%80%ae", "/api/tokens/%7f"} {
		f.Add(uint8(0), p)
		f.Add(uint8(1), p)
	}
	s := newWorld(f, nil)
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead}
	f.Fuzz(func(t *testing.T, method uint8, path string) {
		u, err := url.ParseRequestURI(path)
		if err != nil || u.Host != "" || !strings.HasPrefix(u.Path, "/") {
			return
		}
		r := httptest.NewRequest(methods[int(method)%len(methods)], "http://fray.test/", nil)
		r.URL, r.RequestURI = u, path
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %q: %d %s", r.Method, path, w.Code, w.Body)
		}
		if p := u.Path; (!utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl)) && w.Code != http.StatusNotFound {
			t.Fatalf("%s %q: %d, want 404 for a path no id can match", r.Method, path, w.Code)
		}
		next := localPath(path)
		if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsFunc(next, unicode.IsControl) || strings.Contains(next, "\\") {
			t.Fatalf("localPath(%q) = %q leaves the site", path, next)
		}
	})
}
