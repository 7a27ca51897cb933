package d20under

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Traps (spec c15) and alchemical weapons (c16).

// corridor is a corridor one square wide (walls above and below) with
// ana (Vigilant 10, Quick 12) at its west end, bo (a trapper, Cunning 10)
// behind her and an orc far east; the GM hides a mechanical trap
// (Discreet 10, Cunning 10) at 3,1. open are squares of the walls left
// open (a niche, a side way).
func corridor(t *testing.T, opts map[string]string, open ...Cell) *State {
	t.Helper()
	return trapGround(t, opts, 12, 3, func(x, y int) bool {
		return (y == 0 || y == 2) && !slices.Contains(open, Cell{x, y})
	})
}

// trapGround is corridor's cast on a w×h grid whose walls are where wall
// says (none: open ground), the trap at 3,1.
func trapGround(t *testing.T, opts map[string]string, w, h int, wall func(x, y int) bool, difficult ...Cell) *State {
	t.Helper()
	var cells []map[string]any
	for y := range h {
		for x := range w {
			switch {
			case wall != nil && wall(x, y):
				cells = append(cells, map[string]any{"x": x, "y": y, "props": map[string]any{"terrain": "wall"}})
			case slices.Contains(difficult, Cell{x, y}):
				cells = append(cells, map[string]any{"x": x, "y": y, "props": map[string]any{"terrain": "difficult"}})
			}
		}
	}
	st := begin(t, newState(t, gridSetup(opts, w, h, cells,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12, Vigilant: 10, Accurate: 12},
			Weapons: []map[string]any{{"id": "spear", "name": "Spear", "type": "long"}}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 0, Y: 1, Attr: map[string]int{Quick: 11, Cunning: 10},
			Stats: map[string]any{"abilities": map[string]string{"trapper": "novice"}}},
		spec{ID: "orc", Side: "foes", X: 11, Y: 1, Attr: map[string]int{Quick: 10}},
	)))
	_, st = do(t, st, gm, cmd(GMPlaceTrap, "", "square", "3,1", "trap", TrapMechanical, "holds", true, "discreet", 10, "cunning", 10))
	return st
}

func TestTrapIsSecretUntilFound(t *testing.T) {
	st := corridor(t, noCrit)
	if len(st.Traps) != 1 {
		t.Fatal("placed")
	}
	b := engine.Project(New(), st, engine.PlayerViewer("ana")).Board
	if knownTraps(b) != 0 {
		t.Fatal("players do not see a hidden trap")
	}
	for _, c := range b.Grid.Cells {
		if c.X == 3 && c.Y == 1 && c.Label == "Trap" {
			t.Fatal("nor on the board")
		}
	}
	eq(t, "the GM does", knownTraps(engine.Project(New(), st, gm).Board), 1)
}

func TestDiscoverAndBypassATrap(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choice string
		faces  []int
		x      int
		caught bool
	}{
		{"jump: [Quick 12 ← Cunning 10] 12 passes", "jump", []int{12}, 6, false},
		{"jump fails: sprung, caught", "jump", []int{13, 4}, 2, true},
		{"around: another movement action", "around", nil, 6, false},
		{"stop before it", "stop", nil, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := corridor(t, noCrit, Cell{3, 0}) // a niche above the trap
			// [Vigilant 10 ← Discreet 10] = 10: found.
			events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), 10)
			eq(t, "discovery", rollOf(t, events, "Discover").Label, "Discover a trap: Vigilant against Discreet")
			d := pendingKind(t, st, DecTrap)
			eq(t, "asked", d.For, "ana")
			eq(t, "waits before the trap", st.Fighters["ana"].X, 2)
			_, st = answer(t, st, engine.PlayerViewer("ana"), DecTrap, tc.choice, nil, tc.faces...)
			eq(t, "x", st.Fighters["ana"].X, tc.x)
			eq(t, "caught", st.Fighters["ana"].Caught != "", tc.caught)
			if tc.choice == "around" {
				eq(t, "the combat action traded", st.Fighters["ana"].Combat, false)
			}
			if tc.caught {
				eq(t, "the trap's 1d10", st.Fighters["ana"].Toughness, 6)
			}
		})
	}
}

