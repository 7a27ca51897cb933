package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// errNotLoopback is returned for any target outside the loopback interface:
// the load generator must never put load on another machine.
var errNotLoopback = errors.New("loadgen only drives a server on this machine's loopback interface (127.0.0.0/8, ::1 or localhost)")

// parseTarget checks the server URL: http or https, on a loopback host, no
// path beyond "/". It returns the URL reduced to scheme and host.
func parseTarget(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("bad -url %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("bad -url %q: the scheme must be http or https", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("bad -url %q: no host", raw)
	}
	if p := strings.TrimSuffix(u.Path, "/"); p != "" {
		return nil, fmt.Errorf("bad -url %q: give the server's root, without a path", raw)
	}
	if err := checkLoopbackHost(u.Hostname()); err != nil {
		return nil, fmt.Errorf("refusing -url %q: %w", raw, err)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}

// checkLoopbackHost accepts a literal loopback address, or "localhost" when
// every address it resolves to is a loopback address.
func checkLoopbackHost(host string) error {
	if ip := net.ParseIP(host); ip != nil {
		if !ip.IsLoopback() {
			return fmt.Errorf("%s is not a loopback address; %w", host, errNotLoopback)
		}
		return nil
	}
	if !strings.EqualFold(host, "localhost") {
		return fmt.Errorf("host %q is not a loopback address; %w", host, errNotLoopback)
	}
	ips, err := net.LookupIP(host)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", host, err)
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return fmt.Errorf("%s resolves to %s, which is not a loopback address; %w", host, ip, errNotLoopback)
		}
	}
	return nil
}

// loopbackOnly is a dialer Control hook: a second line of defence that
// refuses any connection whose remote address is not a loopback address.
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("dial %s: %w", address, errNotLoopback)
	}
	return nil
}

// newHTTPClient returns a client that only connects to loopback addresses,
// keeps enough idle connections for concurrent setup, and never follows
// redirects (a redirect could point elsewhere). It sets no Timeout: every
// request carries a context deadline instead (websocket.Dial rejects
// clients with a Timeout).
func newHTTPClient() *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: loopbackOnly}
	tr := &http.Transport{
		Proxy:               nil, // never through a proxy
		DialContext:         dialer.DialContext,
		MaxIdleConns:        64,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     30 * time.Second,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// closeIdle releases the client's idle keep-alive connections.
func closeIdle(c *http.Client) {
	if tr, ok := c.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
}

// wsURL turns the server's base URL and a path into a ws:// or wss:// URL.
func wsURL(base *url.URL, path string, query url.Values) string {
	u := *base
	if u.Scheme == "https" {
		u.Scheme = "wss"
	} else {
		u.Scheme = "ws"
	}
	u.Path = path
	u.RawQuery = query.Encode()
	return u.String()
}
