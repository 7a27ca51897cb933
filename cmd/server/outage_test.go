package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// dbCheck reads the database directly, past any proxy.
type dbCheck struct {
	t    *testing.T
	conn *pgx.Conn
	id   string
}

func newDBCheck(t *testing.T, dbURL, encounter string) *dbCheck {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &dbCheck{t: t, conn: conn, id: encounter}
}

// command returns how many times command id was recorded and the seq it reached.
func (d *dbCheck) command(id string) (int, int64) {
	d.t.Helper()
	var n int
	var seq int64
	err := d.conn.QueryRow(context.Background(),
		`SELECT count(*), COALESCE(max(seq), 0) FROM commands WHERE encounter_id = $1 AND command_id = $2`, d.id, id).Scan(&n, &seq)
	if err != nil {
		d.t.Fatal(err)
	}
	return n, seq
}

// log checks the event log is gapless and returns its length and how many
// events each command id caused.
func (d *dbCheck) log() (int64, map[string]int) {
	d.t.Helper()
	rows, _ := d.conn.Query(context.Background(), `SELECT seq, COALESCE(command_id, '') FROM events WHERE encounter_id = $1 ORDER BY seq`, d.id)
	var seq, n int64
	var cmd string
	per := map[string]int{}
	_, err := pgx.ForEachRow(rows, []any{&seq, &cmd}, func() error {
		n++
		if seq != n {
			return fmt.Errorf("event %d has seq %d: the log has a gap", n, seq)
		}
		per[cmd]++
		return nil
	})
	if err != nil {
		d.t.Fatal(err)
	}
	var snapped int64
	if err := d.conn.QueryRow(context.Background(), `SELECT COALESCE(max(seq), 0) FROM snapshots WHERE encounter_id = $1`, d.id).Scan(&snapped); err != nil {
		d.t.Fatal(err)
	}
	if snapped > n {
		d.t.Fatalf("the encounter has a snapshot at seq %d, its log only %d events", snapped, n)
	}
	return n, per
}

