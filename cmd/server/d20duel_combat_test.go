package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules/d20duel"
	"github.com/fray-vtt/fray/internal/store"
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

func (s *duelServer) get(u *duelUser, path string) (int, []byte) {
	return s.request(u, "GET", path, nil)
}

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

// TestD20DuelFullCombat plays the two-duel example through the API the
// browser uses until one side is out: the real server with reproducible
// dice, the GM and a player each on their own websocket, every command
// sent over it, every question answered by whoever the page prompts — the
// player for the caravan guards, the GM for the toll gang, the hidden
// crossbowman and its own rulings. A bot picks only among the actions each
// viewer is offered; every one must be accepted or refused with a clear
// message. Then the event log, read back through the HTTP API, must replay
// from the stored initial state to the stored final state and project to
// the view the server gives the GM.
func TestD20DuelFullCombat(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := duelStart(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_DICE_SEED": "20260203"})
	gm, player := srv.signup("bridge-gm"), srv.signup("bridge-player")
	ex, err := prep.ExampleNamed("d20-duel-old-bridge")
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	pcs := []string{"tove", "henrik"}
	srv.join(gm, created.Campaign, player, pcs...)

	gmWS := srv.connect(gm, id, "")
	plWS := srv.connect(player, id, "")
	if r := gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	rng := rand.New(rand.NewPCG(3, 17))
	done := map[string]int{}
	answeredBy := map[string]int{}
	weights := map[string]int{d20duel.CmdEngage: 10, d20duel.CmdShoot: 6, d20duel.CmdWait: 2, d20duel.CmdTest: 2,
		d20duel.CmdRecover: 4, d20duel.CmdRollTest: 1, d20duel.CmdSetDistance: 1, engine.KindReveal: 1}
	status := ""
	for n := 0; n < 3000; n++ {
		v := srv.view(gm, id)
		status = string(v.Status)
		if v.Status != engine.StatusRunning {
			break
		}
		if len(v.Pending) > 0 && rng.IntN(12) > 0 {
			d := v.Pending[rng.IntN(len(v.Pending))]
			ws, who := gmWS, "gm"
			if slices.Contains(pcs, d.For) {
				pv := srv.view(player, id)
				if !slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.ID == d.ID }) {
					t.Fatalf("decision %q for %s is not on the player's page", d.Prompt, d.For)
				}
				ws, who = plWS, "player"
			} else if pv := srv.view(player, id); len(pv.Waiting) == 0 {
				t.Fatalf("the player's page does not say it waits (%q for %s)", d.Prompt, d.For)
			}
			cmd := map[string]any{"kind": "answer", "decision": d.ID, "choice": duelChoose(rng, d), "values": duelValues(rng, d.Fields)}
			if r := ws.command(fmt.Sprintf("a%d", n), cmd); r.Type != "ack" {
				t.Fatalf("answer %s %q: %+v", d.Kind, d.Prompt, r)
			}
			answeredBy[who]++
			done["answer:"+d.Kind]++
			continue
		}
		// An action: a fighter's in the approach, or a GM ruling (also
		// while questions wait).
		var offered []engine.Action
		var users []*duelUser
		for _, u := range []*duelUser{player, gm} {
			for _, a := range srv.view(u, id).Actions {
				if weights[a.Kind] > 0 && (u == gm) == (a.Actor == "" || !slices.Contains(pcs, a.Actor)) {
					offered, users = append(offered, a), append(users, u)
				}
			}
		}
		if len(offered) == 0 {
			continue
		}
		// The moves the bot makes sure of, first chance it gets: reveal the
		// crossbowman lying in wait, and shoot.
		i := slices.IndexFunc(offered, func(a engine.Action) bool {
			return (a.Kind == engine.KindReveal || a.Kind == d20duel.CmdShoot) && done[a.Kind] == 0
		})
		if i < 0 {
			i = duelPick(rng, offered, weights)
		}
		a, u := offered[i], users[i]
		ws := gmWS
		if u == player {
			ws = plWS
		}
		cmd := duelValues(rng, a.Fields)
		cmd["kind"] = a.Kind
		if a.Actor != "" {
			cmd["actor"] = a.Actor
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
		case r.Code == "illegal" && a.Kind == d20duel.CmdSetDistance:
			done["refused:"+a.Kind]++ // every pair and distance is offered
		default:
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
	}
	if status != string(engine.StatusFinished) {
		t.Fatalf("the fight did not end: %s after %v", status, done)
	}
	t.Logf("played: %v; answered by %v", done, answeredBy)
	for _, k := range []string{"answer:" + d20duel.DecStance, d20duel.CmdShoot, engine.KindReveal, "answer:" + d20duel.DecHurt} {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if answeredBy["player"] == 0 || answeredBy["gm"] == 0 {
		t.Errorf("answers: %v; want some by the player and some by the GM", answeredBy)
	}
	if plWS.seen(d20duel.KindStances) == 0 || plWS.seen(engine.KindDecisionsRevealed) == 0 {
		t.Error("the player's socket never received a reveal")
	}

	// The log, read back page by page as the GM, replays to the stored state.
	var log []engine.Event
	final := srv.view(gm, id)
	for since := int64(0); since < final.Seq; {
		var page struct {
			Events []engine.Event `json:"events"`
		}
		srv.call(gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d&limit=200", id, since), nil, &page)
		if len(page.Events) == 0 {
			t.Fatalf("no events after %d of %d", since, final.Seq)
		}
		log = append(log, page.Events...)
		since = page.Events[len(page.Events)-1].Seq
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	enc, err := db.Encounter(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rs := d20duel.New()
	st, err := rs.Decode(enc.Initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(rs, st, log); err != nil {
		t.Fatal(err)
	}
	replayed, _ := engine.Snapshot(st)
	if !duelSameJSON(t, replayed, enc.State) {
		t.Fatalf("the replayed state differs from the stored one:\n%s\n%s", replayed, enc.State)
	}
	projected, _ := json.Marshal(engine.Project(rs, st, engine.GMViewer()))
	_, served := srv.get(gm, "/api/encounters/"+id)
	if !duelSameJSON(t, projected, served) {
		t.Fatalf("the replayed projection differs from the served view:\n%s\n%s", projected, served)
	}
}

// duelChoose answers a decision the way an eager player would: mostly
// moving, never vetoing (a veto is tested elsewhere).
func duelChoose(rng *rand.Rand, d engine.Decision) string {
	switch d.Kind {
	case d20duel.DecManeuver:
		if rng.IntN(3) > 0 {
			return d20duel.ManeuverChange
		}
	case d20duel.DecVeto, d20duel.DecHurt:
		return d.Default
	}
	return d.Options[rng.IntN(len(d.Options))].Value
}

// duelValues fills fields with any offered value.
func duelValues(rng *rand.Rand, fields []engine.Field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		switch f.Type {
		case engine.FieldSelect:
			out[f.Name] = f.Options[rng.IntN(len(f.Options))].Value
		case engine.FieldNumber:
			out[f.Name] = f.Min + rng.IntN(f.Max-f.Min+1)
		case engine.FieldCheckbox:
			out[f.Name] = rng.IntN(2) == 0
		case engine.FieldString:
			out[f.Name] = "climb the parapet"
		}
	}
	return out
}

// duelPick picks a weighted random action.
func duelPick(rng *rand.Rand, offered []engine.Action, weights map[string]int) int {
	total := 0
	for _, a := range offered {
		total += weights[a.Kind]
	}
	n := rng.IntN(total)
	for i, a := range offered {
		if n -= weights[a.Kind]; n < 0 {
			return i
		}
	}
	return len(offered) - 1
}

// duelSameJSON compares two JSON documents by value (the database may
// reorder keys).
func duelSameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
