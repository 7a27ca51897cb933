package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/pgcluster"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
)

// The comparison (-compare) puts Fray next to the bare transaction that
// one of its commands would be if it were a plain row update: pgbench, on
// the server's own PostgreSQL cluster, with -pgbench-clients clients each
// running, on a row of its own,
//
//	UPDATE the encounter's state (the example's whole state as JSON, ≈ 6 KB)
//	and INSERT one event row (an end of turn's events as JSON, ≈ 0.4 KB)
//
// in one transaction — the shape of a Fray command when it rewrote the
// encounter's state every time, with less in it (no command id, no access
// check, one row for the events, no network transfer of the documents). Rounds alternate — pgbench,
// then Fray's load on the connected encounters — so that both see the same
// machine, and each round's ratio compares two runs minutes apart at most.

// maxPgbenchClients caps pgbench's default clients: the server's private
// cluster allows 100 connections, the server's pool holds some of them, and
// pgbench's throughput on a small machine stops growing long before 50.
const maxPgbenchClients = 50

// pgbenchRound is what one pgbench run measured in its window.
type pgbenchRound struct {
	Clients         int     `json:"clients"`
	Transactions    int     `json:"transactions"`
	TPS             float64 `json:"transactions_per_second"`
	Latency         latency `json:"latency"`
	PostgresCores   float64 `json:"postgres_cores"`
	PgbenchCores    float64 `json:"pgbench_cores"`
	ServerCores     float64 `json:"fray_server_cores"` // the idle Fray server
	MachineCores    float64 `json:"machine_busy_cores"`
	OtherCores      float64 `json:"other_cores"`
	PostgresMsPerTx float64 `json:"postgres_cpu_ms_per_transaction"`
}

// compareRound is one round: pgbench, then Fray (with -html: Fray's JSON
// clients and its page clients, in alternating order from round to round).
type compareRound struct {
	Round   int          `json:"round"`
	Pgbench pgbenchRound `json:"pgbench"`
	Fray    *result      `json:"fray"`
	Ratio   float64      `json:"fray_over_pgbench"`
	// With -html: the page clients' run, its ratio to pgbench, and its
	// server CPU per command ÷ the JSON run's.
	Page      *result `json:"page,omitempty"`
	PageRatio float64 `json:"page_over_pgbench,omitempty"`
	PageCPU   float64 `json:"page_cpu_over_json,omitempty"`
}

