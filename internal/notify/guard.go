package notify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
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

// special are the address ranges no target may be in (besides those
// netip.Addr's own predicates name): "this network", shared address space
// (carrier-grade NAT), IETF protocol assignments, documentation, benchmark
// testing, reserved and broadcast; IPv6 discard-only, documentation,
// NAT64 and 6to4 (which may wrap a private IPv4 address) and Teredo.
var special = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
		"100::/64", "2001:db8::/32", "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001::/32",
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// Refused reports whether ip may not be a target without AllowPrivate.
func Refused(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return true
	}
	for _, p := range special {
		if p.Contains(ip) {
			return true
		}
	}
	return false
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
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if Refused(ip) {
			return nil, errPrivate(what)
		}
		return u, nil
	}
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
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
