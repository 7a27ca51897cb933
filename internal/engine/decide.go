package engine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"

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
		if err := CheckAsset("combatant "+c.ID+"'s portrait", c.Portrait); err != nil {
			return nil, err
		}
		c.Combatant.Out, c.Combatant.Down = false, false
		base.Combatants = append(base.Combatants, c.Combatant)
	}
	if err := newStage(&base, setup); err != nil {
		return nil, err
	}
	if err := newWalls(rs, &base, setup.Battlefield); err != nil {
		return nil, err
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
		if err := specs[i].Check(value); err != nil {
			return nil, err
		}
		base.Options[name] = value
	}
	return rs.New(setup, base)
}

// Check validates a value of the option.
func (o OptionSpec) Check(value string) error {
	if o.Type == OptionInt {
		n, err := strconv.Atoi(value)
		if err != nil {
			return fray.Errorf(fray.EINVALID, "option %q must be a whole number, not %q", o.Name, value)
		}
		if (o.Min != 0 || o.Max != 0) && (n < o.Min || n > o.Max) {
			return fray.Errorf(fray.EINVALID, "option %q must be between %d and %d", o.Name, o.Min, o.Max)
		}
		return nil
	}
	if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return c.Value == value }) {
		return fray.Errorf(fray.EINVALID, "option %q cannot be %q", o.Name, value)
	}
	return nil
}

// Option returns the value of a ruleset option, or def when unset.
func (b *Base) Option(name, def string) string {
	if v, ok := b.Options[name]; ok {
		return v
	}
	return def
}

// OptionInt returns an integer option, or def when unset or not a number.
func (b *Base) OptionInt(name string, def int) int {
	if n, err := strconv.Atoi(b.Options[name]); err == nil {
		return n
	}
	return def
}

// Snapshot encodes st as JSON.
func Snapshot(st State) ([]byte, error) { return json.Marshal(st) }

// Clone returns a deep copy of st: what its snapshot decodes to (see Copy).
func Clone(rs Ruleset, st State) (State, error) { return Copy(st) }

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

