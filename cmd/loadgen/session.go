package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// encounter is one live encounter under load: its clients, the commands in
// flight and what was measured.
type encounter struct {
	index   int
	id      string
	pcs     []string
	clients []*client // clients[0] is the GM
	// whoseTurn asks the server whose turn it is (the GM's projection over
	// HTTP): a page client learns it from turn-started events alone, which
	// a phase where everyone declares at once does not send.
	whoseTurn func(context.Context) (string, error)
	// say sends the GM's words (POST …/say) with a command id, for -say.
	say func(ctx context.Context, cmdID, text string) error

	// Touched only by the GM loop (drive), read after it has returned.
	current                        string // whose turn the GM last saw
	sent, acked, errored, timeouts int    // commands sent in the measured window and their outcomes
	late, skipped                  int    // with -rate: commands sent after their slot, slots missed
	errs                           map[string]int
	ackLat                         []time.Duration // submit → ack at the GM
	loopErr                        error
	watchers                       int // spectators connected (-spectators), set between windows

	// Shared by the readers of every client.
	mu      sync.Mutex
	flights map[string]*flight // commands whose events not every client has had yet
	lat     []time.Duration    // submit → last client received the events
	specLat []time.Duration    // submit → last spectator received the events
	sentAt  []time.Time        // when each command in lat was sent, for -trace
}

// flight is a command waiting for its events to reach every client and
// every spectator.
type flight struct {
	sent     time.Time
	left     int  // clients still to receive it
	watchers int  // spectators still to receive it
	measured bool // sent inside the measured window
}

// delivered records that one client received the events of command id.
func (e *encounter) delivered(id string, at time.Time) {
	e.mu.Lock()
	if f := e.flights[id]; f != nil && f.left > 0 {
		f.left--
		if f.left == 0 {
			if f.watchers <= 0 {
				delete(e.flights, id)
			}
			if f.measured {
				e.lat = append(e.lat, at.Sub(f.sent))
				e.sentAt = append(e.sentAt, f.sent)
			}
		}
	}
	e.mu.Unlock()
}

// spectated records that one spectator received the events of command id.
func (e *encounter) spectated(id string, at time.Time) {
	e.mu.Lock()
	if f := e.flights[id]; f != nil && f.watchers > 0 {
		f.watchers--
		if f.watchers == 0 {
			if f.left <= 0 {
				delete(e.flights, id)
			}
			if f.measured {
				e.specLat = append(e.specLat, at.Sub(f.sent))
			}
		}
	}
	e.mu.Unlock()
}

// reset forgets what an earlier window measured.
func (e *encounter) reset() {
	e.sent, e.acked, e.errored, e.timeouts, e.late, e.skipped = 0, 0, 0, 0, 0, 0
	e.errs, e.ackLat, e.loopErr = map[string]int{}, nil, nil
	e.mu.Lock()
	e.flights, e.lat, e.specLat, e.sentAt = map[string]*flight{}, nil, nil, nil
	e.mu.Unlock()
}

// undelivered counts measured commands that have not reached every client.
func (e *encounter) undelivered() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, f := range e.flights {
		if f.measured {
			n++
		}
	}
	return n
}

// setupEncounter imports the example, starts it and finds its player characters.
func setupEncounter(ctx context.Context, a *api, campaign string, doc []byte, index int) (*encounter, error) {
	id, err := a.importEncounter(ctx, campaign, doc)
	if err != nil {
		return nil, err
	}
	if err := a.command(ctx, id, "loadgen-start", map[string]string{"kind": "start"}); err != nil {
		return nil, fmt.Errorf("start encounter %s: %w", id, err)
	}
	v, err := a.view(ctx, id)
	if err != nil {
		return nil, err
	}
	e := &encounter{index: index, id: id, current: v.Current, errs: map[string]int{}, flights: map[string]*flight{}}
	e.whoseTurn = func(ctx context.Context) (string, error) {
		v, err := a.view(ctx, id)
		return v.Current, err
	}
	e.say = func(ctx context.Context, cmdID, text string) error { return a.say(ctx, id, cmdID, text) }
	for _, c := range v.Combatants {
		if c.PC {
			e.pcs = append(e.pcs, c.ID)
		}
	}
	return e, nil
}

