package realtime

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	gojson "github.com/goccy/go-json"
	"golang.org/x/sync/errgroup"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/htmlscan"
	"github.com/fray-vtt/fray/internal/play"
)

// Renderer turns a viewer's projection and new events into HTML fragments
// keyed by element id (see web.Fragments). full means "events is the whole log".
type Renderer func(ctx context.Context, v engine.View, events []engine.Event, full bool) (map[string]string, error)

// PageRenderer renders, like a Renderer, the pages of one encounter's
// viewers, update after update: it may reuse what it rendered for another
// viewer of the update or for the previous update (web.Sections renders each
// section once per distinct input).
type PageRenderer interface {
	Render(ctx context.Context, v engine.View, events []engine.Event, full bool) (map[string]string, error)
	// Next says an update's frames are built.
	Next()
}

// Encounters is what a websocket session needs from the play service: its
// first state, and where its commands go.
type Encounters interface {
	Submit(ctx context.Context, id string, sender play.Sender, cmdID string, cmd engine.Command) (int64, error)
	Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error)
}

// Close codes (websocket application codes, 4000–4999) with which the server
// ends a session whose access changed; see docs/protocol.md.
const (
	// CloseAccessChanged: your role or characters changed. Reconnect (with
	// since) to get your new view.
	CloseAccessChanged websocket.StatusCode = 4409
	// CloseSignedOut: the session or API token the socket was opened with
	// ended (log-out, password change, expiry, revocation). Sign in again.
	CloseSignedOut websocket.StatusCode = 4401
	// CloseAccessRevoked: you are no longer a member of the encounter's
	// campaign. Reconnecting is refused as for a stranger (404).
	CloseAccessRevoked websocket.StatusCode = 4403
)

// Grant is what a session's user may do in its encounter right now.
type Grant struct {
	Viewer engine.Viewer
	// Access is the campaign access version Viewer was granted at (see
	// play.Sender.Access).
	Access  int64
	Expires time.Time // when the credential ends; zero for none
}

// A Grantee is a session's user as the server knows them (its credential,
// who it previews as), to be granted their access again when it may have
// changed.
type Grantee interface {
	// Regrant grants the users of grantees — sessions of one encounter,
	// made by the same server as this one — their current access again,
	// all at once (the server reads them in one query): one answer per
	// grantee, in order. An answer's error carries fray.EUNAUTHORIZED when
	// the user's credential ended and fray.ENOTFOUND when they may no
	// longer see the encounter.
	Regrant(ctx context.Context, grantees []Grantee) []Regranted
}

// Regranted is a Grantee's answer: its grant, or why there is none.
type Regranted struct {
	Grant
	Err error
}

// EventLog reads persisted events, for resuming clients.
type EventLog interface {
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
}

// OriginChecker tells whether a browser page of origin (an Origin header)
// may open a socket with r; *origin.Policy is one.
type OriginChecker interface {
	Allowed(r *http.Request, origin string) bool
}

// Config configures a Hub.
type Config struct {
	Events EventLog
	Render Renderer
	// Pages, when set, gives each encounter the renderer of its updates'
	// fragments (instead of Render); snapshots and resumes still use Render.
	Pages  func() PageRenderer
	Logger *slog.Logger
	// Origins decides which browser origins may open a socket (scheme,
	// host and port: internal/origin). Nil allows the same host only,
	// whatever the scheme (the websocket library's check).
	Origins OriginChecker
	// SendQueue is each client's outgoing queue length (default 128). A
	// client whose queue is full is disconnected.
	SendQueue int
	// PingInterval (default 25 s) and WriteTimeout (default 10 s).
	PingInterval, WriteTimeout time.Duration
}

// entryLists are the keys of a page's fragments that hold new entries (see
// web.Fragments and docs/protocol.md): the game log's and the table talk's
// lines and the roll cards, which the page appends rather than replaces.
// An update sends them when it has some, and nothing compares them with
// the last update's. TestEntryListsAreWebs keeps this set web's.
var entryLists = map[string]bool{"log": true, "chat": true, "cards": true}

// MaxResume is how many missed events a client may resume; beyond it the
// client gets a fresh snapshot.
const MaxResume = 1000

// snapshotLog is how many recent events a snapshot's rendered log shows.
const snapshotLog = 200

// Hub tracks the connected clients of every encounter.
type Hub struct {
	cfg    Config
	mu     sync.Mutex
	rooms  map[string]*room
	closed bool
	conns  sync.WaitGroup
}

// room is one encounter's clients, and what its last update showed each
// kind of client (see Publish).
type room struct {
	clients map[*client]struct{}
	// queue holds the updates Publish handed over, in seq order; working
	// says the room's publisher goroutine runs (publishQueued). published
	// is the seq of the last update whose frames are queued, and moved is
	// closed when it moves (awaitPublished). All under Hub.mu.
	queue     []play.Update
	working   bool
	published int64
	moved     chan struct{}
	// shown and pages are touched only by the room's publisher, one
	// update at a time.
	shown map[string]shown
	pages PageRenderer // Config.Pages's, made by the first update
}

