// Package intake bounds the work of taking in a user's file — an uploaded
// picture, a JSON document, an archive, a map or character file from
// another tool — so that no file, and no number of them at once, can
// exhaust the server's memory or cores. Every decoder of user files takes
// the same four steps, whatever its format:
//
//  1. Cap the size before reading: Read(r, max, what) reads at most max
//     bytes and refuses a longer input (ETOOLARGE) without reading the
//     rest.
//  2. Compute from the header what decoding will allocate — with the real
//     sizes: bytes a pixel of the colour model and depth, an archive's
//     entries and declared sizes — and refuse above the decoder's budget
//     (ETOOLARGE) before decoding anything.
//  3. Decode under the process's gate: Run(ctx, Job{What, Cost}, decode)
//     waits for one of the machine's cores and for Cost bytes of the
//     decoders' shared memory budget, then calls decode. A job that would
//     wait too long, or finds too many waiting already, is refused with
//     EBUSY (503 with Retry-After): uploads queue, they never pile up.
//  4. Stop at the deadline: decode's context ends after the job's CPU
//     time; a decoder that reads its input from NewReader(ctx, data) fails
//     at its next read, and whatever outlives the deadline is refused
//     (ETOOLARGE, "took too long").
//
// The decoders built on it: JSON documents (strictjson: a user's file or
// request body, named in Limits.File, over strictjson.GateBytes is
// decoded under the gate), pictures (images.Process; images.Unembed first
// for a picture carried inside another file as base64 or a data: URL),
// archives (Unzip, then File.Read inside a Run).
//
// A new importer uses them so:
//
//	data, err := intake.Read(file, maxBytes, "map file")
//	err = strictjson.DecodeWith(data, &doc, strictjson.Limits{MaxBytes: maxBytes, File: "map file"})
//	pic, err := pictures.UploadEmbedded(ctx, campaignID, userID, "map", doc.Image) // *assets.Service
//	// pic.URL goes into the setup; every picture counts against the
//	// account's upload limit and takes images.Process's path.
//
// and an archive:
//
//	a, err := intake.Unzip(data, intake.ZipLimits{What: "campaign archive", MaxFiles: …, MaxFileBytes: …, MaxTotalBytes: …})
//	for _, f := range a.Files {
//		var b []byte
//		err := intake.Run(ctx, intake.Job{What: "campaign archive", Cost: f.Size}, func(ctx context.Context) (err error) {
//			b, err = f.Read(ctx)
//			return err
//		})
//		// then, outside the Run: pictures.Upload(ctx, …, b) or strictjson.DecodeWith(b, …)
//	}
//
// Errors are fray errors with messages for the person who sent the file;
// EBUSY and ERATELIMIT carry fray.RetryAfter. A Run inside another's
// decode takes no second core (no deadlock), but reserves its own cost
// besides the outer one's: run a picture's processing after the Run that
// read it, not inside.
package intake

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/fray-vtt/fray/internal/fray"
)

// Defaults of a gate; see Config.
const (
	// DefaultMemory is what the decoders running at once may together
	// allocate, by their jobs' costs: two of the largest pictures.
	DefaultMemory = 192 << 20
	// DefaultWait is the longest a job waits for its turn.
	DefaultWait = 8 * time.Second
	// DefaultDeadline is the time one decode may run once it has its
	// core: its CPU time, as each running decode has a core to itself.
	DefaultDeadline = 5 * time.Second
	// RetryAfter is how long a client refused with EBUSY is asked to wait.
	RetryAfter = 5 * time.Second
)

// Config sizes a gate; a zero field takes its default.
type Config struct {
	// Slots is how many decodes run at once (default: the cores Go uses,
	// GOMAXPROCS).
	Slots int
	// Memory bounds the costs of the jobs running at once, in bytes
	// (default DefaultMemory).
	Memory int64
	// Wait is the longest a job waits for a core and memory (default
	// DefaultWait).
	Wait time.Duration
	// Queue is how many jobs may wait at once; the next is refused at
	// once (default 4 × Slots).
	Queue int
	// Deadline is a job's time once it runs, unless the job sets its own
	// (default DefaultDeadline).
	Deadline time.Duration
}

// Gate bounds the decoders running in the process: how many at once (one
// a core), what they may together allocate, how many may wait, how long
// they wait and how long each runs. Its methods are safe for concurrent
// use.
type Gate struct {
	cfg      Config
	cores    *semaphore.Weighted
	memory   *semaphore.Weighted
	waiting  atomic.Int64
	running  atomic.Int64
	reserved atomic.Int64
}

// NewGate returns a gate sized by c (zero fields: the defaults).
func NewGate(c Config) *Gate {
	if c.Slots <= 0 {
		c.Slots = runtime.GOMAXPROCS(0)
	}
	if c.Memory <= 0 {
		c.Memory = DefaultMemory
	}
	if c.Wait <= 0 {
		c.Wait = DefaultWait
	}
	if c.Queue <= 0 {
		c.Queue = 4 * c.Slots
	}
	if c.Deadline <= 0 {
		c.Deadline = DefaultDeadline
	}
	return &Gate{cfg: c, cores: semaphore.NewWeighted(int64(c.Slots)), memory: semaphore.NewWeighted(c.Memory)}
}

