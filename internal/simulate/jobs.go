package simulate

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Jobs runs simulations off the request's path, in the background of one
// server, and bounds what they cost:
//
//   - one simulation at a time per campaign (starting another while one
//     waits or runs is a conflict);
//   - at most Workers simulations run at once in all; the others wait
//     their turn, cancellable;
//   - each campaign has a budget of simulation time, Budget, that refills
//     over Window: a simulation stops with what it has played when the
//     campaign's budget runs out, and none starts until a tenth of it is
//     back.
//
// Simulation time is counted from when a simulation gets a worker to when
// it stops. A simulation is one goroutine that never waits, so that is at
// least the CPU time it used.
//
// Jobs keep nothing in the database: the last simulation of each campaign
// lives in this server's memory until the next one replaces it or the
// server stops.
type Jobs struct {
	workers chan struct{}
	budget  time.Duration
	window  time.Duration

	mu        sync.Mutex
	campaigns map[string]*campaignJobs
}

// JobsConfig sets up Jobs; zero values take the defaults.
type JobsConfig struct {
	// Workers is how many simulations run at once in all (half the CPUs,
	// at least one).
	Workers int
	// Budget is a campaign's simulation time (30 s), refilled over Window
	// (10 minutes).
	Budget time.Duration
	Window time.Duration
}

