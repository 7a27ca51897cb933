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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules/swzones"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestSwzonesFullCombat plays a whole sw-zones fight through the API the
// browser uses: the real server in-process with reproducible dice, the GM
// and a player each on their own websocket, every command sent over it,
// every decision answered by whoever the page prompts. A bot picks among the
// actions each viewer is offered, making sure the seed's moves all happen
// (a run, a disengage, a push, a burst, answered decisions), until one side
// is out. Then the event log, read back through the HTTP API, must replay
// from the stored initial state to the stored final state, and project to
// the view the server gives the GM.
func TestSwzonesFullCombat(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := swzStart(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_DICE_SEED": "20261121"})

	gm := srv.signup("warehouse-gm")
	player := srv.signup("warehouse-player")
	setupJSON, err := prep.ExampleNamed("sw-zones-warehouse-raid")
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", setupJSON.Data, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	var inv struct{ URL string }
	srv.call(gm, "POST", "/api/campaigns/"+created.Campaign+"/invites", nil, &inv)
	if code := srv.call(player, "POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	pcs := []string{"vance", "mara"}
	for _, pc := range pcs {
		if code := srv.call(gm, "PUT", "/api/campaigns/"+created.Campaign+"/characters/"+pc, map[string]string{"user": player.ID}, nil); code != http.StatusOK {
			t.Fatalf("assign %s: %d", pc, code)
		}
	}

	gmWS := srv.connect(gm, id)
	plWS := srv.connect(player, id)
	if r := gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	done := map[string]int{}
	decisionsFor := map[string]int{} // who answered: "player" or "gm"
	weights := map[string]int{
		swzones.CmdFight: 12, swzones.CmdShoot: 10, swzones.CmdCast: 6, swzones.CmdArea: 3, swzones.CmdEngage: 6,
		swzones.CmdMove: 3, swzones.CmdPush: 1, swzones.CmdDisengage: 1, swzones.CmdRun: 1, swzones.CmdGrapple: 1,
		swzones.CmdEscape: 4, swzones.CmdRise: 4, swzones.CmdUnshake: 3, swzones.CmdEndTurn: 2,
	}
	// The seed's moves the bot makes sure of, first chance it gets.
	must := []string{swzones.CmdRun, swzones.CmdPush, swzones.CmdDisengage, swzones.CmdArea}
	status := ""
	for n := 0; n < 2500; n++ {
		v := srv.view(gm, id)
		status = string(v.Status)
		if v.Status != engine.StatusRunning {
			break
		}
		if len(v.Pending) > 0 {
			d := v.Pending[0]
			ws := gmWS
			if slices.Contains(pcs, d.For) {
				// Prompted to the player who owns the fighter, live: their
				// page lists it, and the GM's page says it waits for them.
				pv := srv.view(player, id)
				if !slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.ID == d.ID }) {
					t.Fatalf("decision %q for %s is not on the player's page", d.Prompt, d.For)
				}
				ws = plWS
				decisionsFor["player"]++
			} else {
				if pv := srv.view(player, id); len(pv.Waiting) == 0 {
					t.Fatalf("the player's page does not say it waits (%q for %s)", d.Prompt, d.For)
				}
				decisionsFor["gm"]++
			}
			choice := swzChoose(rng, d)
			if r := ws.command(fmt.Sprintf("a%d", n), map[string]any{"kind": "answer", "decision": d.ID, "choice": choice}); r.Type != "ack" {
				t.Fatalf("answer %s %q with %q: %+v", d.Kind, d.Prompt, choice, r)
			}
			done["answer:"+d.Kind]++
			continue
		}
		cur := v.Current
		ws, u := gmWS, gm
		if slices.Contains(pcs, cur) {
			ws, u = plWS, player
		}
		var offered []engine.Action
		for _, a := range srv.view(u, id).Actions {
			if a.Actor == cur && weights[a.Kind] > 0 {
				offered = append(offered, a)
			}
		}
		if len(offered) == 0 {
			t.Fatalf("no action offered to %s (%s)", cur, u.Name)
		}
		a := swzPick(rng, offered, weights, must, done)
		cmd := map[string]any{"kind": a.Kind, "actor": a.Actor}
		for _, f := range a.Fields {
			switch f.Type {
			case "select":
				cmd[f.Name] = f.Options[rng.IntN(len(f.Options))].Value
			case "number":
				cmd[f.Name] = f.Min
				if f.Name == "spare" {
					cmd[f.Name] = f.Max
				}
			case "checkbox":
				cmd[f.Name] = f.Name == "run" && done[swzones.CmdRun] == 0
			}
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
		case r.Code == "illegal" && strings.Contains(r.Message, "out of range"):
			// A target in reach of one weapon but not the one picked.
		default:
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
	}
	if status != string(engine.StatusFinished) {
		t.Fatalf("the fight did not end: %s after %v", status, done)
	}
	t.Logf("played: %v; decisions answered by %v", done, decisionsFor)
	for _, k := range append(must, "answer:"+swzones.DecAim) {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if decisionsFor["player"] == 0 || decisionsFor["gm"] == 0 {
		t.Errorf("decisions answered: %v; want some by the player and some by the GM", decisionsFor)
	}

	// The log, read back page by page as the GM.
	var log []engine.Event
	final := srv.view(gm, id)
	for since := int64(0); since < final.Seq; {
		var page struct {
			Seq    int64          `json:"seq"`
			Events []engine.Event `json:"events"`
		}
		srv.call(gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d&limit=200", id, since), nil, &page)
		if len(page.Events) == 0 {
			t.Fatalf("no events after %d of %d", since, final.Seq)
		}
		log = append(log, page.Events...)
		since = page.Events[len(page.Events)-1].Seq
	}
	kinds := map[string]int{}
	for _, ev := range log {
		kinds[ev.Kind]++
	}
	for _, k := range []string{swzones.KindRun, swzones.KindDisengaged, swzones.KindPush, swzones.KindAreaAttack, swzones.KindAreaLanded, engine.KindDecisionResolved, engine.KindEnded} {
		if kinds[k] == 0 {
			t.Errorf("no %s event in the log", k)
		}
	}
	if plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a decision")
	}

	// Replay the log from the stored initial state.
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
	rs := swzones.New()
	st, err := rs.Decode(enc.Initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(rs, st, log); err != nil {
		t.Fatal(err)
	}
	replayed, _ := engine.Snapshot(st)
	stored, err := play.Latest(ctx, db, rs, id) // the latest snapshot and the events after it
	if err != nil {
		t.Fatal(err)
	}
	if latest, _ := engine.Snapshot(stored); !swzSameJSON(t, replayed, latest) {
		t.Fatalf("the replayed state differs from the stored one:\n%s\n%s", replayed, latest)
	}
	// The same setup builds the same initial state.
	setup, err := prep.DecodeSetup(setupJSON.Data)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := engine.NewEncounter(rs, id, setup)
	if err != nil {
		t.Fatal(err)
	}
	freshRaw, _ := engine.Snapshot(fresh)
	if !swzSameJSON(t, freshRaw, enc.Initial) {
		t.Fatal("the example's setup does not build the stored initial state")
	}
	projected, _ := json.Marshal(engine.Project(rs, st, engine.GMViewer()))
	var served json.RawMessage
	srv.call(gm, "GET", "/api/encounters/"+id, nil, &served)
	if !swzSameJSON(t, projected, served) {
		t.Fatalf("the replayed projection differs from the served view:\n%s\n%s", projected, served)
	}
}

// swzChoose answers a decision the way a keen player would.
func swzChoose(rng *rand.Rand, d engine.Decision) string {
	switch d.Kind {
	case swzones.DecSoak, swzones.DecReroll, swzones.DecDive:
		return d.Options[0].Value // soak, reroll, dive
	case swzones.DecAim:
		return d.Options[rng.IntN(len(d.Options)-1)].Value // never cancel
	}
	return d.Options[rng.IntN(len(d.Options))].Value
}

// swzPick takes the first offered action the bot still must make, or a
// weighted random one.
func swzPick(rng *rand.Rand, offered []engine.Action, weights map[string]int, must []string, done map[string]int) engine.Action {
	for _, k := range must {
		if done[k] > 0 {
			continue
		}
		for _, a := range offered {
			if a.Kind == k {
				return a
			}
		}
	}
	total := 0
	for _, a := range offered {
		total += weights[a.Kind]
	}
	n := rng.IntN(total)
	for _, a := range offered {
		if n -= weights[a.Kind]; n < 0 {
			return a
		}
	}
	return offered[len(offered)-1]
}

// swzSameJSON compares two JSON documents by value (the database may
// reorder keys).
func swzSameJSON(t *testing.T, a, b []byte) bool {
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

// --- a small, self-contained client of the real server ---

type swzServer struct {
	t   *testing.T
	URL string
}

type swzUser struct {
	ID, Name, Token string
}

// swzStart runs the server in-process with env (FRAY_ADDR and the log level
// are set here) and stops it when the test ends.
func swzStart(t *testing.T, env map[string]string) *swzServer {
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
	s := &swzServer{t: t}
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

// call makes an API request as u and decodes the answer into out.
func (s *swzServer) call(u *swzUser, method, path string, body any, out any) int {
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
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			s.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode
}

func (s *swzServer) signup(name string) *swzUser {
	s.t.Helper()
	var u swzUser
	if code := s.call(nil, "POST", "/api/signup", map[string]string{"name": name, "password": "correct horse battery"}, &u); code != http.StatusCreated {
		s.t.Fatalf("signup %s: %d", name, code)
	}
	return &u
}

func (s *swzServer) view(u *swzUser, id string) engine.View {
	s.t.Helper()
	var v engine.View
	if code := s.call(u, "GET", "/api/encounters/"+id, nil, &v); code != http.StatusOK {
		s.t.Fatalf("view as %s: %d", u.Name, code)
	}
	return v
}

// swzSocket is one user's websocket on an encounter: a reader goroutine
// keeps it drained, counts the events it delivers and hands replies over.
type swzSocket struct {
	t       *testing.T
	conn    *websocket.Conn
	replies chan swzReply
	mu      sync.Mutex
	kinds   map[string]int
}

type swzReply struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Seq     int64  `json:"seq"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Events  []struct {
		Kind string `json:"kind"`
	} `json:"events"`
}

func (s *swzServer) connect(u *swzUser, id string) *swzSocket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(s.URL, "http") + "/encounters/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + u.Token}}})
	if err != nil {
		s.t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 22)
	c := &swzSocket{t: s.t, conn: conn, replies: make(chan swzReply, 16), kinds: map[string]int{}}
	go func() {
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				close(c.replies)
				return
			}
			var m swzReply
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			switch m.Type {
			case "events":
				c.mu.Lock()
				for _, e := range m.Events {
					c.kinds[e.Kind]++
				}
				c.mu.Unlock()
			case "ack", "error":
				c.replies <- m
			}
		}
	}()
	s.t.Cleanup(func() { conn.CloseNow() })
	return c
}

// command sends a command and waits for its ack or error.
func (c *swzSocket) command(cid string, cmd map[string]any) swzReply {
	c.t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "command", "id": cid, "command": cmd})
	if err := c.conn.Write(context.Background(), websocket.MessageText, raw); err != nil {
		c.t.Fatalf("write: %v", err)
	}
	timeout := time.After(15 * time.Second)
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

// seen counts the events of kind this socket received.
func (c *swzSocket) seen(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kinds[kind]
}
