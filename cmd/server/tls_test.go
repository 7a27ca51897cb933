package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/letsencrypt/pebble/v2/ca"
	pebbledb "github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// acmeServer is Let's Encrypt's test CA, Pebble, run in the test process:
// its ACME API over HTTPS (a test certificate, trusted through caFile),
// its validation authority checking HTTP-01 challenges on httpPort of
// whatever address its DNS server (also here) gives: always 127.0.0.1.
// Nothing reaches beyond this machine. Its certificates last 90 seconds:
// a server renews one a third before it ends (after a minute), or
// FRAY_ACME_RENEW_BEFORE before.
type acmeServer struct {
	directory string
	caFile    string         // the ACME API's certificate, for FRAY_ACME_CA
	roots     *x509.CertPool // the CA's root, which issued certificates chain to
}

func newACMEServer(t *testing.T, httpPort string) *acmeServer {
	t.Helper()
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")
	// A DNS server that says every name is 127.0.0.1 (over TCP, as
	// Pebble's resolver asks).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dnsSrv := &dns.Server{Listener: ln, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		for _, q := range r.Question {
			if q.Qtype == dns.TypeA {
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}, A: net.IPv4(127, 0, 0, 1)})
			}
		}
		_ = w.WriteMsg(m)
	})}
	go func() { _ = dnsSrv.ActivateAndServe() }()
	t.Cleanup(func() { _ = dnsSrv.Shutdown() })

	logger := log.New(io.Discard, "", 0)
	port, err := strconv.Atoi(httpPort)
	if err != nil {
		t.Fatal(err)
	}
	store := pebbledb.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {Description: "test", ValidityPeriod: 90}})
	validator := va.New(logger, port, 0, false, ln.Addr().String(), store)
	front := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	api := httptest.NewTLSServer(front.Handler())
	t.Cleanup(api.Close)

	a := &acmeServer{directory: api.URL + wfe.DirectoryPath, caFile: filepath.Join(t.TempDir(), "acme-api.pem"), roots: x509.NewCertPool()}
	if err := os.WriteFile(a.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: api.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	a.roots.AddCert(authority.GetRootCert(0).Cert)
	return a
}

// httpsClient reaches the server at addr as https://name, trusting roots.
func httpsClient(addr, name string, roots *x509.CertPool) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: name},
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// serial is the serial number of the certificate the server at addr shows
// for name, verified against roots.
func serial(t *testing.T, addr, name string, roots *x509.CertPool) string {
	t.Helper()
	d := &net.Dialer{Deadline: patience.Deadline()}
	c, err := tls.DialWithDialer(d, "tcp", addr, &tls.Config{RootCAs: roots, ServerName: name})
	if err != nil {
		t.Fatalf("TLS handshake with %s as %s: %v", addr, name, err)
	}
	defer c.Close()
	return c.ConnectionState().PeerCertificates[0].SerialNumber.String()
}

