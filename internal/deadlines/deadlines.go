// Package deadlines keeps a table from stalling, for play between
// sessions: turn deadlines and clocks, and standing orders.
//
// A GM gives an encounter a deadline (store.DeadlineSetting): a fixed wait,
// or a clock — each player character's time bank plus an increment per
// turn. While the table waits on a player — their character's turn, or a
// decision that is theirs — the player is reminded before it runs out (a
// notice through the outbox), and when it runs out their standing orders
// answer what they can and the GM's fallback applies to the rest, once,
// on exactly one instance, even across restarts. A player who is away
// has their standing orders answer at once (the steward, below).
//
// A wait is a row of the store (one per encounter and seq its log ends
// at). A Worker on every instance schedules waits (a clock's from the
// encounter's state: whom the table waits on), enqueues due reminders and
// claims due waits FOR UPDATE SKIP LOCKED with a lease. Whatever applies
// goes through the play service like any command, with command ids
// derived from the wait's id ("deadline-<id>-<n>", one per step) and only
// while the encounter still stands where the previous step left it
// (play.Sender AtSeq): a worker that dies after applying a step and
// before marking the wait done leaves a lease to run out; the next worker
// finds the step applied (by its id) and goes on from there, never
// applying it twice.
package deadlines

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is what the worker needs of the store; *store.DB is one.
type Store interface {
	ScheduleDeadlines(ctx context.Context, now time.Time) error
	ClockCandidates(ctx context.Context) ([]store.ClockCandidate, error)
	StartClockWait(ctx context.Context, w store.ClockWait, now time.Time) (bool, error)
	RemindDeadlines(ctx context.Context, now time.Time) (int64, error)
	ClaimDeadlines(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.DueDeadline, error)
	FinishDeadline(ctx context.Context, id int64, outcome string) error
	ClockBanks(ctx context.Context, encounterID string) (map[string]time.Duration, error)
	EncounterOwners(ctx context.Context, encounterID string) (map[string]store.Owner, error)
	EncounterStanding(ctx context.Context, encounterID string) (map[string]store.Standing, error)
	StewardCandidates(ctx context.Context) ([]store.StewardCandidate, error)
	HoldAnswer(ctx context.Context, h store.Held) error
	HeldAnswers(ctx context.Context, encounterID string) ([]store.Held, error)
	ReleaseHeld(ctx context.Context, encounterID, commitment string) error
	LookupCommand(ctx context.Context, encounterID, sender, commandID string) (store.CommandState, error)
}

// Table is the live encounters; *play.Service is one.
type Table interface {
	Current(ctx context.Context, id string) (engine.Ruleset, engine.State, error)
	Submit(ctx context.Context, id string, sender play.Sender, cmdID string, cmd engine.Command) (int64, error)
}

