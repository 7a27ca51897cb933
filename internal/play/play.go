// Package play runs live encounters: one owner goroutine per encounter
// serialises its commands, decides them with the engine, persists the events
// and the new snapshot in one transaction, and publishes the result.
package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is the persistence play needs.
type Store interface {
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
	Append(ctx context.Context, a store.Append) (int64, error)
	CommandSeq(ctx context.Context, encounterID, sender, commandID string) (int64, bool, error)
	SnapshotAt(ctx context.Context, encounterID string, seq int64) (int64, []byte, error)
}

// Update is what happened to an encounter: the events just persisted and
// the state after them. State is shared and must be treated as read-only.
type Update struct {
	EncounterID string
	Ruleset     engine.Ruleset
	State       engine.State
	Events      []engine.Event
	Seq         int64
}

// Publisher receives every update, in seq order per encounter. Publish is
// called from the owner goroutine and must not block.
type Publisher interface {
	Publish(u Update)
}

// Config configures a Service.
type Config struct {
	Store     Store
	Rulesets  *engine.Registry
	Publisher Publisher
	Logger    *slog.Logger
	// NewSource makes each encounter's dice; nil means dice.NewRandom.
	NewSource func() dice.Source
	// IdleAfter unloads an encounter with no commands for this long (default 10 min).
	IdleAfter time.Duration
}

// Service owns the live encounters of this process.
type Service struct {
	cfg     Config
	mu      sync.Mutex
	owners  map[string]*owner
	closed  bool
	working sync.WaitGroup
}

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.NewSource == nil {
		cfg.NewSource = func() dice.Source { return dice.NewRandom() }
	}
	if cfg.IdleAfter == 0 {
		cfg.IdleAfter = 10 * time.Minute
	}
	return &Service{cfg: cfg, owners: map[string]*owner{}}
}

// MaxCommandID bounds a client command id's length.
const MaxCommandID = 64