// NewJobs returns Jobs set up by cfg.
func NewJobs(cfg JobsConfig) *Jobs {
	if cfg.Workers <= 0 {
		cfg.Workers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if cfg.Budget <= 0 {
		cfg.Budget = 30 * time.Second
	}
	if cfg.Window <= 0 {
		cfg.Window = 10 * time.Minute
	}
	return &Jobs{workers: make(chan struct{}, cfg.Workers), budget: cfg.Budget, window: cfg.Window,
		campaigns: map[string]*campaignJobs{}}
}

// campaignJobs is one campaign's simulation and what is left of its
// budget.
type campaignJobs struct {
	job *job
	// left is the budget left at checked; it refills from there.
	left    time.Duration
	checked time.Time
}

// job is one simulation under way or done.
type job struct {
	key    string
	cancel context.CancelCauseFunc
	done   chan struct{}

	mu     sync.Mutex
	status Status
}

// Job states.
const (
	Queued   = "queued"
	Running  = "running"
	Finished = "finished"
	Failed   = "failed"
)

// Status is what a simulation has come to so far.
type Status struct {
	// Key names what is simulated (a draft's id): a campaign runs one
	// simulation at a time, of whichever draft.
	Key   string `json:"key"`
	State string `json:"state"`
	// Done of Runs fights are played.
	Done int `json:"done"`
	Runs int `json:"runs"`
	// Result is set once the simulation stopped (Finished): every fight
	// asked for, or fewer when it was cancelled or ran out of time.
	Result *Result `json:"result,omitempty"`
	// Error says why a simulation failed.
	Error string `json:"error,omitempty"`
}

// Active reports whether the simulation waits or runs.
func (s Status) Active() bool { return s.State == Queued || s.State == Running }

// Start simulates setup under rs in the background for campaign, naming
// it key: it waits for a worker, then plays opt.Runs fights. It fails
// with a conflict while the campaign's last simulation is still active,
// and is rate limited while the campaign's budget is spent; a setup that
// cannot be played fails at once.
func (j *Jobs) Start(campaign, key string, rs engine.Ruleset, setup engine.Setup, opt Options) (Status, error) {
	if opt.Runs == 0 {
		opt.Runs = DefaultRuns
	}
	if opt.Runs < 1 || opt.Runs > MaxRuns {
		return Status{}, fray.Errorf(fray.EINVALID, "runs must be between 1 and %d", MaxRuns)
	}
	s, err := New(rs, setup, opt.MaxRounds)
	if err != nil {
		return Status{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	c := j.campaign(campaign)
	if c.job != nil && c.job.get().Active() {
		return Status{}, fray.Errorf(fray.ECONFLICT, "a simulation is already under way in this campaign: wait for it or cancel it")
	}
	if c.left < j.budget/10 {
		return Status{}, fray.Errorf(fray.ERATELIMIT, "this campaign has used its simulation time for now: try again in a few minutes")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	jb := &job{key: key, cancel: cancel, done: make(chan struct{}), status: Status{Key: key, State: Queued, Runs: opt.Runs}}
	c.job = jb
	go j.run(ctx, campaign, jb, s, opt)
	return jb.get(), nil
}

// campaign returns c's record with its budget refilled to now; j.mu is
// held.
func (j *Jobs) campaign(id string) *campaignJobs {
	now := time.Now()
	c := j.campaigns[id]
	if c == nil {
		c = &campaignJobs{left: j.budget, checked: now}
		j.campaigns[id] = c
	}
	if elapsed := now.Sub(c.checked); elapsed > 0 {
		c.left = min(j.budget, c.left+time.Duration(float64(j.budget)*float64(elapsed)/float64(j.window)))
		c.checked = now
	}
	return c
}

// run plays a job's fights once a worker is free, within what is left of
// the campaign's budget, and charges the time it took.
func (j *Jobs) run(ctx context.Context, campaign string, jb *job, s *Simulator, opt Options) {
	defer close(jb.done)
	select {
	case j.workers <- struct{}{}:
	case <-ctx.Done():
		t := newTally(s, opt)
		t.stopped = "cancelled"
		r := t.result()
		jb.finish(&r, nil)
		return
	}
	defer func() { <-j.workers }()
	j.mu.Lock()
	left := j.campaign(campaign).left
	j.mu.Unlock()
	started := time.Now()
	ctx, stop := context.WithTimeoutCause(ctx, left, ErrOverBudget)
	defer stop()
	jb.set(func(st *Status) { st.State = Running })
	opt.Progress = func(done, _ int) { jb.set(func(st *Status) { st.Done = done }) }
	r, err := s.Run(ctx, opt)
	j.mu.Lock()
	c := j.campaign(campaign)
	c.left -= time.Now().Sub(started)
	j.mu.Unlock()
	if err != nil {
		jb.finish(nil, err)
		return
	}
	jb.finish(&r, nil)
}

// Status is campaign's last simulation; false when it has none.
func (j *Jobs) Status(campaign string) (Status, bool) {
	j.mu.Lock()
	c := j.campaigns[campaign]
	j.mu.Unlock()
	if c == nil || c.job == nil {
		return Status{}, false
	}
	return c.job.get(), true
}

// Cancel stops campaign's simulation if it is active; it keeps what was
// played. It reports whether there was one to stop.
func (j *Jobs) Cancel(campaign string) bool {
	j.mu.Lock()
	c := j.campaigns[campaign]
	j.mu.Unlock()
	if c == nil || c.job == nil || !c.job.get().Active() {
		return false
	}
	c.job.cancel(context.Canceled)
	return true
}

// Wait waits until campaign's last simulation stops, or ctx is done.
func (j *Jobs) Wait(ctx context.Context, campaign string) (Status, error) {
	j.mu.Lock()
	c := j.campaigns[campaign]
	j.mu.Unlock()
	if c == nil || c.job == nil {
		return Status{}, fray.Errorf(fray.ENOTFOUND, "no simulation in this campaign")
	}
	select {
	case <-c.job.done:
		return c.job.get(), nil
	case <-ctx.Done():
		return c.job.get(), ctx.Err()
	}
}

func (jb *job) get() Status {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	return jb.status
}

func (jb *job) set(f func(*Status)) {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	f(&jb.status)
}

func (jb *job) finish(r *Result, err error) {
	jb.set(func(st *Status) {
		if err != nil {
			st.State, st.Error = Failed, fray.ErrorMessage(err)
			return
		}
		st.State, st.Result, st.Done = Finished, r, r.Runs
	})
}
