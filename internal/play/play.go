// Package play runs live encounters: one owner goroutine per encounter keeps
// its state in memory and serialises its commands: it decides each on a
// copy of that state with the engine, appends the events (and, every
// store.SnapshotEvery events, a snapshot) in a group-committed transaction,
// and makes the copy the state and publishes it. The state in memory is
// never written to once it is there, so readers and the publisher share
// it; a command that was not committed leaves it as it was.
package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/outbox"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is the persistence play needs.
type Store interface {
	LoadEncounter(ctx context.Context, id string) (store.Live, error)
	EventsAfter(ctx context.Context, id string, after int64) (store.Tail, error)
	SaveSnapshot(ctx context.Context, id string, seq int64, state []byte) error
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
	AppendCommand(ctx context.Context, a store.Append) (store.Appended, error)
	LookupCommand(ctx context.Context, encounterID, sender, commandID string) (store.CommandState, error)
	Settle(ctx context.Context, encounterID string, wait time.Duration) error
	SnapshotAt(ctx context.Context, encounterID string, seq int64) (int64, []byte, error)
	Link(ctx context.Context, id string, seq int64) (proof.Hash, error)
	DiceSecret(ctx context.Context, id string, fresh dice.Seed) (dice.Seed, error)
}

// Sender is who submits a command.
type Sender struct {
	// User is the sender's account (a user id; "" for none). Command ids are
	// scoped per user: one user's id never stands for another's command.
	User   string
	Viewer engine.Viewer // what the sender may see and command
	// Access is the access version of the encounter's campaign at which
	// Viewer was granted (store.Access.Version). The command is committed
	// only while it is still current; otherwise Submit returns an error
	// wrapping ErrAccessChanged and nothing changes. 0 skips the check.
	Access int64
	// AtSeq, when not 0, makes the command apply only while the
	// encounter's log still ends at that seq: a turn deadline's fallback,
	// which must not act on a table that moved on. Otherwise Submit
	// answers ECONFLICT and nothing changes (a resent id that was applied
	// answers its seq, as always).
	AtSeq int64
	// Origin, opaque to play, comes back as the Origin of the Update the
	// command makes, so the publisher can acknowledge the command together
	// with its events (one write instead of two).
	Origin any
}

// ErrAccessChanged is wrapped by Submit's error when the sender's access may
// have changed since it was granted: nothing changed. Grant the sender's
// access again and resubmit with the new viewer, or refuse.
var ErrAccessChanged = store.ErrAccessChanged

// Update is what happened to an encounter: the events just persisted and
// the state after them. State is the owner's live state: read it during
// Publish only, never keep it (it changes with the next command).
type Update struct {
	EncounterID string
	Ruleset     engine.Ruleset
	State       engine.State
	Events      []engine.Event
	// Encoded, when not nil, holds Events as JSON, one each, exactly as
	// stored (store.EncodeEvents): what a viewer who sees every event as it
	// is (the GM) may be sent without encoding them again.
	Encoded [][]byte
	Seq     int64
	// Head is the link of event Seq: the head of the encounter's hash
	// chain after the events (docs/protocol.md, "The chain").
	Head proof.Hash
	// Access is the campaign's access version the events were committed (or
	// loaded) at: a viewer granted at an older version must be authorised
	// again before it is sent these events.
	Access int64
	// Origin and CommandID are the submitting Sender's Origin and the
	// command's id when the update is one command committed here (nil and
	// "" for events loaded or caught up with).
	Origin    any
	CommandID string
}

// Publisher receives every update, in seq order per encounter. Publish is
// called from the owner goroutine and must not block. An update's State is
// frozen — a copy no one writes to again, the one Current returns at that
// seq — so a publisher may read it after Publish returns, while the owner
// decides the next command.
type Publisher interface {
	Publish(u Update)
}

