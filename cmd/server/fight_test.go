package main

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// The fight harness: what the full-fight tests of every ruleset and the
// advertised-actions contract share to play an encounter through the API
// the browser uses — the real server in-process, accounts, a campaign with
// a player, each user on their own websocket, the views they are given,
// and at the end the log read back and replayed against what the server
// stored.

// call makes an API request as u (nil: anonymous) and decodes the answer
// into out.
func (s *testServer) call(u *apiUser, method, path string, body, out any) int {
	s.t.Helper()
	return s.withUser(u).do(method, path, body, out)
}

// viewAs is u's view of encounter id, as the API serves it.
func (s *testServer) viewAs(u *apiUser, id string) engine.View {
	s.t.Helper()
	var v engine.View
	if code := s.call(u, "GET", "/api/encounters/"+id, nil, &v); code != http.StatusOK {
		s.t.Fatalf("view as %s: %d", u.Name, code)
	}
	return v
}

// join invites u to the campaign and gives them the characters.
func (s *testServer) join(gm *apiUser, campaign string, u *apiUser, characters ...string) {
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

// fight is an example encounter fought over the real server by the GM and
// one player, who owns pcs; each is on their own websocket.
type fight struct {
	t          *testing.T
	srv        *testServer
	dbURL      string
	example    prep.Example
	id         string
	campaign   string
	gm, player *apiUser
	pcs        []string
	gmWS, plWS *fightSocket
	status     engine.Status // as the last of turns' views had it
	// sealed are the player's answers to sealed decisions, committed to
	// and kept, by decision id, until the page reveals them.
	sealed map[string]map[string]any
	unseal int
}

// startFight starts the server with dice seeded by seed, signs up the GM
// and the player (names are prefixed by tag), imports the example named
// example, gives the player pcs and connects both.
func startFight(t *testing.T, seed, example, tag string, pcs ...string) *fight {
	t.Helper()
	f := &fight{t: t, dbURL: testdb.URL(t), pcs: pcs, sealed: map[string]map[string]any{}}
	f.srv = startServerEnv(t, f.dbURL, map[string]string{"FRAY_DICE_SEED": seed})
	f.gm, f.player = f.srv.signup(tag+"-gm"), f.srv.signup(tag+"-player")
	ex, err := prep.ExampleNamed(example)
	if err != nil {
		t.Fatal(err)
	}
	f.example = ex
	var created struct{ ID, Campaign string }
	if code := f.srv.call(f.gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	f.id, f.campaign = created.ID, created.Campaign
	f.srv.join(f.gm, f.campaign, f.player, pcs...)
	f.gmWS = f.srv.connect(f.gm, f.id, "")
	f.plWS = f.srv.connect(f.player, f.id, "")
	return f
}

// view is the GM's view, viewAs the player's.
func (f *fight) view() engine.View       { return f.srv.viewAs(f.gm, f.id) }
func (f *fight) playerView() engine.View { return f.srv.viewAs(f.player, f.id) }

// mine reports whether combatant id is the player's.
func (f *fight) mine(id string) bool { return slices.Contains(f.pcs, id) }

// answerer returns the socket that answers decision d, and who that is:
// "player" when d is for one of the player's characters — it must then be
// prompted on their page, live — else "gm", and then the player's page
// must say the encounter waits.
func (f *fight) answerer(d engine.Decision) (*fightSocket, string) {
	f.t.Helper()
	pv := f.playerView()
	if f.mine(d.For) {
		if !slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.ID == d.ID }) {
			f.t.Fatalf("decision %q for %s is not on the player's page", d.Prompt, d.For)
		}
		return f.plWS, "player"
	}
	if len(pv.Waiting) == 0 {
		f.t.Fatalf("the player's page does not say it waits (%q for %s)", d.Prompt, d.For)
	}
	return f.gmWS, "gm"
}

// turns yields the GM's view before each of up to limit commands, for as
// long as the encounter runs; after the loop, ended checks how it stopped.
func (f *fight) turns(limit int) iter.Seq2[int, engine.View] {
	return func(yield func(int, engine.View) bool) {
		for n := 0; n < limit; n++ {
			f.reveal()
			v := f.view()
			f.status = v.Status
			if v.Status != engine.StatusRunning || !yield(n, v) {
				return
			}
		}
	}
}

