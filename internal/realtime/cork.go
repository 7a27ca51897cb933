package realtime

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"
)

// corkConn is the connection under a websocket session. The session's
// writer corks it while it writes every frame queued for its client, then
// uncorks it: frames queued together — an update and the ack that follows
// it, or updates that piled up while the client was being served — leave
// in one write, one system call and one pass through the TCP stack, instead
// of one each.
type corkConn struct {
	net.Conn
	timeout time.Duration // bounds every write to the network

	mu       sync.Mutex
	corked   bool
	held     []byte
	deadline time.Time // the write deadline set on Conn
}

// Write sends p now, or holds it until uncork while corked.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		c.held = append(c.held, p...)
		return len(p), nil
	}
	c.bound()
	return c.Conn.Write(p)
}

// bound makes sure the next write gives up within timeout, and at the
// earliest after half of it: the deadline is moved only when less than half
// is left, not for every write (setting one costs a runtime timer update).
func (c *corkConn) bound() {
	if now := time.Now(); c.deadline.Sub(now) < c.timeout/2 {
		c.deadline = now.Add(c.timeout)
		_ = c.Conn.SetWriteDeadline(c.deadline)
	}
}

func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// uncork sends what was held back, in one write.
func (c *corkConn) uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if len(c.held) == 0 {
		return nil
	}
	c.bound()
	_, err := c.Conn.Write(c.held)
	if cap(c.held) > 64<<10 {
		c.held = nil // a burst: do not keep its buffer for the session's life
	} else {
		c.held = c.held[:0]
	}
	return err
}

// corkingWriter hands the websocket library a corkConn, with a write
// buffer large enough for a projection, when it hijacks the connection.
type corkingWriter struct {
	http.ResponseWriter
	timeout time.Duration
	conn    *corkConn
}

// Hijack implements http.Hijacker.
func (w *corkingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil { // what the server still held of the handshake
		nc.Close()
		return nil, nil, err
	}
	w.conn = &corkConn{Conn: nc, timeout: w.timeout}
	return w.conn, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(w.conn, 16<<10)), nil
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *corkingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
