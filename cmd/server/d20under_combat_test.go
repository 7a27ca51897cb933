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
	"github.com/fray-vtt/fray/internal/rules/d20under"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestD20UnderFullCombat plays the ford ambush through the API the
// browser uses, to the end of the fight: the real server with
// reproducible dice, the GM and a player each on their own websocket,
// every command sent over it, every question answered by whoever the page
// prompts — the player for the three fortune hunters (free attacks, feats
// when hit, traps, death tests), the GM for the bandits and its rulings
// (searching for arrows). The GM springs the ambush; later it brings
// Lysa down with an adjustment so that her death tests play out on her
// player's page. A bot picks only among the actions each viewer is
// offered; every one must be accepted or refused with a clear message.
// Then the event log, read back through the HTTP API, must replay from the
// stored initial state to the stored final state and project to the view
// the server gives the GM.
func TestD20UnderFullCombat(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := undStart(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_DICE_SEED": "42"})
	gm, player := srv.signup("ford-gm"), srv.signup("ford-player")
	ex, err := prep.ExampleNamed("d20-under-eastern-ford")
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	pcs := []string{"erik", "lysa", "tobias"}
	srv.join(gm, created.Campaign, player, pcs...)

	gmWS := srv.connect(gm, id)
	plWS := srv.connect(player, id)
	if r := gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	// The ambush: declared before the first round.
	if r := gmWS.command("ambush", map[string]any{"kind": d20under.GMSurprise, "ambush": "bandits>heroes"}); r.Type != "ack" {
		t.Fatalf("surprise: %+v", r)
	}
	rng := rand.New(rand.NewPCG(5, 23))
	done := map[string]int{}
	answeredBy := map[string]int{}
	weights := map[string]int{
		d20under.CmdAttack: 14, d20under.CmdShoot: 12, d20under.CmdEngage: 10, d20under.CmdMove: 4, d20under.CmdCharge: 3,
		d20under.CmdFlank: 3, d20under.CmdEndTurn: 3, d20under.CmdDeathTest: 20, d20under.CmdStand: 8, d20under.CmdSwitch: 4,
		d20under.CmdFirstAid: 3, d20under.CmdUseItem: 2, d20under.CmdDisarm: 1, d20under.CmdTackle: 1, d20under.CmdFeat: 1,
		d20under.CmdDelay: 1, d20under.CmdTakeInit: 2, d20under.CmdDeclared: 6, d20under.CmdQuickStrike: 1,
		d20under.CmdSurpriseHit: 8, d20under.CmdSurprisePass: 1, d20under.CmdBreakFree: 4, d20under.GMBegin: 1,
	}
	downed := false
	status := ""
	for n := 0; n < 3000; n++ {
		v := srv.view(gm, id)
		status = string(v.Status)
		if v.Status != engine.StatusRunning {
			break
		}
		if len(v.Pending) > 0 {
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
			cmd := map[string]any{"kind": "answer", "decision": d.ID, "choice": undChoose(d), "values": undValues(rng, d.Fields)}
			if r := ws.command(fmt.Sprintf("a%d", n), cmd); r.Type != "ack" {
				t.Fatalf("answer %s %q: %+v", d.Kind, d.Prompt, r)
			}
			answeredBy[who]++
			done["answer:"+d.Kind]++
			continue
		}
		// Once the fight is on, the GM rules Lysa down (an arrow in the
		// throat, say): her death tests are her player's to roll.
		if !downed && v.Round >= 2 && v.Current != "lysa" {
			if c := combatantOf(v, "lysa"); c != nil && c.Fighting() {
				r := gmWS.command("down", map[string]any{"kind": d20under.GMAdjust, "combatant": "lysa", "what": "toughness", "value": 0})
				if r.Type != "ack" {
					t.Fatalf("adjust: %+v", r)
				}
				downed = true
				continue
			}
		}
		var offered []engine.Action
		var users []*undUser
		for _, u := range []*undUser{player, gm} {
			for _, a := range srv.view(u, id).Actions {
				if weights[a.Kind] > 0 && (u == gm) == (a.Actor == "" || !slices.Contains(pcs, a.Actor)) {
					offered, users = append(offered, a), append(users, u)
				}
			}
		}
		if len(offered) == 0 {
			t.Fatalf("nothing offered (round %d, current %q, phase %q)", v.Round, v.Current, v.Phase)
		}
		i := undPick(rng, offered, weights)
		a, u := offered[i], users[i]
		ws := gmWS
		if u == player {
			ws = plWS
		}
		cmd := undValues(rng, a.Fields)
		cmd["kind"] = a.Kind
		if a.Actor != "" {
			cmd["actor"] = a.Actor
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
		case r.Code == "illegal" || r.Code == "invalid":
			done["refused:"+a.Kind]++ // a clear refusal
		default:
			t.Fatalf("offered %v: %+v", cmd, r)
		}
	}
	if status != string(engine.StatusFinished) {
		t.Fatalf("the fight did not end: %s after %v", status, done)
	}
	t.Logf("played: %v; answered by %v", done, answeredBy)
	for _, k := range []string{d20under.CmdSurpriseHit, d20under.CmdDeathTest, "answer:" + d20under.DecHit} {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if answeredBy["player"] == 0 || answeredBy["gm"] == 0 {
		t.Errorf("answers: %v; want some by the player and some by the GM", answeredBy)
	}
	if plWS.seen(d20under.KindDeathTest) == 0 || plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a death test or a question")
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
	var deathRolls int
	for _, ev := range log {
		if ev.Kind == d20under.KindDeathTest {
			for _, r := range ev.Rolls {
				if r.Who == "lysa" && r.Label == "Death test" {
					deathRolls++
				}
			}
		}
	}
	if deathRolls == 0 {
		t.Error("Lysa's death tests are not on her roll card")
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
	rs := d20under.New()
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
	if latest, _ := engine.Snapshot(stored); !undSameJSON(t, replayed, latest) {
		t.Fatalf("the replayed state differs from the stored one:\n%s\n%s", replayed, latest)
	}
	setup, err := prep.DecodeSetup(ex.Data)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := engine.NewEncounter(rs, id, setup)
	if err != nil {
		t.Fatal(err)
	}
	freshRaw, _ := engine.Snapshot(fresh)
	if !undSameJSON(t, freshRaw, enc.Initial) {
		t.Fatal("the example's setup does not build the stored initial state")
	}
	projected, _ := json.Marshal(engine.Project(rs, st, engine.GMViewer()))
	var served json.RawMessage
	srv.call(gm, "GET", "/api/encounters/"+id, nil, &served)
	if !undSameJSON(t, projected, served) {
		t.Fatalf("the replayed projection differs from the served view:\n%s\n%s", projected, served)
	}
}

func combatantOf(v engine.View, id string) *engine.Combatant {
	for i := range v.Combatants {
		if v.Combatants[i].ID == id {
			return &v.Combatants[i]
		}
	}
	return nil
}

// undChoose answers a decision the way a keen player would: free attacks
// made, hits taken (feats are tested elsewhere), traps jumped.
func undChoose(d engine.Decision) string {
	switch d.Kind {
	case d20under.DecFreeAttack:
		return "attack"
	case d20under.DecTrap:
		return "jump"
	case d20under.DecReclaim:
		return "search"
	}
	if d.Default != "" {
		return d.Default
	}
	return d.Options[0].Value
}

// undValues fills fields with any offered value.
func undValues(rng *rand.Rand, fields []engine.Field) map[string]any {
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
			out[f.Name] = f.Default
		}
	}
	return out
}

func undPick(rng *rand.Rand, offered []engine.Action, weights map[string]int) int {
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

func undSameJSON(t *testing.T, a, b []byte) bool {
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

type undServer struct {
	t   *testing.T
	URL string
}

type undUser struct {
	ID, Name, Token string
}

func undStart(t *testing.T, env map[string]string) *undServer {
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
	s := &undServer{t: t}
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

func (s *undServer) call(u *undUser, method, path string, body any, out any) int {
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

func (s *undServer) signup(name string) *undUser {
	s.t.Helper()
	var u undUser
	if code := s.call(nil, "POST", "/api/signup", map[string]string{"name": name, "password": "correct horse battery"}, &u); code != http.StatusCreated {
		s.t.Fatalf("signup %s: %d", name, code)
	}
	return &u
}

// join invites u to the campaign and gives them the characters.
func (s *undServer) join(gm *undUser, campaign string, u *undUser, characters ...string) {
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

func (s *undServer) view(u *undUser, id string) engine.View {
	s.t.Helper()
	var v engine.View
	if code := s.call(u, "GET", "/api/encounters/"+id, nil, &v); code != http.StatusOK {
		s.t.Fatalf("view as %s: %d", u.Name, code)
	}
	return v
}

// undSocket is one user's websocket on an encounter: a reader goroutine
// keeps it drained, counts the events it delivers and hands replies over.
type undSocket struct {
	t       *testing.T
	conn    *websocket.Conn
	replies chan undReply
	mu      sync.Mutex
	kinds   map[string]int
}

type undReply struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Events  []struct {
		Kind string `json:"kind"`
	} `json:"events"`
}

func (s *undServer) connect(u *undUser, id string) *undSocket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(s.URL, "http") + "/encounters/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + u.Token}}})
	if err != nil {
		s.t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 24)
	c := &undSocket{t: s.t, conn: conn, replies: make(chan undReply, 64), kinds: map[string]int{}}
	go func() {
		defer close(c.replies)
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			var m undReply
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
func (c *undSocket) command(cid string, cmd map[string]any) undReply {
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

// seen counts the events of kind this socket received.
func (c *undSocket) seen(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kinds[kind]
}
