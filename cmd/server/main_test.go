package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) {
	if os.Getenv(childServerEnv) == "1" {
		os.Exit(runChildServer())
	}
	testdb.Main(m)
}

// testServer is the real server, started in-process through run.
type testServer struct {
	t      *testing.T
	as     *apiUser // who requests are made as; nil for anonymous
	URL    string
	cancel context.CancelFunc
	done   chan error
	once   *sync.Once // shared by copies from withUser
	logs   *serverLog // what the server logged
}

// serverLog keeps the lines a test server logs.
type serverLog struct {
	mu    sync.Mutex
	lines []string
}

// errors returns the lines logged at ERROR.
func (l *serverLog) errors() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, "level=ERROR") {
			out = append(out, line)
		}
	}
	return out
}

func startServer(t *testing.T, dbURL string) *testServer {
	t.Helper()
	return startServerEnv(t, dbURL, nil)
}

// startServerEnv is startServer with more environment variables.
func startServerEnv(t *testing.T, dbURL string, extra map[string]string) *testServer {
	t.Helper()
	return startServerHooked(t, dbURL, extra, hooks{})
}

// startServerHooked is startServerEnv with hooks: a clock the test moves,
// the deadlines worker handed to it.
func startServerHooked(t *testing.T, dbURL string, extra map[string]string, h hooks) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(withHooks(context.Background(), h))
	pr, pw := io.Pipe()
	env := map[string]string{"DATABASE_URL": dbURL, "FRAY_ADDR": "127.0.0.1:0", "FRAY_LOG_LEVEL": "warn"}
	for k, v := range extra {
		env[k] = v
	}
	s := &testServer{t: t, cancel: cancel, done: make(chan error, 1), once: &sync.Once{}, logs: &serverLog{}}
	go func() {
		err := run(ctx, []string{"serve"}, func(k string) string { return env[k] }, pw)
		pw.Close()
		s.done <- err
	}()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "Fray listening on "); ok {
				ready <- addr
			}
			s.logs.mu.Lock()
			s.logs.lines = append(s.logs.lines, sc.Text())
			s.logs.mu.Unlock()
		}
	}()
	select {
	case s.URL = <-ready:
	case err := <-s.done:
		t.Fatalf("server exited: %v", err)
	case <-time.After(patience.Hang()):
		t.Fatal("server did not start")
	}
	t.Cleanup(s.stop)
	return s
}

// stop shuts the server down gracefully and waits for it.
func (s *testServer) stop() {
	s.once.Do(func() {
		s.cancel()
		select {
		case err := <-s.done:
			if err != nil {
				s.t.Errorf("server shutdown: %v", err)
			}
		case <-time.After(patience.Hang()):
			s.t.Error("server did not shut down")
		}
	})
}

const testPassword = "correct horse battery"

// apiUser is an account with an API token.
type apiUser struct {
	ID, Name, Token string
}

func (s *testServer) signup(name string) *apiUser {
	s.t.Helper()
	var u apiUser
	if code := s.do("POST", "/api/signup", map[string]string{"name": name, "password": testPassword}, &u); code != http.StatusCreated {
		s.t.Fatalf("signup %s: %d", name, code)
	}
	s.as = nil
	return &u
}

// table is a campaign with a GM and a player who owns the first PC of an
// imported example encounter.
type table struct {
	gm, player   *apiUser
	campaign, id string
	pc           string
}

func (s *testServer) newTable() table {
	s.t.Helper()
	tb := table{gm: s.signup("gamemaster"), player: s.signup("player-one")}
	tb.id = s.withUser(tb.gm).importExample()
	v, _ := s.withUser(tb.gm).view(tb.id, "")
	tb.pc = firstPC(s.t, v)
	var camps []struct{ ID string }
	s.withUser(tb.gm).do("GET", "/api/campaigns", nil, &camps)
	tb.campaign = camps[0].ID
	var inv struct{ URL string }
	s.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/invites", nil, &inv)
	token := inv.URL[strings.LastIndex(inv.URL, "/")+1:]
	if code := s.withUser(tb.player).do("POST", "/api/join/"+token, nil, nil); code != 200 {
		s.t.Fatalf("join: %d", code)
	}
	if code := s.withUser(tb.gm).do("PUT", "/api/campaigns/"+tb.campaign+"/characters/"+tb.pc, map[string]string{"user": tb.player.ID}, nil); code != 200 {
		s.t.Fatalf("assign: %d", code)
	}
	return tb
}

