package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// The skirmish most scenario tests use, on a 6×6 map of 30 m squares:
//   - ana, a PC hero at (0,0): Archery 14, Melee 13, a bow (2D+2, optimal
//     Close/Distant, reload 1) and a sword (2D+1);
//   - bram, a PC hero at (1,0), the same;
//   - orc1, a foe at (2,0), Distant from ana;
//   - orc2, a foe at (5,5), Very Far from ana.
//
// Initiatives 30, 20, 10 and 5 give the order ana, bram, orc1, orc2.
func skirmish(t *testing.T, opts map[string]string, cells ...cellAt) *State {
	t.Helper()
	return start(t, newState(t, skirmishSetup(opts, cells...)))
}

func skirmishSetup(opts map[string]string, cells ...cellAt) engine.Setup {
	return newSetup(opts, grid(6, 6, cells...),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
		spec{ID: "bram", Side: "heroes", X: 1, Y: 0, PC: true, Init: 20},
		spec{ID: "orc1", Side: "foes", X: 2, Y: 0, Init: 10},
		spec{ID: "orc2", Side: "foes", X: 5, Y: 5, Init: 5},
	)
}

// endTurns ends turns until it is id's turn (within the round).
func endTurns(t *testing.T, st *State, id string) *State {
	t.Helper()
	for st.Current() != id {
		_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
	}
	return st
}

// place moves a combatant with the GM's place command.
func place(t *testing.T, st *State, id string, x, y int) *State {
	t.Helper()
	_, st = do(t, st, gm, cmd(CmdPlace, "", "combatant", id, "x", x, "y", y))
	return st
}
