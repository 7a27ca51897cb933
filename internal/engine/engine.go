package engine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/fray"
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// NewEncounter validates the generic part of setup and asks rs to build the
// initial state. id becomes the encounter's id in the state.
func NewEncounter(rs Ruleset, id string, setup Setup) (State, error) {
	if setup.Ruleset != rs.ID() {
		return nil, fray.Errorf(fray.EINVALID, "setup is for ruleset %q, not %q", setup.Ruleset, rs.ID())
	}
	if setup.Name == "" {
		return nil, fray.Errorf(fray.EINVALID, "encounter needs a name")
	}
	if len(setup.Sides) < 2 {
		return nil, fray.Errorf(fray.EINVALID, "encounter needs at least two sides")
	}
	seen := map[string]bool{}
	for _, s := range setup.Sides {
		if !idPattern.MatchString(s.ID) {
			return nil, fray.Errorf(fray.EINVALID, "side id %q must be 1–64 letters, digits, '-' or '_'", s.ID)
		}
		if seen["side:"+s.ID] {
			return nil, fray.Errorf(fray.EINVALID, "side id %q is used twice", s.ID)
		}
		seen["side:"+s.ID] = true
	}
	if len(setup.Combatants) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "encounter needs combatants")
	}
	base := Base{
		ID: id, Name: setup.Name, Ruleset: rs.ID(), Status: StatusSetup,
		Sides: slices.Clone(setup.Sides), Turn: -1, Options: map[string]string{},
	}
	for _, c := range setup.Combatants {
		if !idPattern.MatchString(c.ID) || c.ID == GM {
			return nil, fray.Errorf(fray.EINVALID, "combatant id %q must be 1–64 letters, digits, '-' or '_' (and not %q)", c.ID, GM)
		}
		if seen[c.ID] {
			return nil, fray.Errorf(fray.EINVALID, "combatant id %q is used twice", c.ID)
		}
		seen[c.ID] = true
		if c.Name == "" {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q needs a name", c.ID)
		}
		if !seen["side:"+c.Side] {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q is on unknown side %q", c.ID, c.Side)
		}
		c.Combatant.Out = false
		base.Combatants = append(base.Combatants, c.Combatant)
	}
	specs := rs.Options()
	for _, o := range specs {
		base.Options[o.Name] = o.Default
	}
	for name, value := range setup.Options {
		i := slices.IndexFunc(specs, func(o OptionSpec) bool { return o.Name == name })
		if i < 0 {
			return nil, fray.Errorf(fray.EINVALID, "ruleset %s has no option %q", rs.ID(), name)
		}
		if len(specs[i].Choices) > 0 && !slices.ContainsFunc(specs[i].Choices, func(c Choice) bool { return c.Value == value }) {
			return nil, fray.Errorf(fray.EINVALID, "option %q cannot be %q", name, value)
		}
		base.Options[name] = value
	}
	return rs.New(setup, base)
}

// Snapshot encodes st as JSON.
func Snapshot(st State) ([]byte, error) { return json.Marshal(st) }

// Clone returns a deep copy of st, made through its JSON snapshot.
func Clone(rs Ruleset, st State) (State, error) {
	raw, err := Snapshot(st)
	if err != nil {
		return nil, err
	}
	return rs.Decode(raw)
}

// Tx is one command being decided. Events emitted through it are applied to
// its state at once, so a ruleset always decides against the state as it
// stands after what it has already emitted.
type Tx struct {
	rs      Ruleset
	st      State
	viewer  Viewer
	Dice    *dice.Roller
	command string
	events  []Event
	history History // the encounter's past, for rewind and reveal-event; may be nil
}

// State is the state as it stands after the events emitted so far.
func (tx *Tx) State() State { return tx.st }

// Base is the generic part of State.
func (tx *Tx) Base() *Base { return tx.st.Core() }

// Viewer is who issued the command.
func (tx *Tx) Viewer() Viewer { return tx.viewer }

