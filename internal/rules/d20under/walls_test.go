package d20under

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// walledSetup is a 10 × 3 grid split by a wall between columns E and F
// (x 4 and 5), with a closed door in it between E2 and F2; specs stand
// where they say.
func walledSetup(t *testing.T, specs ...spec) engine.Setup {
	t.Helper()
	s := gridSetup(noCrit, 10, 3, nil, specs...)
	var bf map[string]any
	if err := json.Unmarshal(s.Battlefield, &bf); err != nil {
		t.Fatal(err)
	}
	bf["edges"] = []map[string]any{
		{"x": 5, "y": 0, "side": "w"},
		{"x": 5, "y": 1, "side": "w", "kind": "door"},
		{"x": 4, "y": 2, "side": "e"},
	}
	s.Battlefield = mustJSON(bf)
	return s
}

func openDoor(id string) engine.Command {
	return engine.NewCommand(engine.KindOpenDoor, "", map[string]any{"door": id})
}

// TestWallsBetweenSquares: the wall between squares stops a move and a
// shot, and neighbours on either side of it are not engaged; the GM opens
// the door and both go through.
func TestWallsBetweenSquares(t *testing.T) {
	st := begin(t, newState(t, walledSetup(t,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "orc", Side: "foes", X: 8, Y: 1},
	)))
	msg := fail(t, st, gm, cmd(CmdMove, "ana", "to", "5,1"), fray.EILLEGAL)
	if !strings.Contains(msg, "F2") {
		t.Errorf("move refused with %q", msg)
	}
	for _, a := range engine.Project(New(), st, gm).Actions {
		for _, f := range a.Fields {
			for _, o := range f.Options {
				if c, ok := parseCell(o.Value); ok && f.Place && a.Actor == "ana" && c.X >= 5 {
					t.Errorf("%s to %s offered through the wall", a.Kind, o.Value)
				}
			}
		}
	}
	msg = fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL)
	if !strings.Contains(msg, "line of sight") {
		t.Errorf("shot refused with %q", msg)
	}

	_, open := do(t, st, gm, openDoor("5,1,w"))
	do(t, open, gm, cmd(CmdShoot, "ana", "target", "orc"), 20)
	_, moved := do(t, open, gm, cmd(CmdMove, "ana", "to", "5,1"))
	eq(t, "through the door", Cell{moved.Fighters["ana"].X, moved.Fighters["ana"].Y}, Cell{5, 1})

	// Neighbours across the closed door are not engaged; through the open
	// door they are.
	st = begin(t, newState(t, walledSetup(t,
		spec{ID: "ana", Side: "heroes", PC: true, X: 4, Y: 1},
		spec{ID: "orc", Side: "foes", X: 5, Y: 1},
	)))
	if st.inMelee("ana", "orc") {
		t.Error("engaged through a closed door")
	}
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), fray.EILLEGAL)
	if _, open = do(t, st, gm, openDoor("5,1,w")); !open.inMelee("ana", "orc") {
		t.Error("not engaged through the open door")
	}
}

// TestWallsNeedAGrid: walls between squares on distance categories, or
// off the grid, are refused with the reason.
func TestWallsNeedAGrid(t *testing.T) {
	ladder := ladderSetup(noCrit, "short", spec{ID: "ana", Side: "heroes", PC: true}, spec{ID: "orc", Side: "foes"})
	var bf map[string]any
	if err := json.Unmarshal(ladder.Battlefield, &bf); err != nil {
		t.Fatal(err)
	}
	bf["edges"] = []map[string]any{{"x": 1, "y": 0, "side": "w"}}
	ladder.Battlefield = mustJSON(bf)
	grid := walledSetup(t, spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1}, spec{ID: "orc", Side: "foes", X: 8, Y: 1})
	grid.Battlefield = mustJSON(map[string]any{"model": "grid", "width": 10, "height": 3, "edges": []map[string]any{{"x": 10, "y": 0, "side": "e"}}})
	for _, tc := range []struct {
		setup engine.Setup
		want  string
	}{
		{ladder, `battlefield: walls between squares (edges) need a grid, not "ladder"`},
		{grid, "battlefield: the edge at 10,0 e is off the 10 × 3 grid"},
	} {
		_, err := engine.NewEncounter(New(), "e1", tc.setup)
		if err == nil || fray.ErrorMessage(err) != tc.want {
			t.Errorf("NewEncounter = %v, want %q", err, tc.want)
		}
	}
}
