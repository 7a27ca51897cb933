// Command loadgen puts a bounded, closed-loop load on a running Fray server
// on this machine and reports durable commands per second, the latency from
// submitting a command to the moment the last client of its encounter has
// its events, and (with -pid) the server's memory per connection.
//
// For each of -encounters encounters it imports an example encounter, starts
// it and connects -clients websocket clients: the GM (with view=1) and the
// encounter's player characters in turn. The GM ends the current turn, waits
// for the ack, and repeats; every end-turn is a persisted command with dice.
// By default each GM sends its next command as soon as the last one is
// acknowledged (a closed loop: it measures capacity); with -rate the GMs
// together offer that many commands per second (it measures latency at a
// given load). After -warmup plus -duration it stops, closes every
// connection and prints the results of the -duration window.
//
// With -spectators N it also measures one encounter's fan-out: N more
// sockets on the first encounter, opened as the encounter page opens them by
// a campaign member without characters, which read and discard their frames;
// rounds without and with them alternate (see spectators.go).
//
//	go run ./cmd/loadgen -url http://127.0.0.1:8080 -encounters 50 -clients 6 -duration 30s
//	go run ./cmd/loadgen -url http://127.0.0.1:8080 -rate 1000 -pid "$SERVER_PID"
//	go run ./cmd/loadgen -url http://127.0.0.1:8080 -encounters 1 -spectators 2000 -rate 1
//
// With -say the GM says "end turn" in words to POST …/say, as a bot or a
// chat bridge does (docs/playing-by-words.md), instead of sending the
// command on its socket: the server reads the words against the GM's view.
//
// It only drives servers on the loopback interface. See docs/performance.md.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fray-vtt/fray/examples"
)

