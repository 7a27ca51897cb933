package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// raw makes a request as u (nil: anonymous) without following redirects and
// returns the status.
func (s *testServer) raw(u *apiUser, method, path, contentType, body string) int {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.Token)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestAuthorizationMatrix checks every route for an anonymous visitor, a
// signed-in stranger, the player, another player of the same campaign, and
// the GM.
func TestAuthorizationMatrix(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	other := srv.signup("player-two")
	stranger := srv.signup("stranger")
	gm := srv.withUser(tb.gm)
	var inv struct{ URL string }
	gm.do("POST", "/api/campaigns/"+tb.campaign+"/invites", nil, &inv)
	srv.withUser(other).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil)
	v, _ := gm.view(tb.id, "")
	var otherPC string
	for _, c := range v.Combatants {
		if c.PC && c.ID != tb.pc {
			otherPC = c.ID
		}
	}
	gm.do("PUT", "/api/campaigns/"+tb.campaign+"/characters/"+otherPC, map[string]string{"user": other.ID}, nil)
	// The GM starts the encounter (before the matrix, so turn commands mean something).
	if code := srv.raw(tb.gm, "POST", "/api/encounters/"+tb.id+"/commands", "application/json", `{"id":"go","command":{"kind":"start"}}`); code != 200 {
		t.Fatalf("start: %d", code)
	}
	example, _ := prep.ExampleNamed("sw-zones-goblin-ford")
	// The player's character is one of the campaign's characters (its page
	// and history are the GM's and the player's only).
	sheet := url.Values{}
	for k, v := range brakSheet {
		sheet[k] = v
	}
	sheet.Set("name", tb.pc)
	if r := srv.prepForm(tb.gm, "/campaigns/"+tb.campaign+"/pcs", sheet); r.code != 303 {
		t.Fatalf("character: %d %s", r.code, r.body)
	}

	const form, js = "application/x-www-form-urlencoded", "application/json"
	c, e := "/campaigns/"+tb.campaign, "/encounters/"+tb.id
	// A draft (empty: it cannot be simulated yet).
	blank := srv.prepForm(tb.gm, c+"/drafts", url.Values{"ruleset": {"sw-zones"}, "name": {"Empty"}})
	if blank.code != 303 {
		t.Fatalf("draft: %d", blank.code)
	}
	d := blank.location
	// turn is what a command for the player's own PC may answer: applied,
	// or not their turn — but never forbidden.
	turn := []int{200, 409}
	type row struct {
		method, path, ctype, body         string
		anon, stranger, player, other, gm []int
	}
	one := func(c int) []int { return []int{c} }
	rows := []row{
		{"GET", "/", "", "", one(200), one(200), one(200), one(200), one(200)},
		{"GET", "/account", "", "", one(303), one(200), one(200), one(200), one(200)},
		{"GET", c, "", "", one(303), one(404), one(200), one(200), one(200)},
		{"POST", c + "/invites", form, "", one(401), one(404), one(403), one(403), one(200)},
		{"POST", c + "/characters", form, "character=" + tb.pc + "&user=" + tb.player.ID, one(401), one(404), one(403), one(403), one(303)},
		{"POST", c + "/encounters/example", form, "example=sw-zones-goblin-ford", one(401), one(404), one(403), one(403), one(303)},
		{"POST", c + "/members/" + other.ID + "/role", form, "role=player", one(401), one(404), one(403), one(403), one(303)},
		{"GET", e, "", "", one(303), one(404), one(200), one(200), one(200)},
		{"GET", e + "?choose=1", "", "", one(303), one(404), one(200), one(200), one(200)},
		{"POST", e + "/act", form, "kind=end-turn&actor=jed-carver", one(401), one(404), one(303), one(303), one(303)},
		{"GET", "/api/me", "", "", one(401), one(200), one(200), one(200), one(200)},
		{"GET", "/api/campaigns", "", "", one(401), one(200), one(200), one(200), one(200)},
		{"GET", "/api" + c, "", "", one(401), one(404), one(200), one(200), one(200)},
		{"POST", "/api" + c + "/invites", js, "", one(401), one(404), one(403), one(403), one(201)},
		{"PUT", "/api" + c + "/characters/" + tb.pc, js, `{"user":"` + tb.player.ID + `"}`, one(401), one(404), one(403), one(403), one(200)},
		{"POST", "/api" + c + "/encounters", js, string(example.Data), one(401), one(404), one(403), one(403), one(201)},
		{"POST", "/api/encounters?campaign=" + tb.campaign, js, string(example.Data), one(401), one(404), one(403), one(403), one(201)},
		{"GET", "/api" + e, "", "", one(401), one(404), one(200), one(200), one(200)},
		{"GET", "/api" + e + "?as=" + tb.pc, "", "", one(401), one(404), one(200), one(200), one(200)},
		{"GET", "/api" + e + "/events", "", "", one(401), one(404), one(200), one(200), one(200)},
		{"POST", "/api" + e + "/commands", js, `{"id":"m-pause","command":{"kind":"pause"}}`, one(401), one(404), one(403), one(403), one(200)},
		{"POST", "/api" + e + "/commands", js, `{"id":"m-resume","command":{"kind":"resume"}}`, one(401), one(404), one(403), one(403), one(200)},
		{"POST", "/api" + e + "/commands", js, `{"id":"m-own","command":{"kind":"end-turn","actor":"` + tb.pc + `"}}`, one(401), one(404), turn, one(403), turn},
		{"POST", "/api" + e + "/commands", js, `{"id":"m-npc","command":{"kind":"end-turn","actor":"jed-carver"}}`, one(401), one(404), one(403), one(403), turn},
		{"GET", e + "/carry-over", "", "", one(303), one(404), one(403), one(403), one(200)},
		{"POST", e + "/carry-over", form, "", one(401), one(404), one(403), one(403), one(400)},
		{"GET", "/api" + e + "/carry-over", "", "", one(401), one(404), one(403), one(403), one(200)},
		{"POST", "/api" + e + "/carry-over", js, `{"characters":[]}`, one(401), one(404), one(403), one(403), one(400)},
		{"GET", c + "/characters/" + tb.pc, "", "", one(303), one(404), one(200), one(404), one(200)},
		{"GET", "/api" + c + "/characters/" + tb.pc + "/revisions", "", "", one(401), one(404), one(200), one(404), one(200)},
		{"GET", "/api" + c + "/characters", "", "", one(401), one(404), one(200), one(200), one(200)},
		{"GET", c + "/characters.json", "", "", one(303), one(404), one(403), one(403), one(200)},
		{"POST", c + "/characters/import", form, "", one(401), one(404), one(403), one(403), one(303)},
		{"GET", d + "/odds", "", "", one(303), one(404), one(403), one(403), one(200)},
		{"POST", d + "/odds", form, "runs=5", one(401), one(404), one(403), one(403), one(303)},
		{"GET", "/api" + d + "/odds", "", "", one(401), one(404), one(403), one(403), one(200)},
		{"POST", "/api" + d + "/odds", js, `{"runs":5}`, one(401), one(404), one(403), one(403), one(422)},
		{"POST", "/api" + d + "/odds/cancel", js, "", one(401), one(404), one(403), one(403), one(200)},
	}
	actors := []*apiUser{nil, stranger, tb.player, other, tb.gm}
	names := []string{"anonymous", "stranger", "player", "other player", "GM"}
	for _, r := range rows {
		want := [][]int{r.anon, r.stranger, r.player, r.other, r.gm}
		for i, u := range actors {
			// Command ids must differ per caller so none is a resend of another's.
			body := strings.ReplaceAll(r.body, `"id":"m-`, fmt.Sprintf(`"id":"%d-`, i))
			if got := srv.raw(u, r.method, r.path, r.ctype, body); !slices.Contains(want[i], got) {
				t.Errorf("%s %s as %s: %d, want %v", r.method, r.path, names[i], got, want[i])
			}
		}
	}

	// The websocket handshake: members only.
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + e + "/ws"
	for i, u := range actors {
		var opts *websocket.DialOptions
		if u != nil {
			opts = &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + u.Token}}}
		}
		conn, resp, err := websocket.Dial(context.Background(), wsURL, opts)
		want := map[int]int{0: 401, 1: 404}[i]
		switch {
		case want == 0 && err != nil:
			t.Errorf("websocket as %s refused: %v", names[i], err)
		case want != 0 && (resp == nil || resp.StatusCode != want):
			t.Errorf("websocket as %s: %v, want %d", names[i], err, want)
		}
		if conn != nil {
			conn.CloseNow()
		}
	}

	// Websocket commands: the player commands only their own character.
	for _, tc := range []struct {
		who     *apiUser
		actor   string
		allowed bool
	}{{tb.player, tb.pc, true}, {tb.player, otherPC, false}, {tb.player, "jed-carver", false}, {other, tb.pc, false}, {tb.gm, tb.pc, true}} {
		ws := srv.withUser(tc.who).dial(tb.id, "")
		ws.read()
		ws.send("ws-"+tc.who.Name+"-"+tc.actor, map[string]any{"kind": "end-turn", "actor": tc.actor})
		m := ws.read()
		for m.Type == "events" {
			m = ws.read()
		}
		forbidden := m.Type == "error" && m.Code == "forbidden"
		if forbidden == tc.allowed {
			t.Errorf("%s commanding %s over the websocket: %s %s", tc.who.Name, tc.actor, m.Type, m.Code)
		}
	}
}

