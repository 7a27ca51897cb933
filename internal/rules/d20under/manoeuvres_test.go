package d20under

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Manoeuvres (spec c14).

// brawl is ana (PC: Accurate 13, Strong 12, Quick 12) next to an orc
// (Strong 13, Quick 11, Accurate 12, Defense 11, a sword).
func brawl(t *testing.T, opts map[string]string, ana, orc map[string]any) *State {
	t.Helper()
	return begin(t, newState(t, gridSetup(withOpts(opts), 10, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Strong: 12, Quick: 12}, Stats: ana},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Strong: 13, Quick: 11, Accurate: 12}, Stats: orc},
	)))
}

func TestCarefulAimTakesTheMovementAction(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "orc", Side: "foes", X: 6, Y: 1},
	)))
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", VolleyCareful), 20, 20)
	eq(t, "movement action used", st.Fighters["ana"].Moves, 0)
	st = begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "orc", Side: "foes", X: 6, Y: 1},
	)))
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"))
	fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", VolleyCareful), fray.EILLEGAL)
	for _, a := range New().Actions(st, gm) {
		if a.Kind == CmdShoot {
			for _, f := range a.Fields {
				for _, o := range f.Options {
					if o.Value == VolleyCareful {
						t.Error("Careful Aim offered without a movement action")
					}
				}
			}
		}
	}
}

func TestChargeOnTheGrid(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 12, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12}},
		spec{ID: "orc", Side: "foes", X: 9, Y: 1, Attr: map[string]int{Quick: 10}},
	)))
	// Eight squares in a line: within two movement actions.
	events, st := do(t, st, gm, cmd(CmdCharge, "ana", "target", "orc"), 3, 5)
	eq(t, "next to the orc", st.Fighters["ana"].X, 8)
	var a Attack
	decodeOne(t, events, KindAttack, &a)
	eq(t, "a charge", a.Mode, ModeCharge)
	eq(t, "hit", a.Hit, true)
	eq(t, "the whole turn", st.Fighters["ana"].Combat, false)
	// A miss gives the target a free attack.
	st = begin(t, newState(t, gridSetup(noCrit, 12, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12}},
		spec{ID: "orc", Side: "foes", X: 9, Y: 1, Attr: map[string]int{Quick: 10}},
	)))
	events, _ = do(t, st, gm, cmd(CmdCharge, "ana", "target", "orc"), 20, 20)
	if fa := freeAttacks(t, events); len(fa) != 1 || fa[0].Attacker != "orc" {
		t.Fatalf("free attacks %+v", fa)
	}
	// Too far: eleven squares.
	st = begin(t, newState(t, gridSetup(noCrit, 14, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1}, spec{ID: "orc", Side: "foes", X: 12, Y: 1})))
	fail(t, st, gm, cmd(CmdCharge, "ana", "target", "orc"), fray.EILLEGAL)
}

func TestDisarm(t *testing.T) {
	// [Accurate 13 ← Strong 13] = 10.
	st := brawl(t, noCrit, nil, nil)
	events, st := do(t, st, gm, cmd(CmdDisarm, "ana", "target", "orc"), 10)
	eq(t, "label", rollOf(t, events, "Disarm").Label, "Disarm: Accurate against Strong")
	eq(t, "target", rollOf(t, events, "Disarm").Target, 10)
	eq(t, "no damage", len(find(events, KindDamage)), 0)
	eq(t, "sword dropped", st.Fighters["orc"].Drawn, false)
	eq(t, "the orc punches now", st.Fighters["orc"].weapon().ID, unarmedWeapon.ID)
	st = brawl(t, noCrit, nil, nil)
	events, _ = do(t, st, gm, cmd(CmdDisarm, "ana", "target", "orc"), 11, 20)
	if fa := freeAttacks(t, events); len(fa) != 1 || fa[0].Attacker != "orc" {
		t.Fatalf("a failure gives a free attack: %+v", fa)
	}
}

func TestFullDefenceAndFullOffense(t *testing.T) {
	st := brawl(t, noCrit, nil, nil)
	_, st = do(t, st, gm, cmd(CmdFullDefence, "ana"))
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	events, st := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 17, 4)
	r := rollOf(t, events, "Defence")
	eq(t, "a second chance on defence", r.Total, 4)
	// Full Offense: a second chance on melee attacks, to fail defences.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	eq(t, "defence over at her turn", st.Fighters["ana"].FullDefence, false)
	_, st = do(t, st, gm, cmd(CmdFullOffense, "ana"))
	events, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 18, 3, 2)
	eq(t, "the better attack", rollOf(t, events, "Attack").Total, 3)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	events, _ = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 2, 18)
	eq(t, "the worse defence", rollOf(t, events, "Defence").Total, 18)
}