// -tls-domain: the server obtains a certificate for its name from an ACME
// CA (Pebble, here), answering the HTTP-01 challenge on its plain-HTTP
// address; serves HTTPS with it, with HSTS and Secure cookies; sends
// plain-HTTP visitors to HTTPS; keeps the certificate in its data
// directory, so a restart shows the same one; and renews it when it is
// due (FRAY_ACME_RENEW_BEFORE=85s makes a 90-second certificate due a few
// seconds after it was issued).
func TestHTTPSWithACME(t *testing.T) {
	const name = "fray.test"
	httpAddr, httpsAddr := freeAddr(t), freeAddr(t)
	_, httpPort, _ := net.SplitHostPort(httpAddr)
	_, httpsPort, _ := net.SplitHostPort(httpsAddr)
	acme := newACMEServer(t, httpPort)
	dataDir := t.TempDir()
	dbURL := testdb.URL(t)
	env := map[string]string{"FRAY_ADDR": httpsAddr, "FRAY_HTTP_ADDR": httpAddr, "FRAY_TLS_DOMAIN": name,
		"FRAY_ACME_DIRECTORY": acme.directory, "FRAY_ACME_CA": acme.caFile, "FRAY_DATA_DIR": dataDir}
	srv := startServerEnv(t, dbURL, env)
	if !strings.HasPrefix(srv.URL, "https://") {
		t.Fatalf("listening on %s", srv.URL)
	}

	first := serial(t, httpsAddr, name, acme.roots)
	client := httpsClient(httpsAddr, name, acme.roots)
	resp, err := client.Get("https://" + name + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("healthz over HTTPS: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
	// Log-in cookies are Secure.
	req, _ := http.NewRequest("POST", "https://"+name+"/api/signup", strings.NewReader(`{"name":"keeper","password":"`+testPassword+`"}`))
	if resp, err := client.Do(req); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign up over HTTPS: %v %v", err, resp)
	}
	resp, err = client.PostForm("https://"+name+"/login", url.Values{"name": {"keeper"}, "password": {testPassword}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cs := resp.Cookies(); resp.StatusCode != http.StatusSeeOther || len(cs) == 0 || !cs[0].Secure {
		t.Errorf("log-in over HTTPS: %d, cookies %v", resp.StatusCode, cs)
	}
	// Plain HTTP goes to HTTPS, path and all.
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ = http.NewRequest("GET", "http://"+httpAddr+"/campaigns/x?y=1", nil)
	req.Host = name
	resp, err = plain.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "https://" + name + ":" + httpsPort + "/campaigns/x?y=1"; resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
		t.Errorf("plain HTTP: %d to %q, want 301 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	if out, err := runCmd(t, env, "healthcheck"); err != nil {
		t.Errorf("healthcheck over HTTPS: %v %s", err, out)
	}
	if cached, _ := filepath.Glob(filepath.Join(dataDir, "acme", name+"*")); len(cached) == 0 {
		t.Errorf("no certificate for %s kept in the data directory", name)
	}
	srv.stop()

	// Restarted, it shows the kept certificate; made due for renewal, it
	// gets a new one from the CA.
	env["FRAY_ACME_RENEW_BEFORE"] = "85s"
	startServerEnv(t, dbURL, env)
	if again := serial(t, httpsAddr, name, acme.roots); again != first {
		t.Errorf("after a restart the server shows certificate %s, not the kept %s", again, first)
	}
	patience.Until(t, "a renewed certificate", func() bool { return serial(t, httpsAddr, name, acme.roots) != first })
}

// testCertificate makes a self-signed certificate for 127.0.0.1 and
// writes it and its key as PEM files.
func testCertificate(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(42), Subject: pkix.Name{CommonName: "fray test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// -tls-cert/-tls-key: the server serves the operator's certificate, with
// HSTS, and -http-addr sends plain HTTP there; mixing the two ways, or a
// certificate without its key, is refused.
func TestHTTPSWithOperatorCertificate(t *testing.T) {
	certFile, keyFile, pool := testCertificate(t)
	httpAddr := freeAddr(t)
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_TLS_CERT": certFile, "FRAY_TLS_KEY": keyFile, "FRAY_HTTP_ADDR": httpAddr})
	addr := strings.TrimPrefix(srv.URL, "https://")
	if serial(t, addr, "127.0.0.1", pool) != "42" {
		t.Error("not the operator's certificate")
	}
	resp, err := httpsClient(addr, "127.0.0.1", pool).Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("healthz: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = plain.Get("http://" + httpAddr + "/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != srv.URL+"/login" {
		t.Errorf("plain HTTP: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if out, err := runCmd(t, map[string]string{"FRAY_TLS_CERT": certFile, "FRAY_TLS_KEY": keyFile, "FRAY_ADDR": addr}, "healthcheck"); err != nil {
		t.Errorf("healthcheck over HTTPS: %v %s", err, out)
	}
	for _, bad := range []map[string]string{
		{"FRAY_TLS_CERT": certFile},
		{"FRAY_TLS_DOMAIN": "fray.example.com", "FRAY_TLS_CERT": certFile, "FRAY_TLS_KEY": keyFile},
		{"FRAY_TLS_DOMAIN": "https://fray.example.com"},
		{"FRAY_TLS_DOMAIN": "localhost"},
		{"FRAY_HTTP_ADDR": ":8081"},
		{"FRAY_TLS_DOMAIN": "fray.example.com", "FRAY_ACME_DIRECTORY": "http://insecure.example/dir"},
	} {
		if _, _, err := parseConfig("serve", nil, func(k string) string { return bad[k] }, io.Discard); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	// The defaults: HTTPS on 443 and the challenge on 80, links to the name.
	cfg, _, err := parseConfig("serve", []string{"-tls-domain", "Fray.Example.com"}, func(string) string { return "" }, io.Discard)
	if err != nil || cfg.Addr != ":443" || cfg.HTTPAddr != ":80" || cfg.PublicURL != "https://fray.example.com" || !cfg.SecureCookies {
		t.Errorf("defaults with -tls-domain: %+v %v", cfg, err)
	}
	cfg, _, _ = parseConfig("serve", nil, func(string) string { return "" }, io.Discard)
	if cfg.Addr != "127.0.0.1:8080" || cfg.TLS() || cfg.HTTPAddr != "" {
		t.Errorf("without TLS the default must stay plain HTTP on 127.0.0.1:8080: %+v", cfg)
	}
}
