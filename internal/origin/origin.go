// Package origin decides which browser origins may change things on this
// server: state-changing requests (CSRF) and websocket handshakes. An
// origin is a scheme, a host and a port, and all three must match — the
// server's own origin as the browser reached it, or one of the configured
// allowed origins — so a page served over plain HTTP cannot act on the
// HTTPS site of the same host.
package origin

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
)

// Policy holds the allowed origins. The zero Policy allows only the
// server's own origin, over plain HTTP unless the request came over TLS.
type Policy struct {
	allowed []pattern
	// secure: browsers reach the server over HTTPS even when requests
	// arrive in plain HTTP (a TLS-terminating proxy in front).
	secure bool
	// viaProxy reports whether a request came through a trusted reverse
	// proxy, whose X-Forwarded-Proto then names the scheme.
	viaProxy func(*http.Request) bool
}

// pattern is an allowed origin: a scheme ("" for the server's own) and a
// host with an optional port, which may hold path.Match wildcards
// ("*.example.com").
type pattern struct {
	scheme, host string
}

// New makes a Policy. allowed lists extra origins, each
// "scheme://host[:port]" or just "host[:port]" (then with the server's own
// scheme); the host may hold wildcards ("https://*.example.com"). secure
// says browsers use HTTPS (behind a TLS-terminating proxy; -secure-cookies);
// viaProxy, when not nil, tells requests from trusted proxies, whose
// X-Forwarded-Proto is then believed.
func New(allowed []string, secure bool, viaProxy func(*http.Request) bool) (*Policy, error) {
	p := &Policy{secure: secure, viaProxy: viaProxy}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "" {
			continue
		}
		var pt pattern
		if scheme, host, ok := strings.Cut(a, "://"); ok {
			if scheme != "http" && scheme != "https" {
				return nil, fmt.Errorf("allowed origin %q: the scheme must be http or https", a)
			}
			pt = pattern{scheme: scheme, host: host}
		} else {
			pt = pattern{host: a}
		}
		if pt.host == "" || strings.ContainsAny(pt.host, "/?#@ ") {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port] or host[:port]", a)
		}
		if _, err := path.Match(pt.host, ""); err != nil {
			return nil, fmt.Errorf("allowed origin %q: %v", a, err)
		}
		p.allowed = append(p.allowed, pt)
	}
	return p, nil
}

// Scheme is the scheme the browser used to reach the server: https over
// TLS; else what a trusted proxy's X-Forwarded-Proto says; else https when
// the policy is secure; else http.
func (p *Policy) Scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if p != nil && p.viaProxy != nil && p.viaProxy(r) {
		proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
		if proto = strings.ToLower(strings.TrimSpace(proto)); proto == "https" || proto == "http" {
			return proto
		}
	}
	if p != nil && p.secure {
		return "https"
	}
	return "http"
}

// Allowed reports whether a browser page of origin (an Origin header's
// value) may act on r: it is r's own origin (scheme, host and port) or an
// allowed one. "null" and anything that is not an origin are refused.
func (p *Policy) Allowed(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	scheme, host := u.Scheme, canonicalHost(u.Scheme, u.Host)
	own := p.Scheme(r)
	if scheme == own && host == canonicalHost(own, r.Host) {
		return true
	}
	if p == nil {
		return false
	}
	for _, pt := range p.allowed {
		want := pt.scheme
		if want == "" {
			want = own
		}
		if scheme != want {
			continue
		}
		if ok, _ := path.Match(canonicalHost(want, pt.host), host); ok {
			return true
		}
	}
	return false
}

// canonicalHost lowercases host and drops the scheme's default port.
func canonicalHost(scheme, host string) string {
	host = strings.ToLower(host)
	if h, port, err := net.SplitHostPort(host); err == nil {
		if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
			if strings.Contains(h, ":") {
				return "[" + h + "]"
			}
			return h
		}
	}
	return host
}

// Protect refuses state-changing requests (anything but GET, HEAD and
// OPTIONS) made by browser pages of other origins, with 403: a request the
// browser marks same-origin (Sec-Fetch-Site) passes, one it marks
// cross-site passes only with an allowed Origin, and without
// Sec-Fetch-Site the Origin, when sent, must be allowed. Requests with
// neither header (bots, curl) pass. refuse writes the answer.
func (p *Policy) Protect(refuse func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := p.Check(r); err != nil {
				refuse(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Check is Protect's test of one request: nil when it may go ahead, else a
// fray EFORBIDDEN error saying why.
func (p *Policy) Check(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	origin := r.Header.Get("Origin")
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return nil
	case "":
		if origin == "" {
			return nil // not a browser, or one that sends neither
		}
	}
	if origin != "" && p.Allowed(r, origin) {
		return nil
	}
	return fray.Errorf(fray.EFORBIDDEN, "cross-origin request refused: %.100q is not this site's origin (%s://%s) nor an allowed one",
		origin, p.Scheme(r), r.Host)
}
