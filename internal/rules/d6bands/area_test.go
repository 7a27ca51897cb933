package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

// raid is orc (Throwing 12, a fire pot: 3D, optimal Close/Distant, area,
// Terror 3D) at (0,0); ana, bram and gob (orc's own side) all at (2,0),
// Distant. Order orc, ana, bram, gob.
func raid(t *testing.T, opts map[string]string, cells ...cellAt) *State {
	t.Helper()
	pot := map[string]any{"id": "pot", "name": "Fire pot", "skill": "throwing", "damage": "3D", "optimal": "close/distant", "area": true, "terror": 3, "reload": 2}
	return start(t, newState(t, newSetup(opts, grid(6, 6, cells...),
		spec{ID: "orc", Side: "foes", X: 0, Y: 0, Init: 30, Skills: map[string]int{"throwing": 12}, WeaponsAppend: []map[string]any{pot}},
		spec{ID: "ana", Side: "heroes", X: 2, Y: 0, PC: true, Init: 20},
		spec{ID: "bram", Side: "heroes", X: 2, Y: 0, PC: true, Init: 15},
		spec{ID: "gob", Side: "foes", X: 2, Y: 0, Init: 10},
	)))
}

// Area fire rakes a whole square at +2D; a hit affects everyone there as
// if hit by 3; everyone takes the Terror check.
func TestAreaFire(t *testing.T) {
	st := raid(t, nil)
	faces := ones(6)                              // 4D +2D area fire: 6 against 12, a hit by 6
	faces = append(faces, 1, 1, 1, 1, 1, 1)       // ana: damage 3D, Terror 3D passed
	faces = append(faces, 2, 2, 2, 5, 5, 3)       // bram: damage, Terror 13 against 12: a miss
	faces = append(faces, 1, 1, 2, 6, 5, 5, 5, 5) // gob: damage, Terror 5+5+5+5 = 20: a fumble
	events, st := do(t, st, gm, cmd(CmdAreaFire, "orc", "weapon", "pot", "cell", "2,0", "mode", "aimed"), faces...)
	r := rollOf(t, events, "Area fire")
	eq(t, "dice", dieCount(r), 6)
	if !hasMod(r, "area fire", 2, unitDice) {
		t.Errorf("no +2D for area fire: %+v", r.Mods)
	}
	harms := find(events, KindHarm)
	eq(t, "victims", len(harms), 3)
	want := map[string]int{"ana": 3 + 3, "bram": 6 + 3, "gob": 4 + 3}
	for _, e := range harms {
		var h Harmed
		if err := e.Decode(&h); err != nil {
			t.Fatal(err)
		}
		eq(t, "damage to "+h.Fighter+" (as if hit by 3)", h.Damage, want[h.Fighter])
	}
	lost := map[string]int{}
	for _, e := range find(events, KindTerror) {
		var tr Terrified
		_ = e.Decode(&tr)
		lost[tr.Fighter] = tr.Lost
	}
	eq(t, "ana keeps her nerve", lost["ana"], 0)
	eq(t, "bram loses an action", lost["bram"], 1)
	eq(t, "gob panics", lost["gob"], 3)
	eq(t, "orc's actions", st.Fighters["orc"].Actions, 1)
	eq(t, "the pot is spent", st.Fighters["orc"].Loads["pot"].Loaded, false)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	eq(t, "ana's actions", st.Fighters["ana"].Actions, 3)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	eq(t, "bram's actions", st.Fighters["bram"].Actions, 2)
	events, st = do(t, st, gm, cmd(CmdEndTurn, "bram"), 1, 1, 1, 1)
	if len(find(events, KindTurnEnded)) != 2 || st.Round != 2 {
		t.Errorf("gob's panicked turn should pass by itself: %v", kinds(events))
	}
}

// Area fire that misses still terrifies (terror-on-miss), unless the
// option is off.
func TestAreaFireMiss(t *testing.T) {
	for _, tc := range []struct {
		option string
		checks int
	}{{On, 3}, {Off, 0}} {
		t.Run(tc.option, func(t *testing.T) {
			st := raid(t, map[string]string{OptTerrorOnMiss: tc.option})
			faces := []int{5, 5, 5, 5, 5, 5} // 30 against 12
			faces = append(faces, ones(3*tc.checks)...)
			events, _ := do(t, st, gm, cmd(CmdAreaFire, "orc", "weapon", "pot", "cell", "2,0", "mode", "aimed"), faces...)
			eq(t, "harm", len(find(events, KindHarm)), 0)
			eq(t, "terror checks", len(find(events, KindTerror)), tc.checks)
		})
	}
}

func TestAreaFireDifficulty(t *testing.T) {
	st := raid(t, nil, cellAt{2, 0, map[string]any{"cover": "2"}})
	// 4D +2D cover +2D area +1D snapshot = 9D.
	events, _ := do(t, st, gm, cmd(CmdAreaFire, "orc", "weapon", "pot", "cell", "2,0", "mode", "snapshot"), append([]int{5, 5, 5, 5, 5, 5, 5, 5, 5}, ones(9)...)...)
	eq(t, "dice", dieCount(rollOf(t, events, "Area fire")), 9)
	eq(t, "only area weapons", fail(t, st, gm, cmd(CmdAreaFire, "orc", "weapon", "bow", "cell", "2,0"), fray.EILLEGAL), "the Bow cannot fire at an area")
	eq(t, "a square off the map", fail(t, st, gm, cmd(CmdAreaFire, "orc", "weapon", "pot", "cell", "7,0"), fray.EINVALID), "square (7,0) is outside the map")
	eq(t, "a square too far", fail(t, st, gm, cmd(CmdAreaFire, "orc", "weapon", "pot", "cell", "5,5"), fray.EILLEGAL), "(5,5) is beyond Very Far")
}