// TestGoingAroundATrap (seed: Traps, "If the terrain allows, a trap can
// always be ignored by going around it. This costs an extra movement
// action, or more depending on the terrain"): ana (Vigilant 10, 5 squares
// a movement action) moves from B2 to G2 with her movement action and
// spots the mechanical trap at D2 ([Vigilant 10 ← Discreet 10], a 10);
// her combat action is left to trade for another movement action.
//   - In a corridor walled on both sides, the trap on the only square
//     through, there is no way around: jump or stop.
//   - A niche in the wall above the trap is a way round: C2 to D1 to E2
//     costs what crossing D2 to E2 would (2 squares), so the one extra
//     movement action.
//   - A loop below the corridor, C3 down to D5 and up to E3 (C4, D5 and E4
//     difficult), is a way round of 9 squares against crossing's 2: 7
//     more, two more movement actions, and she has one left — not offered.
//   - On open ground she steps round it for the one extra movement action,
//     and never stands on the trap.
func TestGoingAroundATrap(t *testing.T) {
	openGround := func(t *testing.T) *State { return trapGround(t, noCrit, 12, 5, nil) }
	for _, tc := range []struct {
		name   string
		ground func(t *testing.T) *State
		offers string
		path   []Cell // the way round, when there is one
	}{
		{"walled corridor: no way round", func(t *testing.T) *State { return corridor(t, noCrit) }, "jump stop", nil},
		{"a niche above the trap: one movement action", func(t *testing.T) *State { return corridor(t, noCrit, Cell{3, 0}) }, "jump around stop",
			[]Cell{{3, 0}, {4, 1}}},
		{"a long way round: two movement actions, one left", func(t *testing.T) *State {
			// Walls but for a loop below the corridor: C3 … C5, D5, E5 … E3.
			loop := []Cell{{2, 2}, {2, 3}, {2, 4}, {3, 4}, {4, 4}, {4, 3}, {4, 2}}
			return trapGround(t, noCrit, 12, 5, func(x, y int) bool { return y != 1 && !slices.Contains(loop, Cell{x, y}) },
				Cell{2, 3}, Cell{3, 4}, Cell{4, 3})
		}, "jump stop", nil},
		{"open ground: one movement action", openGround, "jump around stop", []Cell{{3, 0}, {4, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.ground(t)
			_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), 10)
			d := pendingKind(t, st, DecTrap)
			var offered []string
			for _, o := range d.Options {
				offered = append(offered, o.Value)
			}
			eq(t, "offered", strings.Join(offered, " "), tc.offers)
			if tc.path == nil {
				msg := fail(t, st, engine.PlayerViewer("ana"), cmd(engine.KindAnswer, "", "decision", d.ID, "choice", "around"), fray.EINVALID)
				if !strings.Contains(msg, "not an option") {
					t.Fatalf("around: %s", msg)
				}
				return
			}
			var c Cont
			if err := json.Unmarshal(d.Data, &c); err != nil || c.Trap == nil {
				t.Fatalf("the question's data: %s, %v", d.Data, err)
			}
			way, ok := st.wayAround(st.Fighters["ana"], st.trap("trap-1"), *c.Trap)
			eq(t, "a way round", ok, true)
			eq(t, "its squares", fmt.Sprint(way.Path), fmt.Sprint(tc.path))
			eq(t, "its cost", way.Moves, 1)
			events, st := answer(t, st, engine.PlayerViewer("ana"), DecTrap, "around", nil)
			for _, ev := range find(events, KindMoved) {
				var m Moved
				if err := ev.Decode(&m); err != nil {
					t.Fatal(err)
				}
				if m.X == 3 && m.Y == 1 {
					t.Error("she stood on the trap")
				}
			}
			eq(t, "the note", find(events, KindTrap)[0].Text, "Ana goes around the trap (one more movement action).")
			eq(t, "past it, where she was going", fmt.Sprint(st.Fighters["ana"].X, st.Fighters["ana"].Y), "6 1")
			eq(t, "the combat action traded for it", st.Fighters["ana"].Combat, false)
			eq(t, "the trap is still there, unsprung", st.trap("trap-1").armed(), true)
		})
	}
}