// withUser returns a copy of the server handle that authenticates as u.
func (s *testServer) withUser(u *apiUser) *testServer {
	c := *s
	c.as = u
	return &c
}

func (s *testServer) do(method, path string, body any, out any) int {
	s.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		r = bytes.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, s.URL+path, r)
	if s.as != nil {
		req.Header.Set("Authorization", "Bearer "+s.as.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			s.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode
}

// importExample imports the first sw-zones example encounter (the tests
// below play its commands) and returns its id.
func (s *testServer) importExample() string {
	s.t.Helper()
	exs, err := prep.Examples()
	if err != nil || len(exs) == 0 {
		s.t.Fatalf("examples: %v", err)
	}
	var created struct{ ID string }
	i := slices.IndexFunc(exs, func(e prep.Example) bool { return strings.HasPrefix(e.Name, "sw-zones-") })
	if code := s.do("POST", "/api/encounters", exs[i].Data, &created); code != http.StatusCreated {
		s.t.Fatalf("import: %d", code)
	}
	return created.ID
}

type view struct {
	Seq        int64  `json:"seq"`
	Status     string `json:"status"`
	Current    string `json:"current"`
	Combatants []struct {
		ID   string `json:"id"`
		PC   bool   `json:"pc"`
		Side string `json:"side"`
	} `json:"combatants"`
	Actions []viewAction `json:"actions"`
}

// viewAction is what tests read of an offered action.
type viewAction struct {
	Kind  string `json:"kind"`
	Actor string `json:"actor"`
}

func (s *testServer) view(id, as string) (view, json.RawMessage) {
	s.t.Helper()
	var raw json.RawMessage
	path := "/api/encounters/" + id
	if as != "" {
		path += "?as=" + as
	}
	if code := s.do("GET", path, nil, &raw); code != 200 {
		s.t.Fatalf("view: %d %s", code, raw)
	}
	var v view
	_ = json.Unmarshal(raw, &v)
	return v, raw
}

// wsClient is a websocket client of one encounter.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
}

