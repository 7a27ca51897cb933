package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestWallsBetweenSquares: on a 6 × 3 map split by a wall between columns
// B and C with a closed door between B2 and C2, the wall stops a move, a
// dash and a shot; the GM opens the door and they go through.
func TestWallsBetweenSquares(t *testing.T) {
	bf := mustJSON(map[string]any{"width": 6, "height": 3, "edges": []map[string]any{
		{"x": 2, "y": 0, "side": "w"}, {"x": 2, "y": 1, "side": "w", "kind": "door"}, {"x": 1, "y": 2, "side": "e"},
	}})
	st := start(t, newState(t, newSetup(nil, bf,
		spec{ID: "ana", Side: "heroes", X: 1, Y: 1, PC: true, Init: 30},
		spec{ID: "orc", Side: "foes", X: 3, Y: 1, Init: 10},
	)))
	eq(t, "ana's turn", st.Current(), "ana")
	for _, a := range engine.Project(New(), st, gm).Actions {
		for _, f := range a.Fields {
			for _, o := range f.Options {
				if p, ok := parsePoint(o.Value); ok && a.Actor == "ana" && p.X >= 2 {
					t.Errorf("%s to %s offered through the wall", a.Kind, o.Value)
				}
			}
		}
	}
	eq(t, "move", fail(t, st, gm, cmd(CmdMove, "ana", "to", "2,1"), fray.EILLEGAL), "a wall stands between B2 and C2")
	eq(t, "diagonal move", fail(t, st, gm, cmd(CmdMove, "ana", "to", "2,0"), fray.EILLEGAL), "a wall stands between B2 and C1")
	eq(t, "dash", fail(t, st, gm, cmd(CmdDash, "ana", "to", "3,1"), fray.EILLEGAL), "no way to (3,1) without crossing impassable terrain or a wall")
	eq(t, "shot", fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow"), fray.EILLEGAL), "Ana has no line of sight to Orc")

	_, open := do(t, st, gm, engine.NewCommand(engine.KindOpenDoor, "", map[string]any{"door": "2,1,w"}))
	do(t, open, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow"), 4, 4, 4, 4)
	_, moved := do(t, open, gm, cmd(CmdMove, "ana", "to", "2,1"))
	eq(t, "through the door", moved.Fighters["ana"].at(), point{2, 1})
	// With the door open the diagonal B2→C1 goes round by C2.
	do(t, open, gm, cmd(CmdMove, "ana", "to", "2,0"))
}
