package d20under

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The turn cycle (spec b: Turn). A combatant's turn gives one combat
// action and one movement action; the combat action can be traded for a
// second movement action, never the reverse. A turn ends with end-turn,
// which also declares the next round's plan. What happens at the start of
// a turn: a dying character's death test (its only action), the
// unconscious and the winded lose the turn, Corruption that reached the
// character's Resolute makes it an abomination, Regeneration heals,
// poison harms, a hold is kept or lost, a curse is kept up.

// applyTurnStarted gives the combatant whose turn it is its actions and
// clears everyone else's ledger.
func applyTurnStarted(st *State, id string) {
	for fid, f := range st.Fighters {
		f.Combat, f.Moves, f.Acted, f.KojTest, f.DownAtTurn, f.Moving = false, 0, false, 0, false, 0
		if fid != id {
			continue
		}
		f.Combat, f.Moves = true, 1
		if c := st.Combatant(id); c != nil {
			f.DownAtTurn = c.Down
		}
		if kit.Opt(&st.Base, OptStanceDuration) == StanceNextTurn {
			f.FullDefence, f.FullOffense = false, false
		}
	}
}

// advance starts the next turn, or the next round after the last; it
// stops when the fight is over.
func advance(tx *Tx) error {
	if done, err := finished(tx); done || err != nil {
		return err
	}
	i := engine.NextTurn(tx.Base(), nil)
	if i < 0 {
		return newRound(tx)
	}
	return startTurn(tx, i)
}

// finished ends the fight when at most one side is still fighting —
// after asking the GM whether there is time to search for arrows and
// bolts, when some were lost. It reports whether play should stop.
func finished(tx *Tx) (bool, error) {
	b := tx.Base()
	if b.Status != engine.StatusRunning {
		return true, nil
	}
	if len(b.Fighting()) > 1 {
		return false, nil
	}
	if b.Waiting() {
		return true, nil
	}
	st := tx.State
	if !st.ReclaimAsked && st.projectilesLost() {
		return true, askReclaim(tx)
	}
	_, err := tx.LastStanding()
	return true, err
}

// startTurn plays slot i of the order.
func startTurn(tx *Tx, i int) error {
	st := tx.State
	id := st.Order[i]
	text := st.NameOf(id) + "'s turn."
	if st.Combatant(id).Down && st.Fighters[id].Dying {
		text = st.NameOf(id) + "'s turn: a death test."
	}
	if err := tx.StartTurn(i, text); err != nil {
		return err
	}
	return turnBegins(tx, id)
}

// turnBegins carries out what happens at the start of id's turn.
func turnBegins(tx *Tx, id string) error {
	st := tx.State
	f := st.Fighters[id]
	c := st.Combatant(id)
	if c.Down {
		if f.Dying {
			return nil // the death test is the player's to roll
		}
		n := max(0, f.Unconscious-1)
		text := fmt.Sprintf("%s is unconscious and loses the turn.", st.NameOf(id))
		if err := note(tx, KindTurnLost, id, text, Note{Fighter: id, What: "unconscious", Value: n, Set: []Change{change.Unconscious.To(id, n)}}); err != nil {
			return err
		}
		if n == 0 && f.Toughness > 0 {
			if err := tx.GetUp(id, "awake", st.NameOf(id)+" comes to."); err != nil {
				return err
			}
		}
		return advance(tx)
	}
	if f.totalCorruption() >= f.Attributes[Resolute] && !f.IgnoreCorruption {
		text := fmt.Sprintf("%s's Corruption (%d) reaches its Resolute (%d): it is lost, an abomination.", st.NameOf(id), f.totalCorruption(), f.Attributes[Resolute])
		if err := note(tx, KindCorruption, id, text, Note{Fighter: id, What: "abomination", Set: []Change{change.Abomination.To(id, true)}}); err != nil {
			return err
		}
		if err := tx.TakeOut(id, "abomination", ""); err != nil {
			return err
		}
		return advance(tx)
	}
	if f.Winded > 0 {
		text := fmt.Sprintf("%s is winded and loses the turn.", st.NameOf(id))
		if err := note(tx, KindTurnLost, id, text, Note{Fighter: id, What: "winded", Set: []Change{change.Winded.To(id, f.Winded-1)}}); err != nil {
			return err
		}
		return advance(tx)
	}
	if err := regenerate(tx, f); err != nil {
		return err
	}
	if err := poisonTick(tx, f); err != nil {
		return err
	}
	if !st.fighting(id) {
		return advance(tx)
	}
	if f.Terrified {
		text := fmt.Sprintf("%s is terrified: no combat action this turn.", st.NameOf(id))
		if err := note(tx, KindTerrify, id, text, Note{Fighter: id, What: "shaken off", Set: []Change{change.Terrified.To(id, false), change.Combat.To(id, false)}}); err != nil {
			return err
		}
	}
	if f.Cursing != "" && f.Combat {
		text := fmt.Sprintf("%s keeps the curse on %s (the combat action).", st.NameOf(id), st.PublicNameOf(f.Cursing))
		if err := note(tx, KindCurse, id, text, Note{Fighter: id, Target: f.Cursing, What: "kept", Set: []Change{change.Combat.To(id, false)}}); err != nil {
			return err
		}
	}
	if f.Holding != "" {
		return keepHold(tx, f)
	}
	return nil
}

// settle (engine.Settler) ends the fight when one side is left;
// otherwise, unless a decision waits, move on when the combatant whose
// turn it is was taken out, or went down during its own turn.
func settle(tx *Tx) error {
	if done, err := finished(tx); done || err != nil {
		return err
	}
	st := tx.State
	if st.Waiting() || st.Phase != "" {
		return nil
	}
	cur := st.Current()
	if cur == "" {
		return nil
	}
	if c := st.Combatant(cur); c.Out || (c.Down && !st.Fighters[cur].DownAtTurn) {
		return advance(tx)
	}
	return nil
}

