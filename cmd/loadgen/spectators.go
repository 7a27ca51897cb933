package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/coder/websocket"
)

// Spectators (-spectators N) measure the fan-out of one encounter to many
// sockets: N more sockets on the first encounter, opened as the encounter
// page opens them (html=1) by a campaign member without characters — a
// spectator, who sees what the table sees and commands nothing. They all
// belong to one account, so the server renders their fragments once per
// update and writes the same frame to each. A spectator reads its frames
// and throws them away: it looks only for the command id in the first
// bytes of each frame (to time the command's arrival) and counts the
// bytes, so that the load generator, on the same cores as the server, can
// hold thousands of them; pings are answered by the websocket library
// while it reads.
//
// With spectators the run alternates rounds without and with them on the
// same encounters (-rounds pairs, ABBA: none, with, with, none, …; the
// spectators connect before a round with them and close after it) and
// prints, per round, the acting clients' ack latency, the latency to the
// last regular client and to the last spectator, and each pair's ratio of
// ack p99 with ÷ without.

// spectator is one throw-away reader of an encounter's frames.
type spectator struct {
	enc     *encounter
	conn    *websocket.Conn
	done    chan struct{}
	err     error // why the reader stopped; read after done
	closing atomic.Bool
}

// spectatorTally counts what the spectators received in a round.
type spectatorTally struct {
	frames, bytes atomic.Int64
}

// spectatorPeek is how much of a frame a spectator looks into for the
// command id: the events come first in an events message, and an end of
// turn's fit well within it.
const spectatorPeek = 8 << 10

// commandMarker starts the command id of a load generator's command in an
// encoded event (every id starts with "lg-"; a string inside a JSON string
// has its quotes escaped, so only an event's own field matches).
var commandMarker = []byte(`"command":"lg-`)

// commandOf returns the first load generator command id in frame, or "".
func commandOf(frame []byte) string {
	i := bytes.Index(frame, commandMarker)
	if i < 0 {
		return ""
	}
	rest := frame[i+len(commandMarker)-len("lg-"):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return "" // cut off by the peek
	}
	return string(rest[:j])
}

// dialSpectator opens one spectator's socket on e with the spectator
// account's api and reads its snapshot.
func dialSpectator(ctx context.Context, a *api, e *encounter) (*spectator, error) {
	q := url.Values{"html": {"1"}}
	conn, err := openSocket(ctx, a, e, q, "as a spectator")
	if err != nil {
		return nil, err
	}
	_, r, err := conn.Reader(ctx)
	var head [32]byte
	n := 0
	if err == nil {
		n, err = io.ReadFull(r, head[:])
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = nil
		}
		if err == nil {
			_, err = io.Copy(io.Discard, r)
		}
	}
	if err != nil {
		conn.CloseNow()
		return nil, fmt.Errorf("encounter %s, spectator: read snapshot: %w", e.id, err)
	}
	if !bytes.HasPrefix(head[:n], []byte(`{"type":"snapshot"`)) {
		conn.CloseNow()
		return nil, fmt.Errorf("encounter %s, spectator: expected a snapshot, got %.32q", e.id, head[:n])
	}
	return &spectator{enc: e, conn: conn, done: make(chan struct{})}, nil
}

// read discards frames until the connection ends, telling the encounter
// when a command's events arrived.
func (s *spectator) read(ctx context.Context, tally *spectatorTally) {
	defer close(s.done)
	buf := make([]byte, spectatorPeek)
	last := ""
	for {
		_, r, err := s.conn.Reader(ctx)
		var n int
		var rest int64
		if err == nil {
			n, err = io.ReadFull(r, buf)
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				err = nil
			} else if err == nil {
				rest, err = io.Copy(io.Discard, r)
			}
		}
		if err != nil {
			if !s.closing.Load() {
				s.err = err
			}
			return
		}
		at := time.Now()
		tally.frames.Add(1)
		tally.bytes.Add(int64(n) + rest)
		if id := commandOf(buf[:n]); id != "" && id != last {
			last = id
			s.enc.spectated(id, at)
		}
	}
}

func (s *spectator) close() {
	s.closing.Store(true)
	_ = s.conn.Close(websocket.StatusNormalClosure, "load test finished")
}

