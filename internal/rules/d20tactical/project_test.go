package d20tactical

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// TestProjection: the GM and a fighter's own player see its sheet; other
// players see its square, posture and state only.
func TestProjection(t *testing.T) {
	st := skirmishOn(t, nil, field(20, 10, sq(5, 5, "obstacle", "half", "label", "car", "material", 1), sq(6, 6, "wall", true)),
		stat(1, "armor", vest))
	own := engine.Project(New(), st, engine.PlayerViewer("ana")).Board
	ana, bo := tokenOf(own, "ana"), tokenOf(own, "bo")
	eq(t, "own sheet", ana.Sheet != nil, true)
	eq(t, "own hp", ana.Health.Value, 20)
	eq(t, "foe's sheet hidden", bo.Sheet == nil, true)
	eq(t, "foe's hp hidden", bo.Health == nil, true)
	eq(t, "foe's square", placeOf(own, "bo").X, 3)
	gmView := engine.Project(New(), st, gm).Board
	eq(t, "GM sees all", statOf(tokenOf(gmView, "bo"), "Defense"), "12")

	bd := engine.Project(New(), st, engine.PlayerViewer("ana")).Board
	eq(t, "model", bd.Model, "grid")
	eq(t, "scale", bd.Grid.Scale, "5 ft")
	eq(t, "cells", len(bd.Grid.Cells), 2)
	eq(t, "car", bd.Grid.Cells[0].Label, "car")
	eq(t, "wall blocks", bd.Grid.Cells[1].Blocks, true)
	eq(t, "places", len(bd.Grid.Places), 3)
	for _, tok := range bd.Tokens {
		switch tok.ID {
		case "ana":
			if tok.Health == nil || tok.Health.Value != 20 || !tok.Acting {
				t.Fatalf("ana's token: %+v", tok)
			}
		case "bo":
			if tok.Health != nil {
				t.Fatal("the player sees bo's hit points")
			}
		}
	}
	// Conditions: prone, flat-footed, a GM cover ruling.
	_, st = do(t, st, gm, cmd(CmdSetCover, "", "combatant", "bo", "percent", 40))
	bd = engine.Project(New(), st, engine.PlayerViewer("ana")).Board
	i := slices.IndexFunc(bd.Tokens, func(tok boardToken) bool { return tok.ID == "bo" })
	var ids []string
	for _, c := range bd.Tokens[i].Conditions {
		ids = append(ids, c.ID)
	}
	if !slices.Contains(ids, "flat-footed") || !slices.Contains(ids, "cover") {
		t.Fatalf("bo's conditions: %v", ids)
	}
	// A posture is the token's pose, drawn by its shape, and on the legend.
	if s := bd.Tokens[i].Pose; s != nil {
		t.Errorf("bo stands, yet shows %+v", s)
	}
	st.Fighters["bo"].Posture = Prone
	bd = engine.Project(New(), st, engine.PlayerViewer("ana")).Board
	if s := bd.Tokens[i].Pose; s == nil || s.ID != Prone || s.Shape != board.Flat || s.Icon.Glyph == "" {
		t.Errorf("a prone fighter's pose: %+v", s)
	}
	if !slices.Contains(bd.Legend, bd.Tokens[i].Pose.Icon) || !slices.Contains(bd.Legend, bd.Tokens[i].Conditions[0].Icon) {
		t.Errorf("legend %+v", bd.Legend)
	}
	if _, err := json.Marshal(engine.Project(New(), st, gm)); err != nil {
		t.Fatal(err)
	}
}
