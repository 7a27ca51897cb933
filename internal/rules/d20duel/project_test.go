package d20duel

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestProjection: players see every visible fighter's wounds and what
// happened to them, but only their own sheet; a hidden fighter appears
// nowhere for them, and its shots reach them only as wounds.
func TestProjection(t *testing.T) {
	st := newState(t, newSetup(nil, nil,
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", Stats: brontStats},
		spec{ID: "spy", Side: "foes", Hidden: true, Stats: with(brontStats, "weapons", []map[string]any{
			{"id": "crossbow", "name": "Crossbow", "ranged": true, "strike": 14, "damage": 6}})}))
	log, st := do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))

	pv := engine.Project(New(), st, anaPl)
	if slices.ContainsFunc(pv.Board.Tokens, func(tk board.Token) bool { return tk.ID == "spy" }) ||
		slices.Contains(pv.Board.Pairs.Apart, "spy") || slices.Contains(pv.Acting, "spy") {
		t.Fatal("the hidden spy shows in a player's view")
	}
	ana, bront := tokenOf(pv.Board.Tokens, "ana"), tokenOf(pv.Board.Tokens, "bront")
	if ana.Sheet == nil || len(sheetSection(ana, "Weapons")) != 4 || bront.Sheet != nil {
		t.Fatal("sheets: Ana's own full, Bront's not")
	}
	if w := sheetSection(ana, "Weapons")[0]; w.Value != "Strike 13 · Guard 7 · Grapple 8 · Defense 6 · Damage 6" {
		t.Fatalf("ana's sword as shown: %+v", w)
	}
	if tokenOf(pv.Board.Tokens, "bront").Stats != nil || tokenOf(pv.Board.Tokens, "ana").Stats == nil {
		t.Fatal("token stats: Ana's own only")
	}
	fail(t, st, anaPl, cmd(CmdShoot, "ana", "target", "spy", "weapon", "bow"), fray.ENOTFOUND)

	// The spy lies in wait: not in the approach, so nothing shows players
	// someone else acts; a test the GM rolls for it stays secret.
	if slices.Contains(st.Acting, "spy") {
		t.Fatal("a hidden fighter takes part in the approach")
	}
	events, st := do(t, st, gm, cmd(CmdRollTest, "", "fighter", "spy", "attribute", "perception"), 9, 18)
	log = append(log, events...)
	seen, _ := json.Marshal(engine.FilterEvents(st, anaPl, log))
	if !events[0].Secret || bytes.Contains(seen, []byte("spy")) || bytes.Contains(seen, []byte("Spy")) {
		t.Fatalf("a player's log names the hidden spy: %s", seen)
	}
	// Revealed, it joins the next approach and shoots: 9 hits (no Guard
	// against shots), within the mail's Coverage 12, which stops 3 of 6.
	_, st = do(t, st, gm, engine.NewCommand(engine.KindReveal, "", map[string]any{"combatant": "spy"}))
	_, st = do(t, st, anaPl, cmd(CmdWait, "ana"))
	_, st = do(t, st, gm, cmd(CmdWait, "bront"))
	if !st.IsActing("spy") {
		t.Fatalf("the revealed spy does not act in the next approach: %v", st.Acting)
	}
	events, st = do(t, st, gm, cmd(CmdShoot, "spy", "target", "ana", "weapon", "crossbow"), 9, 18)
	if w := st.Fighters["ana"].Wounds; len(w) != 1 || w[0].Penalty != 1 || attackBy(t, events, "spy").Armor != ArmorProtects {
		t.Fatalf("the shot: %+v", w)
	}
	st.Combatants[2].Hidden = true // hidden again, for the GM's view below
	gv := engine.Project(New(), st, gm)
	if spy := tokenOf(gv.Board.Tokens, "spy"); spy.ID == "" || spy.Sheet == nil {
		t.Fatal("the GM does not see the spy's sheet")
	}
	// The GM cannot engage a hidden fighter; revealed, it is offered.
	fail(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+spy", "distance", Striking), fray.EILLEGAL)
	if slices.ContainsFunc(gmPairs(st), func(v string) bool { return v == "ana+spy" }) {
		t.Fatal("set-distance offers a hidden fighter")
	}
}

func gmPairs(st *State) []string {
	for _, a := range ruleset.Actions(st, gm) {
		if a.Kind == CmdSetDistance {
			var out []string
			for _, o := range a.Fields[0].Options {
				out = append(out, o.Value)
			}
			return out
		}
	}
	return nil
}

// TestWoundsOnTheBoard: the board's health meter counts wound penalties
// against collapse-at; a fighter who collapses is out.
func TestWoundsOnTheBoard(t *testing.T) {
	st := duel(t, map[string]string{OptCollapseAt: "3"}, "striking")
	// Bront's 10 meets the mail: 8 − 3 = 5, a −2 wound. Ana's 10: 6, −2.
	_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 10, 2, 10, 2)
	m := tokenOf(ruleset.Board(st, anaPl).Tokens, "ana").Health
	if m == nil || m.Value != 2 || m.Max != 3 || m.Text != "−2 (−2 body)" {
		t.Fatalf("meter %+v", m)
	}
	// Both hurt: no maneuver. The next exchange: Ana's 9 against Guard
	// 5−2 … the second −2 wound takes Bront to −4: he collapses.
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 9, 2, missB, missW)
	if !st.Combatant("bront").Out || st.Status != engine.StatusFinished {
		t.Fatalf("bront not out: %v", kinds(events))
	}
}