// Submit decides and persists cmd for encounter id on behalf of viewer and
// returns the seq of its last event. A command id seen before returns the
// seq it was applied at, without applying it again.
func (s *Service) Submit(ctx context.Context, id string, viewer engine.Viewer, cmdID string, cmd engine.Command) (int64, error) {
	if cmdID == "" || len(cmdID) > MaxCommandID {
		return 0, fray.Errorf(fray.EINVALID, "a command needs an id of 1–%d characters", MaxCommandID)
	}
	res := make(chan result, 1)
	err := s.send(ctx, id, request{ctx: ctx, viewer: viewer, cmdID: cmdID, cmd: cmd, reply: res})
	if err != nil {
		return 0, err
	}
	select {
	case r := <-res:
		return r.seq, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Current returns the encounter's ruleset and latest state (read-only).
func (s *Service) Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error) {
	res := make(chan result, 1)
	if err := s.send(ctx, id, request{ctx: ctx, current: true, reply: res}); err != nil {
		return nil, nil, err
	}
	select {
	case r := <-res:
		return r.rs, r.state, r.err
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// Sync tells the service that the database holds encounter id at seq, e.g.
// from another server's notification. A loaded owner behind it catches up
// and publishes the missed events; an unloaded encounter is left alone.
func (s *Service) Sync(id string, seq int64) {
	s.mu.Lock()
	o := s.owners[id]
	s.mu.Unlock()
	if o == nil {
		return
	}
	select {
	case o.requests <- request{ctx: context.Background(), syncTo: seq}:
	default: // the owner is busy; it will notice on its next append conflict
	}
}

// Close stops accepting commands and waits for those in flight to finish.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	owners := s.owners
	s.owners = map[string]*owner{}
	s.mu.Unlock()
	for _, o := range owners {
		close(o.stop)
	}
	s.working.Wait()
}

func (s *Service) send(ctx context.Context, id string, req request) error {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return fray.Errorf(fray.EINTERNAL, "the server is shutting down")
		}
		o := s.owners[id]
		if o == nil {
			o = &owner{svc: s, id: id, requests: make(chan request, 64), stop: make(chan struct{}), done: make(chan struct{})}
			s.owners[id] = o
			s.working.Add(1)
			go o.run()
		}
		s.mu.Unlock()
		select {
		case o.requests <- req:
			return nil
		case <-o.done: // it went idle between lookup and send; start another
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

type request struct {
	ctx     context.Context
	viewer  engine.Viewer
	cmdID   string
	cmd     engine.Command
	current bool
	syncTo  int64
	reply   chan result
}

type result struct {
	seq   int64
	err   error
	rs    engine.Ruleset
	state engine.State
}

// owner serialises one encounter's commands.
type owner struct {
	svc      *Service
	id       string
	requests chan request
	stop     chan struct{}
	done     chan struct{}

	rs    engine.Ruleset
	state engine.State
	// snapshot is state as JSON: decoding it gives each command a private
	// copy to decide on without marshalling the state first.
	snapshot []byte
	dice     *dice.Roller
}

func (o *owner) run() {
	defer o.svc.working.Done()
	defer close(o.done)
	idle := time.NewTimer(o.svc.cfg.IdleAfter)
	defer idle.Stop()
	for {
		select {
		case req := <-o.requests:
			o.handle(req)
			idle.Reset(o.svc.cfg.IdleAfter)
		case <-idle.C:
			o.svc.mu.Lock()
			if len(o.requests) > 0 {
				o.svc.mu.Unlock()
				idle.Reset(o.svc.cfg.IdleAfter)
				continue
			}
			if o.svc.owners[o.id] == o {
				delete(o.svc.owners, o.id)
			}
			o.svc.mu.Unlock()
			return
		case <-o.stop:
			// Finish what was already queued, then stop.
			for {
				select {
				case req := <-o.requests:
					o.handle(req)
				default:
					return
				}
			}
		}
	}
}

func (o *owner) handle(req request) {
	var r result
	switch {
	case req.syncTo > 0:
		if o.state != nil && o.state.Core().Seq < req.syncTo {
			if err := o.catchUp(req.ctx); err != nil {
				o.svc.cfg.Logger.Warn("catch up after notification", "encounter", o.id, "err", err)
			}
		}
		return
	case req.current:
		if r.err = o.ensureLoaded(req.ctx); r.err == nil {
			r.rs, r.state = o.rs, o.state
		}
	default:
		r.seq, r.err = o.submit(req)
	}
	if req.reply != nil {
		req.reply <- r
	}
}

func (o *owner) ensureLoaded(ctx context.Context) error {
	if o.state != nil {
		return nil
	}
	return o.load(ctx)
}

// load reads the latest snapshot from the database.
func (o *owner) load(ctx context.Context) error {
	rec, err := o.svc.cfg.Store.Encounter(ctx, o.id)
	if err != nil {
		return err
	}
	rs, err := o.svc.cfg.Rulesets.Get(rec.Ruleset)
	if err != nil {
		return err
	}
	st, err := rs.Decode(rec.State)
	if err != nil {
		return fmt.Errorf("decode encounter %s snapshot: %w", o.id, err)
	}
	if st.Core().Seq != rec.Seq {
		return fmt.Errorf("encounter %s snapshot is at seq %d but the row says %d", o.id, st.Core().Seq, rec.Seq)
	}
	o.rs, o.state, o.snapshot = rs, st, rec.State
	if o.dice == nil {
		o.dice = dice.NewRoller(o.svc.cfg.NewSource())
	}
	return nil
}

// catchUp reloads the snapshot written by another process and publishes the
// events this process has not published yet.
func (o *owner) catchUp(ctx context.Context) error {
	from := o.state.Core().Seq
	if err := o.load(ctx); err != nil {
		return err
	}
	to := o.state.Core().Seq
	if to <= from {
		return nil
	}
	events, err := o.svc.cfg.Store.Events(ctx, o.id, from, int(to-from))
	if err != nil {
		return err
	}
	o.publish(events)
	return nil
}

const maxConflictRetries = 3

func (o *owner) submit(req request) (int64, error) {
	ctx := req.ctx
	if err := o.ensureLoaded(ctx); err != nil {
		return 0, err
	}
	for attempt := 0; ; attempt++ {
		hist := &history{ctx: ctx, store: o.svc.cfg.Store, rs: o.rs, id: o.id, current: o.state}
		private, err := o.rs.Decode(o.snapshot)
		if err != nil {
			return 0, fmt.Errorf("decode encounter %s snapshot: %w", o.id, err)
		}
		events, next, err := engine.DecideOwned(o.rs, private, req.viewer, req.cmdID, req.cmd, o.dice, hist)
		if err != nil {
			// A resent command that already happened is not an error: it may
			// be illegal now precisely because it was applied.
			if seq, found, lerr := o.svc.cfg.Store.CommandSeq(ctx, o.id, "", req.cmdID); lerr == nil && found {
				return seq, nil
			}
			return 0, err
		}
		snapshot, err := engine.Snapshot(next)
		if err != nil {
			return 0, fmt.Errorf("snapshot: %w", err)
		}
		seq, err := o.svc.cfg.Store.Append(ctx, store.Append{
			EncounterID: o.id, ExpectSeq: o.state.Core().Seq, CommandID: req.cmdID,
			Events: events, State: snapshot, Status: string(next.Core().Status),
		})
		if errors.Is(err, store.ErrDuplicateCommand) {
			return seq, nil
		}
		if fray.ErrorCode(err) == fray.ECONFLICT && attempt < maxConflictRetries {
			// Another process moved the encounter on: catch up and decide again.
			if cerr := o.catchUp(ctx); cerr != nil {
				return 0, cerr
			}
			continue
		}
		if err != nil {
			// The outcome is unknown (the commit may have happened): reload
			// from the database before the next command.
			o.state = nil
			return 0, err
		}
		o.state, o.snapshot = next, snapshot
		o.publish(events)
		return seq, nil
	}
}

func (o *owner) publish(events []engine.Event) {
	if o.svc.cfg.Publisher == nil || len(events) == 0 {
		return
	}
	o.svc.cfg.Publisher.Publish(Update{
		EncounterID: o.id, Ruleset: o.rs, State: o.state, Events: events, Seq: o.state.Core().Seq,
	})
}

// PublisherFunc adapts a function to Publisher.
type PublisherFunc func(Update)

// Publish implements Publisher.
func (f PublisherFunc) Publish(u Update) { f(u) }
