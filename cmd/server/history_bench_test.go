package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// BenchmarkReplayPage times the GM's whole replay page over HTTP
// (authentication, the state rebuilt from the nearest snapshot, up to 300
// events read and filtered, the page rendered) at random steps of a
// 10,000-event encounter.
func BenchmarkReplayPage(b *testing.B) {
	dbURL := testdb.URL(b)
	base := benchServer(b, dbURL)
	var u struct{ Token string }
	benchDo(b, base, "", "POST", "/api/signup", `{"name":"gamemaster","password":"`+testPassword+`"}`, &u)
	exs, err := prep.Examples()
	if err != nil {
		b.Fatal(err)
	}
	var created struct{ ID string }
	benchDo(b, base, u.Token, "POST", "/api/encounters", string(exs[slices.IndexFunc(exs, func(e prep.Example) bool { return strings.HasPrefix(e.Name, "sw-zones-") })].Data), &created)
	seq := fillEncounter(b, dbURL, created.ID, 10000)
	r := rand.New(rand.NewPCG(5, 5))
	for b.Loop() {
		benchDo(b, base, u.Token, "GET", fmt.Sprintf("/encounters/%s/replay?seq=%d", created.ID, 1+r.Int64N(seq)), "", nil)
	}
}

// benchServer starts the server in-process, as startServer does for
// tests, with more environment variables (name, value) when given.
func benchServer(b *testing.B, dbURL string, extra ...[2]string) string {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	env := map[string]string{"DATABASE_URL": dbURL, "FRAY_ADDR": "127.0.0.1:0", "FRAY_LOG_LEVEL": "warn"}
	for _, kv := range extra {
		env[kv[0]] = kv[1]
	}
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"serve"}, func(k string) string { return env[k] }, pw)
		pw.Close()
		done <- err
	}()
	b.Cleanup(func() { cancel(); <-done })
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "Fray listening on "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return addr
		}
	}
	b.Fatal("the server did not start")
	return ""
}

// benchDo makes a request and decodes a JSON answer into out (when not nil).
func benchDo(b *testing.B, base, token, method, path, body string, out any) {
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		b.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			b.Fatal(err)
		}
	}
}

// fillEncounter plays encounter id with the real ruleset, seeded dice and
// store.Append until it has n events (everyone moves or ends their turn),
// and returns its last seq.
func fillEncounter(b *testing.B, dbURL, id string, n int64) int64 {
	ctx := context.Background()
	db, err := store.Open(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rec, err := db.Encounter(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	rs, err := rules.Registry().Get(rec.Ruleset)
	if err != nil {
		b.Fatal(err)
	}
	st, err := play.Latest(ctx, db, rs, id)
	if err != nil {
		b.Fatal(err)
	}
	roller, pick, gmv := dice.NewRoller(dice.NewSeeded(1)), rand.New(rand.NewPCG(1, 1)), engine.GMViewer()
	for k := 0; st.Core().Seq < n; k++ {
		cmd := engine.NewCommand("start", "", nil)
		if b := st.Core(); b.Status != engine.StatusSetup {
			cmd = engine.NewCommand("end-turn", b.Current(), nil)
			for _, a := range rs.Actions(st, gmv) {
				if a.Kind == "move" && a.Actor == b.Current() && pick.IntN(3) > 0 {
					opts := a.Fields[0].Options
					cmd = engine.NewCommand("move", b.Current(), map[string]any{"to": opts[pick.IntN(len(opts))].Value})
				}
			}
		}
		events, next, err := engine.Decide(rs, st, gmv, fmt.Sprint("f", k), cmd, roller)
		if err != nil {
			b.Fatalf("%s %s: %v", cmd.Kind, cmd.Args, err)
		}
		a := store.Append{EncounterID: id, ExpectSeq: st.Core().Seq, CommandID: fmt.Sprint("f", k),
			Events: events, Status: string(next.Core().Status)}
		if store.SnapshotDue(st.Core().Seq, next.Core().Seq) {
			a.Snapshot, _ = engine.Snapshot(next)
		}
		if _, err := db.AppendCommand(ctx, a); err != nil {
			b.Fatal(err)
		}
		st = next
	}
	return st.Core().Seq
}
