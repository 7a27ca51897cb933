package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// walker is ana (Athletics 12, Acrobatics 10, Swimming 10) at (0,0) of a
// 6×6 map with the given squares, and orc far away at (5,5); ana acts
// first.
func walker(t *testing.T, opts map[string]string, ana spec, cells ...cellAt) *State {
	t.Helper()
	ana.ID, ana.Side, ana.PC, ana.Init = "ana", "heroes", true, 30
	return start(t, newState(t, newSetup(opts, grid(6, 6, cells...), ana,
		spec{ID: "orc", Side: "foes", X: 5, Y: 5, Init: 10},
		spec{ID: "gob", Side: "foes", X: 1, Y: 1, Init: 5},
	)))
}

func movedOf(t *testing.T, events []engine.Event) Moved {
	t.Helper()
	var m Moved
	decodeOne(t, events, KindMoved, &m)
	return m
}

// Ordinary movement: one action, one band or into close contact; no check.
func TestMove(t *testing.T) {
	st := walker(t, nil, spec{})
	events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"))
	m := movedOf(t, events)
	eq(t, "actions", m.Actions, 1)
	eq(t, "where", st.Fighters["ana"].where(), "(1,1)")
	eq(t, "actions left", st.Fighters["ana"].Actions, 2)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "contact:gob"))
	eq(t, "in contact", inContact(st.Fighters["ana"], st.Fighters["gob"]), true)
	eq(t, "band", st.Band(st.Fighters["ana"], st.Fighters["gob"]), BandContact)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "leave"))
	eq(t, "out of contact", st.Fighters["ana"].Group == "" && st.Fighters["gob"].Group == "", true)
	eq(t, "the turn passed", st.Current(), "orc")

	st = walker(t, nil, spec{})
	player := engine.PlayerViewer("ana")
	for _, tc := range []struct {
		to, code, msg string
	}{
		{"2,2", fray.EILLEGAL, "a move goes one band: (2,2) is 2 bands away"},
		{"9,9", fray.EINVALID, "square (9,9) is outside the 6×6 map"},
		{"contact:orc", fray.EILLEGAL, "Orc is not in that square"},
		{"leave", fray.EILLEGAL, "Ana is not in close contact"},
		{"up", fray.EINVALID, "\"up\" is not a square (x,y), contact:<id>, leave or off"},
		{"", fray.EINVALID, "choose where to go (to)"},
	} {
		eq(t, "move to "+tc.to, fail(t, st, player, cmd(CmdMove, "ana", "to", tc.to), tc.code), tc.msg)
	}
	fail(t, st, engine.PlayerViewer("bram"), cmd(CmdMove, "ana", "to", "1,0"), fray.EFORBIDDEN)
	fail(t, st, gm, cmd(CmdMove, "orc", "to", "4,4"), fray.ENOTYOURTURN)
}

// Leaving the map from an edge square for Extreme range, and coming back
// onto an edge square.
func TestMoveOffTheMap(t *testing.T) {
	st := walker(t, nil, spec{})
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "off"))
	eq(t, "off", st.Fighters["ana"].Off, true)
	eq(t, "Extreme", BandName(st.Band(st.Fighters["ana"], st.Fighters["gob"])), "Extreme")
	eq(t, "back in the middle", fail(t, st, gm, cmd(CmdMove, "ana", "to", "2,2"), fray.EILLEGAL),
		"from Extreme range a combatant comes back onto an edge square")
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "5,0"))
	eq(t, "back", st.Fighters["ana"].where(), "(5,0)")
	st = walker(t, nil, spec{X: 2, Y: 2})
	eq(t, "off from the middle", fail(t, st, gm, cmd(CmdMove, "ana", "to", "off"), fray.EILLEGAL), "only a combatant on the map's edge can leave it")
}

// Cover counts only when the combatant used at most one move action this
// turn, and never in close contact.
func TestCoverAndMoves(t *testing.T) {
	medium := cellAt{2, 0, map[string]any{"cover": "2"}}
	for _, tc := range []struct {
		name  string
		moves []string
		dice  int
	}{
		{"stayed put", nil, 4 + 2},
		{"one move into cover", []string{"2,0"}, 4 + 2},
		{"two moves", []string{"3,0", "2,0"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := 2
			if len(tc.moves) > 0 {
				x = 2 + len(tc.moves)
			}
			st := start(t, newState(t, newSetup(nil, grid(6, 6, medium),
				spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 10},
				spec{ID: "orc", Side: "foes", X: x, Y: 0, Init: 30},
			)))
			for _, to := range tc.moves {
				_, st = do(t, st, gm, cmd(CmdMove, "orc", "to", to))
			}
			_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
			events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), append(ones(tc.dice), 1, 1)...)
			_, r := attackRoll(t, events)
			eq(t, "dice", dieCount(r), tc.dice)
		})
	}
}

