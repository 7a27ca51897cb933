package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// Websocket close codes a session ends with when its access changes (see
// docs/protocol.md).
const (
	closeSignedOut     websocket.StatusCode = 4401
	closeAccessRevoked websocket.StatusCode = 4403
	closeAccessChanged websocket.StatusCode = 4409
)

// accessTable is the tomb-corridor example (with the hidden barrow-wight) in
// a campaign run by gm with a co-GM, and a player who owns sister-ewa. It
// runs on one server or, with two, the change is made on a and watched on b.
type accessTable struct {
	t                 *testing.T
	dbURL             string
	a, b              *testServer // b shares a's database; a == b for one instance
	gm, cogm, player  *apiUser
	campaign, id, pc  string
	hidden, hiddenTxt string
}

func newAccessTable(t *testing.T, twoInstances bool) *accessTable {
	t.Helper()
	return newAccessTableOf(t, twoInstances, tombCorridor)
}

// hiddenExample is an example encounter with a hidden combatant and a
// player character.
type hiddenExample struct {
	ruleset, example, pc, hidden, hiddenName string
	// free, if set, is the GM command that frees the player character to
	// act on its own (it starts locked in a duel), sent before playing on
	// until the player is offered a targeted action.
	free string
}

var (
	tombCorridor = hiddenExample{"sw-zones", "sw-zones-tomb-corridor", "sister-ewa", "barrow-wight", "Barrow wight", ""}
	oldBridge    = hiddenExample{"d20-duel", "d20-duel-old-bridge", "tove", "sniper", "Crossbowman on the gatehouse",
		`{"kind":"set-distance","pair":"tove+grek","distance":"apart"}`}
	rooftop      = hiddenExample{"d20-tactical", "d20-tactical-rooftop-crossfire", "hale", "sniper", "The sniper", ""}
	kesselFord   = hiddenExample{"d6-bands", "d6-bands-kessel-ford", "ylva", "cutthroat", "Cutthroat", ""}
	karvostiRoad = hiddenExample{"d20-under", "d20-under-karvosti-road", "vera", "sniper", "Hidden marksman", ""}
)

func newAccessTableOf(t *testing.T, twoInstances bool, hx hiddenExample) *accessTable {
	t.Helper()
	dbURL := testdb.URL(t)
	at := &accessTable{t: t, dbURL: dbURL, a: startServer(t, dbURL), pc: hx.pc, hidden: hx.hidden, hiddenTxt: hx.hiddenName}
	at.b = at.a
	if twoInstances {
		at.b = startServer(t, dbURL)
	}
	at.gm, at.cogm, at.player = at.a.signup("gamemaster"), at.a.signup("co-gm"), at.a.signup("player-one")
	g := at.a.withUser(at.gm)
	ex, err := prep.ExampleNamed(hx.example)
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID, Campaign string }
	if code := g.do("POST", "/api/encounters", ex.Data, &created); code != 201 {
		t.Fatalf("import: %d", code)
	}
	at.id, at.campaign = created.ID, created.Campaign
	var inv struct{ URL string }
	g.do("POST", "/api/campaigns/"+at.campaign+"/invites", nil, &inv)
	token := inv.URL[strings.LastIndex(inv.URL, "/")+1:]
	for _, u := range []*apiUser{at.cogm, at.player} {
		if code := at.a.withUser(u).do("POST", "/api/join/"+token, nil, nil); code != 200 {
			t.Fatalf("join: %d", code)
		}
	}
	if code := at.a.raw(at.gm, "POST", "/campaigns/"+at.campaign+"/members/"+at.cogm.ID+"/role", formType, "role=gm"); code != 303 {
		t.Fatalf("promote co-GM: %d", code)
	}
	at.assign(at.pc, at.player.ID)
	if code := at.a.raw(at.gm, "POST", "/api/encounters/"+at.id+"/commands", jsonType, `{"id":"start","command":{"kind":"start"}}`); code != 200 {
		t.Fatalf("start: %d", code)
	}
	return at
}

const formType, jsonType = "application/x-www-form-urlencoded", "application/json"