// Events returns the events emitted so far.
func (tx *Tx) Events() []Event { return tx.events }

// Emit stamps ev with the next sequence number, the round and the command id,
// applies it, and records it.
func (tx *Tx) Emit(ev Event) error {
	b := tx.Base()
	ev.Seq = b.Seq + 1
	ev.Command = tx.command
	if c := b.Combatant(ev.Actor); c != nil && c.Hidden {
		ev.Secret = true
	}
	if err := Apply(tx.rs, tx.st, ev); err != nil {
		return fmt.Errorf("apply %s: %w", ev.Kind, err)
	}
	ev.Round = b.Round // the round the event belongs to: a new round's own number
	tx.events = append(tx.events, ev)
	return nil
}

// Emits builds and emits an event, see NewEvent.
func (tx *Tx) Emits(kind, actor, text string, data any, rolls ...dice.Roll) error {
	return tx.Emit(NewEvent(kind, actor, text, data, rolls...))
}

// Open emits a pending decision. Its id is derived from the sequence number
// so it is unique within the encounter.
func (tx *Tx) Open(d Decision) error {
	d.ID = fmt.Sprintf("d%d", tx.Base().Seq+1)
	who, actor := "the GM", ""
	if c := tx.Base().Combatant(d.For); c != nil {
		// The combatant is the event's actor, so a hidden one's question is
		// secret (see Emit) and its name never reaches players.
		who, actor = c.Name, c.ID
	}
	return tx.Emits(KindDecisionOpened, actor, fmt.Sprintf("Waiting for %s: %s", who, d.Prompt), DecisionOpened{Decision: d})
}

// Decide resolves cmd, issued by viewer with client command id cmdID,
// against st. It works on a clone: on success it returns the events and the
// resulting state; on error st is untouched and nothing happened. Commands
// that read the encounter's past (rewind, reveal-event) need DecideWith.
func Decide(rs Ruleset, st State, viewer Viewer, cmdID string, cmd Command, roller *dice.Roller) ([]Event, State, error) {
	return DecideWith(rs, st, viewer, cmdID, cmd, roller, nil)
}

// DecideWith is Decide with read access to the encounter's history, which
// the GM's rewind and reveal-event commands consult. hist may be nil, in
// which case those commands fail.
func DecideWith(rs Ruleset, st State, viewer Viewer, cmdID string, cmd Command, roller *dice.Roller, hist History) ([]Event, State, error) {
	next, err := Clone(rs, st)
	if err != nil {
		return nil, nil, fmt.Errorf("clone state: %w", err)
	}
	return DecideOwned(rs, next, viewer, cmdID, cmd, roller, hist)
}

// DecideOwned is DecideWith on a state the caller gives away: next must be a
// private copy (e.g. freshly decoded from the current snapshot), which it
// changes. It saves the clone when the caller already holds the snapshot.
func DecideOwned(rs Ruleset, next State, viewer Viewer, cmdID string, cmd Command, roller *dice.Roller, hist History) ([]Event, State, error) {
	tx := &Tx{rs: rs, st: next, viewer: viewer, Dice: roller, command: cmdID, history: hist}
	before := roller.Faces()
	if err := decide(tx, cmd); err != nil {
		return nil, nil, err
	}
	if len(tx.events) == 0 {
		return nil, nil, fray.Errorf(fray.EILLEGAL, "%q changed nothing", cmd.Kind)
	}
	recorded := 0
	for _, ev := range tx.events {
		for _, r := range ev.Rolls {
			recorded += r.Faces()
		}
	}
	if rolled := roller.Faces() - before; rolled != recorded {
		return nil, nil, fmt.Errorf("ruleset %s rolled %d die faces but recorded %d in events", rs.ID(), rolled, recorded)
	}
	return tx.events, next, nil
}

// GM-level command kinds handled by the engine itself.
const (
	KindStart  = "start"
	KindPause  = "pause"
	KindResume = "resume"
	KindEnd    = "end"
	KindReveal = "reveal"
)

