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
func walled(t *testing.T) *State {
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
	return skirmishOn(t, nil, bf, at(1, 0, 9))
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
	eq(t, "text", find(events, engine.KindDoorOpened)[0].Text, "The GM opens the door E3|F3.")
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
