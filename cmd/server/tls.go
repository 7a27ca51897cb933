package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// HTTPS of its own (see README, Hosting for your group): with -tls-domain
// the server obtains a certificate for that name over ACME (Let's Encrypt
// unless -acme-directory names another CA), answering the CA's HTTP-01
// challenge on -http-addr, keeps it in the data directory and renews it
// before it runs out; with -tls-cert and -tls-key it serves the
// operator's certificate, read again whenever the files change. Either
// way every response says HSTS, session cookies are Secure, links in
// notices use https, and -http-addr (when set) sends plain-HTTP visitors
// to the HTTPS address.

// tlsSetup is what serving HTTPS needs: the listener's TLS configuration
// and the plain-HTTP handler (redirects, and the ACME challenge).
type tlsSetup struct {
	config *tls.Config
	http   http.Handler
	// port is the HTTPS listener's port once it listens, for redirects.
	port atomic.Value
}

// hsts is the Strict-Transport-Security every HTTPS response carries: two
// years, the value browsers' preload lists ask for (without preload,
// which only the operator can decide).
const hsts = "max-age=63072000"

// withHSTS adds the Strict-Transport-Security header to every response.
func withHSTS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Strict-Transport-Security", hsts)
		next.ServeHTTP(w, r)
	})
}

// newTLS returns the TLS setup of cfg, nil when it serves plain HTTP.
func newTLS(cfg config, log *slog.Logger) (*tlsSetup, error) {
	switch {
	case cfg.TLSDomain != "":
		return acmeTLS(cfg, log)
	case cfg.TLSCert != "":
		return fileTLS(cfg)
	}
	return nil, nil
}

func acmeTLS(cfg config, log *slog.Logger) (*tlsSetup, error) {
	cache := filepath.Join(cfg.DataDir, "acme")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return nil, fmt.Errorf("-tls-domain: the certificate's directory: %w", err)
	}
	client := &acme.Client{DirectoryURL: cfg.ACMEDirectory}
	if cfg.ACMERoots != nil {
		client.HTTPClient = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: cfg.ACMERoots}}, Timeout: time.Minute}
	}
	m := &autocert.Manager{
		Prompt:      autocert.AcceptTOS,
		Cache:       autocert.DirCache(cache),
		HostPolicy:  autocert.HostWhitelist(cfg.TLSDomain),
		Email:       cfg.ACMEEmail,
		RenewBefore: cfg.ACMERenewBefore,
		Client:      client,
	}
	log.Info("HTTPS: the certificate comes over ACME", "domain", cfg.TLSDomain, "directory", client.DirectoryURL, "kept_in", cache)
	tc := m.TLSConfig()
	tc.MinVersion = tls.VersionTLS12
	ts := &tlsSetup{config: tc}
	challenges := m.HTTPHandler(redirectHTTPS(cfg, ts))
	ts.http = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The host policy compares names: a validator that names a port
		// (only off port 80, as in tests) asks for the same name.
		if h, _, err := net.SplitHostPort(r.Host); err == nil {
			r = r.Clone(r.Context())
			r.Host = h
		}
		challenges.ServeHTTP(w, r)
	})
	return ts, nil
}

func fileTLS(cfg config) (*tlsSetup, error) {
	kp := &keyPair{cert: cfg.TLSCert, key: cfg.TLSKey}
	if _, err := kp.get(nil); err != nil {
		return nil, err
	}
	ts := &tlsSetup{config: &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: kp.get, NextProtos: []string{"http/1.1"}}}
	if cfg.HTTPAddr != "" {
		ts.http = redirectHTTPS(cfg, ts)
	}
	return ts, nil
}

// keyPair is the operator's certificate, read from its files and read
// again when either changes (a renewal by another tool).
type keyPair struct {
	cert, key string
	mu        sync.Mutex
	loaded    *tls.Certificate
	stamp     string // the files' sizes and times when loaded
	checked   time.Time
}

func (k *keyPair) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.loaded != nil && time.Since(k.checked) < 10*time.Second {
		return k.loaded, nil
	}
	k.checked = time.Now()
	stamp := ""
	for _, f := range []string{k.cert, k.key} {
		st, err := os.Stat(f)
		if err != nil {
			if k.loaded != nil {
				return k.loaded, nil
			}
			return nil, fmt.Errorf("-tls-cert/-tls-key: %w", err)
		}
		stamp += st.ModTime().String() + strconv.FormatInt(st.Size(), 10)
	}
	if stamp == k.stamp {
		return k.loaded, nil
	}
	c, err := tls.LoadX509KeyPair(k.cert, k.key)
	if err != nil {
		if k.loaded != nil {
			return k.loaded, nil // half-written by a renewal: keep the last good one
		}
		return nil, fmt.Errorf("-tls-cert/-tls-key: %w", err)
	}
	k.loaded, k.stamp = &c, stamp
	return k.loaded, nil
}

// redirectHTTPS sends a plain-HTTP request to the same path over HTTPS on
// the server's HTTPS port.
func redirectHTTPS(cfg config, ts *tlsSetup) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		port, _ := ts.port.Load().(string)
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if cfg.TLSDomain != "" {
			host = cfg.TLSDomain // never a Host header's choice
		}
		if host == "" || strings.ContainsAny(host, "/\\@") {
			http.Error(w, "use https", http.StatusBadRequest)
			return
		}
		target := "https://" + host
		if port != "" && port != "443" {
			target = "https://" + net.JoinHostPort(host, port)
		}
		code := http.StatusMovedPermanently
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			code = http.StatusPermanentRedirect
		}
		http.Redirect(w, r, target+r.URL.RequestURI(), code)
	})
}

// serveHTTPRedirects serves the plain-HTTP side on cfg.HTTPAddr until the
// returned func stops it.
func serveHTTPRedirects(cfg config, h http.Handler, listening func(addr string)) (func(), error) {
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("-http-addr: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	listening(ln.Addr().String())
	return func() {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(c)
	}, nil
}

// readRoots reads PEM certificates to trust (FRAY_ACME_CA).
func readRoots(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("no PEM certificate in it")
	}
	return pool, nil
}
