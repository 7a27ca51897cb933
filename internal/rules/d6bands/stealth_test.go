package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// hiders is ana (Stealth 12) at (0,0) in light cover; orc1 (Perception 12)
// at (2,0) sees her; orc2 at (3,3) does not: (1,1) blocks the line of
// sight. Order ana, orc1, orc2.
func hiders(t *testing.T, opts map[string]string) *State {
	t.Helper()
	grenade := map[string]any{"id": "grenade", "name": "Fire pot", "skill": "throwing", "damage": "3D", "optimal": "close/distant", "area": true, "terror": 3}
	return start(t, newState(t, newSetup(opts, grid(6, 6, cellAt{0, 0, map[string]any{"cover": "1"}}, cellAt{1, 1, map[string]any{"blocks": true}}),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
		spec{ID: "orc1", Side: "foes", X: 2, Y: 0, Init: 10, WeaponsAppend: []map[string]any{grenade}, Skills: map[string]int{"throwing": 12}},
		spec{ID: "orc2", Side: "foes", X: 3, Y: 3, Init: 5},
	)))
}

func TestStealth(t *testing.T) {
	st := hiders(t, nil)
	// Stealth 3D: 1+1+1 = 3 against 12, by 9. Orc1's Perception 3D +1D (her light cover): 5+5+5+4 = 19, a miss.
	// Orc2 has no line of sight: no roll.
	events, st := do(t, st, gm, cmd(CmdStealth, "ana"), 1, 1, 1, 5, 5, 5, 4)
	var s StealthCheck
	ev := decodeOne(t, events, KindStealth, &s)
	eq(t, "rolls", len(ev.Rolls), 2)
	eq(t, "perception dice", dieCount(ev.Rolls[1]), 4)
	if !hasMod(ev.Rolls[1], "cover", 1, unitDice) {
		t.Errorf("the hider's cover is not on the Perception roll: %+v", ev.Rolls[1].Mods)
	}
	eq(t, "orc1", s.Results["orc1"], 1)
	eq(t, "orc2", s.Results["orc2"], 1)
	eq(t, "actions", st.Fighters["ana"].Actions, 2)
	eq(t, "once a turn", fail(t, st, gm, cmd(CmdStealth, "ana"), fray.EILLEGAL), "Ana has already made a Stealth check this turn")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))

	// Hidden: orc1 can hit her only with area fire.
	eq(t, "shot at the hidden", fail(t, st, gm, cmd(CmdShoot, "orc1", "target", "ana", "weapon", "bow", "mode", "aimed"), fray.EILLEGAL),
		"Ana is hidden from Orc1: only area fire can hit them")
	eq(t, "aim at the hidden", fail(t, st, gm, cmd(CmdAim, "orc1", "target", "ana"), fray.EILLEGAL),
		"Ana is hidden from Orc1: only area fire can hit them")
	for _, a := range New().Actions(st, gm) {
		if a.Kind == CmdShoot {
			t.Errorf("shoot offered at someone hidden: %+v", a.Fields[0].Options)
		}
	}
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc1"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc2"), 1, 1, 1)

	// Twice in a row: unaware. Orc1's Perception this time succeeds by less than Stealth.
	events, st = do(t, st, gm, cmd(CmdStealth, "ana"), 1, 1, 1, 3, 3, 2, 1)
	decodeOne(t, events, KindStealth, &s)
	eq(t, "orc1 unaware", s.Results["orc1"], 2)
	eq(t, "orc2 unaware", s.Results["orc2"], 2)
	var slip bool
	for _, a := range New().Actions(st, engine.PlayerViewer("ana")) {
		slip = slip || a.Kind == CmdSlipAway
	}
	eq(t, "slip away offered", slip, true)

	// Ambush: her shot at an unaware orc1 is 1D easier, and reveals her.
	events, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc1", "weapon", "bow", "mode", "aimed"), 1, 1, 1, 1, 1)
	_, r := attackRoll(t, events)
	eq(t, "ambush dice", dieCount(r), 3)
	if !hasMod(r, "ambush", -1, unitDice) {
		t.Errorf("no ambush: %+v", r.Mods)
	}
	eq(t, "revealed", len(st.Fighters["ana"].Unseen), 0)
}

