package swzones

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Hold and interrupt (the base game's Hold, and the seed's "holding your
// action to interrupt his movement"):
//   - hold: at the start of their turn (before moving or acting) a fighter
//     goes on Hold and the turn passes. The Hold lasts until used, across
//     rounds: a fighter still on Hold when a round begins is not dealt a
//     card. Being Shaken, or out, ends it. If every fighter left is on Hold
//     when a round begins, all lose it and are dealt in.
//   - interrupt: between any two commands, a fighter on Hold may act at
//     once: they take a whole turn (2 MP, actions), then the interrupted
//     turn carries on where it stopped.
//   - every Movement step (crossing a border, engaging, disengaging) first
//     asks each opponent on Hold whether to interrupt it (interrupt-windows).
//     If they do, both roll Agility and the higher goes first, ties to the
//     holder (interrupt-contest): the holder first means the step waits for
//     the end of the interruption and is checked again then — a mover the
//     holder engaged meanwhile is blocked; the mover first means the step
//     happens, then the holder acts.
// Interruptions do not nest: no one may interrupt an interruption.

// Interruption is a holder's turn taken in the middle of another's.
type Interruption struct {
	Holder      string `json:"holder"`
	Interrupted string `json:"interrupted"`
	Resume      int    `json:"resume"`            // the Order index of the interrupted turn
	Pending     []Step `json:"pending,omitempty"` // work waiting for the interruption to end
}

// Held is the data of a held event.
type Held struct {
	Fighter string `json:"fighter"`
}

// HoldLost is the data of a hold-lost event.
type HoldLost struct {
	Fighter string `json:"fighter"`
	Reason  string `json:"reason"`
}

// InterruptStarted is the data of an interrupt event.
type InterruptStarted struct {
	Holder      string `json:"holder"`
	Interrupted string `json:"interrupted"`
	Resume      int    `json:"resume"`
	Turn        int    `json:"turn"` // the holder's index in the order
	Pending     []Step `json:"pending,omitempty"`
}

// InterruptEnded is the data of an interrupt-ended event.
type InterruptEnded struct {
	Holder string `json:"holder"`
	Resume int    `json:"resume"`
}

// Contest is the data of an interrupt-contest event: opposed Agility.
type Contest struct {
	Holder      string `json:"holder"`
	Mover       string `json:"mover"`
	HolderTotal int    `json:"holderTotal"`
	MoverTotal  int    `json:"moverTotal"`
	HolderFirst bool   `json:"holderFirst"`
}

func decideHold(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind  string `json:"kind"`
		Actor string `json:"actor"`
	}
	f, err := actor(tx, cmd, &args)
	if err != nil {
		return err
	}
	st := state(tx)
	if err := canHold(st, f); err != nil {
		return err
	}
	text := fmt.Sprintf("%s holds their action (may interrupt at any moment).", st.name(f.ID))
	if err := tx.Emits(KindHeld, f.ID, text, Held{Fighter: f.ID}); err != nil {
		return err
	}
	return advance(tx)
}

func canHold(st *State, f *Fighter) error {
	switch {
	case st.Interrupt != nil:
		return fray.Errorf(fray.EILLEGAL, "an interruption cannot be held")
	case f.Shaken:
		return fray.Errorf(fray.EILLEGAL, "%s is Shaken and cannot hold", st.name(f.ID))
	case f.Spent > 0 || f.Actions > 0 || f.Ran || f.Defend > 0:
		return fray.Errorf(fray.EILLEGAL, "Hold is chosen at the start of the turn, before moving or acting")
	}
	return nil
}