// Worker applies deadlines. Now is injectable: tests move time, never
// sleep through a deadline.
type Worker struct {
	Store  Store
	Table  Table
	Now    func() time.Time
	Lease  time.Duration // how long a claimed wait is this worker's (default 1 min)
	Every  time.Duration // how often Run looks (default 15 s)
	Logger *slog.Logger

	mu   sync.Mutex       // one tick at a time
	seen map[string]int64 // the seq each steward candidate was last looked at
	wake chan struct{}
	once sync.Once
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

func (w *Worker) logger() *slog.Logger {
	if w.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Logger
}

func (w *Worker) wakes() chan struct{} {
	w.once.Do(func() { w.wake = make(chan struct{}, 1) })
	return w.wake
}

// Wake asks Run for a tick soon: an encounter moved on, so a clock's wait
// starts (and the last one's time is counted) when it did, not at the
// next tick, and an away player's standing orders answer at once. It
// never blocks; wakes that come while a tick runs make one more.
func (w *Worker) Wake() {
	select {
	case w.wakes() <- struct{}{}:
	default:
	}
}

// wakeGap is the least time between two ticks Wake asks for: under load,
// ticks are coalesced rather than one per command.
const wakeGap = 100 * time.Millisecond

// Run ticks every Every, and when woken, until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	every := w.Every
	if every <= 0 {
		every = 15 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := w.Tick(ctx); err != nil && ctx.Err() == nil {
			w.logger().Warn("deadlines", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.wakes():
			select {
			case <-ctx.Done():
				return
			case <-time.After(wakeGap):
			}
		}
	}
}

// Tick schedules waits (a clock's from whom the table waits on), lets
// away players' standing orders answer and reveals the sealed answers
// the server holds, sends due reminders, and applies what runs out. It
// returns the first error; a wait it could not finish is taken again once
// its lease runs out.
func (w *Worker) Tick(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	if err := w.Store.ScheduleDeadlines(ctx, now); err != nil {
		return err
	}
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	keep(w.startClocks(ctx, now))
	keep(w.steward(ctx))
	if _, err := w.Store.RemindDeadlines(ctx, now); err != nil {
		return err
	}
	lease := w.Lease
	if lease <= 0 {
		lease = time.Minute
	}
	due, err := w.Store.ClaimDeadlines(ctx, now, lease, 20)
	if err != nil {
		return err
	}
	for _, d := range due {
		outcome, err := w.apply(ctx, d, now)
		if err == nil {
			err = w.Store.FinishDeadline(ctx, d.ID, outcome)
		}
		if err != nil {
			w.logger().Warn("deadline fallback", "deadline", d.ID, "encounter", d.EncounterID, "err", err)
			keep(err)
		}
	}
	return first
}

// startClocks starts the wait of every clocked encounter that moved on.
func (w *Worker) startClocks(ctx context.Context, now time.Time) error {
	cands, err := w.Store.ClockCandidates(ctx)
	if err != nil {
		return err
	}
	for _, c := range cands {
		_, st, err := w.Table.Current(ctx, c.EncounterID)
		if err != nil {
			return err
		}
		// The wait starts where the encounter stands now (it may have
		// moved on again since the candidates were listed).
		owners, err := w.Store.EncounterOwners(ctx, c.EncounterID)
		if err != nil {
			return err
		}
		waited, acting, turn := Waited(st, owners)
		if _, err := w.Store.StartClockWait(ctx, store.ClockWait{EncounterID: c.EncounterID, Seq: st.Core().Seq, Waited: waited, Acting: acting, TurnKey: turn}, now); err != nil {
			return err
		}
	}
	return nil
}

// Waited is whom encounter state st waits on among the player characters
// owners names, whose clocks run: the owners of the decisions waiting for
// an answer or a reveal, or, when none waits, the player characters
// acting. acting are the player characters whose turn it is (the
// increment is theirs when turn, which names the turn, is a new one).
// A hidden character's questions are the GM's: no player's clock runs
// for them.
func Waited(st engine.State, owners map[string]store.Owner) (waited, acting []string, turn string) {
	b := st.Core()
	if b.Status != engine.StatusRunning {
		return nil, nil, ""
	}
	theirs := func(id string) bool {
		c := b.Combatant(id)
		return owners[id].UserID != "" && c != nil && !c.Hidden
	}
	for _, d := range b.Pending {
		if (!d.Answered || b.AwaitsReveal(d)) && d.For != engine.GM && theirs(d.For) && !slices.Contains(waited, d.For) {
			waited = append(waited, d.For)
		}
	}
	for _, id := range b.Acting {
		if theirs(id) {
			acting = append(acting, id)
		}
	}
	if len(waited) == 0 && !b.Waiting() && !slices.ContainsFunc(b.Pending, b.AwaitsReveal) {
		waited = slices.Clone(acting)
	}
	slices.Sort(waited)
	slices.Sort(acting)
	return waited, acting, strconv.Itoa(b.Round) + "/" + strconv.Itoa(b.Turn) + "/" + b.Label
}

// maxSteps bounds the commands one wait's fallback sends.
const maxSteps = 40

// apply applies what runs out with d and says how it ended: for each
// player whose time ran out (every player, for a fixed deadline; those
// whose banks ran dry, for a clock), their decisions answered by their
// standing orders or else by the fallback, their sealed answers revealed
// or forfeited, then their turn passed or the encounter paused (Next).
// Each step is one command with its own id ("deadline-<id>-<n>", and
// "deadline-<id>-end" for the one that ends them: a pause, a turn
// passed), applied only while the encounter stands where the step before
// left it; a step found applied by its id is never sent again, and once
// the last is, nothing more is sent.
func (w *Worker) apply(ctx context.Context, d store.DueDeadline, now time.Time) (string, error) {
	owners, err := w.Store.EncounterOwners(ctx, d.EncounterID)
	if err != nil {
		return "", err
	}
	standing, err := w.Store.EncounterStanding(ctx, d.EncounterID)
	if err != nil {
		return "", err
	}
	expired := func(string) bool { return true }
	if d.Clock {
		banks, err := w.Store.ClockBanks(ctx, d.EncounterID)
		if err != nil {
			return "", err
		}
		spent := now.Sub(d.StartedAt)
		expired = func(id string) bool { return slices.Contains(d.Waited, id) && banks[id] <= spent }
	}
	endID := fmt.Sprintf("deadline-%d-end", d.ID)
	if look, err := w.Store.LookupCommand(ctx, d.EncounterID, "", endID); err != nil || look.Applied {
		return "applied", err
	}
	at, applied := d.Seq, false
	for n := range maxSteps {
		id := fmt.Sprintf("deadline-%d-%d", d.ID, n)
		look, err := w.Store.LookupCommand(ctx, d.EncounterID, "", id)
		if err != nil {
			return "", err
		}
		if look.Applied {
			at, applied = look.Seq, true
			continue
		}
		rs, st, err := w.Table.Current(ctx, d.EncounterID)
		if err != nil {
			return "", err
		}
		if st.Core().Seq != at {
			return outcome(applied, "moved-on"), nil
		}
		held, err := w.Store.HeldAnswers(ctx, d.EncounterID)
		if err != nil {
			return "", err
		}
		step, ok := Next(rs, st, Players{Owners: owners, Standing: standing, Held: held}, expired, d.Fallback, applied)
		if !ok {
			return outcome(applied, "not-a-player"), nil
		}
		if step.Last {
			id = endID
		}
		seq, err := w.send(ctx, d.EncounterID, step, at, id)
		if refused(err) && step.Command.Kind != engine.KindPause {
			// The rules refuse what the fallback would do (a ruleset's
			// turn that cannot pass so): the GM decides, the encounter
			// paused.
			w.logger().Warn("deadline fallback refused; pausing", "deadline", d.ID, "encounter", d.EncounterID, "command", step.Command.Kind, "err", err)
			step = Step{Viewer: fallbackViewer(owners), Command: engine.NewCommand(engine.KindPause, "", nil), Last: true}
			seq, err = w.send(ctx, d.EncounterID, step, at, endID)
		}
		switch {
		case fray.ErrorCode(err) == fray.ECONFLICT:
			return outcome(applied, "moved-on"), nil // someone acted at the last moment
		case err != nil:
			return "", err
		case step.Last:
			return "applied", nil
		}
		at, applied = seq, true
	}
	return "applied", nil
}

// send submits step at seq at under command id: what it holds is kept
// first, what it reveals released after.
func (w *Worker) send(ctx context.Context, encounterID string, step Step, at int64, id string) (int64, error) {
	if step.Hold != nil {
		h := *step.Hold
		h.EncounterID = encounterID
		if err := w.Store.HoldAnswer(ctx, h); err != nil {
			return 0, err
		}
	}
	seq, err := w.Table.Submit(ctx, encounterID, play.Sender{Viewer: step.Viewer, AtSeq: at}, id, step.Command)
	if err == nil && step.Releases != "" {
		err = w.Store.ReleaseHeld(ctx, encounterID, step.Releases)
	}
	return seq, err
}

// refused reports whether err is the rules refusing a command, not a
// failure to send it.
func refused(err error) bool {
	switch fray.ErrorCode(err) {
	case fray.EILLEGAL, fray.EINVALID, fray.ENOTYOURTURN, fray.EPENDING, fray.EFORBIDDEN:
		return true
	}
	return false
}

func outcome(applied bool, otherwise string) string {
	if applied {
		return "applied"
	}
	return otherwise
}

// Players is what Next knows of an encounter's players: the owner of
// each player character, their standing orders, and the sealed answers
// the server holds for them.
type Players struct {
	Owners   map[string]store.Owner
	Standing map[string]store.Standing
	Held     []store.Held
}

// Step is one command the worker sends: with Viewer (a player's with
// engine.AgentStanding for a standing order, the GM's with
// engine.AgentFallback for a fallback, a player's for a held answer's
// reveal). Hold is a sealed answer to keep before the command commits to
// it; Releases the commitment of a held answer the command reveals. Last
// ends the wait's steps (a pause, a turn passed).
type Step struct {
	Viewer   engine.Viewer
	Command  engine.Command
	Hold     *store.Held
	Releases string
	Last     bool
}

// Next is the next step for the players whose time ran out (expired) in
// encounter state st, under fallback; answered says a step of the wait
// already applied. False when nothing waits on such a player any more.
//
//   - A decision of theirs waiting for an answer: their standing order's
//     answer (a sealed one committed to, the server holding the answer
//     until every party has answered); else pause pauses, and default and
//     next-turn answer it with its default, or pause when it has none.
//   - A sealed answer of theirs that must now be revealed: the server's,
//     when it holds it; else pause pauses and the others forfeit every
//     answer still unrevealed (reveal-timeout: the defaults apply).
//   - Their turn with nothing waiting: pause pauses; default — unless it
//     answered for them already, when the turn waits again — and
//     next-turn pass it (pass-turn: the ruleset's own pass); a
//     ruleset that has no such command pauses.
func Next(rs engine.Ruleset, st engine.State, t Players, expired func(id string) bool, fallback string, answered bool) (Step, bool) {
	b := st.Core()
	if b.Status != engine.StatusRunning {
		return Step{}, false
	}
	gm := fallbackViewer(t.Owners)
	pause := Step{Viewer: gm, Command: engine.NewCommand(engine.KindPause, "", nil), Last: true}
	mine := func(d engine.Decision) bool {
		return d.For != engine.GM && gm.Players[d.For] != "" && b.Answerer(d) != engine.GM && expired(d.For)
	}
	for _, d := range b.Pending {
		if d.Answered || !mine(d) {
			continue
		}
		if s, ok := StandingStep(rs, st, t, d); ok {
			return s, true
		}
		if fallback == store.FallbackPause || d.Default == "" {
			return pause, true
		}
		return Step{Viewer: gm, Command: engine.NewCommand(engine.KindAnswer, "", map[string]any{
			"decision": d.ID, "choice": d.Default, "override": true})}, true
	}
	for _, d := range b.Pending {
		if !b.AwaitsReveal(d) || !mine(d) {
			continue
		}
		if s, ok := RevealStep(st, t, d); ok {
			return s, true
		}
		if fallback == store.FallbackPause {
			return pause, true
		}
		return Step{Viewer: gm, Command: engine.NewCommand(engine.KindRevealTimeout, "", nil)}, true
	}
	if b.Waiting() || slices.ContainsFunc(b.Pending, b.AwaitsReveal) {
		return Step{}, false // the GM's, or another player's whose time runs on
	}
	for _, id := range b.Acting {
		if gm.Players[id] == "" || !expired(id) {
			continue
		}
		switch {
		case fallback == store.FallbackDefault && answered:
			return Step{}, false // their decisions are answered; the turn waits again
		case fallback == store.FallbackPause, engine.PassKind(rs, st, id) == "":
			return pause, true
		}
		return Step{Viewer: gm, Command: engine.NewCommand(engine.KindPassTurn, id, nil), Last: true}, true
	}
	return Step{}, false
}

// fallbackViewer is the GM's viewer a fallback is sent with: it knows the
// players' characters, and says it is a fallback.
func fallbackViewer(owners map[string]store.Owner) engine.Viewer {
	v := engine.Viewer{GM: true, Players: map[string]string{}, Name: "fallback", Agent: engine.AgentFallback}
	for id, o := range owners {
		v.Players[id] = o.Name
	}
	return v
}

// StandingStep is decision d answered by its owner's standing order in
// st, when they have one that gives an answer: an open decision answered,
// a sealed one committed to with a nonce the server keeps (Step.Hold).
func StandingStep(rs engine.Ruleset, st engine.State, t Players, d engine.Decision) (Step, bool) {
	owner, ok := t.Owners[d.For]
	if !ok || d.Answered || st.Core().Answerer(d) == engine.GM {
		return Step{}, false
	}
	order, ok := t.Standing[d.For].Orders[d.Kind]
	if !ok {
		return Step{}, false
	}
	choice, ok := engine.StandingAnswer(rs, st, d, order)
	if !ok {
		return Step{}, false
	}
	v := engine.Viewer{Controls: []string{d.For}, Name: owner.Name, Agent: engine.AgentStanding}
	if !d.Sealed {
		return Step{Viewer: v, Command: engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": choice})}, true
	}
	h, err := NewHeld(d, choice, nil, engine.AgentStanding)
	if err != nil {
		return Step{}, false
	}
	return Step{Viewer: v, Hold: &h, Command: engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "commitment": h.Commitment})}, true
}