// A spotter who succeeds by more (or as much) wins; a failed Stealth
// check loses against everyone.
func TestStealthOpposed(t *testing.T) {
	st := hiders(t, nil)
	// Stealth 4+4+1 = 9, by 3; Perception 4D 1+1+1+1 = 4, by 8: spotted. No line of sight for orc2: still hidden.
	events, _ := do(t, st, gm, cmd(CmdStealth, "ana"), 4, 4, 1, 1, 1, 1, 1)
	var s StealthCheck
	decodeOne(t, events, KindStealth, &s)
	eq(t, "orc1 spots her", s.Results["orc1"], 0)
	eq(t, "orc2", s.Results["orc2"], 1)
	// A failed Stealth check: no one is fooled, whatever their roll.
	events, _ = do(t, st, gm, cmd(CmdStealth, "ana"), 5, 5, 5, 5, 5, 5, 5)
	decodeOne(t, events, KindStealth, &s)
	eq(t, "orc1", s.Results["orc1"], 0)
	eq(t, "orc2", s.Results["orc2"], 0)
}

// Stealth needs at most one move and no dash; a second move gives the
// hider away.
func TestStealthNeedsStillness(t *testing.T) {
	st := hiders(t, nil)
	_, st = do(t, st, gm, cmd(CmdStealth, "ana"), 1, 1, 1, 5, 5, 5, 4)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"))
	eq(t, "still hidden after one move", st.Fighters["ana"].Unseen["orc1"], 1)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,0"))
	eq(t, "a second move gives her away", len(st.Fighters["ana"].Unseen), 0)

	st = hiders(t, nil)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"))
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,0"))
	eq(t, "after two moves", fail(t, st, gm, cmd(CmdStealth, "ana"), fray.EILLEGAL),
		"Ana moved more than once this turn: Stealth needs one move at most, or staying put")
	st = hiders(t, nil)
	_, st = do(t, st, gm, cmd(CmdDash, "ana", "to", "0,2"))
	eq(t, "after a dash", fail(t, st, gm, cmd(CmdStealth, "ana"), fray.EILLEGAL),
		"Ana dashed: Stealth needs one move at most, or staying put")
}

// Area fire hits the hidden; everyone in the square takes a Terror check.
func TestAreaFireHitsTheHidden(t *testing.T) {
	st := hiders(t, nil)
	_, st = do(t, st, gm, cmd(CmdStealth, "ana"), 1, 1, 1, 5, 5, 5, 4)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// 4D +1D light cover +2D area = 7D: all 1s, a hit by 5. Damage 3D +3: 1+1+1. Terror 3D vs Willpower 12: 1+1+1.
	events, st := do(t, st, gm, cmd(CmdAreaFire, "orc1", "weapon", "grenade", "cell", "0,0", "mode", "aimed"), append(ones(7), 1, 1, 1, 1, 1, 1)...)
	r := rollOf(t, events, "Area fire")
	eq(t, "dice", dieCount(r), 7)
	var h Harmed
	decodeOne(t, events, KindHarm, &h)
	eq(t, "the hidden one is hit", h.Fighter, "ana")
	eq(t, "as if hit by 3", h.Damage, 3+3)
	_ = st
}

func TestSlipAway(t *testing.T) {
	st := hiders(t, nil)
	eq(t, "not yet", fail(t, st, gm, cmd(CmdSlipAway, "ana"), fray.EILLEGAL), "Ana can slip away only once every opponent is unaware of them")
	_, st = do(t, st, gm, cmd(CmdStealth, "ana"), 1, 1, 1, 5, 5, 5, 4)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc1"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc2"), 1, 1, 1)
	_, st = do(t, st, gm, cmd(CmdStealth, "ana"), 1, 1, 1, 5, 5, 5, 4)
	events, st := do(t, st, gm, cmd(CmdSlipAway, "ana"))
	eq(t, "out", st.Combatant("ana").Out, true)
	eq(t, "status", st.Fighters["ana"].Status, "slipped away")
	eq(t, "the fight is over", st.Status, engine.StatusFinished)
	eq(t, "winner", st.Outcome.Winner, "foes")
	_ = events
}
