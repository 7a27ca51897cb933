package swzones

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
)

// The turn cycle: a round deals action cards (initiative.go) and fighters
// act from the highest card down. A turn starts with 2 Movement points and
// no actions taken, and a Shaken fighter's recovery roll; it ends with
// "end-turn" (or when the fighter is taken out). After the last card, a new
// round is dealt. When only one side has fighters left, the encounter ends.

// TurnEnded is the data of a turn-ended event.
type TurnEnded struct {
	Fighter string `json:"fighter"`
}

// newRound deals a round and starts its first turn.
func newRound(tx *engine.Tx) error {
	if err := dealRound(tx); err != nil {
		return err
	}
	return advance(tx)
}

// advance starts the next turn of the round, or a new round after the last.
func advance(tx *engine.Tx) error {
	next := engine.NextTurn(tx.Base())
	if next < 0 {
		return newRound(tx)
	}
	return startTurn(tx, next)
}

// startTurn opens turn i of the round's order and rolls Shaken recovery.
func startTurn(tx *engine.Tx, i int) error {
	st := state(tx)
	id := st.Order[i]
	f := st.Fighters[id]
	text := fmt.Sprintf("%s's turn.", st.name(id))
	if f.Card != "" {
		text = fmt.Sprintf("%s's turn (%s).", st.name(id), f.Card)
	}
	if err := tx.Emits(engine.KindTurnStarted, id, text, engine.TurnStarted{Combatant: id, Turn: i}); err != nil {
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
func applyTurnStarted(st *State, id string) {
	for fid, f := range st.Fighters {
		f.Actions, f.Declared, f.RecoveryPenalty, f.MP = 0, 0, 0, 0
		if fid == id {
			f.MP = MovementPerTurn
			f.Defend = 0
		}
	}
}

func decideEndTurn(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind  string `json:"kind"`
		Actor string `json:"actor"`
	}
	f, err := actor(tx, cmd, &args)
	if err != nil {
		return err
	}
	if err := tx.Emits(KindTurnEnded, f.ID, state(tx).name(f.ID)+" ends the turn.", TurnEnded{Fighter: f.ID}); err != nil {
		return err
	}
	return advance(tx)
}

// settle runs after every command: it ends the encounter when one side (or
// none) is left, and moves on when the fighter whose turn it was is out.
func settle(tx *engine.Tx) error {
	b := tx.Base()
	if b.Status != engine.StatusRunning {
		return nil
	}
	if sides := b.Fighting(); len(sides) <= 1 {
		o := engine.Outcome{Summary: "No one is left standing."}
		if len(sides) == 1 {
			o.Winner = sides[0]
			o.Summary = fmt.Sprintf("%s are the last side standing.", b.Side(sides[0]).Name)
			if out := outList(b, sides[0]); out != "" {
				o.Summary += " Out of the fight: " + out + "."
			}
		}
		return engine.End(tx, o)
	}
	if cur := b.Current(); cur != "" && b.Combatant(cur).Out {
		return advance(tx)
	}
	return nil
}

// outList names the fighters not on side who are out (hidden ones stay
// unnamed).
func outList(b *engine.Base, side string) string {
	var names []string
	for _, c := range b.Combatants {
		if c.Side != side && c.Out && !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}
