package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// childServerEnv makes the test binary run the server instead of the tests
// (see TestMain), so a test can kill a real server process with SIGKILL.
const childServerEnv = "FRAY_TEST_CHILD_SERVER"

// childArgsEnv, set with the child server's, holds the command line the
// child runs instead of serve (JSON), such as a backup a test kills.
const childArgsEnv = "FRAY_TEST_CHILD_ARGS"

// runChildServer is the test binary as a server process.
func runChildServer() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	args := []string{"serve"}
	if raw := os.Getenv(childArgsEnv); raw != "" {
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			fmt.Fprintln(os.Stderr, "fray:", childArgsEnv, err)
			return 2
		}
	}
	if err := run(ctx, args, os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fray:", err)
		return 1
	}
	return 0
}

// serverProcess is the server running as a child process on a fixed address.
type serverProcess struct {
	t     *testing.T
	addr  string
	dbURL string
	env   []string // more environment variables
	cmd   *exec.Cmd
	exit  chan error
}

func (p *serverProcess) start() time.Duration {
	p.t.Helper()
	began := time.Now()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childServerEnv+"=1", "DATABASE_URL="+p.dbURL, "FRAY_ADDR="+p.addr,
		"FRAY_LOG_LEVEL=error", "FRAY_DICE_SEED=")
	cmd.Env = append(cmd.Env, p.env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		p.t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.cmd, p.exit = cmd, make(chan error, 1)
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		signalled := false
		for sc.Scan() {
			if !signalled && strings.HasPrefix(sc.Text(), "Fray listening on ") {
				close(ready)
				signalled = true
			}
		}
		p.exit <- cmd.Wait()
	}()
	select {
	case <-ready:
	case err := <-p.exit:
		p.t.Fatalf("the server exited: %v", err)
	case <-time.After(patience.Hang()):
		p.t.Fatal("the server did not start")
	}
	return time.Since(began)
}

// kill ends the server with SIGKILL: nothing is flushed, nothing shut down.
func (p *serverProcess) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exit
	p.cmd = nil
}

// stop shuts the server down gracefully (it may already be down).
func (p *serverProcess) stop() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exit:
		p.cmd = nil
	case <-time.After(patience.Hang()):
		p.kill()
	}
}

// driver plays one encounter as its GM over a websocket, one command at a
// time, and keeps going through server kills: it reconnects, resumes the
// events after the last seq it has, and resends the command it has no
// answer for with the same id.
type driver struct {
	t        *testing.T
	url      string // the websocket URL, without since
	token    string
	name     string
	stop     <-chan struct{}
	acked    map[string]int64 // command id → the seq it was acknowledged at
	refused  map[string]int   // error codes of refused commands
	retried  map[string]int   // error codes that asked for the same id again
	resends  int
	seen     int64 // the last event seq received, all of them in order
	gaps     []string
	firstAck chan time.Time // the first ack after each reconnect
	mu       sync.Mutex
	log      []string
}