// Default is the process's gate, sized to the machine: every decoder of
// user files runs its costly work through it (Run).
var Default = NewGate(Config{})

// Config returns the gate's sizes, defaults filled in.
func (g *Gate) Config() Config { return g.cfg }

// Stats says what the gate holds now: jobs running, jobs waiting, and the
// bytes the running ones reserved.
func (g *Gate) Stats() (running, waiting int, reserved int64) {
	return int(g.running.Load()), int(g.waiting.Load()), g.reserved.Load()
}

// Job is one decode.
type Job struct {
	// What is decoded, for messages: "picture", "map file".
	What string
	// Cost is what decoding may allocate, in bytes, computed from the
	// file's header (and size) before anything is decoded. A cost above
	// the gate's memory is charged as the whole of it.
	Cost int64
	// Deadline is the job's time once it runs (zero: the gate's).
	Deadline time.Duration
}

type insideKey struct{}

// Run runs decode as job under the gate: it waits for a core and job.Cost
// bytes of the gate's memory, at most the gate's Wait, then calls decode
// with a context that ends at the job's deadline. It returns decode's
// error, or:
//   - EBUSY (with RetryAfter) when the job would wait too long, when the
//     gate's queue is full, or when ctx ends while the job waits;
//   - ETOOLARGE ("took too long") when decode ran past its deadline,
//     whatever decode returned.
//
// A Run inside another's decode (its context) takes no second core, so
// nested decodes cannot deadlock the gate; it reserves its own cost and
// keeps within the outer deadline.
func (g *Gate) Run(ctx context.Context, job Job, decode func(context.Context) error) error {
	what := job.What
	if what == "" {
		what = "file"
	}
	cost := max(1, min(job.Cost, g.cfg.Memory))
	deadline := job.Deadline
	if deadline <= 0 {
		deadline = g.cfg.Deadline
	}
	nested := ctx.Value(insideKey{}) == g
	if g.waiting.Add(1) > int64(g.cfg.Queue) {
		g.waiting.Add(-1)
		return busy(what)
	}
	wctx, cancel := context.WithTimeout(ctx, g.cfg.Wait)
	err := g.memory.Acquire(wctx, cost)
	if err == nil && !nested {
		if err = g.cores.Acquire(wctx, 1); err != nil {
			g.memory.Release(cost)
		}
	}
	cancel()
	g.waiting.Add(-1)
	if err != nil {
		return busy(what)
	}
	g.running.Add(1)
	g.reserved.Add(cost)
	defer func() {
		// The decode's allocations are garbage now, but still on the heap
		// until the collector runs: after a large job, collect before
		// handing its memory to the next, so what the gate counts is what
		// the heap holds.
		if cost >= g.cfg.Memory/4 {
			runtime.GC()
		}
		g.reserved.Add(-cost)
		g.running.Add(-1)
		if !nested {
			g.cores.Release(1)
		}
		g.memory.Release(cost)
	}()
	dctx, cancelRun := context.WithTimeout(context.WithValue(ctx, insideKey{}, g), deadline)
	defer cancelRun()
	err = decode(dctx)
	if errors.Is(dctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		return fray.Errorf(fray.ETOOLARGE, "the %s took too long to read (more than %s): send a smaller or simpler one", what, deadline.Round(time.Millisecond))
	}
	return err
}

// Run runs decode as job under the Default gate (see Gate.Run).
func Run(ctx context.Context, job Job, decode func(context.Context) error) error {
	return Default.Run(ctx, job, decode)
}

func busy(what string) error {
	return fray.Errorf(fray.EBUSY, "the server is busy reading other files; this %s was not taken: try again in a few seconds", what).After(RetryAfter)
}

// Read reads r to its end, at most max bytes: a longer input is refused
// with ETOOLARGE, naming what and the limit, after max+1 bytes — the rest
// is never read. A body cut by http.MaxBytesReader is refused the same
// way.
func Read(r io.Reader, max int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || err == nil && int64(len(data)) > max:
		return nil, fray.Errorf(fray.ETOOLARGE, "the %s is larger than %s, the most accepted", what, Size(max))
	case err != nil:
		return nil, fray.Errorf(fray.EINVALID, "the %s could not be read: %v", what, err)
	}
	return data, nil
}

// readChunk is the most a Reader hands out in one read, so that a decoder
// fed from memory comes back for more — and finds its deadline — often.
const readChunk = 1 << 10

// NewReader returns a reader of data for a decoder running in Run: each
// read hands out at most 1 KiB, and once ctx is done every read fails
// with ctx's error, so the decoder stops at its next read.
func NewReader(ctx context.Context, data []byte) io.Reader {
	return &reader{ctx: ctx, r: bytes.NewReader(data)}
}

type reader struct {
	ctx context.Context
	r   io.Reader
}

func (r *reader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p[:min(len(p), readChunk)])
}

// NewWriter returns a writer to w for an encoder running in Run: once ctx
// is done every write fails with ctx's error.
func NewWriter(ctx context.Context, w io.Writer) io.Writer {
	return &writer{ctx: ctx, w: w}
}

type writer struct {
	ctx context.Context
	w   io.Writer
}

func (w *writer) Write(p []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	return w.w.Write(p)
}

// Size writes n bytes for people: "10 MiB", "512 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0 || n >= 10<<20:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