// TestCommitConnectionLost breaks the server's database connection while it
// commits a command — after PostgreSQL committed it, and before — and
// checks the client is never told "nothing changed" for a committed command:
// the server finds out and acknowledges it (or applies it), once; a resend
// with the same id is acknowledged, not applied again. When the database
// stays away so the server cannot find out, the client is told to resend
// the same id (outcome_unknown), and that resend is acknowledged once.
func TestCommitConnectionLost(t *testing.T) {
	dbURL := testdb.URL(t)
	proxy := testdb.NewProxy(t, dbURL)
	base := startServer(t, proxy.URL())
	tb := base.newTable()
	gm := base.withUser(tb.gm)
	check := newDBCheck(t, dbURL, tb.id)
	ws := gm.dial(tb.id, "")
	ws.read()
	ws.send("start", map[string]any{"kind": "start"})
	ws.expect("ack")

	endTurn := func(id string) {
		t.Helper()
		v, _ := gm.view(tb.id, "")
		ws.send(id, map[string]any{"kind": "end-turn", "actor": v.Current})
	}
	for _, tc := range []struct {
		name string
		arm  func()
	}{
		{"committed, answer lost", proxy.CutAfterCommit},
		{"cut before the commit", proxy.CutBeforeCommit},
	} {
		before, _ := check.log()
		id := "c-" + strings.ReplaceAll(tc.name, " ", "-")
		tc.arm()
		endTurn(id)
		ack, _ := ws.expect("ack") // an error fails the test
		if !proxy.Cut(5 * time.Second) {
			t.Fatalf("%s: the connection was not cut", tc.name)
		}
		n, seq := check.command(id)
		if n != 1 || seq != ack.Seq || ack.ID != id {
			t.Fatalf("%s: acknowledged %+v; the database recorded the command %d times at seq %d", tc.name, ack, n, seq)
		}
		// The resend is acknowledged at the same seq and not applied again.
		endTurn(id)
		if again, _ := ws.expect("ack"); again.Seq != ack.Seq {
			t.Fatalf("%s: the resend was acknowledged at %d, the command at %d", tc.name, again.Seq, ack.Seq)
		}
		after, per := check.log()
		if after != ack.Seq || after <= before || per[id] != int(after-before) {
			t.Fatalf("%s: log went from %d to %d, %d events from the command", tc.name, before, after, per[id])
		}
	}

	// The same over HTTP.
	proxy.CutAfterCommit()
	v, _ := gm.view(tb.id, "")
	var res struct {
		Seq  int64
		Code string
	}
	body := []byte(fmt.Sprintf(`{"id":"h-lost","command":{"kind":"end-turn","actor":%q}}`, v.Current))
	if code := gm.do("POST", "/api/encounters/"+tb.id+"/commands", body, &res); code != 200 {
		t.Fatalf("HTTP command whose commit's answer was lost: %d %+v", code, res)
	}
	if n, seq := check.command("h-lost"); n != 1 || seq != res.Seq {
		t.Fatalf("HTTP: acknowledged at %d, recorded %d times at %d", res.Seq, n, seq)
	}

	// The database goes away right after committing: the server cannot
	// find out, and says so.
	before, _ := check.log()
	proxy.CutAfterCommitThenDown()
	endTurn("c-unknown")
	m := ws.readWithin(patience.Hang()) // the server tries for 10 s first
	for m.Type == "events" {
		m = ws.readWithin(patience.Hang())
	}
	if m.ID != "c-unknown" || m.Code != "outcome_unknown" {
		t.Fatalf("the outcome could not be found out: %+v, want outcome_unknown", m)
	}
	if n, _ := check.command("c-unknown"); n != 1 {
		t.Fatalf("the command was meant to be committed: recorded %d times", n)
	}
	proxy.SetDown(false)
	var ack message
	for deadline := patience.Deadline(); ; {
		ws.sendRaw(fmt.Sprintf(`{"type":"command","id":"c-unknown","command":{"kind":"end-turn","actor":%q}}`, "whoever"))
		m := ws.read()
		for m.Type == "events" {
			m = ws.read()
		}
		if m.Type == "ack" {
			ack = m
			break
		}
		if m.Code != "unavailable" && m.Code != "outcome_unknown" || time.Now().After(deadline) {
			t.Fatalf("the resend after the database came back: %+v", m)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n, seq := check.command("c-unknown"); n != 1 || seq != ack.Seq {
		t.Fatalf("the resend was acknowledged at %d; the command is recorded %d times at %d", ack.Seq, n, seq)
	}
	if after, per := check.log(); per["c-unknown"] != int(after-before) {
		t.Fatalf("the command caused %d events, the log grew by %d", per["c-unknown"], after-before)
	}
}

// TestDatabaseDownAnswers503: while the database cannot be reached, valid
// tokens and cookies get 503 with a message that says so — never 401 or a
// redirect to log in — and commands are refused without a lie; when it is
// back, everything works again.
func TestDatabaseDownAnswers503(t *testing.T) {
	dbURL := testdb.URL(t)
	proxy := testdb.NewProxy(t, dbURL)
	base := startServer(t, proxy.URL())
	tb := base.newTable()
	gm := base.withUser(tb.gm)
	browser := base.login(tb.player.Name)
	ws := gm.dial(tb.id, "")
	ws.read()

	proxy.SetDown(true)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string, auth func(*http.Request)) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", base.URL+path, nil)
		auth(req)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return resp.StatusCode, resp.Header.Get("Location"), b.String()
	}
	bearer := func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tb.gm.Token) }
	cookie := func(r *http.Request) {
		for _, c := range browser.client.Jar.Cookies(mustURL(base.URL)) {
			r.AddCookie(c)
		}
	}
	for _, tc := range []struct {
		path string
		auth func(*http.Request)
	}{
		{"/api/me", bearer},
		{"/api/encounters/" + tb.id, bearer},
		{"/api/campaigns", bearer},
		{"/", cookie},
		{"/account", cookie},
		{"/encounters/" + tb.id, cookie},
		{"/campaigns/" + tb.campaign, cookie},
	} {
		code, loc, body := get(tc.path, tc.auth)
		if code != http.StatusServiceUnavailable || loc != "" || !strings.Contains(body, "database is unavailable") {
			t.Errorf("GET %s while the database is down: %d %q %q", tc.path, code, loc, body)
		}
	}
	if code, _, _ := get("/healthz", func(*http.Request) {}); code != http.StatusServiceUnavailable {
		t.Errorf("healthz: %d", code)
	}
	if resp := browser.post(base, "/login", map[string][]string{"name": {tb.player.Name}, "password": {testPassword}}); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("log in while the database is down: %d", resp.StatusCode)
	}
	_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(base.URL, "http")+"/encounters/"+tb.id+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tb.gm.Token}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("websocket while the database is down: %v", err)
	}
	// A command on an open socket: refused as unavailable (nothing changed).
	ws.send("while-down", map[string]any{"kind": "start"})
	if m, _ := ws.expect("error"); m.Code != "unavailable" {
		t.Errorf("a command while the database is down: %+v", m)
	}

	proxy.SetDown(false)
	deadline := patience.Deadline()
	for {
		code, _, _ := get("/api/me", bearer)
		if code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/api/me after the database came back: %d", code)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, loc, _ := get("/encounters/"+tb.id, cookie); code != 200 {
		t.Fatalf("the page after the database came back: %d %s", code, loc)
	}
	fresh := gm.dial(tb.id, "")
	fresh.read()
	fresh.send("after", map[string]any{"kind": "start"})
	if ack, _ := fresh.expect("ack"); ack.Seq == 0 {
		t.Fatalf("start after the outage: %+v", ack)
	}
}