func (d *driver) run(wg *sync.WaitGroup) {
	defer wg.Done()
	n := 0
	var pending []byte // the command without an answer, resent unchanged
	var pendingID string
	for {
		select {
		case <-d.stop:
			return
		default:
		}
		ctx, cancel := patience.Context(context.Background())
		conn, _, err := websocket.Dial(ctx, fmt.Sprintf("%s&since=%d", d.url, d.seen),
			&websocket.DialOptions{HTTPHeader: map[string][]string{"Authorization": {"Bearer " + d.token}}})
		cancel()
		if err != nil {
			d.note("dial: %v", err)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		conn.SetReadLimit(1 << 22)
		current := ""
		if !d.receive(conn, "", &current, nil) {
			conn.CloseNow()
			continue
		}
		reported := false
		for {
			select {
			case <-d.stop:
				conn.Close(websocket.StatusNormalClosure, "")
				return
			default:
			}
			if pending == nil {
				n++
				pendingID = fmt.Sprintf("%s-%d", d.name, n)
				pending, _ = json.Marshal(map[string]any{"type": "command", "id": pendingID,
					"command": map[string]any{"kind": "end-turn", "actor": current}})
			} else {
				d.resends++
			}
			if err := conn.Write(context.Background(), websocket.MessageText, pending); err != nil {
				break
			}
			var reply message
			if !d.receive(conn, pendingID, &current, &reply) {
				d.note("receive failed waiting for %s", pendingID)
				break
			}
			d.note("%s: %s %s %s", pendingID, reply.Type, reply.Code, reply.Message)
			switch {
			case reply.Type == "ack":
				d.mu.Lock()
				d.acked[pendingID] = reply.Seq
				d.mu.Unlock()
				if !reported {
					reported = true
					select {
					case d.firstAck <- time.Now():
					default:
					}
				}
				pending = nil
			case reply.Code == "unavailable" || reply.Code == "outcome_unknown":
				d.retried[reply.Code]++
				time.Sleep(50 * time.Millisecond) // resend the same id
			default:
				d.refused[reply.Code]++ // refused: nothing changed (e.g. the turn moved on)
				pending = nil
			}
		}
		conn.CloseNow()
	}
}

func (d *driver) note(format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log = append(d.log, time.Now().Format("15:04:05.000")+" "+fmt.Sprintf(format, args...))
	if len(d.log) > 30 {
		d.log = d.log[1:]
	}
}

// receive reads until the reply to command id (or, for "", the hello),
// checking that events arrive gapless and following whose turn it is.
func (d *driver) receive(conn *websocket.Conn, id string, current *string, reply *message) bool {
	for {
		ctx, cancel := patience.Context(context.Background())
		_, data, err := conn.Read(ctx)
		cancel()
		if err != nil {
			return false
		}
		var m struct {
			message
			View struct {
				Current string `json:"current"`
				Seq     int64  `json:"seq"`
			} `json:"view"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			d.t.Errorf("bad frame: %s", data)
			return false
		}
		if m.View.Seq > 0 || m.View.Current != "" {
			*current = m.View.Current
		}
		switch m.Type {
		case "snapshot":
			if d.seen != 0 && m.Seq != d.seen {
				d.gaps = append(d.gaps, fmt.Sprintf("%s: a snapshot at %d after seq %d", d.name, m.Seq, d.seen))
			}
			d.seen = m.Seq
		case "events":
			for _, raw := range m.Events {
				var ev struct{ Seq int64 }
				_ = json.Unmarshal(raw, &ev)
				if ev.Seq != d.seen+1 {
					d.gaps = append(d.gaps, fmt.Sprintf("%s: event %d after %d", d.name, ev.Seq, d.seen))
				}
				d.seen = ev.Seq
			}
		}
		if id == "" && (m.Type == "snapshot" || m.Type == "events") {
			return true
		}
		if (m.Type == "ack" || m.Type == "error") && m.ID == id {
			*reply = m.message
			return true
		}
	}
}

// TestKillRestartLosesNothing runs encounters under load against a server
// process, kills it with SIGKILL mid-load several times (and once takes the
// database away), restarts it, and checks that no acknowledged command was
// lost or applied twice, that every log is gapless, and that every client,
// resuming with since, received every event exactly once, in order.
// Its figures are in docs/reliability.md.
func TestKillRestartLosesNothing(t *testing.T) {
	killRestartLosesNothing(t, "view=1")
}

// TestKillRestartLosesNothingPages is TestKillRestartLosesNothing with the
// encounter page's sockets: every update is rendered into the page's
// fragments (html=1) too, while the server is killed and restarted.
func TestKillRestartLosesNothingPages(t *testing.T) {
	killRestartLosesNothing(t, "view=1&html=1")
}

// killRestartLosesNothing drives encounters through sockets opened with
// query while the server is killed (-9) and restarted.
func killRestartLosesNothing(t *testing.T, query string) {
	if testing.Short() {
		t.Skip("kills and restarts a server process")
	}
	const encounters, kills = 4, 3
	dbURL := testdb.URL(t)
	proxy := testdb.NewProxy(t, dbURL)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// The clock runs 600 times faster than real time: a bank of a minute
	// runs out in a tenth of a second while the table stands still (a
	// server killed, drivers reconnecting).
	srv := &serverProcess{t: t, addr: addr, dbURL: proxy.URL(), env: []string{"FRAY_CLOCK_SPEED=600"}}
	srv.start()
	defer srv.stop()

	// Set up through the API: one GM, one campaign, the encounters, started.
	// A player owns every combatant (whose turns the GM's drivers end all
	// the same); each encounter has a clock.
	api := &testServer{t: t, URL: "http://" + addr, once: &sync.Once{}}
	gm := api.signup("gamemaster")
	player := api.signup("player-one")
	g := api.withUser(gm)
	ids := make([]string, encounters)
	for i := range ids {
		ids[i] = g.importExample()
		v := api.viewAs(gm, ids[i])
		var theirs []string
		for _, c := range v.Combatants {
			theirs = append(theirs, c.ID)
		}
		var camp string
		var camps []struct{ ID string }
		g.do("GET", "/api/campaigns", nil, &camps)
		for _, c := range camps {
			var detail struct {
				Encounters []struct{ ID string }
			}
			g.do("GET", "/api/campaigns/"+c.ID, nil, &detail)
			if slices.ContainsFunc(detail.Encounters, func(e struct{ ID string }) bool { return e.ID == ids[i] }) {
				camp = c.ID
			}
		}
		api.join(gm, camp, player, theirs...)
		if code := g.do("PUT", "/api/encounters/"+ids[i]+"/deadline", map[string]any{"bank": "1m", "fallback": "next-turn"}, nil); code != 200 {
			t.Fatalf("clock: %d", code)
		}
		if code := g.do("POST", "/api/encounters/"+ids[i]+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil); code != 200 {
			t.Fatalf("start: %d", code)
		}
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	drivers := make([]*driver, encounters)
	for i, id := range ids {
		drivers[i] = &driver{t: t, url: "ws://" + addr + "/encounters/" + id + "/ws?" + query, token: gm.Token,
			name: fmt.Sprintf("e%d", i), stop: stop, acked: map[string]int64{}, refused: map[string]int{}, retried: map[string]int{}, firstAck: make(chan time.Time, 1)}
		wg.Add(1)
		go drivers[i].run(&wg)
	}
	waitAcks := func(what string) time.Duration {
		t.Helper()
		began := time.Now()
		for _, d := range drivers {
			select {
			case <-d.firstAck:
			case <-time.After(patience.Hang()):
				d.mu.Lock()
				t.Fatalf("%s: %s got no ack:\n%s", what, d.name, strings.Join(d.log, "\n"))
			}
		}
		return time.Since(began)
	}
	waitAcks("at the start")
	began := time.Now()

	// Meanwhile the GM switches the clocks off and on, mid-round, again
	// and again, through the kills (a request the dead server misses is
	// not counted).
	switches := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		on := map[string]bool{}
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
			}
			id := ids[n%len(ids)]
			body, _ := json.Marshal(map[string]bool{"on": !on[id]})
			req, _ := http.NewRequest("PUT", "http://"+addr+"/api/encounters/"+id+"/deadline/on", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+gm.Token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				continue
			}
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				on[id] = !on[id]
				switches++
			}
		}
	}()

	var restarts, recoveries []time.Duration
	for k := 0; k < kills; k++ {
		time.Sleep(1500 * time.Millisecond)
		srv.kill()
		for _, d := range drivers { // forget acks from before the kill
			select {
			case <-d.firstAck:
			default:
			}
		}
		killed := time.Now()
		restarts = append(restarts, srv.start())
		waitAcks(fmt.Sprintf("after kill %d", k+1))
		recoveries = append(recoveries, time.Since(killed))
	}
	// The database goes away for a second under load, then comes back.
	time.Sleep(time.Second)
	proxy.SetDown(true)
	time.Sleep(time.Second)
	proxy.SetDown(false)
	for _, d := range drivers {
		select {
		case <-d.firstAck:
		default:
		}
	}
	time.Sleep(1500 * time.Millisecond)
	close(stop)
	wg.Wait()
	elapsed := time.Since(began)

	// The drivers gone, the tables stand still: with every clock switched
	// on, each runs out (the banks are spent) and passes a turn, at once.
	dbConn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer dbConn.Close(context.Background())
	stoppedAt := map[string]int64{} // what the drivers could see
	for _, id := range ids {
		var seq int64
		if err := dbConn.QueryRow(context.Background(), `SELECT coalesce(max(seq), 0) FROM events WHERE encounter_id = $1`, id).Scan(&seq); err != nil {
			t.Fatal(err)
		}
		stoppedAt[id] = seq
	}
	for _, id := range ids {
		if code := g.do("PUT", "/api/encounters/"+id+"/deadline/on", map[string]bool{"on": true}, nil); code != http.StatusOK {
			t.Fatalf("switch on: %d", code)
		}
	}
	patience.Until(t, "every encounter's clock to run out", func() bool {
		var n int
		_ = dbConn.QueryRow(context.Background(), `SELECT count(DISTINCT encounter_id) FROM events WHERE encounter_id = ANY($1) AND kind = $2`,
			ids, engine.KindTurnPassed).Scan(&n)
		return n == len(ids)
	})
	srv.stop()

	// Every acknowledged command is in the database at the seq it was
	// acknowledged at; no command's events appear twice; logs are gapless.
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	total, resends, refused, retried := 0, 0, map[string]int{}, map[string]int{}
	lost, twice, gaps := 0, 0, 0
	for i, d := range drivers {
		rows, _ := conn.Query(context.Background(), `SELECT command_id, seq FROM commands WHERE encounter_id = $1`, ids[i])
		stored := map[string]int64{}
		var cid string
		var seq int64
		if _, err := pgx.ForEachRow(rows, []any{&cid, &seq}, func() error { stored[cid] = seq; return nil }); err != nil {
			t.Fatal(err)
		}
		for id, s := range d.acked {
			if stored[id] != s {
				lost++
				t.Errorf("%s: command %s acknowledged at seq %d, stored at %d", d.name, id, s, stored[id])
			}
		}
		rows, _ = conn.Query(context.Background(), `SELECT seq, COALESCE(command_id, '') FROM events WHERE encounter_id = $1 ORDER BY seq`, ids[i])
		var n int64
		var groups []string
		if _, err := pgx.ForEachRow(rows, []any{&seq, &cid}, func() error {
			n++
			if seq != n {
				return fmt.Errorf("event %d has seq %d", n, seq)
			}
			if len(groups) == 0 || groups[len(groups)-1] != cid {
				groups = append(groups, cid)
			}
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		slices.Sort(groups)
		if dup := len(groups) - len(slices.Compact(slices.Clone(groups))); dup != 0 {
			twice += dup
			t.Errorf("%s: %d commands' events appear twice", d.name, dup)
		}
		// The client saw the log to its end when it stopped, but for the
		// turns a clock passed after it stopped reading.
		var unseen, byClock int
		if err := conn.QueryRow(context.Background(), `
			SELECT count(*), count(*) FILTER (WHERE command_id LIKE 'deadline-%') FROM events
			WHERE encounter_id = $1 AND seq > $2 AND seq <= $3`, ids[i], d.seen, stoppedAt[ids[i]]).Scan(&unseen, &byClock); err != nil {
			t.Fatal(err)
		}
		if d.seen > stoppedAt[ids[i]] || unseen != byClock {
			t.Errorf("%s: the client saw events up to %d, the log had %d when it stopped (%d of them by a clock)", d.name, d.seen, stoppedAt[ids[i]], byClock)
		}
		for _, g := range d.gaps {
			gaps++
			t.Error(g)
		}
		total += len(d.acked)
		resends += d.resends
		for code, n := range d.refused {
			refused[code] += n
		}
		for code, n := range d.retried {
			retried[code] += n
		}
	}
	if refused["internal"] > 0 {
		t.Errorf("%d commands failed with an internal error", refused["internal"])
	}

	// The clocks ran out while the table stood still, and each wait that
	// ran out passed its turn once: one command of its own, one
	// turn-passed event, whoever applied it, across the kills and the
	// switches.
	var passedTurns, waitsApplied, passCommands int
	if err := conn.QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM events WHERE encounter_id = ANY($1) AND kind = $2),
			(SELECT count(*) FROM deadlines WHERE encounter_id = ANY($1) AND outcome = 'applied'),
			(SELECT count(DISTINCT (encounter_id, command_id)) FROM events WHERE encounter_id = ANY($1) AND kind = $2)`,
		ids, engine.KindTurnPassed).Scan(&passedTurns, &waitsApplied, &passCommands); err != nil {
		t.Fatal(err)
	}
	if passedTurns != passCommands {
		t.Errorf("%d turns passed by %d commands", passedTurns, passCommands)
	}
	if switches < kills || passedTurns == 0 {
		t.Errorf("%d switches, %d turns passed by the clock: the test did not switch clocks under load or let one run out", switches, passedTurns)
	}
	t.Logf("clocks: switched %d times, %d turns passed when a clock ran out, %d waits applied", switches, passedTurns, waitsApplied)

	// The state a server loads — the latest snapshot kept, with the events
	// after it folded in — is a replay of the whole log: the snapshots
	// written along the way (in the commands' transactions, and when
	// encounters are unloaded) are sound, whatever was killed when.
	db, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	snapshots := 0
	for _, id := range ids {
		rec, err := db.Encounter(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := rules.Registry().Get(rec.Ruleset)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := play.Latest(context.Background(), db, rs, id)
		if err != nil {
			t.Fatal(err)
		}
		full, err := rs.Decode(rec.Initial)
		if err != nil {
			t.Fatal(err)
		}
		all, err := db.Events(context.Background(), id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := engine.Replay(rs, full, all); err != nil {
			t.Fatal(err)
		}
		a, _ := engine.Snapshot(loaded)
		b, _ := engine.Snapshot(full)
		if string(a) != string(b) {
			t.Errorf("encounter %s: the state loaded from its latest snapshot differs from a replay of its log", id)
		}
		seqs, err := db.SnapshotSeqs(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		snapshots += len(seqs)
	}
	t.Logf("%d snapshots kept along the logs", snapshots)
	t.Logf("%d encounters, %d SIGKILLs and one database outage of 1 s in %v: %d commands acknowledged (%.0f/s), "+
		"%d resent with the same id after a kill or outage (answers that asked for it: %v), %d refused (%v); "+
		"%d acknowledged commands lost, %d applied twice, %d gaps in what clients received",
		encounters, kills, elapsed.Round(100*time.Millisecond), total, float64(total)/elapsed.Seconds(), resends, retried,
		func() (n int) {
			for _, c := range refused {
				n += c
			}
			return n
		}(), refused, lost, twice, gaps)
	t.Logf("restart to listening: %v; kill to every encounter acknowledging again: %v", restarts, recoveries)
}
