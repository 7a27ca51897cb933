package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// A hit by 10 with the bow: 4D of 1s against 14, then damage 2D+2+10.
var hitBy10 = []int{1, 1, 1, 1}

// Serious wounds bleed at the start of every round; blood loss of Blood
// knocks a combatant out, and the fight ends when a side has no one left
// standing.
func TestBleedingToTheEnd(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(6, 6),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10, Blood: 2},
	)))
	// Two Serious wounds: 1+1+2+10 = 14 each (snapshots: 5D, by 9).
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	eq(t, "wound", st.Fighters["orc"].WoundLevel(), WoundSerious)
	eq(t, "penalty", woundPenalty(&st.Base, st.Fighters["orc"]), 2)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// Orc's shot is at −2 for its wound.
	events, st := do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "snapshot"), 5, 5, 5, 5, 5)
	_, r := attackRoll(t, events)
	eq(t, "orc's skill", r.Target, 14-2)
	if !hasMod(r, "wounds", -2, "") {
		t.Errorf("no wound penalty: %+v", r.Mods)
	}
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	// Round 2: orc bleeds 1 (blood loss 1 of 2) before initiative.
	eq(t, "blood loss", st.Fighters["orc"].BloodLoss, 1)
	eq(t, "round", st.Round, 2)
	// Ana's arrow is still to be reloaded: 1 action, then a snapshot and another Serious wound.
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "bow"))
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	eq(t, "bleeding", bleeding(st.Fighters["orc"]), 2)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	events, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	// Round 3: orc loses 2 more (3 of 2): unconscious, and the foes have no one standing.
	eq(t, "down", st.Combatant("orc").Down, true)
	eq(t, "status", st.Fighters["orc"].Status, "unconscious")
	eq(t, "over", st.Status, engine.StatusFinished)
	eq(t, "winner", st.Outcome.Winner, "heroes")
	eq(t, "no third round", len(find(events, KindInitiative)), 0)
}

// Twice Blood lost, or a second Lethal wound, kills.
func TestDeath(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(6, 6),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10, Toughness: 5},
		spec{ID: "gob", Side: "foes", X: 5, Y: 5, Init: 5},
	)))
	// Hit by 10: 1+1+2+10 = 14 ≥ 2 × 5: Lethal, twice.
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	eq(t, "lethal", st.Fighters["orc"].WoundLevel(), WoundLethal)
	eq(t, "still fighting", st.Combatant("orc").Fighting(), true)
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "bow"))
	events, st := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	eq(t, "dead", st.Combatant("orc").Out, true)
	eq(t, "status", st.Fighters["orc"].Status, "dead")
	if len(find(events, engine.KindCombatantOut)) != 1 {
		t.Errorf("no combatant-out: %v", kinds(events))
	}
}

// First aid: Medicine 3D in close contact; success bandages the worst
// bleeding wound, a critical success every one.
func TestFirstAid(t *testing.T) {
	setup := func() *State {
		return start(t, newState(t, newSetup(nil, grid(6, 6),
			spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 30},
			spec{ID: "ana", Side: "heroes", X: 0, Y: 0, Group: "g", PC: true, Init: 20},
			spec{ID: "bram", Side: "heroes", X: 0, Y: 0, Group: "g", PC: true, Init: 10},
		)))
	}
	wound := func(st *State) *State {
		// Two Serious wounds on ana: snapshots by 9, 1+1+2+9 = 13.
		_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
		_, st = do(t, st, gm, cmd(CmdReload, "orc", "weapon", "bow"))
		_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		eq(t, "bleeding", bleeding(st.Fighters["ana"]), 2)
		return st
	}
	st := wound(setup())
	// Bram: Medicine 12, 3D 4+4+3 = 11, a success: one wound.
	events, st := do(t, st, engine.PlayerViewer("bram"), cmd(CmdFirstAid, "bram", "target", "ana"), 4, 4, 3)
	var fa FirstAid
	decodeOne(t, events, KindFirstAid, &fa)
	eq(t, "bandaged", len(fa.Bandaged), 1)
	eq(t, "bleeding", bleeding(st.Fighters["ana"]), 1)
	eq(t, "actions", st.Fighters["bram"].Actions, 1)

	st = wound(setup())
	_, st = do(t, st, gm, cmd(CmdFirstAid, "bram", "target", "ana"), 1, 1, 1)
	eq(t, "a critical success bandages every wound", bleeding(st.Fighters["ana"]), 0)
	eq(t, "nothing left to bandage", fail(t, st, gm, cmd(CmdFirstAid, "bram", "target", "ana"), fray.EILLEGAL), "Ana has no bleeding wound")
}

func TestFirstAidNeedsContact(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(6, 6),
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 30},
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 20},
		spec{ID: "bram", Side: "heroes", X: 0, Y: 0, PC: true, Init: 10},
	)))
	_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	eq(t, "no contact", fail(t, st, gm, cmd(CmdFirstAid, "bram", "target", "ana"), fray.EILLEGAL), "first aid needs close contact with Ana")
}