// Config configures a Service.
type Config struct {
	Store     Store
	Rulesets  *engine.Registry
	Publisher Publisher
	Logger    *slog.Logger
	// DiceSecret makes a new encounter's dice secret (kept in the store,
	// see store.DiceSecret); nil means dice.NewSeed. Every encounter's
	// dice are derived from its secret (dice.Derived): provable.
	DiceSecret func() dice.Seed
	// NewSource, for tests, makes each encounter's dice instead, which are
	// then not provable.
	NewSource func() dice.Source
	// IdleAfter unloads an encounter with no commands for this long (default 10 min).
	IdleAfter time.Duration
	// ResolveFor is how long a command whose commit outcome is unknown (the
	// database connection failed during COMMIT) is retried, with the same
	// id, to find out (default 10 s). Past it the command fails with
	// EOUTCOMEUNKNOWN: the client must resend the same id.
	ResolveFor time.Duration
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
	if cfg.DiceSecret == nil {
		cfg.DiceSecret = dice.NewSeed
	}
	if cfg.IdleAfter == 0 {
		cfg.IdleAfter = 10 * time.Minute
	}
	if cfg.ResolveFor == 0 {
		cfg.ResolveFor = 10 * time.Second
	}
	return &Service{cfg: cfg, owners: map[string]*owner{}}
}

// MaxCommandID bounds a client command id's length, in bytes.
const MaxCommandID = 64

// CheckCommandID checks a client command id: 1–MaxCommandID bytes of valid
// UTF-8 without control characters or U+FFFD (which is what a JSON decoder
// makes of invalid bytes and lone surrogates, so distinct invalid ids would
// otherwise collapse into one).
func CheckCommandID(id string) error {
	ok := id != "" && len(id) <= MaxCommandID && utf8.ValidString(id) &&
		!strings.ContainsFunc(id, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError })
	if !ok {
		return fray.Errorf(fray.EINVALID, "a command needs an id of 1–%d bytes of printable UTF-8 text (a UUID is best)", MaxCommandID)
	}
	return nil
}

// Submit decides and persists cmd for encounter id on behalf of sender and
// returns the seq of its last event. A command id the same sender used
// before returns the seq it was applied at, without applying it again.
//
// Errors carry fray codes. EUNAVAILABLE means nothing changed. When the
// database connection fails while the command is being committed, Submit
// retries it (same id, so it is never applied twice) for Config.ResolveFor
// and answers the real outcome; if the database stays out of reach it
// returns EOUTCOMEUNKNOWN — never an error that says nothing changed.
func (s *Service) Submit(ctx context.Context, id string, sender Sender, cmdID string, cmd engine.Command) (int64, error) {
	if err := CheckCommandID(cmdID); err != nil {
		return 0, err
	}
	res := make(chan result, 1)
	err := s.send(ctx, id, &request{ctx: ctx, sender: sender, cmdID: cmdID, cmd: cmd, reply: res})
	if err != nil {
		return 0, store.Classify(err)
	}
	select {
	case r := <-res:
		return r.seq, store.Classify(r.err)
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Current returns the encounter's ruleset and latest state: a copy frozen at
// its seq, shared by every caller at that seq, so it must be treated as
// read-only.
func (s *Service) Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error) {
	res := make(chan result, 1)
	if err := s.send(ctx, id, &request{ctx: ctx, current: true, reply: res}); err != nil {
		return nil, nil, err
	}
	select {
	case r := <-res:
		return r.rs, r.state, store.Classify(r.err)
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
	case o.requests <- &request{ctx: context.Background(), syncTo: seq}:
	default: // the owner is busy; it will notice on its next append conflict
	}
}

// SyncAll makes every loaded encounter catch up with the database, e.g.
// after notifications from other servers may have been lost.
func (s *Service) SyncAll() {
	s.mu.Lock()
	ids := make([]string, 0, len(s.owners))
	for id := range s.owners {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.Sync(id, math.MaxInt64)
	}
}

// Loaded is how many encounters have an owner, live in memory, now.
func (s *Service) Loaded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.owners)
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

