package testdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Proxy is a TCP proxy between the code under test and a real PostgreSQL
// server that breaks connections the way networks and restarts do: it can
// cut the connection that commits next — after PostgreSQL committed, so
// that the answer is lost, or before — and it can take the database away
// altogether. It reads PostgreSQL's wire protocol only to find COMMIT.
type Proxy struct {
	t      testing.TB
	ln     net.Listener
	target func() (net.Conn, error)
	url    string

	statements atomic.Int64 // statements sent to the server (Statements)

	mu    sync.Mutex
	down  bool
	cut   cutMode
	conns map[*proxyConn]struct{}
	cuts  chan struct{} // receives once per cut made
}

type cutMode int

const (
	cutNone cutMode = iota
	cutAfterCommit
	cutBeforeCommit
	cutAfterCommitThenDown
)

// NewProxy starts a proxy to the database at dbURL (as URL returns) and
// stops it when t ends. Connect through Proxy.URL.
func NewProxy(t testing.TB, dbURL string) *Proxy {
	t.Helper()
	cfg, err := pgconn.ParseConfig(dbURL)
	if err != nil {
		t.Fatalf("testdb: proxy: %v", err)
	}
	network, addr := "tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	if strings.HasPrefix(cfg.Host, "/") {
		network, addr = "unix", filepath.Join(cfg.Host, ".s.PGSQL."+strconv.Itoa(int(cfg.Port)))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testdb: proxy: %v", err)
	}
	p := &Proxy{t: t, ln: ln, conns: map[*proxyConn]struct{}{}, cuts: make(chan struct{}, 16),
		target: func() (net.Conn, error) { return net.DialTimeout(network, addr, 5*time.Second) }}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	kv := []string{"host=" + host, "port=" + port, "sslmode=disable", "dbname=" + quoteDSN(cfg.Database), "user=" + quoteDSN(cfg.User)}
	if cfg.Password != "" {
		kv = append(kv, "password="+quoteDSN(cfg.Password))
	}
	p.url = strings.Join(kv, " ")
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func quoteDSN(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// URL is the proxied database's connection string.
func (p *Proxy) URL() string { return p.url }

// CutAfterCommit makes the next COMMIT reach PostgreSQL and be carried out,
// then cuts that connection before the client reads the answer: the client
// cannot tell whether its transaction committed.
func (p *Proxy) CutAfterCommit() { p.arm(cutAfterCommit) }

// CutAfterCommitThenDown is CutAfterCommit, and the database then stays
// away (as SetDown(true)) until SetDown(false).
func (p *Proxy) CutAfterCommitThenDown() { p.arm(cutAfterCommitThenDown) }

// CutBeforeCommit cuts the connection that sends the next COMMIT before it
// reaches PostgreSQL, which rolls the transaction back.
func (p *Proxy) CutBeforeCommit() { p.arm(cutBeforeCommit) }

// Cut waits until an armed cut happened.
func (p *Proxy) Cut(timeout time.Duration) bool {
	select {
	case <-p.cuts:
		return true
	case <-time.After(timeout):
		return false
	}
}

func (p *Proxy) arm(m cutMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = m
}

// SetDown takes the database away (open connections are cut, new ones
// refused) or brings it back.
func (p *Proxy) SetDown(down bool) {
	p.mu.Lock()
	p.down = down
	var open []*proxyConn
	if down {
		for c := range p.conns {
			open = append(open, c)
		}
	}
	p.mu.Unlock()
	for _, c := range open {
		c.close()
	}
}

func (p *Proxy) close() {
	p.ln.Close()
	p.SetDown(true)
}

func (p *Proxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			client.Close()
			continue
		}
		server, err := p.target()
		if err != nil {
			client.Close()
			continue
		}
		c := &proxyConn{p: p, client: client, server: server, committed: make(chan struct{}, 1)}
		p.mu.Lock()
		p.conns[c] = struct{}{}
		p.mu.Unlock()
		go c.clientToServer()
		go c.serverToClient()
	}
}

// proxyConn is one proxied connection.
type proxyConn struct {
	p              *Proxy
	client, server net.Conn
	once           sync.Once
	mu             sync.Mutex
	swallow        bool          // drop what the server says from now on
	committed      chan struct{} // the server finished the swallowed COMMIT
}

func (c *proxyConn) close() {
	c.once.Do(func() {
		c.client.Close()
		c.server.Close()
		c.p.mu.Lock()
		delete(c.p.conns, c)
		c.p.mu.Unlock()
	})
}

