package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The turn cycle: a round deals action cards (initiative.go) and fighters
// act from the highest card down. A turn starts with 2 Movement points and
// no actions taken, and a Shaken fighter's recovery roll; it ends with
// "end-turn" (or "hold", or when the fighter is taken out). Fighters on Hold
// are skipped: they act by interrupting (hold.go). After the last card, a
// new round is dealt and every Bleeding Out fighter rolls Vigor. When only
// one side has fighters left, the encounter ends.

// TurnEnded is the data of a turn-ended event.
type TurnEnded = kit.TurnEnded

// newRound deals a round, rolls for the Bleeding Out and starts the first
// turn. If everyone left is on Hold, they all lose it and are dealt in.
func newRound(tx *Tx) error {
	st := tx.State
	holding, standing := 0, 0
	for _, c := range st.Combatants {
		if !c.Out {
			standing++
			if st.Fighters[c.ID].Hold {
				holding++
			}
		}
	}
	if holding > 0 && holding == standing {
		for _, c := range st.Combatants {
			if !c.Out && st.Fighters[c.ID].Hold {
				if err := tx.Emits(KindHoldLost, c.ID, c.Name+" stops holding: everyone is holding.", HoldLost{Fighter: c.ID, Reason: "everyone is holding"}); err != nil {
					return err
				}
			}
		}
	}
	if err := dealRound(tx); err != nil {
		return err
	}
	if err := bleedOut(tx); err != nil {
		return err
	}
	return advance(tx)
}

// advance ends an interruption, or starts the next turn of the round, or a
// new round after the last.
func advance(tx *Tx) error {
	st := tx.State
	if st.Interrupted() {
		return endInterrupt(tx)
	}
	next := engine.NextTurn(&st.Base, st.holding)
	if next < 0 {
		return newRound(tx)
	}
	return startTurn(tx, next)
}

// holding reports whether fighter id is on Hold: its turns are skipped,
// it acts by interrupting.
func (s *State) holding(id string) bool { return s.Fighters[id].Hold }

// startTurn opens turn i of the round's order and rolls Shaken recovery.
func startTurn(tx *Tx, i int) error {
	st := tx.State
	id := st.Order[i]
	f := st.Fighters[id]
	text := fmt.Sprintf("%s's turn.", st.NameOf(id))
	if f.Card != "" {
		text = fmt.Sprintf("%s's turn (%s).", st.NameOf(id), f.Card)
	}
	if err := tx.StartTurn(i, text); err != nil {
		return err
	}
	if f.Shaken {
		return recoverShaken(tx, f)
	}
	return nil
}

// applyTurnStarted resets the turn ledger: the fighter whose turn it is gets
// their Movement, and their Defend from last turn lapses; everyone else's
// ledger is cleared so that nothing of a turn carries into another's.
func applyTurnStarted(st *State, d engine.TurnStarted) error {
	id := d.Combatant
	for fid, f := range st.Fighters {
		f.resetLedger(0)
		if fid == id {
			f.MP = MovementPerTurn
			f.Defend = 0
		}
	}
	return nil
}

func applyTurnEnded(st *State, d TurnEnded) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Drop = "" // The Drop lasts until the end of the fighter's turn
	return nil
}

// settle runs after every command and answer (engine.Settler): it ends the encounter when one side (or none) is left, and,
// unless a decision is pending, moves on when the fighter whose turn it
// was is out.
func settle(tx *Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	b := tx.Base()
	if b.Waiting() {
		return nil
	}
	if cur := b.Current(); cur != "" && b.Combatant(cur).Out {
		return advance(tx)
	}
	return nil
}
