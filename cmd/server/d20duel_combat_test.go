package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestD20DuelStanceStaysSealed plays the start of a duel between two
// players over real websockets, twice: in one run Ana's player — here
// Sir Aldric's — commits Reckless with Find Weakness and his dagger, in
// the other Defensive; in both the GM secretly sets how many blows only
// drive Lady Mirela back (1, then 3). Until Mirela's player commits,
// everything she can read — every frame her socket received (with the
// projection and the page's HTML), the API view, the log API, the
// replay, both exports, the log page and the encounter page — must be
// byte for byte the same in the two runs (once the encounter's own ids
// and clock times are set aside). Aldric's own socket must differ (it
// receives his sealed answer), so the comparison can fail; and once
// Mirela commits she sees the stance.
func TestD20DuelStanceStaysSealed(t *testing.T) {
	srv := duelStart(t, map[string]string{"DATABASE_URL": testdb.URL(t), "FRAY_DICE_SEED": "3"})
	gm, pa, pb := srv.signup("duel-gm"), srv.signup("aldric-player"), srv.signup("mirela-player")
	ex, err := prep.ExampleNamed("d20-duel-dawn-duel")
	if err != nil {
		t.Fatal(err)
	}
	var first, second struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &first); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	if code := srv.call(gm, "POST", "/api/campaigns/"+first.Campaign+"/encounters", ex.Data, &second); code != http.StatusCreated {
		t.Fatalf("second import: %d", code)
	}
	srv.join(gm, first.Campaign, pa, "aldric")
	srv.join(gm, first.Campaign, pb, "mirela")

	type run struct {
		choice   map[string]any
		blows    int
		opponent [][]byte // what Mirela's player can read
		own      []byte   // Aldric's socket
		id       string
		bSocket  *duelSocket
		seq      int64
	}
	runs := []*run{
		{choice: map[string]any{"choice": "reckless", "values": map[string]any{"aim": "find-weakness", "weapon": "dagger"}}, blows: 1, id: first.ID},
		{choice: map[string]any{"choice": "defensive"}, blows: 3, id: second.ID},
	}
	for _, r := range runs {
		gmWS := srv.connect(gm, r.id, "")
		aWS := srv.connect(pa, r.id, "view=1&html=1")
		bWS := srv.connect(pb, r.id, "view=1&html=1")
		start := gmWS.command("start", map[string]any{"kind": "start"})
		if start.Type != "ack" {
			t.Fatalf("start: %+v", start)
		}
		// The GM's secret count, while the stances wait.
		if rep := gmWS.command("drive", map[string]any{"kind": "drive-back", "fighter": "mirela", "blows": r.blows}); rep.Type != "ack" {
			t.Fatalf("drive-back: %+v", rep)
		}
		av := srv.view(pa, r.id)
		if len(av.Pending) != 1 || av.Pending[0].Kind != "stance" || !av.Pending[0].Sealed {
			t.Fatalf("aldric's pending %+v", av.Pending)
		}
		answer := map[string]any{"kind": "answer", "decision": av.Pending[0].ID}
		for k, v := range r.choice {
			answer[k] = v
		}
		ack := aWS.command("commit", answer)
		if ack.Type != "ack" {
			t.Fatalf("commit: %+v", ack)
		}
		r.seq = ack.Seq
		bWS.waitSeq(ack.Seq)
		aWS.waitSeq(ack.Seq)
		norm := duelNormalizer(r.id, first.Campaign)
		r.opponent = append(r.opponent, norm(bytes.Join(bWS.all(), []byte("\n"))))
		r.own = norm(bytes.Join(aWS.all(), []byte("\n")))
		for _, path := range []string{
			"/api/encounters/" + r.id,
			"/api/encounters/" + r.id + "/events?since=0",
			fmt.Sprintf("/api/encounters/%s/replay?seq=%d", r.id, ack.Seq),
			"/api/encounters/" + r.id + "/export.json",
			"/encounters/" + r.id + "/export.md",
			"/encounters/" + r.id + "/log",
			"/encounters/" + r.id,
		} {
			code, body := srv.get(pb, path)
			if code != http.StatusOK {
				t.Fatalf("%s as Mirela's player: %d", path, code)
			}
			r.opponent = append(r.opponent, norm(body))
		}
		bv := srv.view(pb, r.id)
		if len(bv.Pending) != 1 || len(bv.Committed) != 0 || len(bv.Waiting) != 0 {
			t.Fatalf("mirela's view: pending %d committed %d waiting %v", len(bv.Pending), len(bv.Committed), bv.Waiting)
		}
		r.bSocket = bWS
	}
	what := []string{"socket frames", "API view", "events API", "replay", "export.json", "export.md", "log page", "encounter page"}
	for i := range runs[0].opponent {
		if a, b := runs[0].opponent[i], runs[1].opponent[i]; !bytes.Equal(a, b) {
			t.Errorf("Mirela's player can tell the runs apart in the %s:\n%s", what[i], firstDifference(a, b))
		}
	}
	for _, secret := range []string{`"choice":"reckless"`, `"choice":"defensive"`, `"aim":"find-weakness"`, "Stances:", "stances-revealed",
		"driveBack", "drive-back-set", "next 1 ", "next 3 "} {
		for i, seen := range runs[0].opponent {
			if bytes.Contains(seen, []byte(secret)) {
				t.Errorf("the %s holds %q before Mirela commits", what[i], secret)
			}
		}
	}
	if bytes.Equal(runs[0].own, runs[1].own) || !bytes.Contains(runs[0].own, []byte(`"choice":"reckless"`)) {
		t.Error("Aldric's own socket does not show his sealed choice: the comparison proves nothing")
	}

	// Mirela commits in the first run: the reveal reaches her socket.
	r := runs[0]
	bv := srv.view(pb, r.id)
	ack := r.bSocket.command("commit-b", map[string]any{"kind": "answer", "decision": bv.Pending[0].ID, "choice": "default"})
	if ack.Type != "ack" {
		t.Fatalf("mirela's commit: %+v", ack)
	}
	r.bSocket.waitSeq(ack.Seq)
	after := bytes.Join(r.bSocket.all(), []byte("\n"))
	if !bytes.Contains(after, []byte(`"choice":"reckless"`)) || !bytes.Contains(after, []byte("stances-revealed")) {
		t.Fatal("after both committed, Mirela's socket does not show the reveal")
	}
	if bytes.Contains(after, []byte("drive-back-set")) {
		t.Fatal("the GM's secret count reached Mirela's socket")
	}
}