// clientToServer forwards the client's messages, watching for COMMIT.
func (c *proxyConn) clientToServer() {
	defer c.close()
	// The startup packet has no type byte; an SSL or GSS request is answered
	// by one byte and followed by the real startup packet.
	for {
		msg, err := readUntyped(c.client)
		if err != nil {
			return
		}
		if _, err := c.server.Write(msg); err != nil {
			return
		}
		code := binary.BigEndian.Uint32(msg[4:8])
		if code != 80877103 && code != 80877104 {
			break
		}
	}
	// A COMMIT comes as a simple query, or (pipelined with the statements
	// before it) as an Execute of a portal bound to a statement parsed
	// from "COMMIT": the statements and portals that are COMMITs are kept.
	commits, portals := map[string]bool{}, map[string]bool{}
	after := cutNone // a COMMIT was sent: cut once the server has answered
	for {
		msg, err := readTyped(c.client)
		if err != nil {
			return
		}
		if isStatement(msg) {
			c.p.statements.Add(1)
		}
		commit := false
		switch msg[0] {
		case 'Q':
			commit = isCommit(msg[5:])
		case 'P': // Parse: statement name, query
			name, rest := cstring(msg[5:])
			query, _ := cstring(rest)
			commits[name] = isCommit([]byte(query))
		case 'B': // Bind: portal name, statement name
			portal, rest := cstring(msg[5:])
			stmt, _ := cstring(rest)
			portals[portal] = commits[stmt]
		case 'E': // Execute: portal name
			portal, _ := cstring(msg[5:])
			commit = portals[portal]
		}
		if commit && after == cutNone {
			c.p.mu.Lock()
			mode := c.p.cut
			c.p.cut = cutNone
			if mode == cutAfterCommitThenDown {
				c.p.down = true
			}
			c.p.mu.Unlock()
			switch mode {
			case cutBeforeCommit:
				c.p.cuts <- struct{}{}
				return
			case cutAfterCommit, cutAfterCommitThenDown:
				// Nothing the server says from now on reaches the client
				// (it answers a pipeline's statements only at its Sync).
				c.mu.Lock()
				c.swallow = true
				c.mu.Unlock()
				after = mode
			}
		}
		if _, err := c.server.Write(msg); err != nil {
			return
		}
		if after != cutNone && (msg[0] == 'Q' || msg[0] == 'S') {
			select {
			case <-c.committed:
			case <-time.After(10 * time.Second):
			}
			if after == cutAfterCommitThenDown {
				c.p.SetDown(true)
			}
			c.p.cuts <- struct{}{}
			return
		}
	}
}

// isCommit reports whether a query's text (NUL-terminated or not) is COMMIT.
func isCommit(query []byte) bool {
	return bytes.EqualFold(bytes.TrimRight(bytes.TrimSpace(bytes.TrimRight(query, "\x00")), ";"), []byte("commit"))
}

// cstring splits a NUL-terminated string off the front of b.
func cstring(b []byte) (string, []byte) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return string(b), nil
	}
	return string(b[:i]), b[i+1:]
}

// Statements is how many statements the code under test has sent through
// the proxy so far: simple queries and executions of prepared statements,
// not counting the pings a pool makes before reusing an idle connection.
// The difference before and after a call is the number of statements the
// call ran.
func (p *Proxy) Statements() int64 { return p.statements.Load() }

// isStatement reports whether a client message runs a statement: a simple
// Query other than a ping, or an Execute.
func isStatement(msg []byte) bool {
	switch msg[0] {
	case 'E':
		return true
	case 'Q':
		return !bytes.HasPrefix(msg[5:], []byte("-- ping"))
	}
	return false
}

// serverToClient forwards the server's messages, or swallows them after an
// armed COMMIT until the server is ready for the next query.
func (c *proxyConn) serverToClient() {
	defer c.close()
	// The one-byte answer to an SSL or GSS request comes unframed; pgx with
	// sslmode=disable sends none, so everything here is framed.
	for {
		msg, err := readTyped(c.server)
		if err != nil {
			return
		}
		c.mu.Lock()
		swallow := c.swallow
		c.mu.Unlock()
		if swallow {
			if msg[0] == 'Z' {
				select {
				case c.committed <- struct{}{}:
				default:
				}
			}
			continue
		}
		if _, err := c.client.Write(msg); err != nil {
			return
		}
	}
}

func readUntyped(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n < 8 || n > 1<<20 {
		return nil, fmt.Errorf("startup packet of %d bytes", n)
	}
	msg := make([]byte, n)
	copy(msg, hdr[:])
	_, err := io.ReadFull(r, msg[4:])
	return msg, err
}

func readTyped(r io.Reader) ([]byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if n < 4 || n > 1<<30 {
		return nil, fmt.Errorf("message %q of %d bytes", hdr[0], n)
	}
	msg := make([]byte, 1+n)
	copy(msg, hdr[:])
	_, err := io.ReadFull(r, msg[5:])
	return msg, err
}