// viewerFor returns who client i connects as: 0 is the GM, the others cycle
// through the player characters (or are GMs too when there are none). The
// load generator's account is the campaign's GM, so it connects players as
// a GM previewing that character (?as=ID): the server gives such a client
// exactly the player's viewer, projection and frames.
func (e *encounter) viewerFor(i int) string {
	if i == 0 || len(e.pcs) == 0 {
		return "gm"
	}
	return e.pcs[(i-1)%len(e.pcs)]
}

// reply is an ack or error for the GM loop.
type reply struct {
	ack     bool
	id      string
	code    string
	message string
	current string // the GM view's current turn as of this reply
	at      time.Time
}

// client is one websocket connection of an encounter.
type client struct {
	enc     *encounter
	as      string
	gm      bool
	conn    *websocket.Conn
	page    *page         // with -html: the page the fragments build
	current string        // from the snapshot (GM only)
	replies chan reply    // acks and errors (GM only)
	done    chan struct{} // closed when the reader stops
	err     error         // why the reader stopped; read after done
	closing atomic.Bool
}

// eventRef is what the load generator reads of an event.
type eventRef struct {
	Command string `json:"command"`
	Kind    string `json:"kind"`
	Actor   string `json:"actor"`
}

// maxServerMessage bounds one server message (a snapshot with the full view).
const maxServerMessage = 16 << 20

// openSocket opens a websocket on encounter e with query q, as a's
// account (who says as whom, for errors).
func openSocket(ctx context.Context, a *api, e *encounter, q url.Values, who string) (*websocket.Conn, error) {
	conn, resp, err := websocket.Dial(ctx, wsURL(a.base, "/encounters/"+url.PathEscape(e.id)+"/ws", q), &websocket.DialOptions{
		HTTPClient:      a.client,
		HTTPHeader:      a.header(),
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("connect to encounter %s %s: HTTP %d: %w", e.id, who, resp.StatusCode, err)
		}
		return nil, fmt.Errorf("connect to encounter %s %s: %w", e.id, who, err)
	}
	conn.SetReadLimit(maxServerMessage)
	return conn, nil
}

// dial connects one client and reads its snapshot. A page client (asPage)
// connects as the encounter page does (html=1, no projection in its
// events) and applies the fragments it gets; otherwise a client with view
// asks for its viewer's projection (view=1: the GM always, players with
// -views) and the others for events alone.
func dial(ctx context.Context, a *api, e *encounter, as string, gm, asPage, view bool) (*client, error) {
	q := url.Values{}
	if as != "gm" {
		q.Set("as", as)
	}
	if asPage {
		q.Set("html", "1")
	} else if view {
		q.Set("view", "1")
	}
	conn, err := openSocket(ctx, a, e, q, "as "+as)
	if err != nil {
		return nil, err
	}
	c := &client{enc: e, as: as, gm: gm, conn: conn, done: make(chan struct{})}
	if gm {
		c.replies = make(chan reply, 16)
	}
	_, data, err := conn.Read(ctx)
	if err != nil {
		conn.CloseNow()
		return nil, fmt.Errorf("encounter %s as %s: read snapshot: %w", e.id, as, err)
	}
	var m serverMessage
	if err := json.Unmarshal(data, &m); err != nil || m.Type != "snapshot" {
		conn.CloseNow()
		return nil, fmt.Errorf("encounter %s as %s: expected a snapshot, got %.200s", e.id, as, data)
	}
	if m.View != nil {
		c.current = m.View.Current
	}
	if asPage {
		c.page = newPage()
		if err := c.page.apply(m.HTML, true); err != nil {
			conn.CloseNow()
			return nil, fmt.Errorf("encounter %s as %s: snapshot: %w", e.id, as, err)
		}
	}
	return c, nil
}