// duelNormalizer sets aside what differs between two encounters of the
// same campaign: their ids and clock times.
func duelNormalizer(id, campaign string) func([]byte) []byte {
	times := regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}| [A-Z]{3,4})?`)
	return func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte(id), []byte("ENCOUNTER"))
		b = bytes.ReplaceAll(b, []byte(campaign), []byte("CAMPAIGN"))
		return times.ReplaceAll(b, []byte("TIME"))
	}
}

func firstDifference(a, b []byte) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	from := max(n-200, 0)
	return fmt.Sprintf("…%s\n—— versus ——\n…%s", a[from:min(n+200, len(a))], b[from:min(n+200, len(b))])
}

// --- a small client of the real server ---

type duelServer struct {
	t   *testing.T
	URL string
}

type duelUser struct {
	ID, Name, Token string
}

// duelStart runs the server in-process with env and stops it when the
// test ends.
func duelStart(t *testing.T, env map[string]string) *duelServer {
	t.Helper()
	all := map[string]string{"FRAY_ADDR": "127.0.0.1:0", "FRAY_LOG_LEVEL": "warn"}
	for k, v := range env {
		all[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"serve"}, func(k string) string { return all[k] }, pw)
		pw.Close()
		done <- err
	}()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "Fray listening on "); ok {
				ready <- addr
			}
		}
	}()
	s := &duelServer{t: t}
	select {
	case s.URL = <-ready:
	case err := <-done:
		t.Fatalf("server exited: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server shutdown: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("server did not shut down")
		}
	})
	return s
}

func (s *duelServer) request(u *duelUser, method, path string, body any) (int, []byte) {
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
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// call makes an API request as u and decodes the answer into out.
func (s *duelServer) call(u *duelUser, method, path string, body any, out any) int {
	s.t.Helper()
	code, raw := s.request(u, method, path, body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			s.t.Fatalf("%s %s: %d %s", method, path, code, raw)
		}
	}
	return code
}

func (s *duelServer) get(u *duelUser, path string) (int, []byte) { return s.request(u, "GET", path, nil) }

func (s *duelServer) signup(name string) *duelUser {
	s.t.Helper()
	var u duelUser
	if code := s.call(nil, "POST", "/api/signup", map[string]string{"name": name, "password": "correct horse battery"}, &u); code != http.StatusCreated {
		s.t.Fatalf("signup %s: %d", name, code)
	}
	return &u
}

// join invites u to the campaign and gives them the characters.
func (s *duelServer) join(gm *duelUser, campaign string, u *duelUser, characters ...string) {
	s.t.Helper()
	var inv struct{ URL string }
	s.call(gm, "POST", "/api/campaigns/"+campaign+"/invites", nil, &inv)
	if code := s.call(u, "POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != http.StatusOK {
		s.t.Fatalf("join: %d", code)
	}
	for _, c := range characters {
		if code := s.call(gm, "PUT", "/api/campaigns/"+campaign+"/characters/"+c, map[string]string{"user": u.ID}, nil); code != http.StatusOK {
			s.t.Fatalf("assign %s: %d", c, code)
		}
	}
}

func (s *duelServer) view(u *duelUser, id string) engine.View {
	s.t.Helper()
	var v engine.View
	if code := s.call(u, "GET", "/api/encounters/"+id, nil, &v); code != http.StatusOK {
		s.t.Fatalf("view as %s: %d", u.Name, code)
	}
	return v
}

// duelSocket is one user's websocket on an encounter: a reader goroutine
// keeps every frame as it came, notes the latest seq, and hands replies
// over.
type duelSocket struct {
	t       *testing.T
	conn    *websocket.Conn
	replies chan duelReply
	mu      sync.Mutex
	frames  [][]byte
	seq     int64
	kinds   map[string]int
	moved   chan struct{}
}

type duelReply struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Seq     int64  `json:"seq"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Events  []struct {
		Kind string `json:"kind"`
	} `json:"events"`
}