// compare runs o.rounds rounds of pgbench's transaction and Fray's load,
// interleaved, and prints each round and the ratios.
func compare(ctx context.Context, o options, doc []byte, fl *fleet, stdout io.Writer, logf func(string, ...any)) error {
	encs := fl.encs
	if o.pid <= 0 {
		return errors.New("-compare needs -pid: CPU per command is half of the comparison")
	}
	conninfo, err := pgbenchTarget(ctx, o)
	if err != nil {
		return err
	}
	bin, err := findPgbench()
	if err != nil {
		return err
	}
	state, event, err := sampleDocuments(doc)
	if err != nil {
		return fmt.Errorf("the example's state and events: %w", err)
	}
	clients := o.pgbenchClients
	if clients <= 0 {
		clients = min(o.encounters, maxPgbenchClients)
	}
	dir, err := os.MkdirTemp("", "fray-pgbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script, err := preparePgbench(ctx, conninfo, dir, state, event, clients)
	if err != nil {
		return fmt.Errorf("prepare pgbench: %w", err)
	}
	logf("pgbench: %d clients, each updating a %d-byte state and inserting a %d-byte event per transaction\n",
		clients, len(state), len(event))

	var rounds []compareRound
	for r := 1; r <= o.rounds; r++ {
		logf("round %d of %d: pgbench ...\n", r, o.rounds)
		pg, err := runPgbench(ctx, o, bin, conninfo, script, dir, r, clients)
		if err != nil {
			return fmt.Errorf("round %d: pgbench: %w", r, err)
		}
		round := compareRound{Round: r, Pgbench: pg}
		modes := []bool{false}
		if o.html {
			modes = []bool{r%2 == 0, r%2 == 1} // alternate which goes first; one reconnect a round
		}
		for k, pages := range modes {
			what := "JSON clients"
			if pages {
				what = "page clients"
			}
			if err := fl.reconnect(ctx, pages); err != nil {
				return fmt.Errorf("round %d: connect %s: %w", r, what, err)
			}
			logf("round %d of %d: Fray, %s ...\n", r, o.rounds, what)
			fr := &result{Encounters: o.encounters, ClientsPerEncounter: o.clients, Connections: o.encounters * len(encs[0].clients),
				WarmupSeconds: o.warmup.Seconds(), DurationSeconds: o.duration.Seconds()}
			interrupted, err := measure(ctx, o, encs, r*10+k, fr, logf)
			if err != nil {
				return err
			}
			if interrupted {
				return errors.New("interrupted")
			}
			ratio := 0.0
			if pg.TPS > 0 {
				ratio = round2(fr.CommandsPerSecond / pg.TPS)
			}
			if pages && o.html {
				round.Page, round.PageRatio = fr, ratio
			} else {
				round.Fray, round.Ratio = fr, ratio
			}
		}
		if round.Page != nil && round.Page.CPU != nil && round.Fray.CPU != nil && round.Fray.CPU.ServerMsPerCommand > 0 {
			round.PageCPU = round2(round.Page.CPU.ServerMsPerCommand / round.Fray.CPU.ServerMsPerCommand)
		}
		rounds = append(rounds, round)
	}
	printComparison(stdout, o, clients, len(state), len(event), rounds)
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rounds)
	}
	return nil
}

