package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/testdb"
)

// After logging in, `next` leads only to a path on this site.
func TestLoginNextStaysOnSite(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	u := srv.signup("traveller")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct{ next, want string }{
		{"/%09/evil.example", "/"},
		{"//evil.example", "/"},
		{"/%5Cevil.example", "/"},
		{"https://evil.example/", "/"},
		{"/%0d%0a/evil.example", "/"},
		{"/account?tab=tokens", "/account?tab=tokens"},
	} {
		// The login page carries next in its form only when it is safe.
		resp, err := client.Get(srv.URL + "/login?next=" + tc.next)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(page), "evil.example") {
			t.Errorf("the login page for next=%s carries it: %s", tc.next, page)
		}
		raw, _ := url.QueryUnescape(tc.next)
		resp, err = client.PostForm(srv.URL+"/login", url.Values{"name": {u.Name}, "password": {testPassword}, "next": {raw}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != tc.want {
			t.Errorf("log in with next=%s: %d to %q, want %q", tc.next, resp.StatusCode, loc, tc.want)
		}
	}
}

// A revoked or expired invite admits nobody, through the page or the API.
func TestRevokedOrExpiredInviteAdmitsNobody(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	gm := srv.signup("gamemaster")
	g := srv.withUser(gm)
	var camp struct{ ID string }
	g.do("POST", "/api/campaigns", map[string]string{"name": "Invites"}, &camp)
	newInvite := func() string {
		var inv struct{ URL string }
		if code := g.do("POST", "/api/campaigns/"+camp.ID+"/invites", nil, &inv); code != 201 {
			t.Fatalf("invite: %d", code)
		}
		return inv.URL[strings.LastIndex(inv.URL, "/")+1:]
	}
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())

	revoked, expired := newInvite(), newInvite()
	var invites []string
	rows, _ := conn.Query(context.Background(), `SELECT id::text FROM invites WHERE campaign_id = $1 ORDER BY created_at`, camp.ID)
	invites, _ = pgx.CollectRows(rows, pgx.RowTo[string])
	if code := srv.raw(gm, "POST", "/campaigns/"+camp.ID+"/invites/"+invites[0]+"/revoke", formType, ""); code != 303 {
		t.Fatalf("revoke: %d", code)
	}
	if _, err := conn.Exec(context.Background(), `UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = $1`, invites[1]); err != nil {
		t.Fatal(err)
	}
	for i, token := range []string{revoked, expired} {
		what := []string{"revoked", "expired"}[i]
		api, page := srv.signup("api-"+what), srv.signup("page-"+what)
		var e struct{ Code, Message string }
		if code := srv.withUser(api).do("POST", "/api/join/"+token, nil, &e); code != 422 || !strings.Contains(e.Message, what) {
			t.Errorf("API join with a %s invite: %d %+v", what, code, e)
		}
		if code := srv.raw(page, "POST", "/join/"+token, formType, ""); code != 422 {
			t.Errorf("page join with a %s invite: %d", what, code)
		}
		if code := srv.raw(page, "GET", "/join/"+token, "", ""); code != 422 {
			t.Errorf("the join page of a %s invite: %d", what, code)
		}
		for _, u := range []*apiUser{api, page} {
			if code := srv.raw(u, "GET", "/api/campaigns/"+camp.ID, "", ""); code != 404 {
				t.Errorf("%s is a member after a %s invite: %d", u.Name, what, code)
			}
		}
	}
	// A valid one still admits.
	if code := srv.withUser(srv.signup("welcome")).do("POST", "/api/join/"+newInvite(), nil, nil); code != 200 {
		t.Fatalf("a valid invite: %d", code)
	}
}

