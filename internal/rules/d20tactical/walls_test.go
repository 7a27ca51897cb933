package d20tactical

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// walled is the skirmish on a 20 × 10 grid split by a wall between
// columns E and F (the west sides of column 5), with a closed door in it
// between E3 and F3: ana at 2,2 west of it, cy at 10,2 east of it, bo out
// of the way at 0,9.
func walled(t *testing.T, with ...func([]spec)) *State {
	t.Helper()
	var edges []map[string]any
	for y := range 10 {
		e := map[string]any{"x": 5, "y": y, "side": "w"}
		if y == 2 {
			e["kind"] = "door"
		}
		edges = append(edges, e)
	}
	bf := mustJSON(map[string]any{"width": 20, "height": 10, "edges": edges})
	return skirmishOn(t, nil, bf, append([]func([]spec){at(1, 0, 9)}, with...)...)
}

// offeredEast lists the squares east of the wall offered to ana in any
// action that places her.
func offeredEast(st *State) []string {
	var out []string
	for _, a := range engine.Project(New(), st, gm).Actions {
		if a.Actor != "ana" {
			continue
		}
		for _, f := range a.Fields {
			for _, o := range f.Options {
				if c, ok := parseCell(o.Value); ok && f.Place && c.X >= 5 {
					out = append(out, a.Kind+" "+o.Value)
				}
			}
		}
	}
	return out
}

// TestWallsBetweenSquares: a wall between squares stops a move and a shot;
// the GM opens the door in it, and both go through; closed again, they
// are stopped again. The moves offered never cross a closed wall.
func TestWallsBetweenSquares(t *testing.T) {
	st := walled(t)
	if got := offeredEast(st); len(got) > 0 {
		t.Fatalf("moves through the wall offered: %v", got)
	}
	msg := fail(t, st, gm, cmd(CmdMove, "ana", "to", "6,2"), "illegal")
	eq(t, "move refused", msg, "move: out of reach — G3 is beyond what this movement allows now, or no open path leads there")
	msg = fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), "illegal")
	if !strings.Contains(msg, "line of sight") {
		t.Fatalf("shot through the wall: %q", msg)
	}
	// Only the GM opens doors, and only doors.
	fail(t, st, engine.PlayerViewer("ana"), engine.NewCommand(engine.KindOpenDoor, "", map[string]any{"door": "5,2,w"}), "forbidden")
	fail(t, st, gm, engine.NewCommand(engine.KindOpenDoor, "", map[string]any{"door": "5,3,w"}), "not_found")
	fail(t, st, gm, engine.NewCommand(engine.KindCloseDoor, "", map[string]any{"door": "5,2,w"}), "illegal")
	if !offersDoor(st, engine.KindOpenDoor, "5,2,w") {
		t.Fatal("the GM is not offered to open the door")
	}

	events, open := do(t, st, gm, engine.NewCommand(engine.KindOpenDoor, "", map[string]any{"door": "5,2,w"}))
	eq(t, "event", len(find(events, engine.KindDoorOpened)), 1)
	eq(t, "text", find(events, engine.KindDoorOpened)[0].Text, "The GM opens the door between E3 and F3.")
	if len(offeredEast(open)) == 0 {
		t.Fatal("no move through the open door offered")
	}
	if !offersDoor(open, engine.KindCloseDoor, "5,2,w") || offersDoor(open, engine.KindOpenDoor, "5,2,w") {
		t.Fatal("the open door is not offered to close (or still to open)")
	}
	g := engine.Project(New(), open, engine.PlayerViewer("ana")).Board.Grid
	raw, _ := json.Marshal(g.Edges)
	if !strings.Contains(string(raw), `{"x":5,"y":2,"side":"w","kind":"door","open":true}`) {
		t.Fatalf("the player's board does not show the open door: %s", raw)
	}
	do(t, open, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 10, 3, 3)
	events, moved := do(t, open, gm, cmd(CmdMove, "ana", "to", "6,2"))
	eq(t, "through the door", movedTo(t, events).To.String(), "6,2")
	eq(t, "at", cell(moved.Fighters["ana"]).String(), "6,2")

	_, shut := do(t, open, gm, engine.NewCommand(engine.KindCloseDoor, "", map[string]any{"door": "5,2,w"}))
	fail(t, shut, gm, cmd(CmdMove, "ana", "to", "6,2"), "illegal")
	fail(t, shut, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), "illegal")
}

// TestNoThreatThroughAWall: an opponent threatens no square behind a wall
// between squares (no attack of opportunity through it).
func TestNoThreatThroughAWall(t *testing.T) {
	st := walled(t, at(1, 5, 5))
	bo := st.Fighters["bo"]
	bo.FlatFooted = false // as after bo's first turn
	threat := threatMap(st, st.Fighters["ana"])
	eq(t, "E6 behind the wall", threat[Cell{4, 5}], false)
	eq(t, "G6 on bo's side", threat[Cell{6, 5}], true)
	eq(t, "F5 on bo's side", threat[Cell{5, 4}], true)
	eq(t, "E6 out of reach", inReach(st, bo, Cell{4, 5}), false)
}

func offersDoor(st *State, kind, door string) bool {
	for _, a := range engine.Project(New(), st, gm).Actions {
		if a.Kind == kind && len(a.Fields) == 1 {
			for _, o := range a.Fields[0].Options {
				if o.Value == door {
					return true
				}
			}
		}
	}
	return false
}

// TestChargeThroughAWall: a straight charge goes through an open door but
// not through a window (which lets the charger see the target, not reach
// it) nor a closed door.
func TestChargeThroughAWall(t *testing.T) {
	// cy at 9,2: the square before it, 8,2, is exactly 30 ft from ana.
	charge := cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife")
	st := walled(t, at(2, 9, 2))
	fail(t, st, gm, charge, "illegal")
	_, open := do(t, st, gm, engine.NewCommand(engine.KindOpenDoor, "", map[string]any{"door": "5,2,w"}))
	events, _ := do(t, open, gm, charge, 6, 2)
	eq(t, "charged through the door", movedTo(t, events).To.String(), "8,2")

	bf := mustJSON(map[string]any{"width": 20, "height": 10, "edges": []map[string]any{{"x": 5, "y": 2, "side": "w", "kind": "window"}}})
	st = skirmishOn(t, nil, bf, at(1, 0, 9), at(2, 9, 2))
	if !st.sight(Cell{2, 2}, Cell{9, 2}) {
		t.Fatal("no sight through the window")
	}
	msg := fail(t, st, gm, charge, "illegal")
	if strings.Contains(msg, "line of sight") {
		t.Errorf("refused for sight: %q", msg)
	}
}
