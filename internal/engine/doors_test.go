package engine_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func door(kind, id string) engine.Command {
	return engine.NewCommand(kind, "", map[string]any{"door": id})
}

// TestDoors: the GM alone opens and closes a door of the grid's walls
// between squares; each is an event, offered while it makes sense, and a
// rewind brings the door back as it stood.
func TestDoors(t *testing.T) {
	setup := enginetest.Setup()
	setup.Battlefield = json.RawMessage(`{"model":"grid","width":4,"height":4,"edges":[
		{"x":2,"y":1,"side":"w","kind":"door"},{"x":1,"y":1,"side":"n"}]}`)
	st, err := engine.NewEncounter(enginetest.Toy{}, "e1", setup)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, initial: []byte(snap(t, st)), st: st, after: map[int64]string{0: snap(t, st)}}
	gm := engine.GMViewer()
	offered := func(kind string) bool {
		return slices.ContainsFunc(engine.Project(enginetest.Toy{}, tb.st, gm).Actions, func(a engine.Action) bool { return a.Kind == kind })
	}
	isOpen := func() bool { return tb.st.Core().Walls.Door("2,1,w").Open }
	tb.do(gm, engine.NewCommand(engine.KindStart, "", nil))
	for _, tc := range []struct {
		v    engine.Viewer
		cmd  engine.Command
		code string
	}{
		{engine.PlayerViewer("hero"), door(engine.KindOpenDoor, "2,1,w"), fray.EFORBIDDEN},
		{gm, door(engine.KindOpenDoor, "1,1,n"), fray.ENOTFOUND}, // a wall
		{gm, door(engine.KindOpenDoor, "1,2,e"), fray.ENOTFOUND}, // ids name the west or north side
		{gm, door(engine.KindCloseDoor, "2,1,w"), fray.EILLEGAL},
		{gm, engine.NewCommand(engine.KindOpenDoor, "hero", map[string]any{"door": "2,1,w"}), fray.EINVALID},
	} {
		if err := tb.try(tc.v, tc.cmd); fray.ErrorCode(err) != tc.code {
			t.Errorf("%s %s: %v, want %s", tc.cmd.Kind, tc.cmd.Args, err, tc.code)
		}
	}
	if !offered(engine.KindOpenDoor) || offered(engine.KindCloseDoor) || isOpen() {
		t.Fatal("a closed door: open-door offered, close-door not")
	}
	tb.do(gm, door(engine.KindOpenDoor, "2,1,w"))
	if ev := tb.last(); ev.Kind != engine.KindDoorOpened || ev.Text != "The GM opens the door between B2 and C2." || !isOpen() {
		t.Fatalf("opened: %+v, open %v", ev, isOpen())
	}
	if offered(engine.KindOpenDoor) || !offered(engine.KindCloseDoor) {
		t.Fatal("an open door: close-door offered, open-door not")
	}
	tb.do(gm, rewind(1))
	if isOpen() {
		t.Fatal("the rewind left the door open")
	}
	tb.do(gm, door(engine.KindOpenDoor, "2,1,w"))
	tb.do(gm, door(engine.KindCloseDoor, "2,1,w"))
	if ev := tb.last(); ev.Kind != engine.KindDoorClosed || isOpen() {
		t.Fatalf("closed: %+v", ev)
	}
	// Edges belong on a grid.
	setup.Battlefield = json.RawMessage(`{"model":"zones","edges":[{"x":1,"y":1,"side":"n"}]}`)
	if _, err := engine.NewEncounter(enginetest.Toy{}, "e2", setup); err == nil || fray.ErrorMessage(err) != `battlefield: walls between squares (edges) need a grid, not "zones"` {
		t.Errorf("edges on zones: %v", err)
	}
}