// serverMessage holds only the fields of a server message the load
// generator uses (see parseServerMessage).
type serverMessage struct {
	Type    string            `json:"type"`
	ID      string            `json:"id"`
	Seq     int64             `json:"seq"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Events  []eventRef        `json:"events"`
	HTML    map[string]string `json:"html"`
	Parts   map[string]string `json:"parts"`
	View    *struct {
		Current string `json:"current"`
	} `json:"view"`
}

// read receives messages until the connection ends, recording when each
// command's events arrive and passing acks and errors to the GM loop.
func (c *client) read(ctx context.Context) {
	defer close(c.done)
	var buf bytes.Buffer
	current := c.current
	last := "" // the last command id counted: a command's events come in one message
	for {
		typ, r, err := c.conn.Reader(ctx)
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(r)
		}
		if err != nil {
			if !c.closing.Load() {
				c.err = err
			}
			return
		}
		now := time.Now()
		if typ != websocket.MessageText {
			continue
		}
		m, err := parseServerMessage(buf.Bytes())
		if err != nil {
			c.err = fmt.Errorf("undecodable message: %w", err)
			c.conn.CloseNow()
			return
		}
		switch m.Type {
		case "events":
			if c.page != nil {
				// Latency runs to the fragments' being applied, as on a page.
				if err := c.page.apply(m.HTML, false); err != nil {
					c.err = err
					c.conn.CloseNow()
					return
				}
				if err := c.page.applyParts(m.Parts); err != nil {
					c.err = err
					c.conn.CloseNow()
					return
				}
				now = time.Now()
			}
			for i := range m.Events {
				if id := m.Events[i].Command; id != "" && id != last {
					last = id
					c.enc.delivered(id, now)
				}
				if m.Events[i].Kind == "turn-started" && m.Events[i].Actor != "" {
					current = m.Events[i].Actor // a page has no projection to read it from
				}
			}
			if m.View != nil {
				current = m.View.Current
			}
		case "ack", "error":
			if c.replies == nil {
				continue
			}
			select { // the GM loop waits for at most one reply; never block on stale ones
			case c.replies <- reply{ack: m.Type == "ack", id: m.ID, code: m.Code, message: m.Message, current: current, at: now}:
			default:
			}
		}
	}
}

// close ends the connection with a normal closure.
func (c *client) close() {
	c.closing.Store(true)
	_ = c.conn.Close(websocket.StatusNormalClosure, "load test finished")
}

// window is the measured part of the run and how each GM paces itself.
type window struct {
	ids                string // command ids are ids + a counter
	start, from, until time.Time
	timeout            time.Duration // wait at most this long for an ack
	interval           time.Duration // with -rate, one command per interval per encounter; 0 for back-to-back
	words              bool          // -say: the GM says "end turn" over HTTP instead of sending the command on its socket
	encounters         int
}

// lateAfter is how far past its slot a paced command may go out before it
// counts as late.
const lateAfter = time.Millisecond

// endTurn builds the end-turn command message.
func endTurn(id, actor string) []byte {
	a, _ := json.Marshal(actor)
	b := make([]byte, 0, 96+len(id)+len(a))
	b = append(b, `{"type":"command","id":"`...)
	b = append(b, id...)
	b = append(b, `","command":{"kind":"end-turn","actor":`...)
	b = append(b, a...)
	b = append(b, "}}"...)
	return b
}

// errorLog prints the first message of each error code once.
type errorLog struct {
	mu   sync.Mutex
	seen map[string]bool
	out  func(format string, args ...any)
}

func (l *errorLog) note(code, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[code] {
		return
	}
	l.seen[code] = true
	l.out("first %q error: %s\n", code, msg)
}

// drive is the GM's closed loop: end the current turn, wait for the ack,
// repeat, until the window closes. With a pacing interval it sends at most
// one command per interval (encounters are staggered across it) and skips
// the slots it is too late for. Only commands sent inside the window are
// measured.
func (e *encounter) drive(ctx context.Context, w window, elog *errorLog) {
	gm := e.clients[0]
	current := e.current
	defer func() { e.current = current }()
	timer := time.NewTimer(w.timeout)
	defer timer.Stop()
	next := w.start
	if w.interval > 0 {
		next = w.start.Add(w.interval * time.Duration(e.index) / time.Duration(w.encounters))
	}
	for n := 1; ctx.Err() == nil; n++ {
		if w.interval > 0 {
			if !sleepUntil(ctx, next) {
				return
			}
		}
		now := time.Now()
		if !now.Before(w.until) {
			return
		}
		measured := !now.Before(w.from)
		if w.interval > 0 {
			// Stay on this encounter's own grid so the encounters remain
			// staggered: a command sent late is sent at once, and slots
			// missed altogether (the previous ack took longer than an
			// interval) are skipped rather than made up in a burst.
			late := now.Sub(next)
			next = next.Add(w.interval)
			if !next.After(now) {
				missed := now.Sub(next)/w.interval + 1
				next = next.Add(missed * w.interval)
				if measured {
					e.skipped += int(missed)
				}
			}
			if measured && late > lateAfter {
				e.late++
			}
		}
		id := w.ids + strconv.Itoa(n)
		msg := endTurn(id, current)
		e.mu.Lock()
		e.flights[id] = &flight{sent: now, left: len(e.clients), watchers: e.watchers, measured: measured}
		e.mu.Unlock()
		if w.words {
			if measured {
				e.sent++
			}
			if !e.sayEndTurn(ctx, w, id, now, measured, elog) {
				return
			}
			continue
		}
		if err := gm.conn.Write(ctx, websocket.MessageText, msg); err != nil {
			if ctx.Err() == nil {
				e.loopErr = fmt.Errorf("send: %w", err)
			}
			return
		}
		if measured {
			e.sent++
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(w.timeout)
	wait:
		for {
			select {
			case r := <-gm.replies:
				if r.id != id {
					continue // a late reply to a command that timed out
				}
				current = r.current
				if r.ack {
					if measured {
						e.acked++
						e.ackLat = append(e.ackLat, r.at.Sub(now))
					}
					break wait
				}
				e.mu.Lock()
				delete(e.flights, id) // nothing changed, no events will come
				e.mu.Unlock()
				if measured {
					e.errored++
					e.errs[r.code]++
				}
				elog.note(r.code, r.message)
				if gm.page != nil && e.whoseTurn != nil {
					// A page's GM may have missed whose turn it is; the
					// next command goes to the one the server says.
					if cur, err := e.whoseTurn(ctx); err == nil {
						current = cur
					}
				}
				// Do not spin on a persistent error.
				select {
				case <-time.After(5 * time.Millisecond):
				case <-ctx.Done():
				}
				break wait
			case <-timer.C:
				if measured {
					e.timeouts++
				}
				elog.note("timeout", fmt.Sprintf("no ack for %s within %s", id, w.timeout))
				break wait
			case <-gm.done:
				if gm.err != nil {
					e.loopErr = fmt.Errorf("GM connection lost: %w", gm.err)
				}
				return
			case <-ctx.Done():
				return
			}
		}
	}
}

// sayEndTurn is one turn of the GM's loop with -say: "end turn" in words,
// sent as the command id over HTTP (POST …/say), whose answer is its ack;
// the server reads the words against the GM's view, so no actor is named.
// It reports whether the loop goes on.
func (e *encounter) sayEndTurn(ctx context.Context, w window, id string, sent time.Time, measured bool, elog *errorLog) bool {
	sctx, cancel := context.WithTimeout(ctx, w.timeout)
	err := e.say(sctx, id, "end turn")
	cancel()
	if err == nil {
		if measured {
			e.acked++
			e.ackLat = append(e.ackLat, time.Since(sent))
		}
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	e.mu.Lock()
	delete(e.flights, id) // refused or lost: no events to wait for
	e.mu.Unlock()
	code, msg := "say", err.Error()
	var ae *apiError
	switch {
	case errors.As(err, &ae) && ae.Code != "":
		code, msg = ae.Code, ae.Message
	case errors.Is(err, context.DeadlineExceeded):
		if measured {
			e.timeouts++
		}
		elog.note("timeout", fmt.Sprintf("no answer to %s within %s", id, w.timeout))
		return true
	}
	if measured {
		e.errored++
		e.errs[code]++
	}
	elog.note(code, msg)
	// Do not spin on a persistent error.
	select {
	case <-time.After(5 * time.Millisecond):
		return true
	case <-ctx.Done():
		return false
	}
}

// lost returns why a client's connection ended before the load generator
// closed it, or nil.
func (c *client) lost() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}
