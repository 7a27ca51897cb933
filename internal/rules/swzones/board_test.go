package swzones

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

func tokenText(t board.Token) string {
	var parts []string
	if t.Health != nil {
		parts = append(parts, t.Health.Text)
	}
	for _, c := range t.Conditions {
		parts = append(parts, c.Label+" ("+c.Icon.Glyph+"): "+c.Text)
	}
	parts = append(parts, t.Tags...)
	return strings.Join(parts, "; ")
}

// TestBoard: the zones board carries the map (cover, borders, melees) and
// each fighter's public condition for everyone, the numbers and sheet only
// for the GM and the fighter's player, and no trace of a hidden fighter for
// the players.
func TestBoard(t *testing.T) {
	setup := skirmishSetup(nil)
	setup.Combatants = append(setup.Combatants, spec{ID: "spy", Side: "goblins", Zone: "z4", Hidden: true}.combatant())
	st := newState(t, setup)
	_, st = startWith(t, st, append(skirmishCards, "9♠"))
	st.Fighters["gob1"].Shaken = true
	st.Fighters["gob2"].Prone = true
	st.Fighters["lyra"].Hold = true
	st.Fighters["gob1"].Grip = &Grip{By: "brak", Level: "bound", Garrotte: true}
	st.Fighters["brak"].Drop = "gob2"
	st.Fighters["brak"].Wounds = 1

	player := New().(engine.Boarder).Board(st, engine.PlayerViewer("lyra"))
	if player.Model != board.Zones || player.Zones == nil || len(player.Zones.Areas) != 4 {
		t.Fatalf("board %+v", player)
	}
	if a := player.Zones.Areas[2]; a.Name != "Zone 3" || a.Shade != 1 || strings.Join(a.Features, ",") != "Light cover" {
		t.Errorf("zone 3 %+v", a)
	}
	if got := len(player.Zones.Links); got != 3 {
		t.Errorf("%d borders on a chain of four", got)
	}
	if g := player.Zones.Groups; len(g) != 1 || g[0].Area != "z1" || strings.Join(g[0].Members, " ") != "brak gob1 gob2" || g[0].Label != "Melee 1" {
		t.Errorf("melees %+v", g)
	}
	if player.Token("spy") != nil || len(player.Tokens) != 5 || len(player.Zones.Places) != 5 {
		t.Error("a hidden fighter reaches a player's board")
	}
	for id, want := range map[string]string{
		"brak": "Wounds 1/3; The Drop (↯): Has the Drop on Gob2: +4 to attack and damage.; Wild Card",
		"gob1": "Shaken (✶): Can only move until recovered (Spirit at the start of the turn, or a Benny).; Bound (⊗): Bound by Brak (garrotte).",
		"gob2": "Prone (⇊): −2 Fighting and Parry; Medium cover against shots from other zones.",
		"lyra": "Wounds 0/3; On Hold (‖): May interrupt anyone's turn.; Wild Card",
	} {
		if got := tokenText(*player.Token(id)); got != want {
			t.Errorf("%s: %q\n want %q", id, got, want)
		}
	}
	if p := player.Zones.Places[3]; p.Token != "gob2" || p.Group != "m1" {
		t.Errorf("gob2 placed %+v", p)
	}
	if b := player.Token("brak"); len(b.Stats) != 0 || len(b.Sheet) != 0 || b.Initiative != "A♠" || !b.Acting {
		t.Errorf("another player's fighter shows %+v", b)
	}
	if l := player.Token("lyra"); len(l.Stats) == 0 || len(l.Sheet) < 3 || l.Sheet[2].Title != "Weapons" {
		t.Errorf("the player's own sheet: %+v", l.Sheet)
	}
	for _, f := range player.Facts {
		if f.Label == "GM Bennies" {
			t.Error("a player sees the GM's pool")
		}
	}
	gmb := New().(engine.Boarder).Board(st, engine.GMViewer())
	if gmb.Token("spy") == nil || !gmb.Token("spy").Hidden || gmb.Facts[1].Label != "GM Bennies" {
		t.Errorf("GM board: %+v", gmb.Facts)
	}
	if v := engine.Project(New(), st, engine.PlayerViewer("lyra")); v.Board == nil || v.Board.Model != board.Zones {
		t.Error("the view carries no board")
	}
}

func TestEditor(t *testing.T) {
	e := New().(engine.Boarder).Editor()
	if e.Model != board.Zones || len(e.Area) != 2 || e.Area[0].Name != PropCover || e.Area[1].Name != PropCoverArmor {
		t.Fatalf("editor %+v", e)
	}
	// Every example's zones pass the editor's own check.
	if err := board.CheckProps(e.Area, board.Props{"cover": "near-total", "coverArmor": 12.0}, "z"); err != nil {
		t.Error(err)
	}
}