func decide(tx *Tx, cmd Command) error {
	b := tx.Base()
	// A finished encounter only takes reveals and rewinds: undoing the
	// action that ended it reopens it.
	if b.Status == StatusFinished && cmd.Kind != KindRevealEvent && cmd.Kind != KindRewind {
		return fray.Errorf(fray.EILLEGAL, "the encounter is over")
	}
	switch cmd.Kind {
	case KindStart, KindPause, KindResume, KindEnd, KindReveal, KindRewind, KindRevealEvent:
		if !tx.viewer.GM {
			return fray.Errorf(fray.EFORBIDDEN, "only the GM may %s the encounter", cmd.Kind)
		}
		return decideGM(tx, cmd)
	case KindAnswer:
		return decideAnswer(tx, cmd)
	}
	switch b.Status {
	case StatusSetup:
		return fray.Errorf(fray.EILLEGAL, "the encounter has not started")
	case StatusPaused:
		return fray.Errorf(fray.EILLEGAL, "the encounter is paused")
	}
	if len(b.Pending) > 0 {
		return fray.Errorf(fray.EPENDING, "waiting for a decision: %s", b.Pending[0].Prompt)
	}
	if cmd.Actor == "" {
		return fray.Errorf(fray.EINVALID, "%q needs an actor", cmd.Kind)
	}
	c := b.Combatant(cmd.Actor)
	if c == nil {
		return fray.Errorf(fray.ENOTFOUND, "no combatant %q", cmd.Actor)
	}
	if !tx.viewer.CanCommand(c.ID) {
		return fray.Errorf(fray.EFORBIDDEN, "you do not control %s", c.Name)
	}
	if c.Out {
		return fray.Errorf(fray.EILLEGAL, "%s is out of the fight", c.Name)
	}
	return tx.rs.Decide(tx, cmd)
}