type options struct {
	url          string
	encounters   int
	clients      int
	duration     time.Duration
	warmup       time.Duration
	example      string
	exampleFile  string
	pid          int
	json         bool
	timeout      time.Duration
	setupTimeout time.Duration
	parallel     int
	rate         float64
	trace        string
	token        string
	signup       bool
	html         bool
	views        bool
	spectators   int
	specToken    string

	compare        bool
	rounds         int
	pgbenchClients int
	pgbenchDB      string
	dataDir        string

	say bool

	ramp   []int
	period time.Duration
	limit  time.Duration
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
		}
		os.Exit(2)
	}
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "the Fray server (loopback only)")
	fs.IntVar(&o.encounters, "encounters", 50, "live encounters")
	fs.IntVar(&o.clients, "clients", 6, "websocket clients per encounter (the GM plus players)")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "measured time")
	fs.DurationVar(&o.warmup, "warmup", 3*time.Second, "load before measuring")
	fs.StringVar(&o.example, "example", defaultExample, "example encounter, a file name in examples/encounters without .json; its ruleset must have end-turn")
	fs.StringVar(&o.exampleFile, "example-file", "", "import this setup document instead of an embedded example")
	fs.IntVar(&o.pid, "pid", 0, "the server's process id: report its memory per connection and CPU use (Linux)")
	fs.BoolVar(&o.json, "json", false, "also print the results as JSON")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "wait at most this long for a command's ack")
	fs.DurationVar(&o.setupTimeout, "setup-timeout", 2*time.Minute, "time allowed to create encounters and connect clients")
	fs.IntVar(&o.parallel, "parallel", 8, "concurrent requests while setting up")
	fs.StringVar(&o.token, "token", os.Getenv("FRAY_TOKEN"), "API token of the account to use (default $FRAY_TOKEN; empty: sign up a throw-away account)")
	fs.BoolVar(&o.signup, "signup", false, "only sign up a throw-away account, print its API token and exit")
	fs.BoolVar(&o.html, "html", false, "page mode: every client connects as the encounter page does (html=1) and applies the fragments it gets; latency runs to the last client's applying them. With -compare, each round also runs the JSON clients, for the ratio")
	fs.BoolVar(&o.views, "views", false, "JSON clients: every socket asks for its viewer's projection (view=1), as a client that draws its own table from JSON would, not the GM's alone; with -html -compare, page ÷ JSON then compares the same viewers' work, the HTML apart")
	fs.IntVar(&o.spectators, "spectators", 0, "fan-out: also open this many spectator sockets (html=1, a campaign member without characters, frames read and discarded) on the first encounter, and alternate -rounds pairs of rounds without and with them")
	fs.StringVar(&o.specToken, "spectator-token", os.Getenv("FRAY_SPECTATOR_TOKEN"), "with -spectators: API token of the account the spectators watch as, not the -token account (default $FRAY_SPECTATOR_TOKEN; empty: sign up a throw-away account)")
	fs.StringVar(&o.trace, "trace", "", "write every measured command to this CSV file: encounter, send time and latency to the last client (ms)")
	fs.Float64Var(&o.rate, "rate", 0, "offered load in commands/s over all encounters (0: each GM sends its next command as soon as the last is acknowledged)")
	fs.BoolVar(&o.compare, "compare", false, "alternate pgbench's equivalent transaction on the server's PostgreSQL cluster with Fray's load, -rounds times, and print Fray ÷ pgbench (needs -pid, and -data-dir or -pgbench-db)")
	fs.IntVar(&o.rounds, "rounds", 3, "with -compare: how many rounds of pgbench then Fray; with -spectators: how many pairs of rounds without and with the spectators")
	fs.IntVar(&o.pgbenchClients, "pgbench-clients", 0, "with -compare: pgbench clients (default -encounters, at most 50: as many transactions in flight as Fray has commands, within the cluster's connections)")
	fs.StringVar(&o.pgbenchDB, "pgbench-db", "", "with -compare: a URL of the server's PostgreSQL cluster (pgbench uses its database fray_pgbench)")
	fs.StringVar(&o.dataDir, "data-dir", "", "with -compare: the server's data directory, to find its private PostgreSQL cluster")
	fs.BoolVar(&o.say, "say", false, "the GM says \"end turn\" in words to POST /api/encounters/{id}/say (as a bot or chat bridge does) instead of sending the end-turn command on its socket; the answer is the ack")
	var ramp string
	fs.StringVar(&ramp, "ramp", "", "capacity ramp: live tables per step, e.g. 200,400,800,1200; each step adds encounters (and their -clients) up to its count, offers one command per -period per table and stops after the first step whose p99 submit → last client passes -limit (overrides -encounters and -rate)")
	fs.DurationVar(&o.period, "period", 5*time.Second, "with -ramp: each table's time between commands")
	fs.DurationVar(&o.limit, "limit", 100*time.Millisecond, "with -ramp: the p99 submit → last client that ends the ramp")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	for _, f := range strings.Split(ramp, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || len(o.ramp) > 0 && n <= o.ramp[len(o.ramp)-1] {
			return o, fmt.Errorf("-ramp %q: table counts must be positive and rising", ramp)
		}
		o.ramp = append(o.ramp, n)
	}
	if len(o.ramp) > 0 {
		o.encounters = o.ramp[0]
		o.rate = float64(o.encounters) / o.period.Seconds()
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	switch {
	case o.encounters < 1:
		return o, errors.New("-encounters must be at least 1")
	case o.clients < 1:
		return o, errors.New("-clients must be at least 1")
	case o.duration <= 0:
		return o, errors.New("-duration must be positive")
	case o.warmup < 0:
		return o, errors.New("-warmup must not be negative")
	case o.timeout <= 0 || o.setupTimeout <= 0:
		return o, errors.New("-timeout and -setup-timeout must be positive")
	case o.rate < 0:
		return o, errors.New("-rate must not be negative")
	case o.parallel < 1:
		return o, errors.New("-parallel must be at least 1")
	case o.example != defaultExample && o.example != "" && o.exampleFile != "":
		return o, errors.New("give -example or -example-file, not both")
	case (o.compare || o.spectators > 0) && o.rounds < 1:
		return o, errors.New("-rounds must be at least 1")
	case o.spectators < 0:
		return o, errors.New("-spectators must not be negative")
	case o.compare && o.spectators > 0:
		return o, errors.New("give -compare or -spectators, not both")
	case o.compare && o.rate > 0:
		return o, errors.New("-compare measures capacity: drop -rate")
	case len(o.ramp) > 0 && (o.compare || o.spectators > 0):
		return o, errors.New("-ramp runs alone: drop -compare and -spectators")
	case o.period <= 0 || o.limit <= 0:
		return o, errors.New("-period and -limit must be positive")
	}
	return o, nil
}

// defaultExample is the encounter every documented measurement uses.
const defaultExample = "sw-zones-dusty-gulch"

