package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// result is what a run measured; -json prints it as is.
type result struct {
	URL                 string  `json:"url"`
	Example             string  `json:"example"`
	Encounters          int     `json:"encounters"`
	ClientsPerEncounter int     `json:"clients_per_encounter"`
	Connections         int     `json:"connections"`
	Rate                float64 `json:"offered_rate,omitempty"` // commands/s asked for with -rate; 0 for back-to-back
	WarmupSeconds       float64 `json:"warmup_seconds"`
	DurationSeconds     float64 `json:"duration_seconds"`

	CommandsSent      int            `json:"commands_sent"`
	CommandsAcked     int            `json:"commands_acked"`
	CommandsPerSecond float64        `json:"durable_commands_per_second"`
	Errors            int            `json:"errors"`
	ErrorsByCode      map[string]int `json:"errors_by_code,omitempty"`
	Timeouts          int            `json:"timeouts"`
	Late              int            `json:"late,omitempty"`    // with -rate: sent more than 1 ms after their slot
	Skipped           int            `json:"skipped,omitempty"` // with -rate: slots missed because the previous command was still in flight
	Undelivered       int            `json:"undelivered"`       // acked commands whose events did not reach every client
	Disconnects       int            `json:"disconnects"`

	Latency    latency `json:"latency_submit_to_last_client"`
	AckLatency latency `json:"latency_submit_to_ack"`

	// With -spectators: the spectators on the first encounter (not in
	// Latency, which runs to the last regular client), what reached them
	// and how many were lost.
	Spectators       int      `json:"spectators,omitempty"`
	SpectatorLatency *latency `json:"latency_submit_to_last_spectator,omitempty"`
	SpectatorFrames  int64    `json:"spectator_frames,omitempty"`
	SpectatorBytes   int64    `json:"spectator_bytes,omitempty"`
	SpectatorsLost   int      `json:"spectators_lost,omitempty"`

	Memory *memory `json:"memory,omitempty"`
	CPU    *cpu    `json:"cpu,omitempty"`
}

// latency summarises durations in milliseconds.
type latency struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
}

// memory is the server's resident set size around connecting every client.
type memory struct {
	RSSBeforeKiB     int64   `json:"rss_before_kib"`
	RSSAfterKiB      int64   `json:"rss_after_kib"`
	RSSEndKiB        int64   `json:"rss_end_kib"`
	PerConnectionKiB float64 `json:"per_connection_kib"`
}

// cpu is the CPU time used during the measured window, in cores (CPU
// seconds per second), and per acknowledged command.
type cpu struct {
	ServerCores        float64 `json:"server_cores"`
	DatabaseCores      float64 `json:"database_cores"` // the server's descendant processes (its private PostgreSQL)
	LoadgenCores       float64 `json:"loadgen_cores"`
	MachineCores       float64 `json:"machine_busy_cores"` // every process on the machine, from /proc/stat
	MachineCPUs        int     `json:"machine_cpus"`
	OtherCores         float64 `json:"other_cores"` // busy but not the server, its database or loadgen: noise
	ServerMsPerCommand float64 `json:"server_cpu_ms_per_command"`
	DBMsPerCommand     float64 `json:"database_cpu_ms_per_command"`
}

// summarise sorts d in place and returns its percentiles.
func summarise(d []time.Duration) latency {
	if len(d) == 0 {
		return latency{}
	}
	slices.Sort(d)
	return latency{
		Count: len(d),
		P50:   ms(percentile(d, 50)),
		P90:   ms(percentile(d, 90)),
		P99:   ms(percentile(d, 99)),
		Max:   ms(d[len(d)-1]),
	}
}

// percentile returns the nearest-rank p-th percentile of sorted d.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