// ended fails the test unless the encounter finished; done, what the bot
// did, tells how far it got.
func (f *fight) ended(done map[string]int) {
	f.t.Helper()
	if f.status != engine.StatusFinished {
		f.t.Fatalf("the fight did not end: %s after %v", f.status, done)
	}
}

// answer sends the answer to decision d with args (its choice, values)
// from the socket of whoever answers it (see answerer), and returns who
// that was. Anything but an ack fails the test. The player answers a
// sealed decision as the page does: a commitment now, the answer itself
// once everyone has answered (reveal).
func (f *fight) answer(cid string, d engine.Decision, args map[string]any) string {
	f.t.Helper()
	ws, who := f.answerer(d)
	cmd := map[string]any{"kind": engine.KindAnswer, "decision": d.ID}
	for k, v := range args {
		cmd[k] = v
	}
	if d.Sealed && who == "player" {
		kept := map[string]any{"kind": engine.KindUnseal, "decision": d.ID, "nonce": fmt.Sprintf("%032x", len(f.sealed)+1)}
		var values json.RawMessage
		for k, v := range args {
			kept[k] = v
			if k == "values" {
				values, _ = json.Marshal(v)
			}
		}
		c, err := engine.Commitment(d.ID, fmt.Sprint(args["choice"]), values, kept["nonce"].(string))
		if err != nil {
			f.t.Fatal(err)
		}
		f.sealed[d.ID] = kept
		cmd = map[string]any{"kind": engine.KindAnswer, "decision": d.ID, "commitment": c}
	}
	if r := ws.command(cid, cmd); r.Type != "ack" {
		f.t.Fatalf("answer %s %q with %v: %+v", d.Kind, d.Prompt, args, r)
	}
	return who
}

// reveal sends, from the player's socket, every sealed answer the
// player's view asks to reveal now.
func (f *fight) reveal() {
	f.t.Helper()
	if len(f.sealed) == 0 {
		return
	}
	for _, c := range f.playerView().Committed {
		cmd, ok := f.sealed[c.Decision]
		if !ok || !c.Reveal {
			continue
		}
		f.unseal++
		if r := f.plWS.command(fmt.Sprintf("unseal%d", f.unseal), cmd); r.Type != "ack" {
			f.t.Fatalf("reveal %v: %+v", cmd, r)
		}
		delete(f.sealed, c.Decision)
	}
}

// offered lists the actions of weighted kinds the player's view offers for
// their characters and the GM's for everyone else and for the GM's own
// commands, with the socket that sends each.
func (f *fight) offered(weights map[string]int) ([]engine.Action, []*fightSocket) {
	f.t.Helper()
	var offered []engine.Action
	var sockets []*fightSocket
	for _, u := range []*apiUser{f.player, f.gm} {
		ws := f.plWS
		if u == f.gm {
			ws = f.gmWS
		}
		for _, a := range f.srv.viewAs(u, f.id).Actions {
			if weights[a.Kind] > 0 && (u == f.gm) == (a.Actor == "" || !f.mine(a.Actor)) {
				offered, sockets = append(offered, a), append(sockets, ws)
			}
		}
	}
	return offered, sockets
}

