package swzones

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
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
// Interruptions do not nest: no one may interrupt an interruption. A
// holder has no place in the round's order; an interruption is the core's
// (Tx.Interrupt), which gives the floor back when it ends.

// Held is the data of a held event.
type Held struct {
	Fighter string `json:"fighter"`
}

// HoldLost is the data of a hold-lost event.
type HoldLost struct {
	Fighter string `json:"fighter"`
	Reason  string `json:"reason"`
}

// Contest is the data of an interrupt-contest event: opposed Agility.
type Contest struct {
	Holder      string `json:"holder"`
	Mover       string `json:"mover"`
	HolderTotal int    `json:"holderTotal"`
	MoverTotal  int    `json:"moverTotal"`
	HolderFirst bool   `json:"holderFirst"`
}

func decideHold(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canHold(st, f); err != nil {
		return err
	}
	text := fmt.Sprintf("%s holds their action (may interrupt at any moment).", st.NameOf(f.ID))
	if err := tx.Emits(KindHeld, f.ID, text, Held{Fighter: f.ID}); err != nil {
		return err
	}
	return advance(tx)
}

func canHold(st *State, f *Fighter) error {
	switch {
	case st.Interrupted():
		return fray.Errorf(fray.EILLEGAL, "an interruption cannot be held")
	case f.Shaken:
		return fray.Errorf(fray.EILLEGAL, "%s is Shaken and cannot hold", st.NameOf(f.ID))
	case f.Spent > 0 || f.Actions > 0 || f.Ran || f.Defend > 0:
		return fray.Errorf(fray.EILLEGAL, "Hold is chosen at the start of the turn, before moving or acting")
	}
	return nil
}

func decideInterrupt(tx *Tx, cmd engine.Command) error {
	f, err := tx.Reactor(cmd, nil)
	if err != nil {
		return err
	}
	if err := canInterrupt(tx.State, f); err != nil {
		return err
	}
	return startInterrupt(tx, f.ID)
}

func canInterrupt(st *State, f *Fighter) error {
	switch {
	case !f.Hold:
		return fray.Errorf(fray.EILLEGAL, "%s is not on Hold", st.NameOf(f.ID))
	case f.Shaken:
		return fray.Errorf(fray.EILLEGAL, "%s is Shaken", st.NameOf(f.ID))
	case st.Interrupted():
		return fray.Errorf(fray.EILLEGAL, "%s is already interrupting: wait for the end of it", st.NameOf(st.Current()))
	case st.Current() == "":
		return fray.Errorf(fray.EILLEGAL, "there is no turn to interrupt")
	}
	return nil
}

// startInterrupt gives holder the floor; the work after the step being run
// (and then steps) waits for the end of it.
func startInterrupt(tx *Tx, holder string, then ...engine.Step) error {
	st := tx.State
	text := fmt.Sprintf("%s acts on their held action, interrupting %s's turn.", st.NameOf(holder), st.NameOf(st.Current()))
	return tx.Interrupt(holder, text, then...)
}

// endInterrupt returns to the interrupted turn; the core then carries on
// with the work that waited (the interrupted Movement step).
func endInterrupt(tx *Tx) error {
	st := tx.State
	holder := st.Current()
	back := st.Interrupts[len(st.Interrupts)-1].Acting
	who := "the turn"
	if len(back) > 0 {
		who = st.NameOf(back[0]) + "'s turn"
	}
	return tx.EndInterrupt(fmt.Sprintf("%s's interruption is over: back to %s.", st.NameOf(holder), who))
}

// nextHolder is the next opponent on Hold to ask about step s, or "".
func nextHolder(st *State, s mpStep) string {
	if st.Interrupted() || kit.Opt(&st.Base, OptInterruptWindows) != On {
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

func openWindow(tx *Tx, holder string, s mpStep) error {
	st := tx.State
	mover := st.PublicNameOf(s.Fighter)
	var prompt string
	switch s.Kind {
	case CmdMove:
		prompt = fmt.Sprintf("Interrupt %s leaving %s for %s?", mover, st.zone(st.Fighters[s.Fighter].Zone).Name, st.zone(s.To).Name)
	case CmdEngage:
		prompt = fmt.Sprintf("Interrupt %s before they engage %s?", mover, st.NameOf(s.Target))
	default:
		prompt = fmt.Sprintf("Interrupt %s before they disengage from their melee?", mover)
	}
	return tx.AskWith(engine.Decision{For: holder, Kind: DecInterrupt, Prompt: prompt, Default: "pass",
		Options: yesNo("interrupt", "Interrupt", "pass", "Let them")}, Cont{Window: &windowCtx{Holder: holder, Step: s}})
}

func answerWindow(tx *Tx, c Cont, ans engine.Answered) error {
	w := *c.Window
	st := tx.State
	h := st.Fighters[w.Holder]
	if ans.Choice != "interrupt" || canInterrupt(st, h) != nil {
		return runMPStep(tx, w.Step)
	}
	holderFirst := true
	if kit.Opt(&st.Base, OptInterruptContest) == ContestAgility {
		m := st.Fighters[w.Step.Fighter]
		ho := rollTrait(tx.Dice, check(h, "agility", TargetNumber))
		mo := rollTrait(tx.Dice, check(m, "agility", TargetNumber))
		holderFirst = ho.Total >= mo.Total
		first := st.NameOf(h.ID)
		if !holderFirst {
			first = st.NameOf(m.ID)
		}
		text := fmt.Sprintf("Who acts first: %s Agility %d, %s Agility %d — %s.", st.NameOf(h.ID), ho.Total, st.NameOf(m.ID), mo.Total, first)
		if err := tx.Emit(engine.NewEvent(KindContest, h.ID, text, Contest{Holder: h.ID, Mover: m.ID, HolderTotal: ho.Total, MoverTotal: mo.Total,
			HolderFirst: holderFirst}, ho.Roll, mo.Roll).With(m.ID)); err != nil {
			return err
		}
	}
	if holderFirst {
		return startInterrupt(tx, h.ID, engine.NewStep(stepMP, w.Step))
	}
	step := w.Step
	step.NoAsk = true
	return tx.Run(engine.NewStep(stepMP, step), engine.NewStep(stepInterrupt, interruptStep{Holder: h.ID}))
}

// interruptStep starts a holder's interruption once the step they lost
// the race to is done.
type interruptStep struct {
	Holder string `json:"holder"`
}

func runInterruptStep(tx *Tx, s interruptStep) error {
	st := tx.State
	h := st.Fighters[s.Holder]
	if st.Combatant(h.ID).Out || canInterrupt(st, h) != nil {
		return nil
	}
	return startInterrupt(tx, h.ID)
}

func applyHeld(st *State, d Held) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Hold = true
	return nil
}

func applyHoldLost(st *State, d HoldLost) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Hold = false
	return nil
}

// applyInterruptStarted gives the holder a fresh turn's ledger.
func applyInterruptStarted(st *State, holder string) error {
	h, err := kit.Found(st.Fighter(holder), holder)
	if err != nil {
		return err
	}
	h.Hold = false
	h.resetLedger(MovementPerTurn)
	h.Defend = 0
	return nil
}

// applyInterruptEnded closes the holder's borrowed turn.
func applyInterruptEnded(st *State, holder string) error {
	h, err := kit.Found(st.Fighter(holder), holder)
	if err != nil {
		return err
	}
	h.resetLedger(0)
	h.Drop = ""
	return nil
}