func (s *duelServer) connect(u *duelUser, id, query string) *duelSocket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(s.URL, "http") + "/encounters/" + id + "/ws?" + query
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + u.Token}}})
	if err != nil {
		s.t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 24)
	c := &duelSocket{t: s.t, conn: conn, replies: make(chan duelReply, 64), kinds: map[string]int{}, moved: make(chan struct{}, 1)}
	go func() {
		defer close(c.replies)
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			var m duelReply
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			c.mu.Lock()
			switch m.Type {
			case "snapshot", "events":
				c.frames = append(c.frames, data)
				c.seq = max(c.seq, m.Seq)
				for _, e := range m.Events {
					c.kinds[e.Kind]++
				}
			}
			c.mu.Unlock()
			select {
			case c.moved <- struct{}{}:
			default:
			}
			if m.Type == "ack" || m.Type == "error" {
				c.replies <- m
			}
		}
	}()
	s.t.Cleanup(func() { conn.CloseNow() })
	c.waitSeq(0)
	return c
}

// command sends a command and waits for its ack or error.
func (c *duelSocket) command(cid string, cmd map[string]any) duelReply {
	c.t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "command", "id": cid, "command": cmd})
	if err := c.conn.Write(context.Background(), websocket.MessageText, raw); err != nil {
		c.t.Fatalf("write: %v", err)
	}
	timeout := time.After(20 * time.Second)
	for {
		select {
		case r, ok := <-c.replies:
			if !ok {
				c.t.Fatal("the socket closed")
			}
			if r.ID == cid {
				return r
			}
		case <-timeout:
			c.t.Fatalf("no reply to %s", cid)
		}
	}
}

// waitSeq waits until the socket received the encounter up to seq (its
// first frame, for 0).
func (c *duelSocket) waitSeq(seq int64) {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		ok := len(c.frames) > 0 && c.seq >= seq
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-c.moved:
		case <-timeout:
			c.t.Fatalf("the socket never reached seq %d", seq)
		}
	}
}

// all returns every frame received so far.
func (c *duelSocket) all() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.frames...)
}

// seen counts the events of kind this socket received.
func (c *duelSocket) seen(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kinds[kind]
}