func printComparison(w io.Writer, o options, clients, stateBytes, eventBytes int, rounds []compareRound) {
	fmt.Fprintf(w, "\nFray against pgbench on the same PostgreSQL cluster: %d encounters x %d clients (Fray), %d clients (pgbench: "+
		"UPDATE a %d-byte state + INSERT a %d-byte event per transaction); %s warmup + %s measured per run\n\n",
		o.encounters, o.clients, clients, stateBytes, eventBytes, o.warmup, o.duration)
	if o.views {
		fmt.Fprintf(w, "JSON clients with -views: every socket with its viewer's projection (view=1), not the GM's alone\n\n")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tpgbench tx/s\tp50 ms\tp99 ms\tPG CPU ms/tx\tother cores\t|\tFray commands/s\tp50 ms\tp99 ms\tserver CPU ms/cmd\tPG CPU ms/cmd\tother cores\t|\tFray ÷ pgbench\t")
	var ratios, server, pgFray, pgBench []float64
	for _, r := range rounds {
		p, f := r.Pgbench, r.Fray
		var srv, db, other float64
		if f.CPU != nil {
			srv, db, other = f.CPU.ServerMsPerCommand, f.CPU.DBMsPerCommand, f.CPU.OtherCores
		}
		fmt.Fprintf(tw, "%d\t%.0f\t%.2f\t%.2f\t%.3f\t%.2f\t|\t%.0f\t%.2f\t%.2f\t%.3f\t%.3f\t%.2f\t|\t%.2f\t\n",
			r.Round, p.TPS, p.Latency.P50, p.Latency.P99, p.PostgresMsPerTx, p.OtherCores,
			f.CommandsPerSecond, f.Latency.P50, f.Latency.P99, srv, db, other, r.Ratio)
		ratios, server, pgFray, pgBench = append(ratios, r.Ratio), append(server, srv), append(pgFray, db), append(pgBench, p.PostgresMsPerTx)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nFray ÷ pgbench (durable commands/s ÷ transactions/s): %s (mean %.2f)\n", joinFloats(ratios), mean(ratios))
	fmt.Fprintf(w, "server CPU per command: %s ms (mean %.3f)\n", joinFloats(server), mean(server))
	fmt.Fprintf(w, "PostgreSQL CPU per command (Fray): %s ms (mean %.3f); per pgbench transaction: %s ms (mean %.3f)\n",
		joinFloats(pgFray), mean(pgFray), joinFloats(pgBench), mean(pgBench))
	fmt.Fprintln(w, "latency: Fray from submitting a command to its last client's receiving the events; pgbench per transaction")
	if !o.html {
		return
	}
	fmt.Fprintf(w, "\nPage clients (html=1: fragments, applied as app.js does), same rounds, alternating with the JSON clients above\n\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tpage commands/s\tp50 ms\tp99 ms\tserver CPU ms/cmd\tPG CPU ms/cmd\tother cores\t|\tpage ÷ pgbench\tpage CPU ÷ JSON CPU\t")
	var pageRatios, cpuRatios, pageServer []float64
	for _, r := range rounds {
		f := r.Page
		if f == nil {
			continue
		}
		var srv, db, other float64
		if f.CPU != nil {
			srv, db, other = f.CPU.ServerMsPerCommand, f.CPU.DBMsPerCommand, f.CPU.OtherCores
		}
		fmt.Fprintf(tw, "%d\t%.0f\t%.2f\t%.2f\t%.3f\t%.3f\t%.2f\t|\t%.2f\t%.2f\t\n",
			r.Round, f.CommandsPerSecond, f.Latency.P50, f.Latency.P99, srv, db, other, r.PageRatio, r.PageCPU)
		pageRatios, cpuRatios, pageServer = append(pageRatios, r.PageRatio), append(cpuRatios, r.PageCPU), append(pageServer, srv)
	}
	tw.Flush()
	fmt.Fprintf(w, "\npage ÷ pgbench: %s (mean %.2f)\n", joinFloats(pageRatios), mean(pageRatios))
	fmt.Fprintf(w, "page server CPU per command: %s ms (mean %.3f)\n", joinFloats(pageServer), mean(pageServer))
	fmt.Fprintf(w, "page server CPU per command ÷ JSON's, same round: %s (mean %.2f)\n", joinFloats(cpuRatios), mean(cpuRatios))
}

func joinFloats(fs []float64) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strings.Join(s, ", ")
}

func mean(fs []float64) float64 {
	if len(fs) == 0 {
		return 0
	}
	var t float64
	for _, f := range fs {
		t += f
	}
	return math.Round(t/float64(len(fs))*1000) / 1000
}

// pgbenchTarget returns the libpq connection string of the database
// pgbench uses (fray_pgbench) on the server's cluster: -pgbench-db's, or
// that of the private cluster in -data-dir.
func pgbenchTarget(ctx context.Context, o options) (string, error) {
	raw := o.pgbenchDB
	if raw == "" {
		if o.dataDir == "" {
			return "", errors.New("-compare needs -data-dir (the server's, for its private PostgreSQL cluster) or -pgbench-db")
		}
		c, err := pgcluster.Attach(ctx, filepath.Join(o.dataDir, "postgres"))
		if err != nil {
			return "", err
		}
		raw = c.URL("postgres")
	}
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		return "", fmt.Errorf("-pgbench-db: %w", err)
	}
	kv := []string{"host=" + quoteConninfo(cfg.Host), "port=" + strconv.Itoa(int(cfg.Port)),
		"user=" + quoteConninfo(cfg.User), "dbname=fray_pgbench", "sslmode=disable"}
	if cfg.Password != "" {
		kv = append(kv, "password="+quoteConninfo(cfg.Password))
	}
	admin := cfg.Copy()
	admin.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to the cluster: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'fray_pgbench')`).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if _, err := conn.Exec(ctx, `CREATE DATABASE fray_pgbench`); err != nil {
			return "", err
		}
	}
	return strings.Join(kv, " "), nil
}

func quoteConninfo(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// findPgbench finds pgbench next to PostgreSQL's server binaries, or on PATH.
func findPgbench() (string, error) {
	if dir, err := pgcluster.FindBinaries(); err == nil {
		if p := filepath.Join(dir, "pgbench"); isFile(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("pgbench")
	if err != nil {
		return "", errors.New("-compare needs pgbench (Debian: the postgresql-contrib or postgresql-client package)")
	}
	return p, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// sampleDocuments plays the example with the engine — start, then twenty
// ends of turn — and returns its state as stored then, and the events of
// the end of turn whose encoded events are closest in size to the mean, as
// one JSON array.
func sampleDocuments(doc []byte) (state, events []byte, err error) {
	p, err := prep.Prepare(rules.Registry(), doc)
	if err != nil {
		return nil, nil, err
	}
	roller := dice.NewRoller(dice.NewSeeded(1))
	gm := engine.GMViewer()
	_, st, err := engine.Decide(p.Ruleset, p.State, gm, "start", engine.NewCommand(engine.KindStart, "", nil), roller)
	if err != nil {
		return nil, nil, err
	}
	var commands [][]byte
	for i := range 20 {
		evs, next, err := engine.Decide(p.Ruleset, st, gm, fmt.Sprint("c", i), engine.NewCommand("end-turn", st.Core().Current(), nil), roller)
		if err != nil {
			return nil, nil, fmt.Errorf("the example must take end-turn: %w", err)
		}
		b, err := json.Marshal(evs)
		if err != nil {
			return nil, nil, err
		}
		commands = append(commands, b)
		st = next
	}
	total := 0
	for _, b := range commands {
		total += len(b)
	}
	avg := total / len(commands)
	events = slices.MinFunc(commands, func(a, b []byte) int {
		return abs(len(a)-avg) - abs(len(b)-avg)
	})
	state, err = engine.Snapshot(st)
	return state, events, err
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// preparePgbench creates the tables — shaped like Fray's encounters and
// events before commands became append-only — with one encounter row per
// client, and writes the transaction's script. The state and the event are
// kept as text and parsed into jsonb by every transaction, as a command's
// were when they came from the server: the transaction does the work of
// storing them, without the network.
func preparePgbench(ctx context.Context, conninfo, dir string, state, event []byte, clients int) (string, error) {
	conn, err := pgx.Connect(ctx, conninfo)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`DROP TABLE IF EXISTS bench_events, bench_encounters, bench_docs`,
		`CREATE TABLE bench_encounters (
			id int PRIMARY KEY, seq bigint NOT NULL, state jsonb NOT NULL,
			updated_at timestamptz NOT NULL DEFAULT now()
		) WITH (fillfactor = 70)`,
		`ALTER TABLE bench_encounters ALTER COLUMN state SET STORAGE EXTERNAL`,
		`CREATE TABLE bench_events (
			encounter_id int NOT NULL REFERENCES bench_encounters (id), seq bigint NOT NULL,
			kind text NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (encounter_id, seq)
		)`,
		`CREATE TABLE bench_docs (state text NOT NULL, event text NOT NULL)`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return "", err
		}
	}
	if _, err := conn.Exec(ctx, `INSERT INTO bench_docs (state, event) VALUES ($1, $2)`, string(state), string(event)); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, `INSERT INTO bench_encounters (id, seq, state) SELECT i, 0, $1 FROM generate_series(1, $2) AS i`,
		state, clients); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, `CHECKPOINT`); err != nil {
		return "", err
	}
	script := `\set id :client_id + 1