// GET /api/tokens speaks the API's JSON naming; POST returns the new id.
func TestAPITokensJSON(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	u := srv.withUser(srv.signup("bot-owner"))
	var made map[string]any
	if code := u.do("POST", "/api/tokens", map[string]string{"name": "ci"}, &made); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id, _ := made["id"].(string)
	if id == "" || made["name"] != "ci" || !strings.HasPrefix(fmt.Sprint(made["token"]), "fray_pat_") {
		t.Fatalf("POST /api/tokens = %v", made)
	}
	if code := u.do("DELETE", "/api/tokens/"+id, nil, nil); code != 204 {
		t.Fatalf("revoke by the returned id: %d", code)
	}
	var list []map[string]any
	u.do("GET", "/api/tokens", nil, &list)
	if len(list) != 2 {
		t.Fatalf("tokens: %v", list)
	}
	for _, tok := range list {
		for _, key := range []string{"id", "name", "createdAt", "lastUsedAt", "revokedAt"} {
			if _, ok := tok[key]; !ok {
				t.Errorf("token %v lacks %q", tok, key)
			}
		}
		for key := range tok {
			if key != strings.ToLower(key[:1])+key[1:] || key == "token" || key == "userId" {
				t.Errorf("token %v has key %q", tok, key)
			}
		}
		if tok["id"] == id && tok["revokedAt"] == nil {
			t.Errorf("the revoked token: %v", tok)
		}
	}
}