func decideEndTurn(tx *Tx, cmd engine.Command) error {
	var args struct {
		Next string `json:"next"`
	}
	switch tx.State.Phase {
	case PhaseDeclare:
		// Before the first round, ending one's turn is being ready, with
		// the plan it names.
		if _, err := declarer(tx, cmd, &args); err != nil {
			return err
		}
		return endDeclaring(tx, cmd.Actor, args.Next)
	case PhaseSurprise:
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		return decideSurprisePass(tx, engine.Command{Kind: CmdSurprisePass, Actor: cmd.Actor})
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	plan, text := "", st.NameOf(f.ID)+" ends the turn."
	switch {
	case args.Next == "" || args.Next == "normal":
	case args.Next == PlanTakeInit:
		plan, text = PlanTakeInit, st.NameOf(f.ID)+" ends the turn, to take the initiative next round."
	case strings.HasPrefix(args.Next, PlanQuickStrike+":"):
		pay := strings.TrimPrefix(args.Next, PlanQuickStrike+":")
		if err := st.canPay(f.ID, pay); err != nil {
			return err
		}
		plan, text = args.Next, st.NameOf(f.ID)+" ends the turn, to strike quickly next round."
	default:
		return fray.Errorf(fray.EINVALID, "next round: %q is not a plan (normal, %s, %s:xp, %s:corruption)", args.Next, PlanTakeInit, PlanQuickStrike, PlanQuickStrike)
	}
	if err := note(tx, KindTurnEnded, f.ID, text, Note{Fighter: f.ID, What: plan, Set: []Change{change.Plan.To(f.ID, plan)}}); err != nil {
		return err
	}
	return advance(tx)
}

// nextChoices are the plans end-turn offers.
func (s *State) nextChoices(id string) []engine.Choice {
	out := []engine.Choice{{Value: "normal", Label: "Next round: my usual place"},
		{Value: PlanTakeInit, Label: "Next round: take the initiative (Resolute; +5, but a second chance to fail every test)"}}
	for _, p := range s.budget(id) {
		out = append(out, engine.Choice{Value: PlanQuickStrike + ":" + p, Label: "Next round: Quick Strike, act first (" + payLabel(p) + ")"})
	}
	return out
}

// DeathTarget is what a death test must roll under or equal (spec b).
const DeathTarget = 10

// DeathFailures is the failure that kills.
const DeathFailures = 3

// decideDeathTest rolls a dying character's death test: ≤ 10 passes, a 1
// wakes it with 1d4 Toughness, the third failure kills; then its turn
// ends.
func decideDeathTest(tx *Tx, cmd engine.Command) error {
	if err := cmd.NoArgs(); err != nil {
		return err
	}
	if err := engine.RequireTurn(tx.State, cmd.Actor); err != nil {
		return err
	}
	st := tx.State
	f := st.Fighters[cmd.Actor]
	if !st.Combatant(f.ID).Down || !f.Dying {
		return fray.Errorf(fray.EILLEGAL, "%s is not dying", st.NameOf(f.ID))
	}
	p := st.party(f.ID, "death test", DeathTarget, testOther, "")
	p.Mods = nil // a death test is a flat 10, not an attribute
	t := test{Label: "Death test", Roller: p}
	o := rollTest(tx, t)
	o.Roll.Label = "Death test"
	id := f.ID
	switch {
	case o.Face == 1:
		d := tx.Dice.Die(4)
		heal := d.Total()
		set := []Change{change.Dying.To(id, false), change.DeathFails.To(id, 0), change.Toughness.To(id, heal)}
		set = append(set, st.healedChanges(f, heal)...)
		text := fmt.Sprintf("%s rolls a 1 on the death test and wakes with %d Toughness.", st.NameOf(id), heal)
		heals := dice.Roll{Label: "Healing", Who: id, Dice: []dice.Die{d}, Total: heal}
		if err := note(tx, KindDeathTest, id, text, Note{Fighter: id, What: "woke", Value: heal, Set: set}, o.Roll, heals); err != nil {
			return err
		}
		if err := tx.GetUp(id, "woke", ""); err != nil {
			return err
		}
	case o.Pass:
		text := fmt.Sprintf("%s passes the death test (%d failed so far).", st.NameOf(id), f.DeathFails)
		if err := note(tx, KindDeathTest, id, text, Note{Fighter: id, What: "passed", Value: f.DeathFails}, o.Roll); err != nil {
			return err
		}
	default:
		if err := failDeathTest(tx, f, o.Roll); err != nil {
			return err
		}
	}
	if tx.Base().Current() == id {
		return advance(tx)
	}
	return nil
}

// failDeathTest counts a failure; the third kills.
func failDeathTest(tx *Tx, f *Fighter, rolls ...dice.Roll) error {
	st := tx.State
	n := f.DeathFails + 1
	id := f.ID
	if n >= DeathFailures {
		text := fmt.Sprintf("%s fails a third death test and dies.", st.NameOf(id))
		if err := note(tx, KindDeathTest, id, text, Note{Fighter: id, What: "died", Value: n, Set: []Change{change.DeathFails.To(id, n), change.Dying.To(id, false)}}, rolls...); err != nil {
			return err
		}
		return tx.TakeOut(id, "dead", "")
	}
	text := fmt.Sprintf("%s fails a death test (%d of %d).", st.NameOf(id), n, DeathFailures)
	return note(tx, KindDeathTest, id, text, Note{Fighter: id, What: "failed", Value: n, Set: []Change{change.DeathFails.To(id, n)}}, rolls...)
}