// print writes the human-readable table.
func (r *result) print(w io.Writer) {
	fmt.Fprintf(w, "\nFray load test: %s, %d encounters x %d clients = %d connections, %s warmup + %s measured\n\n",
		r.Example, r.Encounters, r.ClientsPerEncounter, r.Connections,
		seconds(r.WarmupSeconds), seconds(r.DurationSeconds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{k}, args...)...) }
	if r.Rate > 0 {
		row("offered load", "%.0f commands/s", r.Rate)
	} else {
		row("offered load", "closed loop, no think time (one command in flight per encounter)")
	}
	row("commands sent", "%d", r.CommandsSent)
	row("commands acknowledged", "%d", r.CommandsAcked)
	row("durable commands/s", "%.1f", r.CommandsPerSecond)
	errs := fmt.Sprint(r.Errors)
	if len(r.ErrorsByCode) > 0 {
		codes := make([]string, 0, len(r.ErrorsByCode))
		for c, n := range r.ErrorsByCode {
			codes = append(codes, fmt.Sprintf("%s=%d", c, n))
		}
		slices.Sort(codes)
		errs += " (" + strings.Join(codes, ", ") + ")"
	}
	row("errors", "%s", errs)
	if r.Rate > 0 {
		row("paced slots sent late (>1 ms) / skipped", "%d / %d", r.Late, r.Skipped)
	}
	row("ack timeouts", "%d", r.Timeouts)
	row("not delivered to every client", "%d", r.Undelivered)
	row("connections lost", "%d", r.Disconnects)
	lat := func(name string, l latency) {
		row(name+" p50 / p90 / p99 / max", "%.2f / %.2f / %.2f / %.2f ms  (n=%d)", l.P50, l.P90, l.P99, l.Max, l.Count)
	}
	lat("latency submit->last client", r.Latency)
	lat("latency submit->ack", r.AckLatency)
	if m := r.Memory; m != nil {
		row("server RSS before/after connecting, at end", "%.1f / %.1f / %.1f MiB", kibToMiB(m.RSSBeforeKiB), kibToMiB(m.RSSAfterKiB), kibToMiB(m.RSSEndKiB))
		row("memory per connection", "%.1f KiB", m.PerConnectionKiB)
	}
	if c := r.CPU; c != nil {
		row("CPU cores: server / PostgreSQL / loadgen", "%.2f / %.2f / %.2f", c.ServerCores, c.DatabaseCores, c.LoadgenCores)
		row("CPU cores busy on the machine", "%.2f of %d (other processes and interrupts: %.2f)", c.MachineCores, c.MachineCPUs, c.OtherCores)
		row("CPU per command: server / PostgreSQL", "%.3f / %.3f ms", c.ServerMsPerCommand, c.DBMsPerCommand)
	}
	tw.Flush()
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(10 * time.Millisecond)
}

func kibToMiB(k int64) float64 { return float64(k) / 1024 }

// readRSS returns a process's resident set size in KiB from /proc/PID/status.
func readRSS(pid int) (int64, error) {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return parseRSS(f)
}

// settledRSS waits until pid's resident set size has stayed within 1 % for
// two seconds, then returns it. Right after a burst of work (a sign-up
// hashes a password with 19 MiB of memory) the Go runtime returns freed
// memory to the system only gradually, which would hide the growth being
// measured. It gives up waiting after 30 s or when ctx ends.
func settledRSS(ctx context.Context, pid int) (int64, error) {
	const every, window = 250 * time.Millisecond, 9 // 9 samples span 2 s
	deadline := time.Now().Add(30 * time.Second)
	var samples []int64
	for {
		rss, err := readRSS(pid)
		if err != nil {
			return 0, err
		}
		samples = append(samples, rss)
		if n := len(samples); n >= window {
			last := samples[n-window:]
			if slices.Max(last)-slices.Min(last) <= slices.Max(last)/100 {
				return rss, nil
			}
		}
		if time.Now().After(deadline) {
			return rss, nil
		}
		select {
		case <-time.After(every):
		case <-ctx.Done():
			return rss, nil
		}
	}
}

func parseRSS(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("unexpected VmRSS line %q", sc.Text())
		}
		return strconv.ParseInt(f[0], 10, 64)
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no VmRSS line")
}