// NewHeld is a sealed answer to decision d for the server to hold: its
// choice and values (a JSON object; nil: the fields' defaults), a fresh
// nonce and the commitment to them. The caller sets its encounter.
func NewHeld(d engine.Decision, choice string, values json.RawMessage, via string) (store.Held, error) {
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return store.Held{}, err
	}
	nonce := hex.EncodeToString(raw)
	c, err := engine.Commitment(d.ID, choice, values, nonce)
	if err != nil {
		return store.Held{}, err
	}
	return store.Held{Commitment: c, Decision: d.ID, Character: d.For, Choice: choice, Values: values, Nonce: nonce, Via: via}, nil
}

// RevealStep reveals the answer to sealed decision d the server holds,
// once its group has answered: false when it holds none.
func RevealStep(st engine.State, t Players, d engine.Decision) (Step, bool) {
	b := st.Core()
	s := b.SealedOf(d.ID)
	if s == nil || !b.AwaitsReveal(d) {
		return Step{}, false
	}
	i := slices.IndexFunc(t.Held, func(h store.Held) bool { return h.Commitment == s.Commitment && h.Decision == d.ID })
	if i < 0 {
		return Step{}, false
	}
	h := t.Held[i]
	v := engine.Viewer{Controls: []string{d.For}, Name: t.Owners[d.For].Name, Agent: h.Via}
	args := map[string]any{"decision": d.ID, "choice": h.Choice, "nonce": h.Nonce}
	if h.Values != nil {
		args["values"] = h.Values
	}
	return Step{Viewer: v, Releases: h.Commitment, Command: engine.NewCommand(engine.KindUnseal, "", args)}, true
}