// loadExample returns the setup document to import and its name.
func loadExample(o options) (string, []byte, error) {
	if o.exampleFile != "" {
		data, err := os.ReadFile(o.exampleFile)
		return strings.TrimSuffix(filepath.Base(o.exampleFile), ".json"), data, err
	}
	entries, err := fs.ReadDir(examples.Encounters, "encounters")
	if err != nil {
		return "", nil, err
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "", nil, errors.New("no embedded example encounters")
	}
	name := o.example
	if name == "" {
		name = names[0] // ReadDir sorts by name
	}
	data, err := fs.ReadFile(examples.Encounters, "encounters/"+name+".json")
	if err != nil {
		return "", nil, fmt.Errorf("no example %q; the examples are: %s", name, strings.Join(names, ", "))
	}
	return name, data, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	base, err := parseTarget(o.url)
	if err != nil {
		return err
	}
	if o.signup {
		hc := newHTTPClient()
		defer closeIdle(hc)
		a := &api{base: base, client: hc}
		sctx, cancel := context.WithTimeout(ctx, o.setupTimeout)
		defer cancel()
		_, token, err := a.signup(sctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, token)
		return nil
	}
	name, doc, err := loadExample(o)
	if err != nil {
		return err
	}
	var rssStart int64 // with -ramp: before any encounter is set up
	if o.pid > 0 {
		if _, err := readRSS(o.pid); err != nil {
			return fmt.Errorf("-pid %d: %w", o.pid, err)
		}
		if len(o.ramp) > 0 {
			if rssStart, err = settledRSS(ctx, o.pid); err != nil {
				return err
			}
		}
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format, args...) }
	hc := newHTTPClient()
	defer closeIdle(hc)
	a := &api{base: base, client: hc, token: o.token}

	// Set up: an account, encounters, then every client. Bounded by -setup-timeout.
	setupCtx, cancelSetup := context.WithTimeout(ctx, o.setupTimeout)
	defer cancelSetup()
	if a.token == "" {
		if o.pid > 0 {
			logf("note: signing up makes the server hash a password in 19 MiB it then frees, which skews memory per connection; for that, sign up with -signup, restart the server and pass -token\n")
		}
		name, token, err := a.signup(setupCtx)
		if err != nil {
			return fmt.Errorf("is the server running at %s? sign up: %w", base, err)
		}
		a.token = token
		logf("signed up as %s\n", name)
	}
	campaign, err := a.createCampaign(setupCtx, "loadgen "+time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("is the server running at %s? %w", base, err)
	}
	logf("setting up %d encounters of %s ...\n", o.encounters, name)
	encs := make([]*encounter, o.encounters)
	if err := parallel(o.encounters, o.parallel, func(i int) error {
		e, err := setupEncounter(setupCtx, a, campaign, doc, i)
		encs[i] = e
		return err
	}); err != nil {
		return err
	}

	res := &result{
		URL: base.String(), Example: name, Encounters: o.encounters, ClientsPerEncounter: o.clients,
		Connections: o.encounters * o.clients, Rate: o.rate, WarmupSeconds: o.warmup.Seconds(), DurationSeconds: o.duration.Seconds(),
	}
	if o.pid > 0 {
		res.Memory = &memory{}
		logf("waiting for the server's memory to settle ...\n")
		if res.Memory.RSSBeforeKiB, err = settledRSS(setupCtx, o.pid); err != nil {
			return err
		}
	}

	// From here on every opened connection is closed before returning.
	fl := &fleet{a: a, encs: encs, o: o, readCtx: context.WithoutCancel(ctx)}
	defer fl.disconnect()
	logf("connecting %d clients ...\n", res.Connections)
	if err := fl.connect(setupCtx, o.html); err != nil {
		return err
	}
	if o.pid > 0 {
		if res.Memory.RSSAfterKiB, err = settledRSS(setupCtx, o.pid); err != nil {
			return err
		}
		res.Memory.PerConnectionKiB = round2(float64(res.Memory.RSSAfterKiB-res.Memory.RSSBeforeKiB) / float64(res.Connections))
	}
	var spectators *api
	if o.spectators > 0 {
		if spectators, err = spectatorAccount(setupCtx, a, campaign, o.specToken, logf); err != nil {
			return err
		}
	}
	cancelSetup()

	if o.spectators > 0 {
		rounds, err := fanout(ctx, o, fl, spectators, stdout, logf)
		if o.json && len(rounds) > 0 {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if jerr := enc.Encode(rounds); jerr != nil && err == nil {
				err = jerr
			}
		}
		return err
	}
	if o.compare {
		return compare(ctx, o, doc, fl, stdout, logf)
	}
	if len(o.ramp) > 0 {
		return rampUp(ctx, o, fl, campaign, doc, rssStart, stdout, logf)
	}
	interrupted, err := measure(ctx, o, encs, 0, res, logf)
	if err != nil {
		return err
	}
	if res.Memory != nil {
		res.Memory.RSSEndKiB, _ = readRSS(o.pid)
	}

	fl.disconnect()
	res.print(stdout)
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	if interrupted {
		return errors.New("interrupted: the results cover only part of the window")
	}
	return nil
}

