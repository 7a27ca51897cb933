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
	held     *[]byte   // while corked: what waits for uncork (from heldBuffers)
	deadline time.Time // the write deadline set on Conn
}

// heldBuffers are the buffers corked writes collect in, lent to a session
// only while it writes: an idle socket holds none.
var heldBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 16<<10)
	return &b
}}

// Write sends p now, or holds it until uncork while corked.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		if c.held == nil {
			c.held = heldBuffers.Get().(*[]byte)
		}
		*c.held = append(*c.held, p...)
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
	held := c.held
	if held == nil {
		return nil
	}
	c.held = nil
	var err error
	if len(*held) > 0 {
		c.bound()
		_, err = c.Conn.Write(*held)
	}
	if cap(*held) <= 64<<10 { // a burst's buffer is not kept
		*held = (*held)[:0]
		heldBuffers.Put(held)
	}
	return err
}

// corkingWriter hands the websocket library a corkConn when it hijacks the
// connection, with a small write buffer: frames written corked collect in
// the corkConn (a pooled buffer, lent only while writing), so the library's
// buffer only needs to hold a control frame, and a larger one would be
// held by every idle socket.
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
	br := brw.Reader
	if br.Buffered() == 0 {
		// net/http's reader (4 KiB) goes with the request once the
		// handler returns (Hub.Serve does), unless it holds what the
		// client sent after its handshake.
		br = bufio.NewReaderSize(w.conn, readBufferSize)
	}
	return w.conn, bufio.NewReadWriter(br, bufio.NewWriterSize(w.conn, writeBufferSize)), nil
}

// writeBufferSize is the websocket library's write buffer, held by every
// idle socket: a frame's header and any control frame (at most 2 + 125
// bytes: pings and close frames are written uncorked) fit; a larger
// payload passes through.
const writeBufferSize = 128

// readBufferSize is the websocket library's read buffer, held by every
// idle socket: a command's frame fits in one read; a larger payload is
// read straight into the message.
const readBufferSize = 512

// Unwrap lets http.ResponseController reach the server's writer.
func (w *corkingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