// Immediate is the next thing to do at once, with no wait run out, in
// encounter state st: reveal a held sealed answer whose group has
// answered, or answer a decision of a player who is away by their
// standing order. False when there is none.
func Immediate(rs engine.Ruleset, st engine.State, t Players) (Step, string, bool) {
	b := st.Core()
	if b.Status != engine.StatusRunning {
		return Step{}, "", false
	}
	for _, d := range b.Pending {
		if s, ok := RevealStep(st, t, d); ok {
			return s, d.ID, true
		}
	}
	for _, d := range b.Pending {
		if d.Answered || !t.Standing[d.For].Away {
			continue
		}
		if s, ok := StandingStep(rs, st, t, d); ok {
			return s, d.ID, true
		}
	}
	return Step{}, "", false
}

// steward does what is to be done at once in the encounters that may need
// it (store.StewardCandidates), each looked at again only once it moved
// on: away players' standing orders, held answers' reveals.
func (w *Worker) steward(ctx context.Context) error {
	cands, err := w.Store.StewardCandidates(ctx)
	if err != nil {
		return err
	}
	if w.seen == nil {
		w.seen = map[string]int64{}
	}
	now := map[string]bool{}
	var first error
	for _, c := range cands {
		now[c.EncounterID] = true
		if seq, ok := w.seen[c.EncounterID]; ok && seq == c.Seq {
			continue
		}
		seq, err := w.stewardOne(ctx, c.EncounterID)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		w.seen[c.EncounterID] = seq
	}
	for id := range w.seen {
		if !now[id] {
			delete(w.seen, id)
		}
	}
	return first
}