// measure puts the load on the connected encounters for -warmup plus
// -duration and fills res with what the -duration window measured. round
// numbers the command ids, so that several windows can run on the same
// encounters. It reports whether ctx ended before the window did.
func measure(ctx context.Context, o options, encs []*encounter, round int, res *result, logf func(string, ...any)) (bool, error) {
	for _, e := range encs {
		e.reset()
	}
	// Load: every GM loop runs until the window closes; nothing outlives
	// runCtx, whose deadline leaves room for one ack timeout.
	start := time.Now()
	w := window{start: start, from: start.Add(o.warmup), until: start.Add(o.warmup + o.duration), timeout: o.timeout,
		encounters: o.encounters, ids: "lg-" + strconv.Itoa(round) + "-", words: o.say}
	if round == 0 {
		w.ids = "lg-"
	}
	if o.rate > 0 {
		w.interval = time.Duration(float64(time.Second) * float64(o.encounters) / o.rate)
	}
	runCtx, cancelRun := context.WithDeadline(ctx, w.until.Add(o.timeout+time.Second))
	defer cancelRun()
	if o.rate > 0 {
		logf("running at %.0f commands/s: %s warmup, then %s measured ...\n", o.rate, o.warmup, o.duration)
	} else {
		logf("running: %s warmup, then %s measured ...\n", o.warmup, o.duration)
	}
	elog := &errorLog{seen: map[string]bool{}, out: logf}
	var loops sync.WaitGroup
	for _, e := range encs {
		loops.Go(func() { e.drive(runCtx, w, elog) })
	}
	var before, after cpuSample
	var cpuErr error
	if sleepUntil(runCtx, w.from) {
		before, cpuErr = sampleCPU(o.pid)
		if sleepUntil(runCtx, w.until) && cpuErr == nil {
			after, cpuErr = sampleCPU(o.pid)
		}
	}
	loops.Wait()
	interrupted := ctx.Err() != nil
	measured := o.duration
	if interrupted {
		end := time.Now()
		if end.After(w.until) {
			end = w.until
		}
		measured = max(0, end.Sub(w.from))
		res.DurationSeconds = measured.Seconds()
	}

	// Give the last commands' events up to two seconds to reach everyone.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) && !interrupted; time.Sleep(10 * time.Millisecond) {
		pending := 0
		for _, e := range encs {
			pending += e.undelivered()
		}
		if pending == 0 {
			break
		}
	}

	if o.trace != "" {
		if err := writeTrace(o.trace, encs, w.from); err != nil {
			logf("trace: %v\n", err)
		}
	}
	var lat, ackLat, specLat []time.Duration
	res.ErrorsByCode = map[string]int{}
	for _, e := range encs {
		e.mu.Lock()
		lat = append(lat, e.lat...)
		specLat = append(specLat, e.specLat...)
		e.mu.Unlock()
		res.Undelivered += e.undelivered()
		ackLat = append(ackLat, e.ackLat...)
		res.CommandsSent += e.sent
		res.CommandsAcked += e.acked
		res.Errors += e.errored
		res.Timeouts += e.timeouts
		res.Late += e.late
		res.Skipped += e.skipped
		for c, n := range e.errs {
			res.ErrorsByCode[c] += n
		}
		if e.loopErr != nil {
			logf("encounter %s: %v\n", e.id, e.loopErr)
		}
		for _, c := range e.clients {
			if err := c.lost(); err != nil {
				res.Disconnects++
				if res.Disconnects <= 5 {
					logf("encounter %s, client %s: connection lost: %v\n", e.id, c.as, err)
				}
			}
		}
	}
	if measured > 0 {
		res.CommandsPerSecond = round2(float64(res.CommandsAcked) / measured.Seconds())
	}
	res.Latency = summarise(lat)
	res.AckLatency = summarise(ackLat)
	if res.Spectators > 0 {
		l := summarise(specLat)
		res.SpectatorLatency = &l
	}
	if o.pid > 0 && cpuErr == nil && !after.at.IsZero() {
		res.CPU = cpuBetween(before, after, res.CommandsAcked)
	} else if cpuErr != nil {
		logf("CPU use not measured: %v\n", cpuErr)
	}
	return interrupted, nil
}