type message struct {
	Type    string            `json:"type"`
	ID      string            `json:"id"`
	Seq     int64             `json:"seq"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Events  []json.RawMessage `json:"events"`
	View    json.RawMessage   `json:"view"`
	HTML    map[string]string `json:"html"`
}

func (s *testServer) dial(id, query string) *wsClient {
	s.t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	url := "ws" + strings.TrimPrefix(s.URL, "http") + "/encounters/" + id + "/ws?" + query
	var opts *websocket.DialOptions
	if s.as != nil {
		opts = &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + s.as.Token}}}
	}
	conn, _, err := websocket.Dial(ctx, url, opts)
	if err != nil {
		s.t.Fatalf("dial %s: %v", url, err)
	}
	conn.SetReadLimit(1 << 22)
	c := &wsClient{t: s.t, conn: conn}
	s.t.Cleanup(func() { conn.CloseNow() })
	return c
}

func (c *wsClient) read() message {
	c.t.Helper()
	return c.readWithin(patience.Hang())
}

// readWithin reads the next message, waiting at most d.
func (c *wsClient) readWithin(d time.Duration) message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, data, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("bad message %s: %v", data, err)
	}
	return m
}

func (c *wsClient) sendRaw(data string) {
	c.t.Helper()
	if err := c.conn.Write(context.Background(), websocket.MessageText, []byte(data)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *wsClient) send(id string, command map[string]any) {
	c.t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "command", "id": id, "command": command})
	c.sendRaw(string(raw))
}

// expect reads messages until one of type typ arrives (events before an ack
// are collected) and returns it with the events seen on the way.
func (c *wsClient) expect(typ string) (message, []json.RawMessage) {
	c.t.Helper()
	var events []json.RawMessage
	for {
		m := c.read()
		if m.Type == "events" {
			events = append(events, m.Events...)
		}
		if m.Type == typ {
			return m, events
		}
		if m.Type == "error" && typ != "error" {
			c.t.Fatalf("got error %s: %s while waiting for %s", m.Code, m.Message, typ)
		}
	}
}

func seqOf(t *testing.T, ev json.RawMessage) int64 {
	var e struct{ Seq int64 }
	if err := json.Unmarshal(ev, &e); err != nil {
		t.Fatal(err)
	}
	return e.Seq
}

func firstPC(t *testing.T, v view) string {
	for _, c := range v.Combatants {
		if c.PC {
			return c.ID
		}
	}
	t.Fatal("example has no PC")
	return ""
}

func TestTwoClientsPlayResumeAndRestart(t *testing.T) {
	dbURL := testdb.URL(t)
	base := startServer(t, dbURL)
	tb := base.newTable()
	srv, pls := base.withUser(tb.gm), base.withUser(tb.player)
	id := tb.id

	gm := srv.dial(id, "")
	player := pls.dial(id, "")
	if m := gm.read(); m.Type != "snapshot" || m.Seq != 0 {
		t.Fatalf("gm hello = %+v", m)
	}
	if m := player.read(); m.Type != "snapshot" {
		t.Fatalf("player hello = %+v", m)
	}

	// One submits; both receive the same events; the sender gets the ack after them.
	gm.send("c-start", map[string]any{"kind": "start"})
	ack, gmEvents := gm.expect("ack")
	if ack.ID != "c-start" || ack.Seq == 0 || len(gmEvents) == 0 {
		t.Fatalf("start ack %+v with %d events", ack, len(gmEvents))
	}
	pm, _ := player.expect("events")
	if pm.Seq != ack.Seq || len(pm.Events) != len(gmEvents) {
		t.Fatalf("player got seq %d with %d events, gm %d with %d", pm.Seq, len(pm.Events), ack.Seq, len(gmEvents))
	}

	// A resent command id is acknowledged with its original seq, not applied again.
	gm.send("c-start", map[string]any{"kind": "start"})
	if again, _ := gm.expect("ack"); again.Seq != ack.Seq {
		t.Fatalf("resent command acked at %d, first at %d", again.Seq, ack.Seq)
	}
	if v2, _ := srv.view(id, ""); v2.Seq != ack.Seq {
		t.Fatalf("resend changed seq to %d", v2.Seq)
	}

	// Bad input gets an error and changes nothing.
	before, beforeRaw := srv.view(id, "")
	gm.sendRaw(`{"type":"command","id":"x1","command":{"kind":`)
	if m, _ := gm.expect("error"); m.Code != "invalid" {
		t.Fatalf("malformed JSON gave %+v", m)
	}
	gm.sendRaw(`{"type":"shout","id":"x2"}`)
	if m, _ := gm.expect("error"); m.Code != "invalid" {
		t.Fatalf("unknown type gave %+v", m)
	}
	gm.send("x3", map[string]any{"kind": "teleport", "actor": before.Current})
	if m, _ := gm.expect("error"); m.ID != "x3" || m.Code == "" {
		t.Fatalf("unknown kind gave %+v", m)
	}
	var npc, notCurrent string
	for _, c := range before.Combatants {
		if !c.PC && npc == "" {
			npc = c.ID
		}
		if c.ID != before.Current && notCurrent == "" {
			notCurrent = c.ID
		}
	}
	player.send("x4", map[string]any{"kind": "end-turn", "actor": npc})
	if m, _ := player.expect("error"); m.Code != "forbidden" {
		t.Fatalf("player commanding an NPC gave %+v", m)
	}
	gm.send("x5", map[string]any{"kind": "end-turn", "actor": notCurrent})
	if m, _ := gm.expect("error"); m.Code != "not_your_turn" {
		t.Fatalf("out-of-turn command gave %+v", m)
	}
	if _, afterRaw := srv.view(id, ""); !bytes.Equal(afterRaw, beforeRaw) {
		t.Fatal("rejected commands changed the encounter")
	}

	// The player drops; the GM plays on; the player resumes with exactly the missed events.
	player.conn.Close(websocket.StatusNormalClosure, "")
	missedFrom := ack.Seq
	for i := 0; i < 3; i++ {
		cur, _ := srv.view(id, "")
		gm.send(fmt.Sprintf("c-end-%d", i), map[string]any{"kind": "end-turn", "actor": cur.Current})
		gm.expect("ack")
	}
	now, _ := srv.view(id, "")
	back := pls.dial(id, fmt.Sprintf("since=%d", missedFrom))
	resume := back.read()
	if resume.Type != "events" || resume.Seq != now.Seq {
		t.Fatalf("resume = %s seq %d, want events up to %d", resume.Type, resume.Seq, now.Seq)
	}
	for i, ev := range resume.Events {
		if got := seqOf(t, ev); got <= missedFrom || got > now.Seq || (i > 0 && got <= seqOf(t, resume.Events[i-1])) {
			t.Fatalf("resumed event %d has seq %d (missed range %d..%d)", i, got, missedFrom+1, now.Seq)
		}
	}
	var all struct{ Events []json.RawMessage }
	pls.do("GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", id, missedFrom), nil, &all)
	if len(all.Events) != len(resume.Events) {
		t.Fatalf("resume gave %d events, the log has %d visible", len(resume.Events), len(all.Events))
	}

	// A restart loses nothing acknowledged.
	_, rawBefore := srv.view(id, "")
	base.stop()
	srv2 := startServer(t, dbURL).withUser(tb.gm)
	_, rawAfter := srv2.view(id, "")
	if !bytes.Equal(rawBefore, rawAfter) {
		t.Fatalf("state changed across restart:\n%s\n%s", rawBefore, rawAfter)
	}
}

func TestSocketLimitsAndShutdown(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	srv := base.withUser(base.signup("gamemaster"))
	id := srv.importExample()
	c := srv.dial(id, "")
	c.read()
	// An oversized message closes the connection with 1009.
	c.sendRaw(`{"type":"command","id":"big","command":{"kind":"start","pad":"` + strings.Repeat("x", 20000) + `"}}`)
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	_, _, err := c.conn.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("oversized message: %v", err)
	}
	if v, _ := srv.view(id, ""); v.Seq != 0 {
		t.Fatal("oversized command was applied")
	}
	// Without an account the upgrade is refused.
	_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+"/encounters/"+id+"/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous websocket: %v", err)
	}
	// A foreign origin is refused.
	hdr := http.Header{"Origin": {"http://evil.example"}, "Authorization": {"Bearer " + srv.as.Token}}
	_, resp, err = websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+"/encounters/"+id+"/ws", &websocket.DialOptions{HTTPHeader: hdr})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign origin accepted: %v", err)
	}
	// Shutdown sends a going-away close frame.
	c2 := srv.dial(id, "")
	c2.read()
	base.stop()
	_, _, err = c2.conn.Read(context.Background())
	if websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("shutdown close: %v", err)
	}
}

func TestHealthAndAPIErrors(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	srv := base.withUser(base.signup("gamemaster"))
	var health map[string]string
	if code := srv.do("GET", "/healthz", nil, &health); code != 200 || health["status"] != "ok" {
		t.Fatalf("healthz %d %v", code, health)
	}
	var e struct{ Code, Message string }
	if code := srv.do("POST", "/api/encounters", []byte(`{"name":"x","ruleset":"sw-zones","bogus":1}`), &e); code != 400 || e.Code != "invalid" {
		t.Fatalf("bad import %d %+v", code, e)
	}
	if code := srv.do("POST", "/api/encounters", []byte(`{"name":"x","ruleset":"nope","sides":[]}`), &e); code != 400 {
		t.Fatalf("unknown ruleset %d %+v", code, e)
	}
	var campaigns []map[string]any
	srv.do("GET", "/api/campaigns", nil, &campaigns)
	if len(campaigns) != 0 {
		t.Fatalf("a rejected import stored a campaign: %v", campaigns)
	}
	big := append([]byte(`{"name":"`), bytes.Repeat([]byte("x"), 2<<20)...)
	if code := srv.do("POST", "/api/encounters", big, &e); code != 413 {
		t.Fatalf("oversized import %d %+v", code, e)
	}
	if code := srv.do("GET", "/api/encounters/00000000-0000-0000-0000-000000000000", nil, &e); code != 404 {
		t.Fatalf("unknown encounter %d", code)
	}
	id := srv.importExample()
	if code := srv.do("POST", "/api/encounters/"+id+"/commands", []byte(`{"id":"h1","command":{"kind":"start"}}`), &e); code != 200 {
		t.Fatalf("http command %d %+v", code, e)
	}
	if code := srv.do("POST", "/api/encounters/"+id+"/commands", []byte(`{"id":"h2","command":{"kind":"start"}}`), &e); code != 422 || e.Code != "illegal" {
		t.Fatalf("second start %d %+v", code, e)
	}
	if code := srv.do("POST", "/api/encounters/"+id+"/commands", []byte(`not json`), &e); code != 400 {
		t.Fatalf("malformed body %d %+v", code, e)
	}
}

// TestFormPostWithoutScript plays through the page's plain form posts, the
// path a browser without JavaScript takes.
func TestFormPostWithoutScript(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	srv := base.withUser(base.signup("gamemaster"))
	id := srv.importExample()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(form string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+"/encounters/"+id+"/act", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+srv.as.Token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post("kind=start"); resp.StatusCode != http.StatusSeeOther || flash(resp.Header, "error") != "" {
		t.Fatalf("start by form: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if v, _ := srv.view(id, ""); v.Status != "running" {
		t.Fatalf("status %q after the start form", v.Status)
	}
	before, _ := srv.view(id, "")
	resp := post("kind=teleport&actor=" + before.Current)
	if loc := resp.Header.Get("Location"); !strings.Contains(flash(resp.Header, "error"), "teleport") || strings.Contains(loc, "not") {
		t.Fatalf("an unavailable action redirected to %q with notice %q", loc, flash(resp.Header, "error"))
	}
	if after, _ := srv.view(id, ""); after.Seq != before.Seq {
		t.Fatal("an unavailable action changed the encounter")
	}
	// The page shows the notice it is redirected to.
	req, _ := http.NewRequest("GET", srv.URL+resp.Header.Get("Location"), nil)
	req.Header.Set("Authorization", "Bearer "+srv.as.Token)
	for _, c := range resp.Cookies() {
		req.AddCookie(c)
	}
	page, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if !strings.Contains(string(body), "teleport") {
		t.Fatal("the page does not show the notice")
	}
	// A link cannot make the page say anything.
	req, _ = http.NewRequest("GET", srv.URL+"/encounters/"+id+"?notice=Send+your+password+to+evil", nil)
	req.Header.Set("Authorization", "Bearer "+srv.as.Token)
	page, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(page.Body)
	page.Body.Close()
	if strings.Contains(string(body), "evil") {
		t.Fatal("the page shows a notice taken from its URL")
	}
	// The chat box works without the script too.
	if resp := post("kind=chat&text=Hello+table&to="); resp.StatusCode != http.StatusSeeOther || flash(resp.Header, "error") != "" {
		t.Fatalf("chat by form: %d %q", resp.StatusCode, flash(resp.Header, "error"))
	}
	if resp := post("kind=chat&text=%2Froll+2d6%2B1&to=gm"); flash(resp.Header, "error") != "" {
		t.Fatalf("roll by form: %q", flash(resp.Header, "error"))
	}
	if resp := post("kind=chat&text=%2Fdance"); !strings.Contains(flash(resp.Header, "error"), "unknown chat command") {
		t.Fatalf("a bad chat command: %q", flash(resp.Header, "error"))
	}
	var evs struct {
		Events []struct{ Kind, Text string }
	}
	srv.do("GET", "/api/encounters/"+id+"/events?since=0", nil, &evs)
	talk := 0
	for _, ev := range evs.Events {
		if ev.Kind == "chat-message" && strings.HasSuffix(ev.Text, ": Hello table") || ev.Kind == "free-rolled" && strings.Contains(ev.Text, "(GM only) rolls 2d6+1") {
			talk++
		}
	}
	if talk != 2 {
		t.Fatalf("the chat by form left %d of 2 events: %+v", talk, evs.Events)
	}
}

// TestErrorPages: a browser gets errors as pages in the site's layout with
// a way back; other clients get plain text; the API JSON.
func TestErrorPages(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	get := func(path, accept, referer string) (int, string, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if referer != "" {
			req.Header.Set("Referer", referer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	code, ctype, body := get("/no/such/page", "text/html,application/xhtml+xml", srv.URL+"/campaigns/x?y=1")
	if code != 404 || !strings.HasPrefix(ctype, "text/html") {
		t.Fatalf("browser 404: %d %s", code, ctype)
	}
	for _, want := range []string{`<main id="main"`, "Not Found", "no such page", `id="error-back"`, `href="/campaigns/x?y=1"`, `href="/"`, "/static/app.css"} {
		if !strings.Contains(body, want) {
			t.Errorf("error page lacks %q", want)
		}
	}
	if _, _, body := get("/no/such/page", "text/html", "https://elsewhere.example/x"); strings.Contains(body, "elsewhere") {
		t.Error("the way back leads off the site")
	}
	if code, ctype, body := get("/no/such/page", "", ""); code != 404 || !strings.HasPrefix(ctype, "text/plain") || body != "no such page\n" {
		t.Errorf("plain 404: %d %s %q", code, ctype, body)
	}
}

// flash is the message a response leaves for the next page (kind
// "notice" or "error"), "" for none.
func flash(h http.Header, kind string) string {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == "fray_flash_"+kind && c.MaxAge >= 0 {
			b, err := base64.RawURLEncoding.DecodeString(c.Value)
			if err == nil {
				return string(b)
			}
		}
	}
	return ""
}