// lost returns why a spectator's connection ended before the load
// generator closed it, or nil.
func (s *spectator) lost() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// spectatorAccount makes sure there is an account to watch as, a member of
// campaign without characters: the one of -spectator-token, or a new
// throw-away one; gm (the campaign's GM) invites it. It returns the
// account's api.
func spectatorAccount(ctx context.Context, gm *api, campaign, token string, logf func(string, ...any)) (*api, error) {
	sa := &api{base: gm.base, client: gm.client, token: token}
	if sa.token == "" {
		name, t, err := sa.signup(ctx)
		if err != nil {
			return nil, fmt.Errorf("sign up the spectators' account: %w", err)
		}
		sa.token = t
		logf("spectators watch as %s\n", name)
	}
	var inv struct {
		URL string `json:"url"`
	}
	if err := gm.do(ctx, http.MethodPost, "/api/campaigns/"+url.PathEscape(campaign)+"/invites", nil, []byte("{}"), &inv); err != nil {
		return nil, fmt.Errorf("invite the spectators' account: %w", err)
	}
	u, err := url.Parse(inv.URL)
	if err != nil || !strings.Contains(u.Path, "/join/") {
		return nil, fmt.Errorf("invite the spectators' account: unexpected invite URL %q", inv.URL)
	}
	if err := sa.do(ctx, http.MethodPost, "/api/join/"+url.PathEscape(path.Base(u.Path)), nil, nil, nil); err != nil {
		return nil, fmt.Errorf("the spectators' account joins the campaign: %w", err)
	}
	return sa, nil
}

// crowd is the spectators of one encounter, connected for a round.
type crowd struct {
	a     *api
	enc   *encounter
	n     int
	o     options
	tally *spectatorTally

	all  []*spectator
	stop context.CancelFunc
}

// connect opens the crowd's sockets.
func (c *crowd) connect(ctx context.Context, readCtx context.Context) error {
	readCtx, stop := context.WithCancel(readCtx)
	c.stop = stop
	c.all = make([]*spectator, c.n)
	err := parallel(c.n, 4*c.o.parallel, func(i int) error {
		s, err := dialSpectator(ctx, c.a, c.enc)
		if err != nil {
			return err
		}
		c.all[i] = s
		go s.read(readCtx, c.tally)
		return nil
	})
	if err != nil {
		c.disconnect()
		return err
	}
	c.enc.watchers = c.n
	return nil
}

// disconnect closes every spectator's socket and waits for its reader.
func (c *crowd) disconnect() {
	var wg sync.WaitGroup
	for _, s := range c.all {
		if s == nil {
			continue
		}
		wg.Go(func() {
			s.close()
			<-s.done
		})
	}
	wg.Wait()
	if c.stop != nil {
		c.stop()
	}
	c.all = nil
	c.enc.watchers = 0
}

// lostCount counts the spectators whose connection ended on its own.
func (c *crowd) lostCount(logf func(string, ...any)) int {
	n := 0
	for _, s := range c.all {
		if s == nil {
			continue
		}
		if err := s.lost(); err != nil {
			n++
			if n <= 3 {
				logf("spectator of encounter %s: connection lost: %v\n", c.enc.id, err)
			}
		}
	}
	return n
}

// fanoutRound is one round of a run with spectators.
type fanoutRound struct {
	Round      int     `json:"round"`
	Spectators int     `json:"spectators"`
	Result     *result `json:"result"`
}

