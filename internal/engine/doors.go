package engine

import (
	"encoding/json"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/fray"
)

// Walls between the squares of a grid, and the doors among them, are the
// engine's, not a ruleset's: every grid ruleset reads them (board.Walls
// answers its step and line-of-sight questions), and the GM opens and
// closes a door the same way whatever the ruleset. A door's state is part
// of the fight: a rewind brings back the doors as they stood.
const (
	// KindOpenDoor opens a closed door: {"kind":"open-door","door":"3,4,n"}
	// (the door's id, board.Edge.ID).
	KindOpenDoor = "open-door"
	// KindCloseDoor closes an open door: {"kind":"close-door","door":"3,4,n"}.
	KindCloseDoor = "close-door"

	// Their events, for everyone: a door is in plain sight.
	KindDoorOpened = "door-opened"
	KindDoorClosed = "door-closed"
)

// DoorSet is the data of KindDoorOpened and KindDoorClosed.
type DoorSet struct {
	Door string `json:"door"`
}

// newWalls reads the walls between squares of a setup's battlefield into
// b. A battlefield the ruleset cannot read is the ruleset's to refuse;
// edges on a board that is no grid are refused here.
func newWalls(rs Ruleset, b *Base, raw json.RawMessage) error {
	bf, err := board.Read(raw)
	if err != nil || len(bf.Edges) == 0 {
		return nil
	}
	model := bf.Model
	if bd, ok := rs.(Boarder); ok && model == "" {
		model = bd.Editor().Model
	}
	if model != board.Grid {
		return fray.Errorf(fray.EINVALID, "battlefield: walls between squares (edges) need a grid, not %q", model)
	}
	w, err := board.NewWalls(bf.Width, bf.Height, bf.Edges)
	if err != nil {
		return fray.Errorf(fray.EINVALID, "battlefield: %v", err)
	}
	b.Walls = w
	return nil
}

// decideDoor decides open-door and close-door.
func decideDoor(tx *Tx, cmd Command) error {
	b := tx.Base()
	var args struct {
		Door string `json:"door"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	d := b.Walls.Door(args.Door)
	if d == nil {
		return fray.Errorf(fray.ENOTFOUND, "there is no door %q on this board", args.Door)
	}
	open := cmd.Kind == KindOpenDoor
	if d.Open == open {
		if open {
			return fray.Errorf(fray.EILLEGAL, "the door %s is open already", d.Name())
		}
		return fray.Errorf(fray.EILLEGAL, "the door %s is closed already", d.Name())
	}
	if open {
		return tx.Emits(KindDoorOpened, "", "The GM opens the door "+d.Name()+".", DoorSet{Door: d.ID()})
	}
	return tx.Emits(KindDoorClosed, "", "The GM closes the door "+d.Name()+".", DoorSet{Door: d.ID()})
}

// applyDoor folds a door's event into b. The walls are replaced, not
// changed: a state copied before keeps its doors.
func applyDoor(b *Base, ev Event) error {
	var d DoorSet
	if err := ev.Decode(&d); err != nil {
		return err
	}
	if b.Walls == nil {
		return fray.Errorf(fray.EINVALID, "%s: there are no doors", ev.Kind)
	}
	w, ok := b.Walls.With(d.Door, ev.Kind == KindDoorOpened)
	if !ok {
		return fray.Errorf(fray.EINVALID, "%s: there is no door %q", ev.Kind, d.Door)
	}
	b.Walls = w
	return nil
}

// projectWalls puts the walls between squares on a grid board: everyone
// sees them, doors as they stand.
func projectWalls(b *Base, view *View) {
	if b.Walls != nil && view.Board != nil && view.Board.Grid != nil {
		view.Board.Grid.Edges = slices.Clone(b.Walls.Edges)
	}
}

// doorActions are the GM's door commands: open a closed door, close an
// open one.
func doorActions(b *Base) []Action {
	if b.Walls == nil || b.Status == StatusFinished {
		return nil
	}
	var closed, open []Choice
	for _, e := range b.Walls.Edges {
		if e.Kind != board.EdgeDoor {
			continue
		}
		c := Choice{Value: e.ID(), Label: e.Name()}
		if e.Open {
			open = append(open, c)
		} else {
			closed = append(closed, c)
		}
	}
	var out []Action
	if len(closed) > 0 {
		out = append(out, Action{Kind: KindOpenDoor, Label: "Open door", Help: "A door between two squares; an open door lets movement and sight through.",
			Fields: []Field{{Name: "door", Label: "Door", Type: FieldSelect, Options: closed}}})
	}
	if len(open) > 0 {
		out = append(out, Action{Kind: KindCloseDoor, Label: "Close door", Help: "A closed door blocks movement and sight.",
			Fields: []Field{{Name: "door", Label: "Door", Type: FieldSelect, Options: open}}})
	}
	return out
}