func TestUnseenTrapSpringsAndHolds(t *testing.T) {
	st := corridor(t, noCrit)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), 11, 3)
	eq(t, "caught", st.Fighters["ana"].Caught, "trap-1")
	eq(t, "stopped before it", st.Fighters["ana"].X, 2)
	eq(t, "damage", st.Fighters["ana"].Toughness, 7)
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"), fray.EILLEGAL)
	// Now everyone on her side knows it.
	eq(t, "known", knownTraps(engine.Project(New(), st, engine.PlayerViewer("bo")).Board), 1)
	// Break free: Strong 10.
	_, st = do(t, st, gm, cmd(CmdBreakFree, "ana"), 10)
	eq(t, "free", st.Fighters["ana"].Caught, "")
	eq(t, "the trap is gone", len(st.Traps), 0)
}

func TestDisarmATrap(t *testing.T) {
	st := corridor(t, noCrit)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), 10)
	_, st = answer(t, st, engine.PlayerViewer("ana"), DecTrap, "stop", nil)
	// Ana, untrained, pokes it with her spear from 2,1: [Accurate 12 ← Cunning 10] = 12.
	events, st := do(t, st, gm, cmd(CmdDisarmTrap, "ana", "trap", "trap-1"), 12)
	eq(t, "label", rollOf(t, events, "Disarm").Label, "Disarm the trap: Accurate against Cunning")
	eq(t, "disarmed", len(st.Traps), 0)
	// A trapper uses [Cunning←Cunning].
	st = corridor(t, noCrit, Cell{3, 0})
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), 10)
	_, st = answer(t, st, engine.PlayerViewer("ana"), DecTrap, "around", nil)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdMove, "bo", "to", "2,1"))
	events, st = do(t, st, gm, cmd(CmdDisarmTrap, "bo", "trap", "trap-1"), 11)
	eq(t, "label", rollOf(t, events, "Disarm").Label, "Disarm the trap: Cunning against Cunning")
	eq(t, "still there", len(st.Traps), 1)
	// Out of reach.
	fail(t, st, gm, cmd(CmdDisarmTrap, "bo", "trap", "trap-2"), fray.EILLEGAL)
}

func TestSettingTraps(t *testing.T) {
	mk := func(opts map[string]string, abilities map[string]string) *State {
		return begin(t, newState(t, gridSetup(opts, 8, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Cunning: 12, Discreet: 13},
				Stats: map[string]any{"abilities": abilities, "items": map[string]int{ItemMechanicalTrap: 1, ItemAlchemicalMine: 1}}},
			spec{ID: "orc", Side: "foes", X: 7, Y: 1, Attr: map[string]int{Vigilant: 10}},
		)))
	}
	t.Run("untrained: a Cunning test, the whole turn, mechanical only", func(t *testing.T) {
		st := mk(noCrit, nil)
		fail(t, st, gm, cmd(CmdSetTrap, "ana", "item", ItemAlchemicalMine, "at", "2,1"), fray.EILLEGAL)
		_, st = do(t, st, gm, cmd(CmdSetTrap, "ana", "item", ItemMechanicalTrap, "at", "2,1"), 12)
		if len(st.Traps) != 1 || st.Traps[0].Discreet != 13 || st.Traps[0].Setter != "ana" {
			t.Fatalf("traps %+v", st.Traps)
		}
		eq(t, "the whole turn", st.Fighters["ana"].Combat || st.Fighters["ana"].Moves > 0, false)
	})
	t.Run("untrained, a 20: sprung in the setter's face", func(t *testing.T) {
		st := mk(noCrit, nil)
		_, st = do(t, st, gm, cmd(CmdSetTrap, "ana", "item", ItemMechanicalTrap, "at", "2,1"), 20, 5)
		eq(t, "hurt", st.Fighters["ana"].Toughness, 5)
		eq(t, "no trap", len(st.Traps), 0)
	})
	t.Run("a trapper: a combat action, mines too", func(t *testing.T) {
		st := mk(noCrit, map[string]string{"trapper": "novice"})
		_, st = do(t, st, gm, cmd(CmdSetTrap, "ana", "item", ItemAlchemicalMine, "at", "2,1"), 12)
		eq(t, "movement left", st.Fighters["ana"].Moves, 1)
		eq(t, "a mine", st.Traps[0].Kind, TrapMine)
	})
	t.Run("the player's trap: the NPC at risk — the setter rolls: Discreet against Vigilant", func(t *testing.T) {
		st := mk(noCrit, map[string]string{"trapper": "novice"})
		_, st = do(t, st, gm, cmd(CmdSetTrap, "ana", "item", ItemMechanicalTrap, "at", "2,1"), 12)
		_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "1,0"))
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		// The orc engages ana along the row: 6,1 … 2,1. Ana's [Discreet 13 ← Vigilant 10] = 13 keeps it hidden.
		events, st := do(t, st, gm, cmd(CmdMove, "orc", "to", "2,1", "actions", 2), 13, 1)
		r := rollOf(t, events, "Discover")
		eq(t, "rolled by the setter", r.Who, "ana")
		eq(t, "label", r.Label, "Discover a trap: Discreet against Vigilant")
		eq(t, "the orc is caught", st.Fighters["orc"].Caught, "trap-1")
	})
}