// stewardOne does encounter id's immediate steps, one command each, with
// ids derived from the decision and the seq it applies at, and returns
// the seq it left the encounter at.
func (w *Worker) stewardOne(ctx context.Context, id string) (int64, error) {
	for range maxSteps {
		rs, st, err := w.Table.Current(ctx, id)
		if err != nil {
			return 0, err
		}
		seq := st.Core().Seq
		owners, err := w.Store.EncounterOwners(ctx, id)
		if err != nil {
			return 0, err
		}
		standing, err := w.Store.EncounterStanding(ctx, id)
		if err != nil {
			return 0, err
		}
		held, err := w.Store.HeldAnswers(ctx, id)
		if err != nil {
			return 0, err
		}
		step, decision, ok := Immediate(rs, st, Players{Owners: owners, Standing: standing, Held: held})
		if !ok {
			return seq, w.releaseStale(ctx, id, st, held)
		}
		_, err = w.send(ctx, id, step, seq, fmt.Sprintf("steward-%s-%d", decision, seq))
		if err != nil && fray.ErrorCode(err) != fray.ECONFLICT {
			return 0, err
		}
	}
	return 0, fmt.Errorf("encounter %s: the steward did not settle in %d steps", id, maxSteps)
}

// staleHeld is how old a held answer must be before one that no decision
// waits on is let go: its commit may still be on its way.
const staleHeld = 10 * time.Minute

// releaseStale lets go of held answers no pending sealed answer commits
// to any more (settled by a forfeit, gone with a rewind or the end).
func (w *Worker) releaseStale(ctx context.Context, id string, st engine.State, held []store.Held) error {
	b := st.Core()
	for _, h := range held {
		s := b.SealedOf(h.Decision)
		if s != nil && s.Commitment == h.Commitment && !s.Opened {
			continue
		}
		if time.Since(h.Created) < staleHeld && (s == nil || s.Commitment != h.Commitment) {
			continue
		}
		if err := w.Store.ReleaseHeld(ctx, id, h.Commitment); err != nil {
			return err
		}
	}
	return nil
}