// clockTicks is USER_HZ, the unit of CPU times in /proc/PID/stat (100 on
// every Linux platform Go supports).
const clockTicks = 100

// procStat is what the load generator reads from /proc/PID/stat.
type procStat struct {
	ppid  int
	ticks int64 // user + system time
}

func readStat(path string) (procStat, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return procStat{}, err
	}
	return parseStat(data)
}

// parseStat parses /proc/PID/stat. The command name (field 2) may contain
// spaces and parentheses, so fields are counted from its last ')'.
func parseStat(data []byte) (procStat, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("malformed stat")
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state); ppid is field 4, utime 14, stime 15.
	if len(f) < 13 {
		return procStat{}, fmt.Errorf("malformed stat")
	}
	ppid, err1 := strconv.Atoi(f[1])
	utime, err2 := strconv.ParseInt(f[11], 10, 64)
	stime, err3 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, fmt.Errorf("malformed stat")
	}
	return procStat{ppid: ppid, ticks: utime + stime}, nil
}

// cpuSample is the CPU time, in clock ticks, of the server process, its
// descendants (the private PostgreSQL cluster) and the load generator.
type cpuSample struct {
	at                  time.Time
	server, descendants int64
	self                int64
	busy                int64 // the whole machine: all CPU time but idle and iowait
}

// sampleCPU reads the CPU times of pid, of every live descendant of pid, and
// of this process. Descendants that exited meanwhile are missed, which is
// fine for long-lived PostgreSQL backends.
func sampleCPU(pid int) (cpuSample, error) {
	s := cpuSample{at: time.Now()}
	self, err := readStat("/proc/self/stat")
	if err != nil {
		return s, err
	}
	s.self = self.ticks
	if data, err := os.ReadFile("/proc/stat"); err == nil {
		s.busy, _ = parseBusy(data)
	}
	if pid <= 0 {
		return s, nil
	}
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return s, err
	}
	stats := map[int]procStat{}
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if st, err := readStat(filepath.Join("/proc", d.Name(), "stat")); err == nil {
			stats[p] = st
		}
	}
	root, ok := stats[pid]
	if !ok {
		return s, fmt.Errorf("process %d is gone", pid)
	}
	s.server = root.ticks
	children := map[int][]int{}
	for p, st := range stats {
		children[st.ppid] = append(children[st.ppid], p)
	}
	queue := slices.Clone(children[pid])
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		s.descendants += stats[p].ticks
		queue = append(queue, children[p]...)
	}
	return s, nil
}

// cpuBetween turns two samples into cores used and CPU per command.
func cpuBetween(a, b cpuSample, commands int) *cpu {
	secs := b.at.Sub(a.at).Seconds()
	if secs <= 0 {
		return nil
	}
	cores := func(d int64) float64 { return round2(float64(d) / clockTicks / secs) }
	c := &cpu{
		ServerCores:   cores(b.server - a.server),
		DatabaseCores: cores(b.descendants - a.descendants),
		LoadgenCores:  cores(b.self - a.self),
		MachineCores:  cores(b.busy - a.busy),
		MachineCPUs:   runtime.NumCPU(),
	}
	c.OtherCores = round2(max(0, c.MachineCores-c.ServerCores-c.DatabaseCores-c.LoadgenCores))
	if commands > 0 {
		per := func(d int64) float64 { return math.Round(float64(d)/clockTicks*1e6/float64(commands)) / 1e3 }
		c.ServerMsPerCommand = per(b.server - a.server)
		c.DBMsPerCommand = per(b.descendants - a.descendants)
	}
	return c
}

// parseBusy returns the machine's busy CPU time in clock ticks from the
// first line of /proc/stat: everything but idle (field 4) and iowait (5).
func parseBusy(data []byte) (int64, error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 6 || f[0] != "cpu" {
		return 0, fmt.Errorf("malformed /proc/stat")
	}
	var busy int64
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("malformed /proc/stat")
		}
		if i == 3 || i == 4 || i >= 8 { // idle, iowait; guest time is already in user
			continue
		}
		busy += n
	}
	return busy, nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