// writeTrace writes one line per measured, fully delivered command.
func writeTrace(name string, encs []*encounter, from time.Time) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	fmt.Fprintln(bw, "encounter,sent_ms,latency_ms")
	for _, e := range encs {
		e.mu.Lock()
		for i, d := range e.lat {
			fmt.Fprintf(bw, "%d,%.3f,%.3f\n", e.index, float64(e.sentAt[i].Sub(from))/1e6, float64(d)/1e6)
		}
		e.mu.Unlock()
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// sleepUntil waits for t; it reports false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// fleet is every client of the encounters under load, connected in one
// mode: page clients (html=1) or JSON clients.
type fleet struct {
	a       *api
	encs    []*encounter
	o       options
	readCtx context.Context

	mu          sync.Mutex
	clients     []*client
	readers     context.Context // the readers' (connectTo)
	stopReaders context.CancelFunc
	pages       bool // the connected clients are page clients
}

// connect opens -clients connections per encounter, GMs first, so every
// encounter's GM is up early; pages says in which mode.
func (f *fleet) connect(ctx context.Context, pages bool) error {
	return f.connectTo(ctx, pages, f.encs)
}

// connectTo is connect for encs alone (new encounters of a ramp's step).
func (f *fleet) connectTo(ctx context.Context, pages bool, encs []*encounter) error {
	f.mu.Lock()
	if f.stopReaders == nil {
		f.readers, f.stopReaders = context.WithCancel(f.readCtx)
	}
	f.pages = pages
	readCtx := f.readers
	f.mu.Unlock()
	type slot struct{ e, i int }
	slots := make([]slot, 0, len(encs)*f.o.clients)
	for i := range f.o.clients {
		for e := range encs {
			slots = append(slots, slot{e, i})
		}
	}
	for _, e := range encs {
		e.clients = make([]*client, f.o.clients)
	}
	return parallel(len(slots), 4*f.o.parallel, func(k int) error {
		s := slots[k]
		e := encs[s.e]
		c, err := dial(ctx, f.a, e, e.viewerFor(s.i), s.i == 0, pages, s.i == 0 || f.o.views)
		if err != nil {
			return err
		}
		f.mu.Lock()
		f.clients = append(f.clients, c)
		f.mu.Unlock()
		e.clients[s.i] = c
		if s.i == 0 && c.current != "" {
			e.current = c.current // a page's snapshot has no projection: setup's stands
		}
		go c.read(readCtx)
		return nil
	})
}

// disconnect closes every connection and waits for its reader.
func (f *fleet) disconnect() {
	f.mu.Lock()
	all, stop := f.clients, f.stopReaders
	f.clients, f.stopReaders, f.readers = nil, nil, nil
	f.mu.Unlock()
	closeAll(all)
	if stop != nil {
		stop()
	}
}

// reconnect connects the clients again in the other mode if they are not
// in mode pages.
func (f *fleet) reconnect(ctx context.Context, pages bool) error {
	f.mu.Lock()
	same := f.pages == pages && f.clients != nil
	f.mu.Unlock()
	if same {
		return nil
	}
	f.disconnect()
	cctx, cancel := context.WithTimeout(ctx, f.o.setupTimeout)
	defer cancel()
	return f.connect(cctx, pages)
}

// closeAll closes the connections concurrently and waits for their readers.
func closeAll(clients []*client) {
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() {
			c.close()
			<-c.done
		})
	}
	wg.Wait()
}

// parallel runs fn(0) … fn(n-1), at most limit at a time, and returns the
// first error; after an error no new calls start.
func parallel(n, limit int, fn func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, limit)
	for i := range n {
		mu.Lock()
		failed := first != nil
		mu.Unlock()
		if failed {
			break
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := fn(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}