func (s *Service) send(ctx context.Context, id string, req *request) error {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return fray.Errorf(fray.EINTERNAL, "the server is shutting down")
		}
		o := s.owners[id]
		if o == nil {
			o = &owner{svc: s, id: id, requests: make(chan *request, 64), stop: make(chan struct{}), done: make(chan struct{})}
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
	sender  Sender
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
	svc *Service
	id  string
	// requests holds pointers: a channel's buffer is allocated whole when
	// made, and a live encounter should not carry 64 requests' worth of
	// memory for the one or two it ever has queued.
	requests chan *request
	stop     chan struct{}
	done     chan struct{}

	rs engine.Ruleset
	// state is the live state, frozen: never written once it is here.
	// Commands are decided on a copy, which becomes the state when it is
	// committed; readers (Current) and the publisher share it as it is.
	// nil means it must be loaded before use; see load.
	state engine.State
	// shown is the seq clients have been published up to, once loaded
	// (shownSet): a reload publishes what they missed.
	shown    int64
	shownSet bool
	dice     *dice.Roller
	head     proof.Hash // the link of the state's seq: the chain's head
	// snapSeq is the seq of the latest snapshot of the encounter known to
	// be stored: unloading stores one at the state's seq when it is behind.
	snapSeq int64
	access  int64 // the campaign's access version state was committed or loaded at
	// stale means the database may hold events state lacks (a commit's
	// outcome was unknown): catch up, publishing them, before deciding.
	stale bool
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
			o.saveSnapshot()
			return
		case <-o.stop:
			// Finish what was already queued, then stop.
			for {
				select {
				case req := <-o.requests:
					o.handle(req)
				default:
					o.saveSnapshot()
					return
				}
			}
		}
	}
}

func (o *owner) handle(req *request) {
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
	switch {
	case o.state == nil:
		return o.load(ctx)
	case o.stale:
		if err := o.catchUp(ctx); err != nil {
			return err
		}
		o.stale = false
	}
	return nil
}

// load reads the latest snapshot and the events after it, and folds them.
// Loading again (after a command decided in place was not committed)
// publishes the events clients have not been sent: another server's, or the
// command's own when its commit happened after all.
func (o *owner) load(ctx context.Context) error {
	l, err := o.svc.cfg.Store.LoadEncounter(ctx, o.id)
	if err != nil {
		return err
	}
	rs, st, err := Fold(o.svc.cfg.Rulesets, l)
	if err != nil {
		return err
	}
	head, err := o.svc.cfg.Store.Link(ctx, o.id, st.Core().Seq)
	if err != nil {
		return err
	}
	if o.dice == nil {
		src := dice.Source(nil)
		if o.svc.cfg.NewSource != nil {
			src = o.svc.cfg.NewSource()
		} else {
			secret, err := o.svc.cfg.Store.DiceSecret(ctx, o.id, o.svc.cfg.DiceSecret())
			if err != nil {
				return err
			}
			src = dice.NewDerived(secret)
		}
		o.dice = dice.NewRoller(src)
	}
	shown := o.shown
	o.rs, o.state, o.access, o.snapSeq, o.stale, o.head = rs, st, l.Access, l.SnapshotSeq, false, head
	if seq := st.Core().Seq; !o.shownSet || seq <= shown {
		o.shown, o.shownSet = seq, true
		return nil
	}
	missed, err := o.svc.cfg.Store.Events(ctx, o.id, shown, int(st.Core().Seq-shown))
	if err != nil || int64(len(missed)) != st.Core().Seq-shown {
		// The state is good; its clients resume from their seq when they
		// notice the gap.
		o.svc.cfg.Logger.Warn("publish events missed while reloading", "encounter", o.id, "from", shown, "err", err)
		o.shown = st.Core().Seq
		return nil
	}
	o.publish(missed, nil)
	return nil
}

// catchUp folds in the events another process appended (or a commit whose
// outcome was unknown made) and publishes them.
func (o *owner) catchUp(ctx context.Context) error {
	from := o.state.Core().Seq
	t, err := o.svc.cfg.Store.EventsAfter(ctx, o.id, from)
	if err != nil {
		return err
	}
	if len(t.Events) == 0 {
		return nil
	}
	next, err := engine.Copy(o.state)
	if err == nil {
		err = engine.Replay(o.rs, next, t.Events)
	}
	if err != nil {
		return fmt.Errorf("encounter %s: catch up from %d: %w", o.id, from, err)
	}
	head, err := o.svc.cfg.Store.Link(ctx, o.id, next.Core().Seq)
	if err != nil {
		return err
	}
	o.state, o.access, o.head = next, t.Access, head
	o.publish(t.Events, nil)
	return nil
}