func decideInterrupt(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind  string `json:"kind"`
		Actor string `json:"actor"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := state(tx)
	f := st.Fighters[cmd.Actor]
	if f == nil {
		return fray.Errorf(fray.ENOTFOUND, "no fighter %q", cmd.Actor)
	}
	if err := canInterrupt(st, f); err != nil {
		return err
	}
	return startInterrupt(tx, f.ID, nil)
}

func canInterrupt(st *State, f *Fighter) error {
	switch {
	case !f.Hold:
		return fray.Errorf(fray.EILLEGAL, "%s is not on Hold", st.name(f.ID))
	case f.Shaken:
		return fray.Errorf(fray.EILLEGAL, "%s is Shaken", st.name(f.ID))
	case st.Interrupt != nil:
		return fray.Errorf(fray.EILLEGAL, "%s is already interrupting: wait for the end of it", st.name(st.Interrupt.Holder))
	case st.Current() == "":
		return fray.Errorf(fray.EILLEGAL, "there is no turn to interrupt")
	}
	return nil
}

func startInterrupt(tx *engine.Tx, holder string, pending []Step) error {
	st := state(tx)
	cur := st.Current()
	text := fmt.Sprintf("%s acts on their held action, interrupting %s's turn.", st.name(holder), st.name(cur))
	return tx.Emits(KindInterrupt, holder, text, InterruptStarted{Holder: holder, Interrupted: cur, Resume: st.Turn,
		Turn: slices.Index(st.Order, holder), Pending: pending})
}

// endInterrupt returns to the interrupted turn and carries on with the work
// that waited (the interrupted Movement step).
func endInterrupt(tx *engine.Tx) error {
	st := state(tx)
	ir := *st.Interrupt
	text := fmt.Sprintf("%s's interruption is over: back to %s's turn.", st.name(ir.Holder), st.name(ir.Interrupted))
	if err := tx.Emits(KindInterruptEnded, ir.Holder, text, InterruptEnded{Holder: ir.Holder, Resume: ir.Resume}); err != nil {
		return err
	}
	if waiting, err := runSteps(tx, ir.Pending, nil); err != nil || waiting {
		return err
	}
	if cur := st.Current(); cur != "" && st.Combatant(cur).Out {
		return advance(tx)
	}
	return nil
}

// nextHolder is the next opponent on Hold to ask about step s, or "".
func nextHolder(st *State, s mpStep) string {
	if st.Interrupt != nil || opt(&st.Base, OptInterruptWindows) != On {
		return ""
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if c.Out || !f.Hold || f.Shaken || !st.opponents(c.ID, s.Fighter) || slices.Contains(s.Asked, c.ID) {
			continue
		}
		if mover := st.Combatant(s.Fighter); mover.Hidden && c.Side != mover.Side {
			continue // an unseen mover cannot be interrupted
		}
		return c.ID
	}
	return ""
}

// windowCtx is an interrupt window: a holder deciding about a step.
type windowCtx struct {
	Holder string `json:"holder"`
	Step   mpStep `json:"step"`
}

func openWindow(tx *engine.Tx, holder string, s mpStep, rest []Step) error {
	st := state(tx)
	mover := st.shown(s.Fighter)
	var prompt string
	switch s.Kind {
	case CmdMove:
		prompt = fmt.Sprintf("Interrupt %s leaving %s for %s?", mover, st.zone(st.Fighters[s.Fighter].Zone).Name, st.zone(s.To).Name)
	case CmdEngage:
		prompt = fmt.Sprintf("Interrupt %s before they engage %s?", mover, st.name(s.Target))
	default:
		prompt = fmt.Sprintf("Interrupt %s before they disengage from their melee?", mover)
	}
	return ask(tx, engine.Decision{For: holder, Kind: DecInterrupt, Prompt: prompt, Default: "pass",
		Options: yesNo("interrupt", "Interrupt", "pass", "Let them")}, Cont{Window: &windowCtx{Holder: holder, Step: s}, Then: rest})
}

func answerWindow(tx *engine.Tx, c Cont, choice string) (bool, error) {
	w := *c.Window
	st := state(tx)
	h := st.Fighters[w.Holder]
	if choice != "interrupt" || canInterrupt(st, h) != nil {
		return runMPStep(tx, w.Step, c.Then)
	}
	holderFirst := true
	if opt(&st.Base, OptInterruptContest) == ContestAgility {
		m := st.Fighters[w.Step.Fighter]
		ho := rollTrait(tx.Dice, check(h, "agility", TargetNumber))
		mo := rollTrait(tx.Dice, check(m, "agility", TargetNumber))
		holderFirst = ho.Total >= mo.Total
		first := st.name(h.ID)
		if !holderFirst {
			first = st.name(m.ID)
		}
		text := fmt.Sprintf("Who acts first: %s Agility %d, %s Agility %d — %s.", st.name(h.ID), ho.Total, st.name(m.ID), mo.Total, first)
		if err := tx.Emits(KindContest, h.ID, text, Contest{Holder: h.ID, Mover: m.ID, HolderTotal: ho.Total, MoverTotal: mo.Total,
			HolderFirst: holderFirst}, ho.Roll, mo.Roll); err != nil {
			return false, err
		}
	}
	if holderFirst {
		return true, startInterrupt(tx, h.ID, append([]Step{{MP: &w.Step}}, c.Then...))
	}
	step := w.Step
	step.NoAsk = true
	_, err := runSteps(tx, []Step{{MP: &step}, {Interrupt: &interruptStep{Holder: h.ID, Pending: c.Then}}}, nil)
	return true, err
}

// interruptStep starts a holder's interruption once the step they lost
// the race to is done.
type interruptStep struct {
	Holder  string `json:"holder"`
	Pending []Step `json:"pending,omitempty"`
}

func runInterruptStep(tx *engine.Tx, s interruptStep, rest []Step) (bool, error) {
	st := state(tx)
	h := st.Fighters[s.Holder]
	if st.Combatant(h.ID).Out || canInterrupt(st, h) != nil {
		return runSteps(tx, s.Pending, rest)
	}
	return true, startInterrupt(tx, h.ID, append(append([]Step(nil), s.Pending...), rest...))
}

func applyHeld(st *State, d Held) error {
	f, err := st.fighter(d.Fighter)
	if err != nil {
		return err
	}
	f.Hold = true
	return nil
}

func applyHoldLost(st *State, d HoldLost) error {
	f, err := st.fighter(d.Fighter)
	if err != nil {
		return err
	}
	f.Hold = false
	return nil
}

func applyInterrupt(st *State, d InterruptStarted) error {
	h, err := st.fighter(d.Holder)
	if err != nil {
		return err
	}
	if d.Turn < 0 || d.Turn >= len(st.Order) {
		return fmt.Errorf("sw-zones: %s is not in the order", d.Holder)
	}
	st.Interrupt = &Interruption{Holder: d.Holder, Interrupted: d.Interrupted, Resume: d.Resume, Pending: d.Pending}
	st.Turn = d.Turn
	h.Hold = false
	h.resetLedger(MovementPerTurn)
	h.Defend = 0
	return nil
}

func applyInterruptEnded(st *State, d InterruptEnded) error {
	h, err := st.fighter(d.Holder)
	if err != nil {
		return err
	}
	st.Turn = d.Resume
	st.Interrupt = nil
	h.resetLedger(0)
	h.Drop = ""
	return nil
}