// TestPlayerNeverSeesHiddenOrSecret plays an encounter with a hidden NPC
// and checks, frame by frame, that the player's websocket never carries the
// hidden combatant or a secret event, while the GM's does.
func TestPlayerNeverSeesHiddenOrSecret(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm, player := srv.signup("gamemaster"), srv.signup("player-one")
	g := srv.withUser(gm)
	ex, _ := prep.ExampleNamed("sw-zones-tomb-corridor")
	var created struct{ ID, Campaign string }
	if code := g.do("POST", "/api/encounters", ex.Data, &created); code != 201 {
		t.Fatalf("import: %d", code)
	}
	var inv struct{ URL string }
	g.do("POST", "/api/campaigns/"+created.Campaign+"/invites", nil, &inv)
	srv.withUser(player).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil)
	g.do("PUT", "/api/campaigns/"+created.Campaign+"/characters/sister-ewa", map[string]string{"user": player.ID}, nil)

	gmWS := g.dial(created.ID, "html=1")
	plWS := srv.withUser(player).dial(created.ID, "html=1")
	var gmFrames, plFrames [][]byte
	// Read until the ack of the socket's own last command, "sync": a
	// client's frames leave in order, so every update before it has come.
	collect := func(c *wsClient, into *[][]byte) {
		for {
			_, data, err := c.conn.Read(context.Background())
			if err != nil {
				return
			}
			*into = append(*into, data)
			var m message
			if json.Unmarshal(data, &m) == nil && m.Type == "ack" && m.ID == "sync" {
				return
			}
		}
	}
	finished := make(chan struct{}, 2)
	go func() { collect(gmWS, &gmFrames); finished <- struct{}{} }()
	go func() { collect(plWS, &plFrames); finished <- struct{}{} }()

	// The GM plays two full rounds through the HTTP API, acting for whoever's turn it is.
	g.do("POST", "/api/encounters/"+created.ID+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil)
	for i := 0; i < 14; i++ {
		v, _ := g.view(created.ID, "")
		if v.Current == "" {
			break
		}
		g.do("POST", "/api/encounters/"+created.ID+"/commands", map[string]any{"id": fmt.Sprint("t", i), "command": map[string]any{"kind": "end-turn", "actor": v.Current}}, nil)
	}
	for _, ws := range []*wsClient{gmWS, plWS} {
		ws.send("sync", map[string]any{"kind": "chat", "text": "."})
	}
	for range 2 {
		select {
		case <-finished:
		case <-time.After(patience.Hang()):
			t.Fatal("a socket never got the ack of its last command")
		}
	}

	hidden := [][]byte{[]byte("barrow-wight"), []byte("Barrow wight")}
	sawHidden, sawSecret := false, false
	for _, f := range gmFrames {
		for _, h := range hidden {
			sawHidden = sawHidden || bytes.Contains(f, h)
		}
		sawSecret = sawSecret || bytes.Contains(f, []byte(`"secret":true`))
	}
	if !sawHidden || !sawSecret {
		t.Fatalf("the GM's stream lacks the hidden wight (%v) or its secret events (%v)", sawHidden, sawSecret)
	}
	if len(plFrames) < 3 {
		t.Fatalf("the player received only %d frames", len(plFrames))
	}
	for i, f := range plFrames {
		for _, h := range hidden {
			if bytes.Contains(f, h) {
				t.Fatalf("player frame %d mentions the hidden combatant: %.300s", i, f)
			}
		}
		var m struct {
			Events []struct {
				Seq    int64
				Secret bool
			}
		}
		_ = json.Unmarshal(f, &m)
		for _, ev := range m.Events {
			if ev.Secret {
				t.Fatalf("player frame %d carries secret event %d", i, ev.Seq)
			}
		}
	}
	// The HTTP API applies the same projection.
	var evs json.RawMessage
	srv.withUser(player).do("GET", "/api/encounters/"+created.ID+"/events", nil, &evs)
	_, view := srv.withUser(player).view(created.ID, "")
	for _, h := range hidden {
		if bytes.Contains(evs, h) || bytes.Contains(view, h) {
			t.Fatal("the player's HTTP view or events mention the hidden combatant")
		}
	}
}
