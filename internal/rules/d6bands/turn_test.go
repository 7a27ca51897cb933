package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Initiative: 1d6 + Initiative, highest first; ties by Initiative, then
// the setup's order. Three actions a turn.
func TestInitiative(t *testing.T) {
	st := newState(t, newSetup(nil, grid(4, 4),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, Init: 10},
		spec{ID: "bram", Side: "heroes", X: 0, Y: 1, Init: 12},
		spec{ID: "orc", Side: "foes", X: 3, Y: 3, Init: 10},
		spec{ID: "gob", Side: "foes", X: 3, Y: 2, Init: 8},
	))
	// ana 10+5 = 15, bram 12+1 = 13, orc 10+5 = 15, gob 8+6 = 14.
	events, st := do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 1, 5, 6)
	var ini Initiative
	ev := decodeOne(t, events, KindInitiative, &ini)
	eq(t, "rolls", len(ev.Rolls), 4)
	eq(t, "ana", ini.Totals["ana"], 15)
	eq(t, "order", st.Order[0]+" "+st.Order[1]+" "+st.Order[2]+" "+st.Order[3], "ana orc gob bram")
	eq(t, "actions", st.Fighters["ana"].Actions, 3)
	eq(t, "others wait", st.Fighters["orc"].Actions, 0)
	// "once": the second round keeps the order, no dice.
	st = newState(t, newSetup(map[string]string{OptInitiative: InitOnce}, grid(4, 4),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, Init: 10},
		spec{ID: "orc", Side: "foes", X: 3, Y: 3, Init: 10},
	))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 1, 6)
	eq(t, "first", st.Current(), "orc")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	eq(t, "round 2, no dice, same order", st.Current(), "orc")
	eq(t, "round", st.Round, 2)
}

// The turn ends by itself when no action is left; end-turn gives the
// rest up; actions per round is an option.
func TestTurnActions(t *testing.T) {
	st := duelists(t, map[string]string{OptActions: "2"}, point{3, 3}, false)
	eq(t, "two actions", st.Fighters["ana"].Actions, 2)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"))
	events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "2,2"))
	eq(t, "turn ended", len(find(events, KindTurnEnded)), 1)
	eq(t, "orc's turn", st.Current(), "orc")
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"), fray.ENOTYOURTURN)
	fail(t, st, engine.PlayerViewer("ana"), cmd(CmdEndTurn, "orc"), fray.EFORBIDDEN)
}