func (at *accessTable) assign(pc, user string) {
	at.t.Helper()
	if code := at.a.withUser(at.gm).do("PUT", "/api/campaigns/"+at.campaign+"/characters/"+pc, map[string]string{"user": user}, nil); code != 200 {
		at.t.Fatalf("assign %s to %q: %d", pc, user, code)
	}
}

// seq is the encounter's seq as the GM sees it.
func (at *accessTable) seq() int64 {
	at.t.Helper()
	v, _ := at.a.withUser(at.gm).view(at.id, "")
	return v.Seq
}

// gmEndsTurn has the GM pass the current combatant's turn through the API
// of srv: end-turn, or the wait the GM's view offers where a ruleset has
// no end of turn (d20-duel).
func (at *accessTable) gmEndsTurn(srv *testServer, id string) {
	at.t.Helper()
	v, _ := srv.withUser(at.gm).view(at.id, "")
	kind := "end-turn"
	if slices.ContainsFunc(v.Actions, func(a viewAction) bool { return a.Actor == v.Current && a.Kind == "wait" }) &&
		!slices.ContainsFunc(v.Actions, func(a viewAction) bool { return a.Actor == v.Current && a.Kind == "end-turn" }) {
		kind = "wait"
	}
	body := fmt.Sprintf(`{"id":%q,"command":{"kind":%q,"actor":%q}}`, id, kind, v.Current)
	if code := srv.raw(at.gm, "POST", "/api/encounters/"+at.id+"/commands", jsonType, body); code != 200 {
		at.t.Fatalf("GM's %s for %s: %d", kind, v.Current, code)
	}
}

// accessDeadline bounds how long a socket may stay open after its access
// changed: a hang's deadline. The server pushes the close as the change
// commits (no polling), which the tests see as the close arriving at all:
// nothing else would close the socket within a step.
var accessDeadline = patience.Hang()

// closeWithin reads c until its session ends, for at most d. It fails if c
// receives an event after seq `after` or an ack on the way, and returns the
// close code.
func (c *wsClient) closeWithin(d time.Duration, after int64) websocket.StatusCode {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				c.t.Fatalf("the socket was not closed within %v", d)
			}
			return websocket.CloseStatus(err)
		}
		var m message
		_ = json.Unmarshal(data, &m)
		switch {
		case m.Type == "ack":
			c.t.Fatalf("acknowledged after access ended: %s", data)
		case m.Type == "events" && m.Seq > after && len(m.Events) > 0:
			c.t.Fatalf("received events up to seq %d after access ended at %d: %.300s", m.Seq, after, data)
		case m.Type == "snapshot" && m.Seq > after:
			c.t.Fatalf("received a snapshot after access ended: %.300s", data)
		}
	}
}

// browser is a person signed in with a session cookie.
type browser struct {
	t      *testing.T
	client *http.Client
}

func (s *testServer) login(name string) *browser {
	s.t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &browser{t: s.t, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	resp := b.post(s, "/login", url.Values{"name": {name}, "password": {testPassword}, "next": {"/"}})
	if resp.StatusCode != http.StatusSeeOther || len(jar.Cookies(mustURL(s.URL))) == 0 {
		s.t.Fatalf("log in as %s: %d", name, resp.StatusCode)
	}
	return b
}

func mustURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	return u
}

