package notify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
)

// Guard keeps the server from being made to send requests into its own
// network (server-side request forgery): a webhook or push target whose
// host is, or resolves to, a loopback, private, link-local, multicast,
// unspecified or otherwise special address is refused — when it is set
// (CheckURL) and again at every connection (Client), where the address
// actually dialled is checked, so a name that resolves elsewhere later
// (DNS rebinding) gains nothing. The operator may allow such targets
// (-notify-allow-private), for a server and its receivers on one network.
type Guard struct {
	AllowPrivate bool
}

// special are the address ranges no target may be in: every entry of
// IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and
// its updates) — the globally reachable ones too (anycast services such
// as AS112 or PCP are nobody's webhook) — and the other blocks IANA
// keeps out of ordinary unicast: multicast, reserved, broadcast. In
// IPv6, only global unicast (2000::/3) is outside them to begin with:
// everything else — ::/96 (IPv4-compatible), ::ffff:0:0/96
// (IPv4-mapped), 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64, which reach IPv4
// addresses, private ones included), 100::/64 (discard), unique-local,
// link-local, site-local and multicast — is refused whole, whatever the
// IPv4 address it may carry.
var special = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		// IPv4 Special-Purpose Address Registry
		"0.0.0.0/8",          // "this network"
		"10.0.0.0/8",         // private
		"100.64.0.0/10",      // shared address space (carrier-grade NAT)
		"127.0.0.0/8",        // loopback
		"169.254.0.0/16",     // link-local
		"172.16.0.0/12",      // private
		"192.0.0.0/24",       // IETF protocol assignments (DS-Lite, PCP and TURN anycast, NAT64 discovery)
		"192.0.2.0/24",       // documentation (TEST-NET-1)
		"192.31.196.0/24",    // AS112-v4
		"192.52.193.0/24",    // AMT
		"192.88.99.0/24",     // deprecated 6to4 relay anycast
		"192.168.0.0/16",     // private
		"192.175.48.0/24",    // direct delegation AS112 service
		"198.18.0.0/15",      // benchmarking
		"198.51.100.0/24",    // documentation (TEST-NET-2)
		"203.0.113.0/24",     // documentation (TEST-NET-3)
		"224.0.0.0/4",        // multicast
		"240.0.0.0/4",        // reserved
		"255.255.255.255/32", // limited broadcast
		// IPv6: all but global unicast, then the registry's entries in it
		"::/3",              // ::/128, ::1/128, ::/96, ::ffff:0:0/96, 64:ff9b::/96, 64:ff9b:1::/48, 100::/64, 100:0:0:1::/64 …
		"4000::/2",          // 5f00::/16 (SRv6 SIDs), unallocated
		"8000::/1",          // fc00::/7 unique-local, fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast, unallocated
		"2001::/23",         // IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT, AS112 …
		"2001:db8::/32",     // documentation
		"2002::/16",         // 6to4 (wraps an IPv4 address)
		"2620:4f:8000::/48", // direct delegation AS112 service
		"3fff::/20",         // documentation
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// Refused reports whether ip may not be a target without AllowPrivate: an
// invalid address or one in a special range (special), in whatever
// spelling it came — an IPv4-mapped or IPv4-compatible IPv6 address is
// refused as such, never read as the IPv4 address inside it.
func Refused(ip netip.Addr) bool {
	if !ip.IsValid() {
		return true
	}
	ip = ip.WithZone("")
	for _, p := range special {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// legacyIPv4 reads host as the IPv4 spellings inet_aton accepts and
// netip does not: one to four parts, each decimal, octal (a leading 0) or
// hexadecimal (0x), the last filling the bytes left — 2130706433,
// 0x7f.1, 017700000001, 127.1, 127.000.000.001. A resolver that hands the
// name to the C library reads them as addresses.
func legacyIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		base, digits := 10, p
		switch {
		case len(p) > 2 && (p[:2] == "0x" || p[:2] == "0X"):
			base, digits = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if p == "" || err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(32-8*(len(vals)-1)) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// errPrivate is the error of a refused address.
func errPrivate(what string) error {
	return fray.Errorf(fray.EINVALID, "%s is on a loopback, private or otherwise special network address, which this server does not send to (the operator may allow it with -notify-allow-private)", what)
}

// MaxURLLen is the longest target URL accepted.
const MaxURLLen = 2000

// CheckURL checks a target URL given by a user: absolute http or https,
// a host, no user name or password, and — unless AllowPrivate — a host
// that is not, and does not resolve to, a refused address. Errors are
// EINVALID with a message for the user.
func (g Guard) CheckURL(ctx context.Context, what, raw string) (*url.URL, error) {
	if raw == "" || len(raw) > MaxURLLen {
		return nil, fray.Errorf(fray.EINVALID, "%s must be a URL of at most %d characters", what, MaxURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Opaque != "" {
		return nil, fray.Errorf(fray.EINVALID, "%s must be an absolute http:// or https:// URL", what)
	}
	if u.User != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s must not carry a user name or password", what)
	}
	if strings.ContainsAny(raw, " \t\r\n") {
		return nil, fray.Errorf(fray.EINVALID, "%s must not contain spaces", what)
	}
	if g.AllowPrivate {
		return u, nil
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		if Refused(ip) {
			return nil, errPrivate(what)
		}
		return u, nil
	}
	if ip, ok := legacyIPv4(host); ok {
		if Refused(ip) {
			return nil, errPrivate(what)
		}
		return nil, fray.Errorf(fray.EINVALID, "%s: write an IPv4 address as four decimal numbers (a.b.c.d)", what)
	}
	if h := strings.ToLower(host); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return nil, errPrivate(what)
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
	if err != nil || len(ips) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "%s: the host %q could not be found", what, host)
	}
	for _, ip := range ips {
		if Refused(ip) {
			return nil, errPrivate(what)
		}
	}
	return u, nil
}

// ErrRefusedAddress is wrapped by the error of a connection the guard
// refused to make.
var ErrRefusedAddress = errors.New("refused address")

// control refuses, at dial time, a connection to a refused address: the
// address checked is the one being connected to, after resolution.
func (g Guard) control(network, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrRefusedAddress, address)
	}
	if Refused(ap.Addr()) {
		return fmt.Errorf("%w: %s is not a public address", ErrRefusedAddress, ap.Addr())
	}
	return nil
}

// Client returns an HTTP client that dials only what the guard allows,
// ignores proxy settings (a proxy would be dialled instead of the target),
// follows no redirects (a target could redirect anywhere), and gives up
// after timeout.
func (g Guard) Client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.control}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          20,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