// log reads the whole event log back through the API, page by page, as the
// GM.
func (f *fight) log() []engine.Event {
	f.t.Helper()
	var log []engine.Event
	final := f.view()
	for since := int64(0); since < final.Seq; {
		var page struct {
			Events []engine.Event `json:"events"`
		}
		f.srv.call(f.gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d&limit=200", f.id, since), nil, &page)
		if len(page.Events) == 0 {
			f.t.Fatalf("no events after %d of %d", since, final.Seq)
		}
		log = append(log, page.Events...)
		since = page.Events[len(page.Events)-1].Seq
	}
	return log
}

// checkReplay checks what the server stored against log: the example's
// setup builds the stored initial state, log replays from it to the stored
// state, and that state projects to the view the server gives the GM.
func (f *fight) checkReplay(rs engine.Ruleset, log []engine.Event) {
	f.t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, f.dbURL)
	if err != nil {
		f.t.Fatal(err)
	}
	defer db.Close()
	enc, err := db.Encounter(ctx, f.id)
	if err != nil {
		f.t.Fatal(err)
	}
	st, err := rs.Decode(enc.Initial)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := engine.Replay(rs, st, log); err != nil {
		f.t.Fatal(err)
	}
	replayed, _ := engine.Snapshot(st)
	stored, err := play.Latest(ctx, db, rs, f.id) // the latest snapshot and the events after it
	if err != nil {
		f.t.Fatal(err)
	}
	if latest, _ := engine.Snapshot(stored); !sameJSON(f.t, replayed, latest) {
		f.t.Fatalf("the replayed state differs from the stored one:\n%s\n%s", replayed, latest)
	}
	setup, err := engine.DecodeSetup(f.example.Data)
	if err != nil {
		f.t.Fatal(err)
	}
	fresh, err := engine.NewEncounter(rs, f.id, setup)
	if err != nil {
		f.t.Fatal(err)
	}
	freshRaw, _ := engine.Snapshot(fresh)
	if !sameJSON(f.t, freshRaw, enc.Initial) {
		f.t.Fatal("the example's setup does not build the stored initial state")
	}
	var served json.RawMessage
	f.srv.call(f.gm, "GET", "/api/encounters/"+f.id, nil, &served)
	// The GM's viewer knows which characters the player owns (their
	// decisions are the player's): project as that viewer.
	var as struct{ Viewer engine.Viewer }
	if err := json.Unmarshal(served, &as); err != nil || !as.Viewer.GM || len(as.Viewer.Players) != len(f.pcs) {
		f.t.Fatalf("the GM's served viewer %+v (%v), the player owns %v", as.Viewer, err, f.pcs)
	}
	projected, _ := json.Marshal(engine.Project(rs, st, as.Viewer))
	if !sameJSON(f.t, projected, served) {
		f.t.Fatalf("the replayed projection differs from the served view:\n%s\n%s", projected, served)
	}
}

// pickMust takes the first offered action of a kind in must that the fight
// has not seen yet (done counts what it has), or else a weighted random
// one; every offered action must weigh something.
func pickMust(rng *rand.Rand, offered []engine.Action, weights map[string]int, must []string, done map[string]int) engine.Action {
	for _, k := range must {
		if i := slices.IndexFunc(offered, func(a engine.Action) bool { return a.Kind == k }); i >= 0 && done[k] == 0 {
			return offered[i]
		}
	}
	return offered[enginetest.PickAction(rng, offered, weights)]
}

// fightSocket is one user's websocket on an encounter: a reader goroutine
// keeps it drained, keeps every snapshot and events frame as it came,
// notes the latest seq, counts the events' kinds and hands the replies to
// commands over.
type fightSocket struct {
	t       *testing.T
	conn    *websocket.Conn
	replies chan fightReply
	mu      sync.Mutex
	frames  [][]byte
	seq     int64
	kinds   map[string]int
	moved   chan struct{}
}

// fightReply is the server's answer to a command: an ack or an error.
type fightReply struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Seq     int64  `json:"seq"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Events  []struct {
		Kind string `json:"kind"`
	} `json:"events"`
}

// connect opens u's websocket on encounter id (query as the page would
// add it, e.g. "view=1&html=1") and waits for its first frame.
func (s *testServer) connect(u *apiUser, id, query string) *fightSocket {
	s.t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	url := "ws" + strings.TrimPrefix(s.URL, "http") + "/encounters/" + id + "/ws?" + query
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + u.Token}}})
	if err != nil {
		s.t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 24)
	c := &fightSocket{t: s.t, conn: conn, replies: make(chan fightReply, 64), kinds: map[string]int{}, moved: make(chan struct{}, 1)}
	go func() {
		defer close(c.replies)
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			var m fightReply
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
func (c *fightSocket) command(cid string, cmd map[string]any) fightReply {
	c.t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "command", "id": cid, "command": cmd})
	if err := c.conn.Write(context.Background(), websocket.MessageText, raw); err != nil {
		c.t.Fatalf("write: %v", err)
	}
	timeout := time.After(patience.Hang())
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
func (c *fightSocket) waitSeq(seq int64) {
	c.t.Helper()
	timeout := time.After(patience.Hang())
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
func (c *fightSocket) all() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.frames...)
}

// seen counts the events of kind this socket received.
func (c *fightSocket) seen(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kinds[kind]
}