func (b *browser) post(s *testServer, path string, form url.Values) *http.Response {
	b.t.Helper()
	resp, err := b.client.PostForm(s.URL+path, form)
	if err != nil {
		b.t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func (b *browser) get(s *testServer, path string) *http.Response {
	b.t.Helper()
	resp, err := b.client.Get(s.URL + path)
	if err != nil {
		b.t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// dial opens the encounter's websocket with the browser's cookie.
func (b *browser) dial(s *testServer, id, query string) *wsClient {
	b.t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	hdr := http.Header{}
	for _, c := range b.client.Jar.Cookies(mustURL(s.URL)) {
		hdr.Add("Cookie", c.Name+"="+c.Value)
	}
	u := "ws" + strings.TrimPrefix(s.URL, "http") + "/encounters/" + id + "/ws?" + query
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		b.t.Fatalf("dial with a cookie: %v", err)
	}
	conn.SetReadLimit(1 << 22)
	b.t.Cleanup(func() { conn.CloseNow() })
	return &wsClient{t: b.t, conn: conn}
}

// expectRefusedOrClosed sends a command on c right after an access change
// and checks it is refused with code, or the session ends first: it is
// never acknowledged. It returns the close code.
func (c *wsClient) expectRefusedOrClosed(id string, command map[string]any, code string, after int64) websocket.StatusCode {
	c.t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "command", "id": id, "command": command})
	if err := c.conn.Write(context.Background(), websocket.MessageText, raw); err != nil {
		return websocket.CloseStatus(err) // already closed
	}
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				c.t.Fatal("no answer and no close after the access change")
			}
			return websocket.CloseStatus(err)
		}
		var m message
		_ = json.Unmarshal(data, &m)
		switch {
		case m.Type == "ack":
			c.t.Fatalf("a command after the access change was acknowledged: %s", data)
		case m.Type == "error" && m.ID == id:
			if m.Code != code {
				c.t.Fatalf("a command after the access change: %s, want code %s", data, code)
			}
		case m.Type == "events" && m.Seq > after && len(m.Events) > 0:
			c.t.Fatalf("received events after the access change: %.300s", data)
		}
	}
}

// instances runs fn on one server, then with the change made on one server
// and the socket on a second one sharing the database.
func instances(t *testing.T, fn func(t *testing.T, at *accessTable)) {
	for _, two := range []bool{false, true} {
		name := "same instance"
		if two {
			name = "second instance"
		}
		t.Run(name, func(t *testing.T) { fn(t, newAccessTable(t, two)) })
	}
}

// A member removed from the campaign: their open socket is closed within a
// second (4403), receives none of the events after the removal, and their
// next command is refused; reconnecting is refused as for a stranger.
func TestRemovedMemberLosesSocket(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		ws := at.b.withUser(at.player).dial(at.id, "")
		ws.read()
		if code := at.a.raw(at.gm, "POST", "/campaigns/"+at.campaign+"/members/"+at.player.ID+"/remove", formType, ""); code != 303 {
			t.Fatalf("remove: %d", code)
		}
		changed, at0 := time.Now(), at.seq()
		at.gmEndsTurn(at.b, "after-removal") // on the socket's own server
		if code := ws.closeWithin(accessDeadline, at0); code != closeAccessRevoked {
			t.Fatalf("closed with %d, want %d", code, closeAccessRevoked)
		}
		t.Logf("closed %v after the removal", time.Since(changed).Round(time.Millisecond))
		// Over HTTP too, the encounter no longer exists for them.
		if code := at.b.raw(at.player, "POST", "/api/encounters/"+at.id+"/commands", jsonType,
			`{"id":"p1","command":{"kind":"end-turn","actor":"sister-ewa"}}`); code != 404 {
			t.Fatalf("the removed player's HTTP command: %d, want 404", code)
		}
		_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(at.b.URL, "http")+"/encounters/"+at.id+"/ws",
			&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + at.player.Token}}})
		if err == nil || resp == nil || resp.StatusCode != 404 {
			t.Fatalf("the removed player reconnected: %v", err)
		}
	})
}

// A command sent on the socket right after the removal — before any
// notification could arrive — is refused, not applied.
func TestRemovedMembersNextCommandRefused(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		ws := at.b.withUser(at.player).dial(at.id, "")
		ws.read()
		before := at.seq()
		if code := at.a.raw(at.gm, "POST", "/campaigns/"+at.campaign+"/members/"+at.player.ID+"/remove", formType, ""); code != 303 {
			t.Fatalf("remove: %d", code)
		}
		code := ws.expectRefusedOrClosed("after", map[string]any{"kind": "end-turn", "actor": at.pc}, "not_found", before)
		if code != closeAccessRevoked {
			t.Fatalf("closed with %d, want %d", code, closeAccessRevoked)
		}
		if at.seq() != before {
			t.Fatal("the removed player's command was applied")
		}
	})
}