// fanout runs 2 × o.rounds rounds on the connected encounters, without
// and with o.spectators spectators on the first one, and prints them.
func fanout(ctx context.Context, o options, fl *fleet, sa *api, stdout io.Writer, logf func(string, ...any)) ([]fanoutRound, error) {
	c := &crowd{a: sa, enc: fl.encs[0], n: o.spectators, o: o}
	defer c.disconnect()
	var rounds []fanoutRound
	for r := 1; r <= 2*o.rounds; r++ {
		with := r%4 == 2 || r%4 == 3 // none, with, with, none, …
		n := 0
		c.tally = &spectatorTally{}
		if with {
			n = o.spectators
			logf("round %d of %d: connecting %d spectators ...\n", r, 2*o.rounds, n)
			cctx, cancel := context.WithTimeout(ctx, o.setupTimeout)
			err := c.connect(cctx, context.WithoutCancel(ctx))
			cancel()
			if err != nil {
				return rounds, fmt.Errorf("round %d: %w", r, err)
			}
		}
		logf("round %d of %d: %d spectators ...\n", r, 2*o.rounds, n)
		res := &result{Encounters: o.encounters, ClientsPerEncounter: o.clients, Connections: o.encounters*o.clients + n,
			Rate: o.rate, WarmupSeconds: o.warmup.Seconds(), DurationSeconds: o.duration.Seconds(), Spectators: n}
		interrupted, err := measure(ctx, o, fl.encs, r, res, logf)
		if err != nil {
			return rounds, err
		}
		if with {
			res.SpectatorsLost = c.lostCount(logf)
			res.SpectatorFrames, res.SpectatorBytes = c.tally.frames.Load(), c.tally.bytes.Load()
			c.disconnect()
		}
		rounds = append(rounds, fanoutRound{Round: r, Spectators: n, Result: res})
		if interrupted {
			printFanout(stdout, o, rounds)
			return rounds, errors.New("interrupted")
		}
	}
	printFanout(stdout, o, rounds)
	return rounds, nil
}

// printFanout prints each round and, per pair of rounds, the acting
// clients' ack p99 with the spectators ÷ without.
func printFanout(w io.Writer, o options, rounds []fanoutRound) {
	load := "closed loop"
	if o.rate > 0 {
		load = fmt.Sprintf("%.0f commands/s offered", o.rate)
	}
	mode := "JSON clients"
	if o.html {
		mode = "page clients"
	}
	fmt.Fprintf(w, "\nFan-out: %d encounters x %d %s, %s; spectators (html=1) on encounter 1; %s warmup + %s measured per round\n\n",
		o.encounters, o.clients, mode, load, o.warmup, o.duration)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tspectators\tcmd/s\tack p50\tack p99\tlast client p50\tlast client p99\tlast spectator p50\tlast spectator p99\tKiB/frame\tserver ms/cmd\tserver / loadgen / other cores\ttimeouts\tundelivered\tlost\t")
	for _, r := range rounds {
		res := r.Result
		sp50, sp99, kib := "-", "-", "-"
		if r.Spectators > 0 {
			sp50, sp99 = fmt.Sprintf("%.2f", res.SpectatorLatency.P50), fmt.Sprintf("%.2f", res.SpectatorLatency.P99)
			if res.SpectatorFrames > 0 {
				kib = fmt.Sprintf("%.1f", float64(res.SpectatorBytes)/float64(res.SpectatorFrames)/1024)
			}
		}
		perCmd, cores := "-", "-"
		if c := res.CPU; c != nil {
			perCmd = fmt.Sprintf("%.2f", c.ServerMsPerCommand)
			cores = fmt.Sprintf("%.2f / %.2f / %.2f", c.ServerCores, c.LoadgenCores, c.OtherCores)
		}
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t\n",
			r.Round, r.Spectators, res.CommandsPerSecond, res.AckLatency.P50, res.AckLatency.P99,
			res.Latency.P50, res.Latency.P99, sp50, sp99, kib, perCmd, cores, res.Timeouts, res.Undelivered, res.Disconnects+res.SpectatorsLost)
	}
	tw.Flush()
	var ratios []string
	for i := 0; i+1 < len(rounds); i += 2 {
		with, without := rounds[i], rounds[i+1]
		if with.Spectators == 0 {
			with, without = without, with
		}
		if without.Result.AckLatency.P99 > 0 {
			ratios = append(ratios, fmt.Sprintf("%.2f", with.Result.AckLatency.P99/without.Result.AckLatency.P99))
		}
	}
	if len(ratios) > 0 {
		fmt.Fprintf(w, "\nack p99 with %d spectators ÷ without, per pair of rounds: %s\n", o.spectators, strings.Join(ratios, ", "))
	}
	var with, without []float64
	for _, r := range rounds {
		if r.Spectators > 0 {
			with = append(with, r.Result.AckLatency.P99)
		} else {
			without = append(without, r.Result.AckLatency.P99)
		}
	}
	if len(with) > 0 && len(without) > 0 {
		slices.Sort(with)
		slices.Sort(without)
		fmt.Fprintf(w, "ack p99 without: %s ms; with: %s ms\n", joinFloats(without), joinFloats(with))
	}
}