// Dash: two actions, two bands, a terrain check at the worst square's
// difficulty (3D, 4D, 5D); failure one band; a fumble prone and half the
// difficulty in damage (2D for 3D and 4D, 3D for 5D).
func TestDash(t *testing.T) {
	tests := []struct {
		name     string
		cells    []cellAt
		faces    []int
		dice     int // 0: no check
		at       string
		prone    bool
		fallDice int
	}{
		{"easy terrain: no check", nil, nil, 0, "(2,0)", false, 0},
		{"difficult 3D: worst square", []cellAt{{1, 0, map[string]any{"dash": "3"}}, {1, 1, map[string]any{"dash": "4"}}}, []int{1, 1, 1}, 3, "(2,0)", false, 0},
		{"hard 4D", []cellAt{{1, 0, map[string]any{"dash": "4"}}, {1, 1, map[string]any{"dash": "4"}}}, []int{1, 1, 1, 1}, 4, "(2,0)", false, 0},
		{"very hard 5D at the destination", []cellAt{{2, 0, map[string]any{"dash": "5"}}}, []int{1, 1, 1, 1, 1}, 5, "(2,0)", false, 0},
		{"failure: one band", []cellAt{{1, 0, map[string]any{"dash": "3"}}, {1, 1, map[string]any{"dash": "3"}}}, []int{5, 5, 4}, 3, "(1,0)", false, 0},
		{"fumble on 3D: prone, 2D", []cellAt{{1, 0, map[string]any{"dash": "3"}}, {1, 1, map[string]any{"dash": "3"}}}, []int{6, 5, 5, 5, 5, 1, 1}, 3, "(1,0)", true, 2},
		{"fumble on 4D: prone, 2D", []cellAt{{1, 0, map[string]any{"dash": "4"}}, {1, 1, map[string]any{"dash": "4"}}}, []int{5, 5, 5, 5, 1, 1}, 4, "(1,0)", true, 2},
		{"fumble on 5D: prone, 3D", []cellAt{{1, 0, map[string]any{"dash": "5"}}, {1, 1, map[string]any{"dash": "5"}}}, []int{5, 5, 5, 5, 5, 1, 1, 1}, 5, "(1,0)", true, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := walker(t, nil, spec{}, tc.cells...)
			events, st := do(t, st, gm, cmd(CmdDash, "ana", "to", "2,0"), tc.faces...)
			m := movedOf(t, events)
			eq(t, "actions", m.Actions, 2)
			eq(t, "dash", m.Dash, true)
			ana := st.Fighters["ana"]
			eq(t, "where", ana.where(), tc.at)
			eq(t, "dashed", ana.Dashed, true)
			eq(t, "prone", ana.Prone, tc.prone)
			checks := events[0].Rolls
			for _, e := range events {
				if e.Kind == KindMoved {
					checks = e.Rolls
				}
			}
			if tc.dice == 0 {
				eq(t, "checks", len(checks), 0)
			} else {
				eq(t, "check dice", dieCount(checks[0]), tc.dice)
				eq(t, "skill (Athletics, the better)", checks[0].Target, 12)
			}
			if tc.fallDice > 0 {
				var h Harmed
				ev := decodeOne(t, events, KindHarm, &h)
				eq(t, "fall dice", len(ev.Rolls[0].Dice), tc.fallDice)
			}
		})
	}
}

// A dasher loses its cover until its next turn.
func TestDashLosesCover(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(6, 6, cellAt{2, 0, map[string]any{"cover": "2"}}),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 10},
		spec{ID: "orc", Side: "foes", X: 4, Y: 0, Init: 30},
	)))
	_, st = do(t, st, gm, cmd(CmdDash, "orc", "to", "2,0"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), 1, 1, 1, 1, 1, 1)
	_, r := attackRoll(t, events)
	eq(t, "no cover for a dasher", dieCount(r), 4)
}

// A Seriously or Lethally Wounded dasher bleeds one wound at once.
func TestWoundedDasherBleeds(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(6, 6),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 10},
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 30},
	)))
	// Orc's arrow: 4D 1+1+1+1 against 14, a hit by 10; damage 2D+2+10 = 14: a Serious wound.
	_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "aimed"), 1, 1, 1, 1, 1, 1)
	eq(t, "wounded", st.Fighters["ana"].WoundLevel(), WoundSerious)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	events, st := do(t, st, gm, cmd(CmdDash, "ana", "to", "0,2"))
	var b Bled
	decodeOne(t, events, KindBled, &b)
	eq(t, "blood lost", b.Loss, 1)
	eq(t, "blood loss", st.Fighters["ana"].BloodLoss, 1)
}