WITH d AS (SELECT state, event FROM bench_docs),
u AS (UPDATE bench_encounters e SET seq = e.seq + 1, state = d.state::jsonb, updated_at = now() FROM d WHERE e.id = :id RETURNING e.seq)
INSERT INTO bench_events (encounter_id, seq, kind, body) SELECT :id, u.seq, 'end-turn', d.event::jsonb FROM u, d;
`
	name := filepath.Join(dir, "command.sql")
	return name, os.WriteFile(name, []byte(script), 0o600)
}

// runPgbench runs pgbench for -warmup plus -duration (and a second more,
// so that it is still running when the window closes) and measures the
// -duration window from its per-transaction log.
func runPgbench(ctx context.Context, o options, bin, conninfo, script, dir string, round, clients int) (pgbenchRound, error) {
	res := pgbenchRound{Clients: clients}
	prefix := filepath.Join(dir, "round"+strconv.Itoa(round))
	secs := int(math.Ceil((o.warmup + o.duration).Seconds())) + 1
	cmd := exec.CommandContext(ctx, bin, "-n", "-M", "prepared", "-c", strconv.Itoa(clients), "-j", "2",
		"-T", strconv.Itoa(secs), "-f", script, "-l", "--log-prefix="+prefix, conninfo)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, err
	}
	from, until := start.Add(o.warmup), start.Add(o.warmup+o.duration)
	var before, after cpuSample
	var benchBefore, benchAfter int64
	var cpuErr error
	if sleepUntil(ctx, from) {
		before, cpuErr = sampleCPU(o.pid)
		benchBefore = ticksOf(cmd.Process.Pid)
		if sleepUntil(ctx, until) && cpuErr == nil {
			after, cpuErr = sampleCPU(o.pid)
			benchAfter = ticksOf(cmd.Process.Pid)
		}
	}
	if err := cmd.Wait(); err != nil {
		return res, fmt.Errorf("%w: %s", err, out.String())
	}
	if cpuErr != nil {
		return res, cpuErr
	}
	lat, err := readPgbenchLogs(prefix, from, until)
	if err != nil {
		return res, err
	}
	res.Transactions = len(lat)
	res.TPS = round2(float64(len(lat)) / o.duration.Seconds())
	res.Latency = summarise(lat)
	c := cpuBetween(before, after, 0)
	secsMeasured := after.at.Sub(before.at).Seconds()
	res.PostgresCores, res.ServerCores, res.MachineCores = c.DatabaseCores, c.ServerCores, c.MachineCores
	res.PgbenchCores = round2(float64(benchAfter-benchBefore) / clockTicks / secsMeasured)
	res.OtherCores = round2(max(0, c.MachineCores-c.ServerCores-c.DatabaseCores-c.LoadgenCores-res.PgbenchCores))
	if len(lat) > 0 {
		res.PostgresMsPerTx = math.Round(float64(after.descendants-before.descendants)/clockTicks*1e6/float64(len(lat))) / 1e3
	}
	return res, nil
}

// ticksOf is a process's CPU time in clock ticks (0 if it is gone).
func ticksOf(pid int) int64 {
	st, err := readStat(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	return st.ticks
}

// readPgbenchLogs reads pgbench's per-transaction logs (prefix.PID and
// prefix.PID.N, one per thread) and returns the latencies of the
// transactions that ended between from and until. A line is: client id,
// transaction number, latency in µs, script number, end time in seconds
// and microseconds.
func readPgbenchLogs(prefix string, from, until time.Time) ([]time.Duration, error) {
	files, err := filepath.Glob(prefix + ".*")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no pgbench log at %s.*", prefix)
	}
	var lat []time.Duration
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			d, end, ok := parsePgbenchLine(sc.Text())
			if ok && !end.Before(from) && end.Before(until) {
				lat = append(lat, d)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return lat, nil
}

func parsePgbenchLine(line string) (time.Duration, time.Time, bool) {
	f := strings.Fields(line)
	if len(f) < 6 {
		return 0, time.Time{}, false
	}
	us, err1 := strconv.ParseInt(f[2], 10, 64)
	sec, err2 := strconv.ParseInt(f[4], 10, 64)
	usec, err3 := strconv.ParseInt(f[5], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, time.Time{}, false // "skipped" or a failed transaction
	}
	return time.Duration(us) * time.Microsecond, time.Unix(sec, usec*1000), true
}