func TestTrapsOnTheLadder(t *testing.T) {
	st := begin(t, newState(t, ladderSetup(noCrit, "Short",
		spec{ID: "orc", Side: "foes", Attr: map[string]int{Quick: 12}},
		spec{ID: "ana", Side: "heroes", PC: true, Attr: map[string]int{Quick: 11, Vigilant: 10}},
	)))
	_, st = do(t, st, gm, cmd(GMPlaceTrap, "", "guards", "foes", "trap", TrapMine, "discreet", 10, "cunning", 10))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	// Ana engages the orc, one move away: the mine before its line.
	_, st = do(t, st, gm, cmd(CmdEngage, "ana", "target", "orc"), 11, 6)
	eq(t, "mine: 1d12", st.Fighters["ana"].Toughness, 4)
	eq(t, "the move stops", st.inMelee("ana", "orc"), false)
	eq(t, "the mine is spent", len(st.Traps), 0)
}

func TestAlchemicalGates(t *testing.T) {
	for _, tc := range []struct {
		typ       string
		abilities map[string]string
		want      string
	}{
		{"fire-tube", nil, gateRisky},
		{"fire-tube", map[string]string{AbSiegeExpert: Adept}, gateSafe},
		{"fire-tube", map[string]string{AbSiegeExpert: Novice}, gateRisky},
		{"fire-tube-stationary", nil, gateForbidden},
		{"fire-tube-stationary", map[string]string{AbSiegeExpert: Master}, gateSafe},
		{"grenade", nil, gateRisky},
		{"grenade", map[string]string{AbAlchemy: Novice}, gateSafe},
		{"grenade", map[string]string{AbPyrotechnics: Novice}, gateSafe},
		{"grenade", map[string]string{AbSiegeExpert: Novice}, gateSafe},
		{"breaching-pot", nil, gateRisky},
		{"breaching-pot", map[string]string{AbAlchemy: Novice}, gateRisky},
		{"breaching-pot", map[string]string{AbPyrotechnics: Novice}, gateSafe},
	} {
		s := &Sheet{Abilities: tc.abilities}
		eq(t, tc.typ, alchemyGate(s, tc.typ), tc.want)
	}
	mk := func(typ string) *State {
		return begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Weapons: []map[string]any{{"id": "alch", "name": "Alchemical weapon", "type": typ, "count": 2}}},
			spec{ID: "orc", Side: "foes", X: 6, Y: 1},
		)))
	}
	fail(t, mk("fire-tube-stationary"), gm, cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL)
	// A risky grenade misses: the GM rules on the mishap.
	st := mk("grenade")
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 20)
	eq(t, "one used", st.Fighters["ana"].Units["alch"], 1)
	_, st = answer(t, st, gm, DecMishap, "backfire", nil, 7)
	eq(t, "1d12 on ana", st.Fighters["ana"].Toughness, 3)
	// The mine needs Trapper or Pyrotechnics: traps.go's test.
}