// DecideOwned is DecideWith on a state the caller gives away: next must be
// a state no one else reads meanwhile (a Copy, a decoded snapshot, or a live
// state its owner alone holds), which it changes in place as the command's
// events are applied. Refused, it leaves next as it was when the refusal
// came before any event was applied (next's Seq has not moved; the engine
// changes a state only by applying events, and enginetest.Bot holds every
// ruleset to that), and part-way otherwise: the caller then discards next.
func DecideOwned(rs Ruleset, next State, viewer Viewer, cmdID string, cmd Command, roller *dice.Roller, hist History) ([]Event, State, error) {
	if err := checkEntropy(cmd); err != nil {
		return nil, nil, err
	}
	// Room for a few events from the start: most commands emit several,
	// and growing the slice one event at a time showed in simulations.
	tx := &Tx{rs: rs, st: next, viewer: viewer, Dice: roller, command: cmdID, history: hist, events: make([]Event, 0, 4)}
	tx.beginDice(cmd)
	if err := decide(tx, cmd); err != nil {
		return nil, nil, err
	}
	if len(tx.events) == 0 {
		return nil, nil, fray.Errorf(fray.EILLEGAL, "%q changed nothing", cmd.Kind)
	}
	if err := tx.settleDice(); err != nil {
		return nil, nil, err
	}
	if err := checkRolls(rs, tx.events, roller.Rolled()); err != nil {
		return nil, nil, err
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

func isCoreCommand(kind string) bool {
	switch kind {
	case KindStart, KindPause, KindResume, KindEnd, KindReveal, KindRewind, KindRevealEvent, KindAcceptDefaults, KindAnswer,
		KindChat, KindFreeRoll, KindUnseal, KindRevealTimeout, KindPassTurn, KindOpenDoor, KindCloseDoor:
		return true
	}
	return isStageCommand(kind)
}

// Spec returns rs's declaration of command kind, if it has one.
func Spec(rs Ruleset, kind string) (CommandSpec, bool) {
	for _, s := range rs.Commands() {
		if s.Kind == kind {
			return s, true
		}
	}
	return CommandSpec{}, false
}

func decide(tx *Tx, cmd Command) error {
	b := tx.Base()
	spec, known := Spec(tx.rs, cmd.Kind)
	if (!known && !isCoreCommand(cmd.Kind)) || (cmd.Kind == KindPassTurn && (tx.viewer.Agent != AgentFallback || !tx.viewer.GM)) {
		return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
	}
	if cmd.Kind == KindChat || cmd.Kind == KindFreeRoll {
		// Table talk goes on at any stage, even while a question waits.
		return decideTalk(tx, cmd)
	}
	if isStageCommand(cmd.Kind) {
		// So does the stage: a scene, a handout, a note.
		return decideStage(tx, cmd)
	}
	// A finished encounter only takes reveals and rewinds: undoing the
	// action that ended it reopens it.
	if b.Status == StatusFinished && cmd.Kind != KindRevealEvent && cmd.Kind != KindRewind {
		return fray.Errorf(fray.EILLEGAL, "the encounter is over")
	}
	switch cmd.Kind {
	case KindStart, KindPause, KindResume, KindEnd, KindReveal, KindRewind, KindRevealEvent, KindAcceptDefaults, KindRevealTimeout:
		if !tx.viewer.GM {
			return fray.Errorf(fray.EFORBIDDEN, "only the GM may %s", gmVerb(cmd.Kind))
		}
		if cmd.Actor != "" {
			return fray.Errorf(fray.EINVALID, "%q names no actor", cmd.Kind)
		}
		if err := decideGM(tx, cmd); err != nil {
			return err
		}
		if cmd.Kind == KindAcceptDefaults || cmd.Kind == KindRevealTimeout {
			return settle(tx)
		}
		return nil
	case KindUnseal:
		if b.Status == StatusSetup {
			return fray.Errorf(fray.EILLEGAL, "the encounter has not started")
		}
		if err := decideUnseal(tx, cmd); err != nil {
			return err
		}
		return settle(tx)
	case KindPassTurn:
		return decidePassTurn(tx, cmd)
	case KindOpenDoor, KindCloseDoor:
		// Doors are the GM's at any stage of the fight, like the stage.
		if !tx.viewer.GM {
			return fray.Errorf(fray.EFORBIDDEN, "only the GM opens and closes doors")
		}
		if cmd.Actor != "" {
			return fray.Errorf(fray.EINVALID, "%q names no actor", cmd.Kind)
		}
		return decideDoor(tx, cmd)
	case KindAnswer:
		if b.Status == StatusSetup {
			return fray.Errorf(fray.EILLEGAL, "the encounter has not started")
		}
		if err := decideAnswer(tx, cmd); err != nil {
			return err
		}
		return settle(tx)
	}
	switch b.Status {
	case StatusSetup:
		return fray.Errorf(fray.EILLEGAL, "the encounter has not started")
	case StatusPaused:
		return fray.Errorf(fray.EILLEGAL, "the encounter is paused")
	}
	if b.Waiting() && !spec.whileWaiting() {
		return fray.Errorf(fray.EPENDING, "waiting for %s", waitingText(tx.st, tx.viewer))
	}
	if spec.GM {
		if !tx.viewer.GM {
			return fray.Errorf(fray.EFORBIDDEN, "only the GM may issue %q", cmd.Kind)
		}
		if cmd.Actor != "" {
			return fray.Errorf(fray.EINVALID, "%q is a GM command and names no actor", cmd.Kind)
		}
	} else {
		if cmd.Actor == "" {
			return fray.Errorf(fray.EINVALID, "%q needs an actor", cmd.Kind)
		}
		c := b.Combatant(cmd.Actor)
		// A combatant the viewer may not see answers exactly like one
		// that does not exist: its id is no oracle.
		if c == nil || !Visible(tx.st, tx.viewer, c.ID) {
			return fray.Errorf(fray.ENOTFOUND, "no combatant %q", cmd.Actor)
		}
		if !tx.viewer.CanCommand(c.ID) {
			return fray.Errorf(fray.EFORBIDDEN, "you do not control %s", c.Name)
		}
		if c.Out {
			return fray.Errorf(fray.EILLEGAL, "%s is out of the fight", c.Name)
		}
	}
	if err := tx.rs.Decide(tx, cmd); err != nil {
		return err
	}
	return settle(tx)
}

func settle(tx *Tx) error {
	if s, ok := tx.rs.(Settler); ok && tx.Base().Status == StatusRunning {
		return s.Settle(tx)
	}
	return nil
}

func gmVerb(kind string) string {
	switch kind {
	case KindRewind:
		return "undo actions"
	case KindRevealEvent:
		return "reveal events"
	case KindReveal:
		return "reveal combatants"
	case KindAcceptDefaults:
		return "accept defaults"
	case KindRevealTimeout:
		return "settle answers not revealed"
	}
	return kind + " the encounter"
}

func decideGM(tx *Tx, cmd Command) error {
	b := tx.Base()
	switch cmd.Kind {
	case KindStart:
		if err := cmd.NoArgs(); err != nil {
			return err
		}
		if b.Status != StatusSetup {
			return fray.Errorf(fray.EILLEGAL, "the encounter has already started")
		}
		if err := tx.Emits(KindStarted, "", "The encounter begins.", tx.startedData()); err != nil {
			return err
		}
		return tx.rs.Start(tx)
	case KindPause:
		if err := cmd.NoArgs(); err != nil {
			return err
		}
		if b.Status != StatusRunning {
			return fray.Errorf(fray.EILLEGAL, "only a running encounter can be paused")
		}
		text := "The GM pauses the encounter."
		if tx.viewer.Agent == AgentFallback {
			text = "Time ran out: the encounter pauses for the GM."
		}
		return tx.Emits(KindPaused, "", text, nil)
	case KindResume:
		if err := cmd.NoArgs(); err != nil {
			return err
		}
		if b.Status != StatusPaused {
			return fray.Errorf(fray.EILLEGAL, "the encounter is not paused")
		}
		return tx.Emits(KindResumed, "", "The GM resumes the encounter.", nil)
	case KindReveal:
		var args struct {
			Combatant string `json:"combatant"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		c := b.Combatant(args.Combatant)
		if c == nil {
			return fray.Errorf(fray.EILLEGAL, "no hidden combatant %q", args.Combatant)
		}
		if !c.Hidden {
			return fray.Errorf(fray.EILLEGAL, "%s is not hidden: everyone sees them already", c.Name)
		}
		ev := NewEvent(KindRevealed, "", c.Name+" is revealed.", Revealed{Combatant: c.ID})
		return tx.Emit(ev.With(c.ID))
	case KindEnd:
		var args struct {
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
		return tx.End(Outcome{Winner: args.Winner, Summary: args.Summary})
	case KindRewind:
		return decideRewind(tx, cmd)
	case KindRevealEvent:
		return decideRevealEvent(tx, cmd)
	case KindAcceptDefaults:
		if b.Status != StatusRunning {
			return fray.Errorf(fray.EILLEGAL, "the encounter is not running")
		}
		return decideAcceptDefaults(tx, cmd)
	case KindRevealTimeout:
		return decideRevealTimeout(tx, cmd)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

// Refusal is why the rules would refuse cmd from viewer in st now, in the
// words a refusal gives the player ("it is not Ana's turn", "Rat is out of
// range: the knife reaches 50 ft"), or nil when they would take it. It
// decides cmd on a clone, with dice no one keeps, and keeps nothing: a page
// asks it why a target or a form from a page the table has moved past is
// not taken, so the page says what the API's error would.
func Refusal(rs Ruleset, st State, viewer Viewer, cmd Command) error {
	_, _, err := Decide(rs, st, viewer, "refusal", cmd, dice.NewRoller(dice.NewSeeded(1)))
	return err
}
