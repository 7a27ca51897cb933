package d6bands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

// spied is ana (a PC) at (0,0), orc at (2,0), spy — hidden by the GM — at
// (1,0) in close contact with guard, a GM-run hero. Order ana, guard, orc,
// spy.
func spied(t *testing.T, opts map[string]string) *State {
	t.Helper()
	return start(t, newState(t, newSetup(opts, grid(6, 6),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
		spec{ID: "guard", Side: "heroes", X: 1, Y: 0, Group: "g", Init: 20},
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10},
		spec{ID: "spy", Side: "foes", X: 1, Y: 0, Group: "g", Hidden: true, Init: 5},
	)))
}

func mentions(t *testing.T, v any, word string) bool {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(strings.ToLower(string(raw)), word)
}

// A player never learns of a combatant the GM keeps hidden: not in the
// view, the board, the actions, the events; a command naming it answers
// "no combatant".
func TestHiddenCombatant(t *testing.T) {
	st := spied(t, map[string]string{OptNPCDefense: DefenseAsk})
	player := engine.PlayerViewer("ana")
	view := engine.Project(New(), st, player)
	if mentions(t, view, "spy") {
		t.Fatalf("the player's view mentions the spy: %+v", view)
	}
	gmView := engine.Project(New(), st, gm)
	if !mentions(t, gmView.Board, "spy") {
		t.Fatal("the GM's board lacks the spy")
	}
	eq(t, "shot at the spy", fail(t, st, player, cmd(CmdShoot, "ana", "target", "spy", "weapon", "bow"), fray.ENOTFOUND), "no combatant \"spy\"")

	// Ana hides: the spy's Perception is rolled in secret.
	events, st := do(t, st, player, cmd(CmdStealth, "ana"), 1, 1, 1, 5, 5, 5, 5, 5, 5)
	seen := engine.FilterEvents(st, player, events)
	if mentions(t, seen, "spy") {
		t.Fatalf("the player's events mention the spy: %+v", seen)
	}
	if len(seen) >= len(events) {
		t.Errorf("no event was kept from the player (%d of %d)", len(seen), len(events))
	}
	_, st = do(t, st, player, cmd(CmdEndTurn, "ana"))

	// The guard strikes the spy: its Defense Pool question goes to the GM, and
	// the player reads nothing of it.
	events, st = do(t, st, gm, cmd(CmdStrike, "guard", "target", "spy", "weapon", "sword"))
	d := pendingKind(t, st, DecDefense)
	eq(t, "asked of the spy", d.For, "spy")
	enginetest.AssertGMAnswers(t, New(), st, events, d, player)
	fail(t, st, player, engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": "none"}), fray.ENOTFOUND)
	if pv := engine.Project(New(), st, player); mentions(t, pv, "spy") || len(pv.Pending) != 0 || len(pv.Waiting) != 1 || pv.Waiting[0] != "the GM" {
		t.Fatalf("the player's view while the GM decides: %+v", pv)
	}
	seen = engine.FilterEvents(st, player, events)
	if mentions(t, seen, "spy") {
		t.Fatalf("the player's events mention the spy: %+v", seen)
	}
	events, st = answer(t, st, gm, DecDefense, "none", nil, 1, 1, 1, 1, 1)
	if seen := engine.FilterEvents(st, player, events); mentions(t, seen, "spy") {
		t.Fatalf("the player's events mention the spy: %+v", seen)
	}
}

// The sheet is for the GM and the combatant's own player.
func TestProjectionSheets(t *testing.T) {
	st := spied(t, nil)
	b := engine.Project(New(), st, engine.PlayerViewer("ana")).Board
	for _, tok := range b.Tokens {
		switch tok.ID {
		case "ana":
			eq(t, "own sheet", tok.Sheet != nil, true)
		case "orc":
			eq(t, "orc's sheet and weapons hidden", tok.Sheet == nil, true)
		}
	}
	eq(t, "model", b.Model, board.Grid)
	eq(t, "scale", b.Grid.Scale, "30 m")
	eq(t, "bands", strings.Join(b.Grid.Bands, ", "), "Very Close, Close, Distant, Far, Very Far")
	eq(t, "tokens", len(b.Tokens), 3)
	for _, tok := range b.Tokens {
		if tok.ID == "orc" && tok.Stats != nil {
			t.Errorf("orc's stats shown to a player: %+v", tok.Stats)
		}
		if tok.ID == "ana" && len(tok.Stats) == 0 {
			t.Error("ana's own stats missing")
		}
	}
	for _, p := range b.Grid.Places {
		if p.Token == "guard" && p.Group != "g" {
			t.Errorf("guard's contact group: %+v", p)
		}
	}
}