func decideGM(tx *Tx, cmd Command) error {
	b := tx.Base()
	switch cmd.Kind {
	case KindStart:
		if b.Status != StatusSetup {
			return fray.Errorf(fray.EILLEGAL, "the encounter has already started")
		}
		if err := tx.Emits(KindStarted, "", "The encounter begins.", nil); err != nil {
			return err
		}
		return tx.rs.Start(tx)
	case KindPause:
		if b.Status != StatusRunning {
			return fray.Errorf(fray.EILLEGAL, "only a running encounter can be paused")
		}
		return tx.Emits(KindPaused, "", "The GM pauses the encounter.", nil)
	case KindResume:
		if b.Status != StatusPaused {
			return fray.Errorf(fray.EILLEGAL, "the encounter is not paused")
		}
		return tx.Emits(KindResumed, "", "The GM resumes the encounter.", nil)
	case KindReveal:
		var args struct {
			Kind      string `json:"kind"`
			Combatant string `json:"combatant"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		c := b.Combatant(args.Combatant)
		if c == nil || !c.Hidden {
			return fray.Errorf(fray.EILLEGAL, "no hidden combatant %q", args.Combatant)
		}
		return tx.Emits(KindRevealed, "", c.Name+" is revealed.", Revealed{Combatant: c.ID})
	case KindEnd:
		var args struct {
			Kind    string `json:"kind"`
			Winner  string `json:"winner"`
			Summary string `json:"summary"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		if args.Winner != "" && b.Side(args.Winner) == nil {
			return fray.Errorf(fray.EINVALID, "no side %q", args.Winner)
		}
		if len(args.Summary) > 500 {
			return fray.Errorf(fray.EINVALID, "summary is longer than 500 characters")
		}
		return End(tx, Outcome{Winner: args.Winner, Summary: args.Summary})
	case KindRewind:
		return decideRewind(tx, cmd)
	case KindRevealEvent:
		return decideRevealEvent(tx, cmd)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

// End emits the end of the encounter with outcome.
func End(tx *Tx, o Outcome) error {
	text := "The encounter ends."
	if s := tx.Base().Side(o.Winner); s != nil {
		text = fmt.Sprintf("The encounter ends: %s win.", s.Name)
	}
	return tx.Emits(KindEnded, "", text, Ended{Outcome: o})
}

func decideAnswer(tx *Tx, cmd Command) error {
	var a Answer
	if err := cmd.Decode(&a); err != nil {
		return err
	}
	b := tx.Base()
	d := b.Decision(a.Decision)
	if d == nil {
		return fray.Errorf(fray.ENOTFOUND, "no pending decision %q", a.Decision)
	}
	if !tx.viewer.GM && (d.For == GM || !tx.viewer.CanCommand(d.For)) {
		return fray.Errorf(fray.EFORBIDDEN, "this decision is not yours to make")
	}
	if !d.HasOption(a.Choice) {
		return fray.Errorf(fray.EINVALID, "%q is not an option of this decision", a.Choice)
	}
	decision := *d
	by := GM
	if !tx.viewer.GM {
		by = d.For
	}
	label := a.Choice
	for _, o := range decision.Options {
		if o.Value == a.Choice {
			label = o.Label
		}
	}
	actor := ""
	if decision.For != GM {
		actor = decision.For
	}
	if err := tx.Emits(KindDecisionResolved, actor, fmt.Sprintf("%s: %s", decision.Prompt, label),
		DecisionResolved{ID: decision.ID, Choice: a.Choice, By: by}); err != nil {
		return err
	}
	return tx.rs.Answer(tx, decision, a.Choice)
}

// Apply folds ev into st: the engine's part of Base first, then the
// ruleset's. Events must arrive in sequence with no gap.
func Apply(rs Ruleset, st State, ev Event) error {
	b := st.Core()
	if ev.Seq != b.Seq+1 {
		return fmt.Errorf("event seq %d does not follow %d", ev.Seq, b.Seq)
	}
	if ev.Kind == KindRewound {
		// The whole state, the ruleset's part included, becomes the
		// snapshot the event carries; the ruleset does not see the event.
		if err := applyRewound(rs, st, ev); err != nil {
			return err
		}
		st.Core().Seq = ev.Seq
		return nil
	}
	if err := applyCore(b, ev); err != nil {
		return err
	}
	if err := rs.Apply(st, ev); err != nil {
		return err
	}
	b.Seq = ev.Seq
	return nil
}

func applyCore(b *Base, ev Event) error {
	switch ev.Kind {
	case KindStarted:
		b.Status = StatusRunning
	case KindRoundStarted:
		var d RoundStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Round, b.Order, b.Turn = d.Round, d.Order, -1
	case KindTurnStarted:
		var d TurnStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Turn = d.Turn
	case KindDecisionOpened:
		var d DecisionOpened
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Pending = append(b.Pending, d.Decision)
	case KindDecisionResolved:
		var d DecisionResolved
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Pending = slices.DeleteFunc(b.Pending, func(p Decision) bool { return p.ID == d.ID })
	case KindCombatantOut:
		var d CombatantOut
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if c := b.Combatant(d.Combatant); c != nil {
			c.Out = true
		}
	case KindRevealed:
		var d Revealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if c := b.Combatant(d.Combatant); c != nil {
			c.Hidden = false
		}
	case KindEventRevealed:
		var d EventRevealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !slices.Contains(b.Revealed, d.Seq) {
			b.Revealed = append(b.Revealed, d.Seq)
		}
	case KindPaused:
		b.Status = StatusPaused
	case KindResumed:
		b.Status = StatusRunning
	case KindEnded:
		var d Ended
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Status, b.Outcome, b.Turn, b.Pending = StatusFinished, &d.Outcome, -1, nil
	}
	return nil
}

// Replay folds events into st in order.
func Replay(rs Ruleset, st State, events []Event) error {
	for _, ev := range events {
		if err := Apply(rs, st, ev); err != nil {
			return fmt.Errorf("replay seq %d: %w", ev.Seq, err)
		}
	}
	return nil
}