// Log-ins are limited per client address; behind a trusted proxy the
// address is the one the proxy names; the limit is shared by every server
// instance on the database.
func TestRateLimitBehindTrustedProxy(t *testing.T) {
	dbURL := testdb.URL(t)
	// A refill slower than the test, so a slow log-in under load never
	// earns back an attempt.
	behind := map[string]string{"FRAY_TRUSTED_PROXIES": "127.0.0.1", "FRAY_LOGIN_REFILL": "1h"}
	a, b := startServerEnv(t, dbURL, behind), startServerEnv(t, dbURL, behind)
	direct := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_LOGIN_REFILL": "1h"})
	login := func(s *testServer, forwardedFor string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", s.URL+"/login", strings.NewReader("name=nobody&password=wrong-password"))
		req.Header.Set("Content-Type", formType)
		if forwardedFor != "" {
			req.Header.Set("X-Forwarded-For", forwardedFor)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	// Ten attempts (the burst) from one client, spread over two instances.
	for i := 0; i < 10; i++ {
		if code := login([]*testServer{a, b}[i%2], "203.0.113.7"); code != 401 {
			t.Fatalf("attempt %d: %d", i+1, code)
		}
	}
	for _, s := range []*testServer{a, b} {
		if code := login(s, "203.0.113.7"); code != 429 {
			t.Fatalf("the eleventh attempt: %d, want 429 on every instance", code)
		}
	}
	if code := login(a, "198.51.100.4"); code != 401 {
		t.Fatalf("another client behind the proxy: %d", code)
	}
	if code := login(a, "6.6.6.6, 198.51.100.5"); code != 401 {
		t.Fatalf("a forged left-hand entry: %d", code)
	}
	// Without a trusted proxy the header is ignored: these all count for
	// the peer, 127.0.0.1, whatever they claim.
	for i := 0; i < 10; i++ {
		if code := login(direct, fmt.Sprintf("192.0.2.%d", i)); code != 401 {
			t.Fatalf("direct attempt %d: %d", i+1, code)
		}
	}
	if code := login(direct, "192.0.2.200"); code != 429 {
		t.Fatalf("an eleventh direct attempt claiming another address: %d, want 429", code)
	}
}

// Command ids are UTF-8 text, scoped per sender; unknown fields and kinds
// are refused with a clear message.
func TestCommandIDsAndStrictCommands(t *testing.T) {
	at := newAccessTable(t, false)
	for i := 0; ; i++ {
		v, _ := at.a.withUser(at.gm).view(at.id, "")
		if v.Current == at.pc {
			break
		}
		if i == 40 {
			t.Fatal("the player's turn never came")
		}
		at.gmEndsTurn(at.a, fmt.Sprint("skip-", i))
	}
	gm := at.a.withUser(at.gm).dial(at.id, "")
	gm.read()
	pl := at.a.withUser(at.player).dial(at.id, "")
	pl.read()

	// The player's command with id "mine" does not stand for the GM's.
	pl.send("mine", map[string]any{"kind": "end-turn", "actor": at.pc})
	playerAck, _ := pl.expect("ack")
	gm.send("mine", map[string]any{"kind": "pause"})
	gmAck, _ := gm.expect("ack")
	if gmAck.Seq != playerAck.Seq+1 {
		t.Fatalf("the GM's \"mine\" was acknowledged at %d, the player's at %d: not applied", gmAck.Seq, playerAck.Seq)
	}
	if v, _ := at.a.withUser(at.gm).view(at.id, ""); v.Status != "paused" {
		t.Fatalf("the GM's pause was not applied: %s", v.Status)
	}
	gm.send("mine", map[string]any{"kind": "pause"}) // the GM's own resend
	if again, _ := gm.expect("ack"); again.Seq != gmAck.Seq {
		t.Fatalf("the GM's resend: %d, want %d", again.Seq, gmAck.Seq)
	}
	before := at.seq()

	for _, tc := range []struct {
		name, frame, code, message string
	}{
		{"invalid UTF-8 in the id", "{\"type\":\"command\",\"id\":\"r\xff\",\"command\":{\"kind\":\"resume\"}}", "invalid", "UTF-8"},
		{"another invalid id", "{\"type\":\"command\",\"id\":\"r\xfe\",\"command\":{\"kind\":\"resume\"}}", "invalid", "UTF-8"},
		{"a lone surrogate", `{"type":"command","id":"r\udc00","command":{"kind":"resume"}}`, "invalid", "command needs an id"},
		{"a control character", `{"type":"command","id":"r\u0007","command":{"kind":"resume"}}`, "invalid", "command needs an id"},
		{"an unknown field of resume", `{"type":"command","id":"u1","command":{"kind":"resume","force":true}}`, "invalid", "force"},
		{"an unknown field of pause", `{"type":"command","id":"u2","command":{"kind":"pause","why":"tea"}}`, "invalid", "why"},
		{"an unknown kind", `{"type":"command","id":"u3","command":{"kind":"teleport","actor":"sister-ewa"}}`, "invalid", "unknown command"},
		{"an unknown kind without actor", `{"type":"command","id":"u4","command":{"kind":"teleport"}}`, "invalid", "unknown command"},
		{"a stray brace after the message", `{"type":"command","id":"s1","command":{"kind":"resume"}}}`, "invalid", "only one JSON value"},
		{"a stray bracket after the message", `{"type":"command","id":"s2","command":{"kind":"resume"}}]`, "invalid", "only one JSON value"},
		{"a second message", `{"type":"command","id":"s3","command":{"kind":"resume"}} {"type":"command","id":"s4","command":{"kind":"resume"}}`, "invalid", "only one JSON value"},
		{"a NUL in a chat", `{"type":"command","id":"s5","command":{"kind":"chat","text":"a\u0000"}}`, "invalid", "NUL"},
	} {
		gm.sendRaw(tc.frame)
		m, _ := gm.expect("error")
		if m.Code != tc.code || !strings.Contains(m.Message, tc.message) {
			t.Errorf("%s: %s %q, want %s mentioning %q", tc.name, m.Code, m.Message, tc.code, tc.message)
		}
	}
	// Over HTTP too.
	for _, body := range []string{
		"{\"id\":\"h\xff\",\"command\":{\"kind\":\"resume\"}}",
		`{"id":"h\udc00","command":{"kind":"resume"}}`,
		`{"id":"h2","command":{"kind":"resume","force":true}}`,
		`{"id":"h3","command":{"kind":"teleport"}}`,
		`{"id":"h4","command":{"kind":"resume"}}}`, // a stray brace
		`{"id":"h5","command":{"kind":"resume"}} x`,
	} {
		var e struct{ Code, Message string }
		if code := at.a.withUser(at.gm).do("POST", "/api/encounters/"+at.id+"/commands", []byte(body), &e); code != 400 || e.Code != "invalid" {
			t.Errorf("HTTP %q: %d %+v", body, code, e)
		}
	}
	if at.seq() != before {
		t.Fatal("a refused command changed the encounter")
	}
}
