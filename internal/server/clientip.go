package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the reverse proxies whose X-Forwarded-For header Fray
// believes when it needs a client's address (to rate-limit log-ins and
// sign-ups). Without any, the peer address is the client's: a header any
// client can write is never trusted by default.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads a comma-separated list of IP addresses and CIDR
// networks, e.g. "127.0.0.1, 10.0.0.0/8, ::1".
func ParseTrustedProxies(list string) (TrustedProxies, error) {
	var out TrustedProxies
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is not an IP address or CIDR network", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (t TrustedProxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Forwarded reports whether r's peer is one of the trusted proxies, whose
// X-Forwarded-* headers may then be believed.
func (t TrustedProxies) Forwarded(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	return err == nil && t.trusts(peer)
}

// clientIP is the address a request comes from: the peer's, or, when the
// peer is a trusted proxy, the nearest address in X-Forwarded-For that is
// not one of the trusted proxies (proxies append to the header, so entries
// to the left of the last untrusted one may be forged by the client).
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || len(s.TrustedProxies) == 0 || !s.TrustedProxies.trusts(peer) {
		return host
	}
	client := peer
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		addrs := strings.Split(hops[i], ",")
		for j := len(addrs) - 1; j >= 0; j-- {
			a, err := netip.ParseAddr(strings.TrimSpace(addrs[j]))
			if err != nil {
				return client.Unmap().String() // garbage: stop at the last address we could trust
			}
			client = a
			if !s.TrustedProxies.trusts(a) {
				return a.Unmap().String()
			}
		}
	}
	return client.Unmap().String()
}