// shown is what the update that brought an encounter to seq showed the
// clients of one frame key: their projection as JSON (when they want it)
// and their page's fragments (when they want those).
type shown struct {
	seq  int64
	view []byte
	html map[string]string
}

// NewHub returns a Hub.
func NewHub(cfg Config) *Hub {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.SendQueue == 0 {
		cfg.SendQueue = 128
	}
	if cfg.PingInterval == 0 {
		cfg.PingInterval = 25 * time.Second
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	return &Hub{cfg: cfg, rooms: map[string]*room{}}
}

// client is one websocket connection to one encounter.
type client struct {
	hub       *Hub
	conn      *websocket.Conn
	cork      *corkConn // under conn
	encounter string
	table     Encounters
	viewer    engine.Viewer // fixed for the session: a change of access ends it
	html      bool
	wantView  bool
	keyOnce   sync.Once
	key       string // frameKey's, once made: every update asks for it
	viewKey   string // the viewer's Key, made with key
	send      *queue
	ctx       context.Context // the session's; ends when it is closed
	cancel    context.CancelFunc
	closeOnce sync.Once
	sent      int64 // the last event seq written; only the writer touches it

	campaign, user string
	grantee        Grantee      // nil: access is never checked again
	access         atomic.Int64 // the campaign access version viewer was last granted at
	recheck        sync.Mutex   // one answer applied at a time
	expires        atomic.Int64 // unix nanoseconds when the credential ends; 0: never
	expiry         *time.Timer
	pingMu         sync.Mutex
	pings          *time.Timer // see startPings
	// acked is the id of the command Publish last acknowledged with its
	// events (see play.Sender.Origin): the reader does not ack it again.
	acked atomic.Pointer[string]
}

// frame is one outgoing message. Event frames carry the seq they bring the
// client to, so the writer can drop what the client already has. A frame
// with a close code ends the session once the frames before it are written.
type frame struct {
	seq       int64
	data      []byte
	ack       []byte // an ack message written right after data, in the same flush
	closeCode websocket.StatusCode
	reason    string
}

// Count returns how many clients are connected to encounter id.
func (h *Hub) Count(id string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[id]; r != nil {
		return len(r.clients)
	}
	return 0
}

// Publish implements play.Publisher: it hands the update to the
// encounter's publisher goroutine and returns at once, so the owner's next
// command never waits for rendering or re-authorisation. The update's state
// must be frozen: never written to again (play's owner hands over a copy).
// Updates of an encounter are published one at a time, in seq order.
func (h *Hub) Publish(u play.Update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[u.EncounterID]
	if r == nil {
		return
	}
	r.queue = append(r.queue, u)
	if !r.working {
		r.working = true
		go h.publishQueued(r)
	}
}

// publishQueued publishes r's queued updates until there are none.
func (h *Hub) publishQueued(r *room) {
	for {
		h.mu.Lock()
		if len(r.queue) == 0 {
			r.working = false
			h.mu.Unlock()
			return
		}
		u := r.queue[0]
		r.queue[0] = play.Update{}
		r.queue = r.queue[1:]
		clients := broadcastOrder(r.clients, u.Origin)
		h.mu.Unlock()
		h.publish(r, u, clients)
		h.mu.Lock()
		r.published = u.Seq
		if r.moved != nil {
			close(r.moved)
			r.moved = nil
		}
		h.mu.Unlock()
	}
}

// awaitPublished waits until the update that brought encounter id to seq
// has its frames queued, when it is on its way (handed to Publish), so that
// a command's ack leaves with its events rather than before them; at most
// the write timeout.
func (h *Hub) awaitPublished(id string, seq int64) {
	timer := time.NewTimer(h.cfg.WriteTimeout)
	defer timer.Stop()
	for {
		h.mu.Lock()
		r := h.rooms[id]
		if r == nil || r.published >= seq || !r.working {
			h.mu.Unlock()
			return
		}
		if r.moved == nil {
			r.moved = make(chan struct{})
		}
		moved := r.moved
		h.mu.Unlock()
		select {
		case <-moved:
		case <-timer.C:
			return
		}
	}
}

// publish sends each client of u's encounter (clients, in broadcast order)
// the events it may see, rendered once per kind of client (viewer, and
// whether it wants the projection or the page's fragments). A client
// granted its access at an older access version than the update's is
// authorised again first (and closed if its access shrank), so an event
// committed after a change of access never reaches a viewer who lost it,
// whichever server the change was made on; those clients are authorised
// again concurrently.
//
// Only what changed is sent: a viewer who may see none of the update's
// events and whose projection and fragments are as the previous update
// left them gets no frame at all (its seq just moves on with the next one
// it gets), and a page gets only the fragments that changed. The events
// the GM sees are sent as they were encoded for the log (Update.Encoded).
// The frames of the kinds of client are built concurrently.
func (h *Hub) publish(r *room, u play.Update, clients []*client) {
	if r.pages == nil && h.cfg.Pages != nil {
		r.pages = h.cfg.Pages()
	}
	render := h.cfg.Render
	if r.pages != nil {
		render = r.pages.Render
	}
	var stale []*client // granted their access at an older version than u's
	for _, c := range clients {
		if u.Access > c.access.Load() {
			stale = append(stale, c)
		}
	}
	refused := h.regrant(stale)
	clients = slices.DeleteFunc(clients, func(c *client) bool { return refused[c] })
	// One frame per kind of client (frame key), built concurrently: the
	// acting client's first, and sent at once; then the others'.
	type built struct {
		data []byte
		now  shown
		err  error
	}
	frames := map[string]*built{}
	// One projection per viewer, made by the first frame that needs it:
	// the GM's page and the GM's JSON socket (a bot, a second screen), a
	// player's page and the same player's bot share one (viewers with
	// equal keys see the same thing).
	views := map[string]func() engine.View{}
	var builders errgroup.Group
	builders.SetLimit(runtime.GOMAXPROCS(0))
	sent := 0
	for i, c := range clients {
		k := c.frameKey()
		if frames[k] != nil {
			continue
		}
		f := &built{}
		frames[k] = f
		if views[c.viewKey] == nil {
			views[c.viewKey] = sync.OnceValue(func() engine.View { return engine.Project(u.Ruleset, u.State, c.viewer) })
		}
		view := views[c.viewKey]
		build := func() error {
			f.data, f.now, f.err = updateFrame(c, u, r.shown[k], render, view)
			return nil
		}
		if i == 0 && u.Origin == any(c) {
			_ = build()
			h.send(c, u, f.data, f.err)
			sent = 1
			continue
		}
		builders.Go(build)
	}
	_ = builders.Wait()
	for _, c := range clients[sent:] {
		f := frames[c.frameKey()]
		h.send(c, u, f.data, f.err)
	}
	next := make(map[string]shown, len(frames))
	for k, f := range frames {
		if f.err == nil {
			next[k] = f.now
		}
	}
	r.shown = next
	if r.pages != nil {
		r.pages.Next()
	}
}

// send queues u's frame data for c, with the ack of c's own command; a
// frame that could not be built (err) closes c.
func (h *Hub) send(c *client, u play.Update, data []byte, err error) {
	if err != nil {
		h.cfg.Logger.Error("render update", "encounter", u.EncounterID, "err", err)
		c.close(websocket.StatusInternalError, "render failed")
		return
	}
	var ack []byte
	if u.Origin == any(c) {
		// The client's own command: its ack leaves with its events.
		ack = encode(ackMessage{Type: "ack", ID: u.CommandID, Seq: u.Seq})
		c.acked.Store(&u.CommandID)
	}
	if data != nil || ack != nil {
		c.enqueue(frame{seq: u.Seq, data: data, ack: ack})
	}
}

// regrant grants the users of clients their access again, one Regrant (one
// query) per encounter, at most eight encounters at once, and returns the
// clients that may not stay (they are closed, with the code that says why).
func (h *Hub) regrant(clients []*client) map[*client]bool {
	groups := map[string][]*client{}
	for _, c := range clients {
		if c.grantee != nil {
			groups[c.encounter] = append(groups[c.encounter], c)
		}
	}
	refused := map[*client]bool{}
	var mu sync.Mutex
	var checks errgroup.Group
	checks.SetLimit(8)
	for _, g := range groups {
		checks.Go(func() error {
			grantees := make([]Grantee, len(g))
			for i, c := range g {
				grantees[i] = c.grantee
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			answers := regrantAll(ctx, grantees)
			cancel()
			for i, c := range g {
				if !h.apply(c, answers[i]) {
					mu.Lock()
					refused[c] = true
					mu.Unlock()
				}
			}
			return nil
		})
	}
	_ = checks.Wait()
	return refused
}

// regrantAll asks grantees (sessions of one encounter) for their access
// in one Regrant: one answer per grantee, a grantee left unanswered refused.
func regrantAll(ctx context.Context, grantees []Grantee) []Regranted {
	answers := grantees[0].Regrant(ctx, grantees)
	for len(answers) < len(grantees) {
		answers = append(answers, Regranted{Err: fray.Errorf(fray.EINTERNAL, "no answer")})
	}
	return answers
}

// broadcastOrder lists an update's clients in the order their frames are
// built and queued (each client's writer starts when its frame is queued):
// the acting client first, so that its ack does not wait for the frames
// of everyone else; then the table — the GM and the players, who may act
// on what they see; then those who only watch (a member without
// characters), so that a crowd of spectators does not hold up the table.
func broadcastOrder(room map[*client]struct{}, origin any) []*client {
	clients := make([]*client, 1, len(room)+1) // clients[0]: the acting client, if here
	var watchers []*client
	for c := range room {
		switch {
		case origin == any(c):
			clients[0] = c
		case !c.viewer.GM && len(c.viewer.Controls) == 0:
			watchers = append(watchers, c)
		default:
			clients = append(clients, c)
		}
	}
	if clients[0] == nil {
		clients = clients[1:]
	}
	return append(clients, watchers...)
}

// frameKey says which clients get the same frames: those of one viewer
// wanting the same parts.
func (c *client) frameKey() string {
	c.keyOnce.Do(func() {
		c.viewKey = c.viewer.Key()
		c.key = c.viewKey
		if c.html {
			c.key += "+html"
		}
		if c.wantView {
			c.key += "+view"
		}
	})
	return c.key
}

// updateFrame builds u's frame for clients like c, given what the previous
// update showed them (prev; none for a client that resumes) and their
// viewer's projection of u (project, made when first asked): nil when
// nothing they can see changed.
//
// A page's fragments are rendered (render: with Config.Pages, a renderer
// that renders each section once per distinct input) and only what differs
// from what the page shows is sent: of a section, the parts that changed
// (htmlscan.Diff, "parts" by element id) when the rest of it is as the page
// shows it, else the whole section ("html").
//
// The projection, for clients that want it, is encoded straight into the
// frame after its events, and what the clients show next is that part of
// the frame (frames are never written to once queued), so a command costs
// one buffer of the view's size, not two and a copy.
func updateFrame(c *client, u play.Update, prev shown, render Renderer, project func() engine.View) ([]byte, shown, error) {
	now := shown{seq: u.Seq}
	events, encoded, err := visibleEncoded(c.viewer, u)
	if err != nil {
		return nil, now, err
	}
	// The clients show what prev showed when it is the previous update's.
	follows := prev.seq > 0 && prev.seq == u.Seq-int64(len(u.Events))
	var view engine.View
	if c.wantView || c.html && render != nil {
		view = project()
	}
	var html, parts map[string]string
	if c.html && render != nil {
		if html, err = render(context.Background(), view, events, false); err != nil {
			return nil, now, err
		}
		// What the clients show is remembered, for the next update to
		// send only what differs; new entries are not what they show.
		now.html = maps.Clone(html)
		maps.DeleteFunc(now.html, func(k, _ string) bool { return entryLists[k] })
	}
	if follows && html != nil {
		// Send only what differs from what the clients show.
		changed := make(map[string]string, len(html))
		for k, v := range html {
			switch {
			case k == "log":
				if len(events) > 0 {
					changed[k] = v // the log fragment holds the new events' entries
				}
			case entryLists[k]:
				if v != "" {
					changed[k] = v
				}
			case prev.html[k] == v:
			default:
				p, whole := htmlscan.Diff(prev.html[k], v)
				if whole {
					changed[k] = v
					break
				}
				if parts == nil {
					parts = make(map[string]string, len(p))
				}
				maps.Copy(parts, p)
			}
		}
		html = changed
	}
	// The frame is made its size at once: fragments copied into a frame
	// grown on the way were copied twice.
	size := 256 + len(prev.view) + encodedLen(encoded) + fragmentsLen(html) + fragmentsLen(parts)
	frame := appendEventsFrame(make([]byte, 0, size+size/64), u.Seq, encoded)
	sameView := !c.wantView
	if c.wantView {
		head := len(frame)
		frame = append(frame, `,"view":`...)
		start := len(frame)
		if frame, err = appendJSON(frame, view); err != nil {
			return nil, now, err
		}
		now.view = frame[start:len(frame):len(frame)]
		if follows && sameButSeq(now.view, prev.view) {
			// Unchanged but for its seq: the clients keep the view they
			// have (prev's bytes stand for it: the seq is all they differ
			// in), and the frame goes without it.
			now.view = prev.view
			frame = frame[:head]
			sameView = true
		}
	}
	if follows && len(events) == 0 && sameView && len(html) == 0 && len(parts) == 0 {
		return nil, now, nil
	}
	if len(html) > 0 {
		frame = append(frame, `,"html":`...)
		if frame, err = appendFragments(frame, html); err != nil {
			return nil, now, err
		}
	}
	if len(parts) > 0 {
		frame = append(frame, `,"parts":`...)
		if frame, err = appendFragments(frame, parts); err != nil {
			return nil, now, err
		}
	}
	return append(frame, '}'), now, nil
}

// appendFragments appends a frame's fragments as a JSON object. Their
// markup's <, > and & are not escaped as \u003c…: the frame is read by
// JSON.parse, never embedded in a page, and escaping them made a page's
// fragments 1.4 times as long in JSON. The frame is grown to their size
// first (fragmentsLen), so that the encoder does not grow it on the way.
// (A hand-written encoder that copied the markup in runs was 2–4 times
// slower than go-json's vector code.)
func appendFragments(frame []byte, html map[string]string) ([]byte, error) {
	return appendJSON(slices.Grow(frame, fragmentsLen(html)+16), html, gojson.DisableHTMLEscape())
}

// fragmentsLen is how many bytes fragments take in a frame, their
// attributes' quotes escaped (a few more when their markup holds other
// characters JSON escapes: control characters, U+2028).
func fragmentsLen(fragments map[string]string) int {
	if len(fragments) == 0 {
		return 0
	}
	n := 2
	for k, v := range fragments {
		n += len(k) + len(v) + strings.Count(v, `"`) + 6
	}
	return n
}

// visibleEncoded returns the events of u that viewer may see, and each
// encoded. An event the viewer sees as it is reuses its encoding for the
// log (Update.Encoded); only the events the viewer sees redacted (an event
// the engine's filter rewrote, one that named someone the viewer may not
// see) are encoded again.
func visibleEncoded(viewer engine.Viewer, u play.Update) ([]engine.Event, [][]byte, error) {
	ready := len(u.Encoded) == len(u.Events)
	if engine.SeesAll(viewer) && ready {
		return u.Events, u.Encoded, nil // the GM sees every event as it is
	}
	events := make([]engine.Event, 0, len(u.Events))
	encoded := make([][]byte, 0, len(u.Events))
	sight := engine.NewSight(u.State, viewer)
	all := true // every event seen whole so far
	for i, ev := range u.Events {
		seen, ok, whole := sight.See(ev)
		all = all && ok && whole
		if !ok {
			continue
		}
		b := []byte(nil)
		if ready && whole {
			b = u.Encoded[i]
		} else {
			var err error
			if b, err = marshal(seen); err != nil {
				return nil, nil, err
			}
		}
		events = append(events, seen)
		encoded = append(encoded, b)
	}
	if all {
		// The update's own events, as the GM's: a page renderer tells by
		// them that these viewers' new log entries are the same
		// (web.Sections renders them once).
		return u.Events, encoded, nil
	}
	return events, encoded, nil
}

// sameButSeq reports whether two projections (engine.View as JSON) differ
// at most in their seq, which every update changes.
func sameButSeq(a, b []byte) bool {
	const field = `,"seq":`
	i, j := bytes.Index(a, []byte(field)), bytes.Index(b, []byte(field))
	if i < 0 || i != j || !bytes.Equal(a[:i], b[:j]) {
		return bytes.Equal(a, b)
	}
	skip := func(s []byte) []byte {
		s = s[len(field):]
		for len(s) > 0 && (s[0] >= '0' && s[0] <= '9' || s[0] == '-') {
			s = s[1:]
		}
		return s
	}
	return bytes.Equal(skip(a[i:]), skip(b[j:]))
}

// appendEventsFrame appends the start of an events message (see
// docs/protocol.md) around events already encoded: everything but the
// view, the fragments and the closing brace.
func appendEventsFrame(b []byte, seq int64, events [][]byte) []byte {
	b = append(b, `{"type":"events","seq":`...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, `,"events":[`...)
	for i, e := range events {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

// encodedLen is how many bytes events take in a frame.
func encodedLen(events [][]byte) int {
	n := 0
	for _, e := range events {
		n += len(e) + 1
	}
	return n
}

// AccessChanged re-authorises, now, the clients that a change of access may
// concern: user userID's in campaign campaignID, which reached access version
// `version` (-1: unknown). Other clients of the campaign just move to the new
// version when it follows theirs; those that missed a version are checked
// too. A client whose access shrank or whose credential ended is closed
// (CloseAccessChanged, CloseSignedOut, CloseAccessRevoked).
func (h *Hub) AccessChanged(campaignID, userID string, version int64) {
	var check []*client
	for _, c := range h.clients() {
		if c.campaign != campaignID || c.grantee == nil {
			continue
		}
		if c.user == userID || version < 0 || !c.access.CompareAndSwap(version-1, version) && c.access.Load() < version {
			check = append(check, c)
		}
	}
	h.regrant(check)
}

// RecheckAll re-authorises every client, e.g. after notifications of
// access changes may have been lost.
func (h *Hub) RecheckAll() {
	h.regrant(h.clients())
}

func (h *Hub) clients() []*client {
	h.mu.Lock()
	defer h.mu.Unlock()
	var all []*client
	for _, r := range h.rooms {
		for c := range r.clients {
			all = append(all, c)
		}
	}
	return all
}

// apply takes c's user's access granted again (a) and reports whether c
// may stay: with an unchanged viewer it moves to the new access version,
// else it is closed with the code that says why.
func (h *Hub) apply(c *client, a Regranted) bool {
	c.recheck.Lock()
	defer c.recheck.Unlock()
	if code, reason := refusal(a.Err); code != 0 {
		h.cfg.Logger.Info("websocket access ended", "encounter", c.encounter, "user", c.user, "code", int(code), "err", a.Err)
		c.close(code, reason)
		return false
	}
	if a.Viewer.Key() != c.viewer.Key() {
		c.close(CloseAccessChanged, "your access changed: reconnect")
		return false
	}
	for v := c.access.Load(); a.Access > v && !c.access.CompareAndSwap(v, a.Access); v = c.access.Load() {
	}
	c.setExpiry(a.Expires)
	return true
}

// refusal says how to close a session whose re-authorisation failed with
// err; code 0 means it did not fail.
func refusal(err error) (websocket.StatusCode, string) {
	switch fray.ErrorCode(err) {
	case "":
		return 0, ""
	case fray.EUNAUTHORIZED:
		return CloseSignedOut, "you are signed out: sign in again"
	case fray.ENOTFOUND, fray.EFORBIDDEN, fray.EINVALID:
		return CloseAccessRevoked, "you no longer have access to this encounter"
	}
	// The database could not say: the session cannot be vouched for.
	return websocket.StatusTryAgainLater, "could not check your access: reconnect"
}

// setExpiry (re)arms the timer that closes the session when its credential
// ends.
func (c *client) setExpiry(t time.Time) {
	var n int64
	if !t.IsZero() {
		n = t.UnixNano()
	}
	if c.expires.Swap(n) == n && (n == 0 || c.expiry != nil) {
		return
	}
	if c.expiry != nil {
		c.expiry.Stop()
		c.expiry = nil
	}
	if n != 0 {
		c.expiry = time.AfterFunc(time.Until(t), func() { c.close(CloseSignedOut, "your session has expired: sign in again") })
	}
}

func (c *client) expired() bool {
	n := c.expires.Load()
	return n != 0 && time.Now().UnixNano() >= n
}

// Close disconnects every client with a going-away close frame and waits.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true // no client is added from now on
	h.mu.Unlock()
	for _, c := range h.clients() {
		c.close(websocket.StatusGoingAway, "server shutting down")
	}
	h.conns.Wait()
}

func (h *Hub) add(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	r := h.rooms[c.encounter]
	if r == nil {
		r = &room{clients: map[*client]struct{}{}}
		h.rooms[c.encounter] = r
	}
	r.clients[c] = struct{}{}
	return true
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[c.encounter]
	if r == nil {
		return
	}
	delete(r.clients, c)
	if len(r.clients) == 0 {
		delete(h.rooms, c.encounter)
	}
}

// ServeOptions says who a websocket session is for and what it wants.
type ServeOptions struct {
	Encounter string
	// Table is the live encounter the session plays: its state on connect,
	// and its commands. (The server passes its play service; the hub needs
	// none of its own, so the hub can be the play service's publisher.)
	Table  Encounters
	Viewer engine.Viewer
	Since  int64 // resume after this seq; negative for a snapshot
	HTML   bool  // include rendered fragments
	View   bool  // include the projection in every events message

	// Campaign and User identify the session for AccessChanged; User is also
	// the sender of its commands (command ids are scoped per user).
	Campaign, User string
	// Access is the campaign access version Viewer was granted at, Expires
	// when the credential ends (zero: never).
	Access  int64
	Expires time.Time
	// Grantee grants the user's access again when it may have changed;
	// nil never checks again.
	Grantee Grantee
}

// Serve upgrades the request to a websocket, sends the client its first
// message and returns: the session goes on, on a goroutine of its own,
// until the client leaves, the server shuts down (Close), or the client
// falls behind. Returning lets net/http free what it holds for the request
// while its handler runs — the handler's goroutine, whose stack the
// handshake and the first render grew, the request, the response and their
// buffers — so an idle socket holds only its session (see
// TestIdleSocketMemory). The session's context is therefore not the
// request's, which ends when Serve returns.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, opt ServeOptions) {
	opts := &websocket.AcceptOptions{}
	if h.cfg.Origins != nil {
		if o := r.Header.Get("Origin"); o != "" && !h.cfg.Origins.Allowed(r, o) {
			http.Error(w, "websocket refused: the page's origin (scheme, host and port) is not this site's nor an allowed one", http.StatusForbidden)
			return
		}
		opts.InsecureSkipVerify = true // checked just above, scheme included
	}
	// The server's read and write timeouts bound requests, not sockets:
	// taking the connection over clears its deadlines (net/http does),
	// and pings keep a socket alive (TestSessionOutlivesServe).
	cw := &corkingWriter{ResponseWriter: w, timeout: h.cfg.WriteTimeout}
	conn, err := websocket.Accept(cw, r, opts)
	if err != nil {
		return // Accept has written the HTTP error (e.g. 403 for a foreign origin)
	}
	h.conns.Add(1)
	conn.SetReadLimit(MaxMessageBytes)
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{
		hub: h, conn: conn, cork: cw.conn, encounter: opt.Encounter, table: opt.Table, viewer: opt.Viewer, html: opt.HTML, wantView: opt.View,
		send: newQueue(h.cfg.SendQueue), ctx: ctx, cancel: cancel,
		campaign: opt.Campaign, user: opt.User, grantee: opt.Grantee,
	}
	c.access.Store(opt.Access)
	if !h.add(c) {
		conn.Close(websocket.StatusGoingAway, "server shutting down")
		cancel()
		h.conns.Done()
		return
	}
	c.recheck.Lock()
	c.setExpiry(opt.Expires)
	c.recheck.Unlock()

	first, seq, err := h.hello(ctx, c, opt.Since)
	if err != nil {
		h.cfg.Logger.Warn("websocket hello", "encounter", opt.Encounter, "err", err)
		c.close(websocket.StatusInternalError, fray.ErrorMessage(err))
		c.end()
		return
	}
	// Corked: the snapshot leaves in one write whatever the library's
	// buffer, and the write only fills a buffer (uncork bounds the write
	// to the network).
	c.cork.cork()
	stop := c.writeFrame(frame{seq: seq, data: first})
	if err := c.cork.uncork(); stop || err != nil {
		c.close(websocket.StatusInternalError, "write failed")
		c.end()
		return
	}
	go c.writeLoop(ctx) // what was queued meanwhile; later frames start their own
	c.startPings(ctx)
	go c.run(ctx)
}

// run reads the client's messages until the session ends. It runs on a
// goroutine of its own, started small (an idle socket's stack is memory),
// and ends the session.
func (c *client) run(ctx context.Context) {
	defer c.end()
	defer func() {
		// net/http no longer recovers a panic here: log it and end this
		// session, not the server.
		if v := recover(); v != nil {
			c.hub.cfg.Logger.Error("panic in websocket session", "encounter", c.encounter, "panic", v, "stack", string(debug.Stack()))
			c.close(websocket.StatusInternalError, "internal error")
		}
	}()
	if c.readLoop(ctx) {
		// The writer sends the last replies, then the close frame.
		select {
		case <-ctx.Done():
		case <-time.After(c.hub.cfg.WriteTimeout):
		}
	}
	c.close(websocket.StatusNormalClosure, "")
}

// end releases what the session holds in the hub once it no longer reads:
// its place among the encounter's clients, its expiry timer, its context,
// and its count in Close's wait.
func (c *client) end() {
	c.hub.remove(c)
	c.recheck.Lock()
	if c.expiry != nil {
		c.expiry.Stop()
	}
	c.recheck.Unlock()
	c.cancel() // first: a ping under way no longer re-arms its timer
	c.stopPings()
	c.hub.conns.Done()
}

// hello builds the first message: the missed events when the client can
// resume, otherwise a snapshot.
func (h *Hub) hello(ctx context.Context, c *client, since int64) ([]byte, int64, error) {
	rs, st, err := c.table.Current(ctx, c.encounter)
	if err != nil {
		return nil, 0, err
	}
	seq := st.Core().Seq
	if since >= 0 && since <= seq && seq-since <= MaxResume {
		events, err := h.cfg.Events.Events(ctx, c.encounter, since, int(seq-since))
		if err != nil {
			return nil, 0, err
		}
		if since == seq {
			events = nil
		}
		// A resume is an update to clients that show nothing yet.
		u := play.Update{EncounterID: c.encounter, Ruleset: rs, State: st, Seq: seq, Events: events}
		data, _, err := updateFrame(c, u, shown{}, h.cfg.Render, func() engine.View { return engine.Project(rs, st, c.viewer) })
		return data, seq, err
	}
	view := engine.Project(rs, st, c.viewer)
	msg := snapshotMessage{Type: "snapshot", Version: ProtocolVersion, Seq: seq, View: view}
	if c.html && h.cfg.Render != nil {
		events, err := h.cfg.Events.Events(ctx, c.encounter, max(0, seq-snapshotLog), snapshotLog)
		if err != nil {
			return nil, 0, err
		}
		events = engine.FilterEvents(st, c.viewer, events)
		if msg.HTML, err = h.cfg.Render(ctx, view, events, true); err != nil {
			return nil, 0, err
		}
	}
	return encode(msg), seq, nil
}

// readLoop reads the client's messages; true: it handed the close over to the writer.
func (c *client) readLoop(ctx context.Context) bool {
	for {
		// No deadline and no cancellation: the session ends its reads by
		// closing the connection (close), and a context that cannot end
		// spares the library a context.AfterFunc for every read.
		typ, data, err := c.conn.Read(context.Background())
		if err != nil {
			if websocket.CloseStatus(err) == websocket.StatusMessageTooBig {
				c.hub.cfg.Logger.Info("websocket message too big", "encounter", c.encounter)
			}
			return false
		}
		if typ != websocket.MessageText {
			c.enqueue(frame{data: encode(errorMessage{Type: "error", Code: fray.EINVALID, Message: "messages must be JSON text"})})
			continue
		}
		msg, cmd, err := DecodeClientMessage(data)
		if err != nil {
			c.enqueue(frame{data: encode(errorMessage{Type: "error", ID: msg.ID, Code: fray.ErrorCode(err), Message: fray.ErrorMessage(err)})})
			continue
		}
		c.acked.Store(nil) // a resent id is acked again, at worst twice, never not at all
		seq, closeCode, reason, err := c.submit(ctx, msg.ID, cmd)
		switch {
		case errors.Is(err, context.Canceled):
			return false
		case err != nil:
			if fray.ErrorCode(err) == fray.EINTERNAL {
				c.hub.cfg.Logger.Error("command failed", "encounter", c.encounter, "kind", cmd.Kind, "err", err)
			}
			c.enqueue(frame{data: encode(errorMessage{Type: "error", ID: msg.ID, Code: fray.ErrorCode(err), Message: fray.ErrorMessage(err)})})
		default:
			c.hub.awaitPublished(c.encounter, seq) // the ack may leave with the events
			if !c.ackedWithEvents(msg.ID) {
				c.enqueue(frame{data: encode(ackMessage{Type: "ack", ID: msg.ID, Seq: seq})})
			}
		}
		if closeCode != 0 {
			// No more events; the reply goes out, then the close frame.
			c.hub.remove(c)
			c.enqueue(frame{closeCode: closeCode, reason: reason})
			return true
		}
	}
}

// submit runs a command to completion even if the connection drops or the
// server shuts down meanwhile: a command the engine has begun is finished and
// persisted, and a resend after reconnecting is acknowledged, not reapplied.
//
// The command is authorised against the user's current access: if it
// changed since the session's viewer was granted, the user is authorised
// again and the command decided with the new viewer. A non-zero close code
// says the session must end after the reply, because the user is signed out,
// lost access, or now has a different viewer.
func (c *client) submit(ctx context.Context, id string, cmd engine.Command) (int64, websocket.StatusCode, string, error) {
	if c.expired() {
		return 0, CloseSignedOut, "your session has expired: sign in again",
			fray.Errorf(fray.EUNAUTHORIZED, "your session has expired: sign in again")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	sender := play.Sender{User: c.user, Viewer: c.viewer, Access: c.access.Load(), Origin: c}
	var closeCode websocket.StatusCode
	var reason string
	for attempt := 0; ; attempt++ {
		seq, err := c.table.Submit(ctx, c.encounter, sender, id, cmd)
		if !errors.Is(err, play.ErrAccessChanged) || c.grantee == nil || attempt == 3 {
			return seq, closeCode, reason, err
		}
		a := regrantAll(ctx, []Grantee{c.grantee})[0]
		if code, why := refusal(a.Err); code != 0 {
			if code == CloseAccessRevoked {
				// Answer as to a stranger: the encounter does not exist for them.
				a.Err = fray.Errorf(fray.ENOTFOUND, "no such encounter")
			}
			return 0, code, why, a.Err
		}
		if a.Viewer.Key() != c.viewer.Key() {
			closeCode, reason = CloseAccessChanged, "your access changed: reconnect"
		} else {
			for v := c.access.Load(); a.Access > v && !c.access.CompareAndSwap(v, a.Access); v = c.access.Load() {
			}
		}
		sender.Viewer, sender.Access = a.Viewer, a.Access
	}
}

// ackedWithEvents reports whether Publish already acknowledged command id
// (an earlier command that timed out and committed later does not count).
func (c *client) ackedWithEvents(id string) bool {
	p := c.acked.Load()
	return p != nil && *p == id
}

// enqueue never blocks: a client whose queue is full is too slow and is
// disconnected, so it can never hold up the encounter or other clients.
func (c *client) enqueue(f frame) {
	ok, start := c.send.push(f)
	if !ok {
		c.close(websocket.StatusPolicyViolation, "client too slow")
		return
	}
	if start {
		go c.writeLoop(c.ctx)
	}
}

// writeLoop writes the client's frames until none waits. Frames queued
// together go out in one write (see corkConn). It runs only while there is
// something to write (enqueue starts it): an idle socket holds no writer's
// goroutine.
func (c *client) writeLoop(ctx context.Context) {
	var batch []frame
	for {
		if ctx.Err() != nil {
			return // ending: no writer is started again (c.close cancelled ctx)
		}
		c.cork.cork()
		stop := false
		for batch = c.send.take(batch); len(batch) > 0 && !stop; batch = c.send.take(batch) {
			for _, f := range batch {
				if stop = c.writeFrame(f); stop {
					break
				}
			}
		}
		clear(batch) // let the frames' bytes go
		if err := c.cork.uncork(); err != nil && !stop {
			c.close(websocket.StatusInternalError, "write failed")
			return
		}
		if stop || c.send.done() {
			return
		}
	}
}

// writeFrame writes one frame; true means the session is ending.
func (c *client) writeFrame(f frame) bool {
	if f.closeCode != 0 {
		c.close(f.closeCode, f.reason)
		return true
	}
	for i, data := range [][]byte{f.data, f.ack} {
		if data == nil || i == 0 && f.seq > 0 && f.seq <= c.sent {
			continue // none, or already covered by the hello message
		}
		// Corked, the write only fills a buffer: it needs no deadline of
		// its own (uncork has one), and a context without one spares the
		// library a timer per message.
		if err := c.conn.Write(context.Background(), websocket.MessageText, data); err != nil {
			c.close(websocket.StatusInternalError, "write failed")
			return true
		}
		if i == 0 && f.seq > 0 {
			c.sent = f.seq
		}
	}
	return false
}

// startPings pings the client every PingInterval until the session ends
// (stopPings). It holds no goroutine between pings (an idle socket's stack
// is memory): a timer runs each ping on a goroutine of its own. Nothing
// hangs on the session's context either (a context's children are memory
// too): a ping's timeout is its own, and the library ends a ping when the
// connection closes.
func (c *client) startPings(ctx context.Context) {
	c.pingMu.Lock()
	defer c.pingMu.Unlock()
	c.pings = time.AfterFunc(c.hub.cfg.PingInterval, func() {
		if ctx.Err() != nil {
			return
		}
		pctx, cancel := context.WithTimeout(context.Background(), c.hub.cfg.WriteTimeout)
		err := c.conn.Ping(pctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				c.close(websocket.StatusGoingAway, "ping timeout")
			}
			return
		}
		c.pingMu.Lock()
		if ctx.Err() == nil {
			c.pings.Reset(c.hub.cfg.PingInterval)
		}
		c.pingMu.Unlock()
	})
}

// stopPings stops the pings for good: the session has ended.
func (c *client) stopPings() {
	c.pingMu.Lock()
	defer c.pingMu.Unlock()
	if c.pings != nil {
		c.pings.Stop()
	}
}

// close stops sending to the client at once, then sends a close frame off
// the caller's goroutine and ends the session.
func (c *client) close(code websocket.StatusCode, reason string) {
	c.closeOnce.Do(func() {
		c.hub.remove(c)
		go func() {
			c.conn.Close(code, reason)
			c.cancel()
		}()
	})
}