// A co-GM demoted to player: the GM view (hidden combatant included) ends
// at once (4409); the new session is a player's, and `reveal` is refused.
func TestDemotedCoGMLosesGMView(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		ws := at.b.withUser(at.cogm).dial(at.id, "")
		if hello := ws.read(); !bytes.Contains(hello.View, []byte(at.hidden)) {
			t.Fatal("the co-GM does not see the hidden combatant")
		}
		before := at.seq()
		if code := at.a.raw(at.gm, "POST", "/campaigns/"+at.campaign+"/members/"+at.cogm.ID+"/role", formType, "role=player"); code != 303 {
			t.Fatalf("demote: %d", code)
		}
		code := ws.expectRefusedOrClosed("reveal", map[string]any{"kind": "reveal", "combatant": at.hidden}, "forbidden", before)
		if code != closeAccessChanged {
			t.Fatalf("closed with %d, want %d", code, closeAccessChanged)
		}
		again := at.b.withUser(at.cogm).dial(at.id, "")
		hello := again.read()
		if hello.Type != "snapshot" || bytes.Contains(hello.View, []byte(at.hidden)) || bytes.Contains(hello.View, []byte(at.hiddenTxt)) {
			t.Fatalf("the demoted co-GM's new view: %.400s", hello.View)
		}
		again.send("reveal-2", map[string]any{"kind": "reveal", "combatant": at.hidden})
		if m, _ := again.expect("error"); m.Code != "forbidden" {
			t.Fatalf("reveal by the demoted co-GM: %+v", m)
		}
		if at.seq() != before {
			t.Fatal("the demoted co-GM changed the encounter")
		}
	})
}

// A player whose character is unassigned no longer commands it; one who is
// given a character gets a session that commands it.
func TestCharacterAssignmentTakesEffect(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		ws := at.b.withUser(at.player).dial(at.id, "")
		ws.read()
		before := at.seq()
		at.assign(at.pc, "")
		code := ws.expectRefusedOrClosed("own-pc", map[string]any{"kind": "end-turn", "actor": at.pc}, "forbidden", before)
		if code != closeAccessChanged {
			t.Fatalf("closed with %d, want %d", code, closeAccessChanged)
		}
		again := at.b.withUser(at.player).dial(at.id, "view=1")
		again.read()
		again.send("own-pc-2", map[string]any{"kind": "end-turn", "actor": at.pc})
		if m, _ := again.expect("error"); m.Code != "forbidden" {
			t.Fatalf("commanding the unassigned character: %+v", m)
		}
		if at.seq() != before {
			t.Fatal("the unassigned character was commanded")
		}
		// Given back: the open session ends (4409) and the next one commands it.
		at.assign(at.pc, at.player.ID)
		if code := again.closeWithin(accessDeadline, at.seq()); code != closeAccessChanged {
			t.Fatalf("closed with %d after the assignment, want %d", code, closeAccessChanged)
		}
		third := at.b.withUser(at.player).dial(at.id, "")
		if hello := third.read(); !bytes.Contains(hello.View, []byte(`"controls":["sister-ewa"]`)) {
			t.Fatalf("the player's view after the assignment: %.300s", hello.View)
		}
	})
}

