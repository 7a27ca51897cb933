package origin

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"testing"
)

func req(method, host, origin, site string) *http.Request {
	r := httptest.NewRequest(method, "http://"+host+"/campaigns", nil)
	r.Host = host
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	if site != "" {
		r.Header.Set("Sec-Fetch-Site", site)
	}
	return r
}

func TestAllowedComparesSchemeHostAndPort(t *testing.T) {
	plain, _ := New(nil, false, nil)
	secure, _ := New(nil, true, nil)
	extra, err := New([]string{"https://*.example.com", "app.example.org:8443", "http://localhost:3000"}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	viaProxy, _ := New(nil, false, func(r *http.Request) bool { return r.RemoteAddr == "10.0.0.1:1234" })
	for _, tc := range []struct {
		name   string
		p      *Policy
		host   string
		origin string
		tls    bool
		remote string
		proto  string
		want   bool
	}{
		{"own origin", plain, "fray.test:8080", "http://fray.test:8080", false, "", "", true},
		{"own origin, case", plain, "fray.test:8080", "HTTP://FRAY.test:8080", false, "", "", true},
		{"wrong scheme", plain, "fray.test:8080", "https://fray.test:8080", false, "", "", false},
		{"wrong port", plain, "fray.test:8080", "http://fray.test:8081", false, "", "", false},
		{"no port vs port", plain, "fray.test:8080", "http://fray.test", false, "", "", false},
		{"default port", plain, "fray.test:80", "http://fray.test", false, "", "", true},
		{"other host", plain, "fray.test", "http://evil.test", false, "", "", false},
		{"null", plain, "fray.test", "null", false, "", "", false},
		{"with path", plain, "fray.test", "http://fray.test/x", false, "", "", false},
		{"tls", plain, "fray.test", "https://fray.test", true, "", "", true},
		{"tls, http page", plain, "fray.test", "http://fray.test", true, "", "", false},
		{"secure: https page", secure, "fray.test", "https://fray.test:443", false, "", "", true},
		{"secure: http page", secure, "fray.test", "http://fray.test", false, "", "", false},
		{"allowed wildcard", extra, "fray.test", "https://app.example.com", false, "", "", true},
		{"allowed wildcard, http", extra, "fray.test", "http://app.example.com", false, "", "", false},
		{"allowed bare host takes own scheme", extra, "fray.test", "https://app.example.org:8443", false, "", "", true},
		{"allowed bare host, other port", extra, "fray.test", "https://app.example.org", false, "", "", false},
		{"allowed http origin", extra, "fray.test", "http://localhost:3000", false, "", "", true},
		{"trusted proxy says https", viaProxy, "fray.test", "https://fray.test", false, "10.0.0.1:1234", "https", true},
		{"trusted proxy says https, http page", viaProxy, "fray.test", "http://fray.test", false, "10.0.0.1:1234", "https", false},
		{"untrusted peer's X-Forwarded-Proto is ignored", viaProxy, "fray.test", "https://fray.test", false, "10.9.9.9:1234", "https", false},
	} {
		r := req("POST", tc.host, tc.origin, "")
		if tc.tls {
			r.TLS = &tls.ConnectionState{}
		}
		if tc.remote != "" {
			r.RemoteAddr = tc.remote
		}
		if tc.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		if got := tc.p.Allowed(r, tc.origin); got != tc.want {
			t.Errorf("%s: Allowed(%q on %s) = %v, want %v", tc.name, tc.origin, tc.host, got, tc.want)
		}
		if got := tc.p.Check(r) == nil; got != tc.want {
			t.Errorf("%s: Check = %v, want allowed %v", tc.name, tc.p.Check(r), tc.want)
		}
	}
}

func TestCheckSecFetchSite(t *testing.T) {
	p, _ := New(nil, false, nil)
	for _, tc := range []struct {
		method, origin, site string
		want                 bool
	}{
		{"GET", "http://evil.test", "cross-site", true}, // safe methods pass
		{"POST", "", "", true},                          // bots
		{"POST", "", "same-origin", true},
		{"POST", "", "none", true},
		{"POST", "", "cross-site", false},
		{"POST", "http://fray.test", "same-site", true},
		{"POST", "http://evil.test", "cross-site", false},
		{"DELETE", "https://fray.test", "", false}, // scheme differs
	} {
		err := p.Check(req(tc.method, "fray.test", tc.origin, tc.site))
		if (err == nil) != tc.want {
			t.Errorf("%s origin %q site %q: %v, want allowed %v", tc.method, tc.origin, tc.site, err, tc.want)
		}
	}
}

func TestNewRefusesBadPatterns(t *testing.T) {
	for _, bad := range []string{"ftp://x.test", "https://", "x.test/path", "https://[", "a b"} {
		if _, err := New([]string{bad}, false, nil); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
}