// Impassable terrain: two actions for one band, always a check (Swimming
// in water) at 4D, 5D or 6D; failure no progress; a fumble prone and the
// difficulty in damage; bulk penalties apply.
func TestImpassable(t *testing.T) {
	tests := []struct {
		name     string
		props    map[string]any
		ana      spec
		faces    []int
		dice     int
		skill    int
		skillLbl string
		at       string
		fall     int
	}{
		{"hard 4D", map[string]any{"impassable": "4"}, spec{}, []int{1, 1, 1, 1}, 4, 12, "Athletics", "(1,0)", 0},
		{"very hard 5D", map[string]any{"impassable": "5"}, spec{}, []int{1, 1, 1, 1, 1}, 5, 12, "Athletics", "(1,0)", 0},
		{"dramatic 6D", map[string]any{"impassable": "6"}, spec{}, []int{1, 1, 1, 1, 1, 1}, 6, 12, "Athletics", "(1,0)", 0},
		{"water: Swimming", map[string]any{"impassable": "4", "water": true}, spec{}, []int{1, 1, 1, 1}, 4, 10, "Swimming", "(1,0)", 0},
		{"failure: no progress", map[string]any{"impassable": "4"}, spec{}, []int{5, 5, 2, 1}, 4, 12, "Athletics", "(0,0)", 0},
		{"fumble: prone, 4D damage", map[string]any{"impassable": "4"}, spec{}, []int{5, 5, 5, 5, 1, 1, 1, 1}, 4, 12, "Athletics", "(0,0)", 4},
		{"bulk 2", map[string]any{"impassable": "4"}, spec{Bulk: 2}, []int{1, 1, 1, 1}, 4, 10, "Athletics", "(1,0)", 0},
		{"the better of Acrobatics and Athletics", map[string]any{"impassable": "4"}, spec{Skills: map[string]int{"acrobatics": 15}}, []int{1, 1, 1, 1}, 4, 15, "Acrobatics", "(1,0)", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := walker(t, nil, tc.ana, cellAt{1, 0, tc.props})
			events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "1,0"), tc.faces...)
			m := movedOf(t, events)
			eq(t, "actions", m.Actions, 2)
			r := rollOf(t, events, "Impassable terrain")
			eq(t, "dice", dieCount(r), tc.dice)
			eq(t, "skill", r.Target, tc.skill)
			eq(t, "label", r.Label, "Impassable terrain: "+tc.skillLbl+" "+itoa(tc.dice)+"D")
			eq(t, "where", st.Fighters["ana"].where(), tc.at)
			eq(t, "prone", st.Fighters["ana"].Prone, tc.fall > 0)
			if tc.fall > 0 {
				var h Harmed
				ev := decodeOne(t, events, KindHarm, &h)
				eq(t, "fall dice", len(ev.Rolls[0].Dice), tc.fall)
			}
		})
	}
	// One action is not enough.
	st := walker(t, nil, spec{}, cellAt{1, 0, map[string]any{"impassable": "4"}})
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"))
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,0"))
	eq(t, "one action", fail(t, st, gm, cmd(CmdMove, "ana", "to", "1,0"), fray.EILLEGAL),
		"Crossing impassable terrain takes 2 actions; Ana has 1 action left this turn")
	eq(t, "no dash into it", fail(t, st, gm, cmd(CmdDash, "ana", "to", "2,0"), fray.EILLEGAL),
		"A dash takes 2 actions; Ana has 1 action left this turn")
}

// Prone: no moving until standing up, which takes an action.
func TestStandUp(t *testing.T) {
	st := walker(t, nil, spec{Prone: true})
	eq(t, "prone move", fail(t, st, gm, cmd(CmdMove, "ana", "to", "1,0"), fray.EILLEGAL), "Ana is prone: stand up first")
	_, st = do(t, st, gm, cmd(CmdStand, "ana"))
	eq(t, "standing", st.Fighters["ana"].Prone, false)
	eq(t, "actions", st.Fighters["ana"].Actions, 2)
	eq(t, "stand again", fail(t, st, gm, cmd(CmdStand, "ana"), fray.EILLEGAL), "Ana is not prone")
}

func itoa(n int) string { return string(rune('0' + n)) }