func TestHold(t *testing.T) {
	// [Strong 12 ← Strong 13] = 9; the orc is Robust II (+4): 5; ana is
	// Robust I (+2): 7.
	st := brawl(t, noCrit, map[string]any{"traits": map[string]int{"robust": 1}}, map[string]any{"traits": map[string]int{"robust": 2}})
	events, st := do(t, st, gm, cmd(CmdHold, "ana", "target", "orc"), 7)
	eq(t, "target", rollOf(t, events, "Hold").Target, 7)
	eq(t, "held", st.Fighters["orc"].HeldBy, "ana")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	fail(t, st, gm, cmd(CmdMove, "orc", "to", "4,1"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 7) // ana's turn: the hold kept
	eq(t, "kept", st.Fighters["orc"].HeldBy, "ana")
	eq(t, "ana does nothing else", st.Fighters["ana"].Combat || st.Fighters["ana"].Moves > 0, false)
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// Next round the test fails: the orc breaks free with a free attack.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 8, 20)
	eq(t, "free", st.Fighters["orc"].HeldBy, "")
	eq(t, "ana hit by the free attack", st.Fighters["ana"].Toughness < 10, true)
}

func TestKnockOut(t *testing.T) {
	mk := func() *State {
		st := brawl(t, noCrit, nil, nil)
		_, st = do(t, st, gm, cmd(GMAdvantage, "", "attacker", "ana", "target", "orc"))
		return st
	}
	st := brawl(t, noCrit, nil, nil)
	fail(t, st, gm, cmd(CmdKnockOut, "ana", "target", "orc"), fray.EILLEGAL) // no Advantage
	// A hit: 1d8 5 + Advantage 1d4 3 = 8 against no armour; d12 7 < 8.
	st = mk()
	events, st := do(t, st, gm, cmd(CmdKnockOut, "ana", "target", "orc"), 3, 5, 3, 7)
	eq(t, "no damage", len(find(events, KindDamage)), 0)
	d := pendingKind(t, st, DecKnockOut)
	eq(t, "the GM says how long", d.For, engine.GM)
	_, st = answer(t, st, gm, DecKnockOut, "out", map[string]any{"rounds": 2})
	eq(t, "down", st.Combatant("orc").Down, true)
	eq(t, "unconscious", st.Fighters["orc"].Unconscious, 2)
	eq(t, "the fight is won", st.Status, engine.StatusFinished)
	// d12 8 is not lower than 8.
	st = mk()
	_, st = do(t, st, gm, cmd(CmdKnockOut, "ana", "target", "orc"), 3, 5, 3, 8)
	eq(t, "no question", len(st.Pending), 0)
	eq(t, "up", st.Combatant("orc").Down, false)
	// A miss loses the Advantage.
	st = mk()
	_, st = do(t, st, gm, cmd(CmdKnockOut, "ana", "target", "orc"), 20)
	eq(t, "advantage lost", st.Fighters["ana"].Edge["orc"], 0)
}

func TestPoisonOnWeapons(t *testing.T) {
	ana := map[string]any{"items": map[string]int{ItemWeakPoison: 2}}
	st := brawl(t, noCrit, ana, nil)
	_, st = do(t, st, gm, cmd(CmdPoison, "ana", "weapon", "sword", "poison", ItemWeakPoison), 10)
	eq(t, "coated", st.Fighters["ana"].WeaponPoison["sword"], 4)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	// A hit that deals damage poisons: 1d4 turns (3).
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 5, 3)
	eq(t, "poisoned", st.Fighters["orc"].PoisonTurns, 3)
	eq(t, "one hit's worth", st.Fighters["ana"].WeaponPoison["sword"], 0)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"), 2) // the orc's turn: 1d4 poison
	eq(t, "poison damage", st.Fighters["orc"].Toughness, 13-5-2)
	eq(t, "turns left", st.Fighters["orc"].PoisonTurns, 2)
	// A 20 poisons the user.
	st = brawl(t, noCrit, ana, nil)
	_, st = do(t, st, gm, cmd(CmdPoison, "ana", "weapon", "sword", "poison", ItemWeakPoison), 20, 2)
	eq(t, "ana poisoned", st.Fighters["ana"].PoisonTurns, 2)
}

func TestPushBack(t *testing.T) {
	st := brawl(t, noCrit, nil, nil)
	// Half of 1d8 6 against no armour: 3; three squares back.
	events, st := do(t, st, gm, cmd(CmdPushBack, "ana", "target", "orc"), 3, 6)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "half damage", d.Damage, 3)
	eq(t, "pushed 3 squares", st.Fighters["orc"].X, 5)
	eq(t, "both actions", st.Fighters["ana"].Combat || st.Fighters["ana"].Moves > 0, false)
	_, st = answer(t, st, gm, DecPushHazard, "hazard", map[string]any{"damage": 4, "prone": true})
	eq(t, "hazard damage", st.Fighters["orc"].Toughness, 13-3-4)
	eq(t, "prone", st.Fighters["orc"].Prone, true)
	// Only at the start of a turn.
	st = brawl(t, noCrit, nil, nil)
	_, st = do(t, st, gm, cmd(CmdFullOffense, "ana"))
	msg := fail(t, st, gm, cmd(CmdPushBack, "ana", "target", "orc"), fray.EILLEGAL)
	if !strings.Contains(msg, "start the turn") {
		t.Errorf("message %q", msg)
	}
	// A miss: a free attack.
	st = brawl(t, noCrit, nil, nil)
	events, _ = do(t, st, gm, cmd(CmdPushBack, "ana", "target", "orc"), 20, 20)
	eq(t, "free attack", len(freeAttacks(t, events)), 1)
}

func TestTackle(t *testing.T) {
	// [Strong 12 + Robust I's 2 ← Strong 13] = 11; then Quick 12.
	st := brawl(t, noCrit, map[string]any{"traits": map[string]int{"robust": 1}}, nil)
	events, st := do(t, st, gm, cmd(CmdTackle, "ana", "target", "orc"), 11, 12)
	eq(t, "target", rollOf(t, events, "Tackle").Target, 11)
	eq(t, "down", st.Fighters["orc"].Prone, true)
	eq(t, "ana stands", st.Fighters["ana"].Prone, false)
	st = brawl(t, noCrit, nil, nil)
	_, st = do(t, st, gm, cmd(CmdTackle, "ana", "target", "orc"), 12, 13)
	eq(t, "orc stands", st.Fighters["orc"].Prone, false)
	eq(t, "ana falls anyway", st.Fighters["ana"].Prone, true)
}