// Logging out ends the sessions opened with that cookie (4401); a GM
// command sent on the socket after the log-out is never acknowledged.
func TestLogoutClosesSockets(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		gm := at.a.login(at.gm.Name)
		ws := gm.dial(at.b, at.id, "")
		ws.read()
		other := gm.dial(at.b, at.id, "") // a second tab
		other.read()
		before := at.seq()
		if resp := gm.post(at.a, "/logout", nil); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("log out: %d", resp.StatusCode)
		}
		if code := ws.expectRefusedOrClosed("pause", map[string]any{"kind": "pause"}, "unauthorized", before); code != closeSignedOut {
			t.Fatalf("closed with %d, want %d", code, closeSignedOut)
		}
		if code := other.closeWithin(accessDeadline, before); code != closeSignedOut {
			t.Fatalf("the other tab closed with %d, want %d", code, closeSignedOut)
		}
		if v, _ := at.a.withUser(at.gm).view(at.id, ""); v.Status != "running" || v.Seq != before {
			t.Fatalf("the encounter changed after the log-out: %s at %d", v.Status, v.Seq)
		}
		// Signed out, the page sends the browser to log in again.
		if resp := gm.get(at.b, "/encounters/"+at.id); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("the encounter page after log-out: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

// Changing the password ends every other session and their sockets.
func TestPasswordChangeClosesSockets(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		laptop, phone := at.a.login(at.player.Name), at.a.login(at.player.Name)
		ws := phone.dial(at.b, at.id, "")
		ws.read()
		resp := laptop.post(at.a, "/account/password", url.Values{"current": {testPassword}, "password": {"a new long passphrase"}, "password2": {"a new long passphrase"}})
		if resp.StatusCode != http.StatusSeeOther || flash(resp.Header, "notice") == "" {
			t.Fatalf("change password: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		if code := ws.closeWithin(accessDeadline, at.seq()); code != closeSignedOut {
			t.Fatalf("closed with %d, want %d", code, closeSignedOut)
		}
		// The laptop stays signed in (with a new session) and may reconnect.
		fresh := laptop.dial(at.b, at.id, "")
		if hello := fresh.read(); hello.Type != "snapshot" {
			t.Fatalf("the laptop's new socket: %+v", hello)
		}
	})
}

// A session that expires ends its socket at the expiry time, and a command
// after it is refused.
func TestSessionExpiryClosesSocket(t *testing.T) {
	at := newAccessTable(t, false)
	pl := at.a.login(at.player.Name)
	conn, err := pgx.Connect(context.Background(), at.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(),
		`UPDATE sessions SET expires_at = now() + interval '1500 milliseconds' WHERE user_id = $1`, at.player.ID); err != nil {
		t.Fatal(err)
	}
	ws := pl.dial(at.a, at.id, "")
	ws.read()
	opened := time.Now()
	if code := ws.closeWithin(accessDeadline, at.seq()); code != closeSignedOut {
		t.Fatalf("closed with %d, want %d", code, closeSignedOut)
	}
	if d := time.Since(opened); d < time.Second {
		t.Fatalf("closed after %v, before the session expired", d)
	}
	if resp := pl.get(at.a, "/encounters/"+at.id); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the page after expiry: %d", resp.StatusCode)
	}
}

// A revoked API token ends the sockets opened with it (4401), and a GM
// command sent on it after the revocation is never acknowledged; the user's
// other tokens keep working.
func TestRevokedTokenClosesSockets(t *testing.T) {
	instances(t, func(t *testing.T, at *accessTable) {
		var bot struct{ ID, Token string }
		if code := at.a.withUser(at.gm).do("POST", "/api/tokens", map[string]string{"name": "bot"}, &bot); code != 201 || bot.ID == "" {
			t.Fatalf("create token: %d %+v", code, bot)
		}
		botUser := &apiUser{ID: at.gm.ID, Name: at.gm.Name, Token: bot.Token}
		ws := at.b.withUser(botUser).dial(at.id, "")
		ws.read()
		kept := at.b.withUser(at.gm).dial(at.id, "") // the GM's other token
		kept.read()
		before := at.seq()
		if code := at.a.withUser(at.gm).do("DELETE", "/api/tokens/"+bot.ID, nil, nil); code != 204 {
			t.Fatalf("revoke: %d", code)
		}
		if code := ws.expectRefusedOrClosed("pause", map[string]any{"kind": "pause"}, "unauthorized", before); code != closeSignedOut {
			t.Fatalf("closed with %d, want %d", code, closeSignedOut)
		}
		if at.seq() != before {
			t.Fatal("a command on a revoked token was applied")
		}
		kept.send("pause", map[string]any{"kind": "pause"})
		if ack, _ := kept.expect("ack"); ack.Seq != before+1 {
			t.Fatalf("the GM's other token: %+v", ack)
		}
		if code := at.b.raw(botUser, "GET", "/api/me", "", ""); code != 401 {
			t.Fatalf("the revoked token over HTTP: %d", code)
		}
	})
}