// saveSnapshot stores the live state as a snapshot when the latest stored
// one is behind it, so the next load (here or on another server) folds no
// events. A failure only costs that load some folding.
func (o *owner) saveSnapshot() {
	if o.state == nil || o.state.Core().Seq <= o.snapSeq {
		return
	}
	seq := o.state.Core().Seq
	raw, err := engine.Snapshot(o.state)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = o.svc.cfg.Store.SaveSnapshot(ctx, o.id, seq, raw)
		cancel()
	}
	if err != nil {
		o.svc.cfg.Logger.Warn("snapshot on unload", "encounter", o.id, "seq", seq, "err", err)
		return
	}
	o.snapSeq = seq
}

const maxConflictRetries = 3

// errRetry asks submit to decide the command again.
var errRetry = errors.New("retry")

// submit decides and appends one command, deciding again after a conflict
// with another server, and resolving a commit whose outcome is unknown.
func (o *owner) submit(req *request) (int64, error) {
	ctx := req.ctx
	conflicts := 0
	var deadline time.Time // set once a commit of this command may have happened
	wait := 50 * time.Millisecond
	for {
		seq, err := o.attempt(req, !deadline.IsZero())
		switch {
		case err == nil:
			return seq, nil
		case errors.Is(err, errRetry) && conflicts < maxConflictRetries:
			conflicts++
			continue
		case errors.Is(err, store.ErrOutcomeUnknown) && deadline.IsZero():
			deadline = time.Now().Add(o.svc.cfg.ResolveFor)
			o.svc.cfg.Logger.Warn("commit outcome unknown; resolving", "encounter", o.id, "command", req.cmdID, "err", err)
		case !deadline.IsZero() && (errors.Is(err, store.ErrOutcomeUnknown) || store.Unavailable(err) || errors.Is(err, errRetry)):
			// Still cannot tell: try again until the deadline.
		case errors.Is(err, errRetry):
			return 0, fray.Errorf(fray.ECONFLICT, "the encounter is busy; try again")
		default:
			return 0, err
		}
		// The same command, with the same id, is tried again: the store
		// reports it as a duplicate if the lost commit happened.
		if time.Now().Add(wait).After(deadline) || ctx.Err() != nil {
			return 0, fray.Errorf(fray.EOUTCOMEUNKNOWN,
				"the database connection failed while your command was being saved and the server could not tell whether it was: resend it with the same id")
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		wait = min(2*wait, time.Second)
	}
}

// attempt decides the command on the current state and appends it. resolving
// says a previous attempt's commit may have happened: the encounter is then
// settled and reloaded first.
func (o *owner) attempt(req *request, resolving bool) (int64, error) {
	ctx := req.ctx
	if resolving {
		// Wait for the lost transaction to end, if it is still running, so
		// the reload sees its outcome.
		if err := o.svc.cfg.Store.Settle(ctx, o.id, 5*time.Second); err != nil {
			return 0, err
		}
		o.stale = true
	}
	if err := o.ensureLoaded(ctx); err != nil {
		return 0, err
	}
	if at := req.sender.AtSeq; at != 0 && o.state.Core().Seq != at {
		if o.state.Core().Seq < at {
			// Maybe only behind another instance's commits: catch up.
			if err := o.catchUp(ctx); err != nil {
				return 0, err
			}
		}
		if o.state.Core().Seq != at {
			look, err := o.svc.cfg.Store.LookupCommand(ctx, o.id, req.sender.User, req.cmdID)
			switch {
			case err != nil:
				return 0, err
			case look.Applied:
				return look.Seq, nil
			}
			return 0, fray.Errorf(fray.ECONFLICT, "the encounter moved on")
		}
	}
	hist := &history{ctx: ctx, store: o.svc.cfg.Store, rs: o.rs, id: o.id, current: o.state}
	from, fromStatus := o.state.Core().Seq, o.state.Core().Status
	// Decide on a copy: the live state is frozen (see owner.state). A
	// committed command's copy becomes the live state and is published
	// as it is, so a command costs one copy, as when it was decided in
	// place and copied to be published, and the encounter holds one state.
	private, err := engine.Copy(o.state)
	if err != nil {
		return 0, fmt.Errorf("copy encounter %s state: %w", o.id, err)
	}
	sender := req.sender
	events, next, err := engine.DecideOwned(o.rs, private, sender.Viewer, req.cmdID, req.cmd, o.dice, hist)
	if err != nil {
		// A resent command that already happened is not an error: it may be
		// illegal now precisely because it was applied. And a refusal must
		// come from the sender's current access, not an old one.
		look, lerr := o.svc.cfg.Store.LookupCommand(ctx, o.id, sender.User, req.cmdID)
		switch {
		case lerr != nil:
			// Whether this id was applied before cannot be told now: a
			// refusal, which says nothing changed, could be a lie.
			return 0, lerr
		case look.Applied:
			return look.Seq, nil
		case sender.Access != 0 && look.Access != sender.Access:
			return 0, fmt.Errorf("%w: %w", fray.Errorf(fray.ECONFLICT, "your access changed; try again"), ErrAccessChanged)
		}
		return 0, err
	}
	to := next.Core().Seq
	bodies, err := store.EncodeEvents(events, req.cmdID)
	if err != nil {
		return 0, err
	}
	chain, err := proof.Extend(o.head, from+1, bodies)
	if err != nil {
		return 0, fmt.Errorf("chain: %w", err)
	}
	var snapshot []byte
	if store.SnapshotDue(from, to) {
		if snapshot, err = engine.Snapshot(next); err != nil {
			return 0, fmt.Errorf("snapshot: %w", err)
		}
	}
	var status string
	if s := next.Core().Status; s != fromStatus {
		status = string(s)
	}
	r, err := o.svc.cfg.Store.AppendCommand(ctx, store.Append{
		EncounterID: o.id, ExpectSeq: from, Sender: sender.User, CommandID: req.cmdID,
		Events: events, Bodies: bodies, Prev: o.head, Chain: chain, Snapshot: snapshot, Status: status, Access: sender.Access,
		Notices: outbox.FromEvents(o.id, events),
	})
	switch {
	case errors.Is(err, store.ErrDuplicateCommand):
		return r.Seq, nil
	case errors.Is(err, store.ErrAccessChanged):
		return 0, err
	case fray.ErrorCode(err) == fray.ECONFLICT:
		// Another process moved the encounter on: catch up and decide again.
		if cerr := o.catchUp(ctx); cerr != nil {
			return 0, cerr
		}
		return 0, errRetry
	case err != nil:
		// Maybe committed, maybe not: catch up before the next decision.
		o.stale = true
		return 0, err
	}
	o.state, o.access, o.head = next, r.Access, chain[len(chain)-1].Link
	if snapshot != nil {
		o.snapSeq = to
	}
	o.publishCommand(events, bodies, sender.Origin, req.cmdID)
	return r.Seq, nil
}

func (o *owner) publish(events []engine.Event, encoded [][]byte) {
	o.publishCommand(events, encoded, nil, "")
}

// publishCommand publishes the events of command cmdID, which origin sent.
func (o *owner) publishCommand(events []engine.Event, encoded [][]byte, origin any, cmdID string) {
	o.shown, o.shownSet = o.state.Core().Seq, true
	if o.svc.cfg.Publisher == nil || len(events) == 0 {
		return
	}
	o.svc.cfg.Publisher.Publish(Update{
		EncounterID: o.id, Ruleset: o.rs, State: o.state, Events: events, Encoded: encoded, Seq: o.state.Core().Seq, Head: o.head, Access: o.access,
		Origin: origin, CommandID: cmdID,
	})
}

// PublisherFunc adapts a function to Publisher.
type PublisherFunc func(Update)

// Publish implements Publisher.
func (f PublisherFunc) Publish(u Update) { f(u) }
