package d20under

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// Advantage (spec c6), optional criticals (c8), Critical Damage (c9).

// trio is ana (Accurate 13) and bo, player characters, and an orc
// (Defense 8 in medium armour, flat 3; Strong 13: Toughness 13, Pain
// Threshold 7) at 2,1. Ana stands at 1,1; bo at bx,by.
func trio(t *testing.T, opts map[string]string, bx, by int, orc map[string]any) *State {
	t.Helper()
	o := spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 13, Accurate: 10}, Armour: map[string]any{"type": "medium"}, Stats: orc}
	return begin(t, newState(t, gridSetup(opts, 8, 5, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 13}},
		spec{ID: "bo", Side: "heroes", PC: true, X: bx, Y: by, Attr: map[string]int{Accurate: 13, Quick: 12}},
		o,
	)))
}

func TestAdvantageFromFlanking(t *testing.T) {
	// Bo on the orc's far side: both have the Advantage, +2 (target 17)
	// and +1d4 damage.
	st := trio(t, noCrit, 3, 1, nil)
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 17, 4, 3)
	r := rollOf(t, events, "Attack")
	eq(t, "target", r.Target, 17)
	if v, ok := hasMod(r, "Advantage (flanking)"); !ok || v != 2 {
		t.Errorf("mods %+v", r.Mods)
	}
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "1d8 4 + 1d4 3", d.Rolled, 7)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	events, _ = do(t, st, gm, cmd(CmdAttack, "bo", "target", "orc"), 17, 1, 1)
	eq(t, "bo too", rollOf(t, events, "Attack").Target, 17)
	// Side by side is no flanking: bo at 1,2 next to ana.
	st = trio(t, noCrit, 1, 2, nil)
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 16)
	eq(t, "no Advantage", rollOf(t, events, "Attack").Target, 15)
	// Option: any two attackers engaged flank.
	st = trio(t, map[string]string{OptCriticals: Off, OptGridFlanking: FlankAny}, 1, 2, nil)
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 18)
	eq(t, "any two", rollOf(t, events, "Attack").Target, 17)
}

func TestAdvantageAgainstTheProne(t *testing.T) {
	st := trio(t, noCrit, 6, 4, nil)
	_, st = do(t, st, gm, cmd(GMCondition, "", "combatant", "orc", "condition", "prone", "on", true))
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 17, 1, 1)
	r := rollOf(t, events, "Attack")
	if v, ok := hasMod(r, "Advantage (prone target)"); !ok || v != 2 {
		t.Errorf("mods %+v", r.Mods)
	}
}

func TestBlindness(t *testing.T) {
	st := trio(t, noCrit, 6, 4, nil)
	_, st = do(t, st, gm, cmd(GMCondition, "", "combatant", "ana", "condition", "blinded", "on", true))
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 16)
	r := rollOf(t, events, "Attack")
	eq(t, "blinded: two dice, the worse kept", r.Total, 16)
	// Both blinded: no change.
	_, st = do(t, st, gm, cmd(GMCondition, "", "combatant", "orc", "condition", "blinded", "on", true))
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 1)
	eq(t, "both blinded: one die", len(rollOf(t, events, "Attack").Dice), 1)
	// Only the enemy blinded: the player rolls twice and keeps the better.
	_, st = do(t, st, gm, cmd(GMCondition, "", "combatant", "ana", "condition", "blinded", "on", false))
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 18, 3, 1)
	eq(t, "enemy blinded: the better kept", rollOf(t, events, "Attack").Total, 3)
}

func TestOptionalCriticals(t *testing.T) {
	t.Run("attack 1: +1d6 damage", func(t *testing.T) {
		st := trio(t, nil, 6, 4, nil)
		events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 1, 4, 5)
		var a Attack
		decodeOne(t, events, KindAttack, &a)
		eq(t, "perfect", a.PerfectHit, true)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, "4 + 5", d.Rolled, 9)
		eq(t, "through flat 3", d.Damage, 6)
	})
	t.Run("attack 20: the enemy gets a free attack", func(t *testing.T) {
		st := trio(t, nil, 6, 4, nil)
		// Ana fumbles; the orc's free attack: ana's defence [13←10] = 13, a 14 is hit.
		events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 20, 14)
		fa := freeAttacks(t, events)
		if len(fa) != 1 || fa[0].Attacker != "orc" || !fa[0].Hit {
			t.Fatalf("free attacks %+v", fa)
		}
		eq(t, "ana took flat 4", st.Fighters["ana"].Toughness, 6)
	})
	t.Run("defence 1: a free attack on the attacker", func(t *testing.T) {
		st := trio(t, nil, 6, 4, nil)
		st = endTurns(t, st, "orc")
		events, _ := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 1, 3, 2)
		var a Attack
		decodeOne(t, events[:2], KindAttack, &a)
		eq(t, "perfect defence", a.PerfectDefence, true)
		eq(t, "the log", find(events, KindAttack)[0].Text, "Orc misses Ana. A perfect defence: Ana gets a free attack.")
		fa := freeAttacks(t, events)
		if len(fa) != 1 || fa[0].Attacker != "ana" || !fa[0].Hit {
			t.Fatalf("free attacks %+v", fa)
		}
	})
	t.Run("defence 1 against a shot from afar: no free attack, and none promised", func(t *testing.T) {
		// The orc archer shoots ana from 6 squares off; her defence is a 1.
		st := begin(t, newState(t, gridSetup(nil, 10, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 13}},
			spec{ID: "orc", Side: "foes", X: 7, Y: 1, Attr: map[string]int{Quick: 11, Accurate: 10},
				Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		)))
		st = endTurns(t, st, "orc")
		events, _ := do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), 1)
		var a Attack
		decodeOne(t, events, KindAttack, &a)
		eq(t, "perfect defence", a.PerfectDefence, true)
		eq(t, "the log", find(events, KindAttack)[0].Text, "Orc misses Ana. A perfect defence.")
		eq(t, "no free attack", len(freeAttacks(t, events)), 0)
	})
	t.Run("defence 20: +3 damage", func(t *testing.T) {
		st := trio(t, nil, 6, 4, nil)
		st = endTurns(t, st, "orc")
		events, _ := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, "flat 4 + 3", d.Rolled, 7)
	})
	t.Run("off", func(t *testing.T) {
		st := trio(t, noCrit, 6, 4, nil)
		events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 1, 4)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, "no extra die", d.Rolled, 4)
	})
}

func TestCriticalDamage(t *testing.T) {
	// The orc's Pain Threshold is 7; a maul's 10 against flat armour 3 is
	// 7 (no Critical Damage), with a +1 bonus 8 (Critical Damage).
	for _, tc := range []struct {
		bonus    int
		critical bool
	}{{0, false}, {1, true}} {
		st := begin(t, newState(t, gridSetup(noCrit, 6, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
				Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy", "bonus": tc.bonus}}},
			spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 13}, Armour: map[string]any{"type": "medium"}},
		)))
		events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 10)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, "damage", d.Damage, 7+tc.bonus)
		eq(t, "pain at PT", d.Pain, true)
		eq(t, "critical", d.Critical, tc.critical)
		eq(t, "state", st.Fighters["orc"].Critical, tc.critical)
		if !tc.critical {
			continue
		}
		// The critically damaged orc (prone in pain, too: +1d4): the player
		// rolls twice and keeps the better.
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		st = endTurns(t, st, "ana")
		events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 19, 4, 1, 1)
		r := rollOf(t, events, "Attack")
		eq(t, "two dice", len(r.Dice), 2)
		eq(t, "the better", r.Total, 4)
	}
}

func TestCriticalDamageOnAPlayerAndHealing(t *testing.T) {
	// Ana (Strong 10: PT 5) takes a maul's flat 5… and +3 from a fumbled
	// defence: 8 > 5.
	st := begin(t, newState(t, gridSetup(nil, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Stats: map[string]any{"items": map[string]int{ItemHerbalCure: 1}}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11}, Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy"}}},
	)))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
	eq(t, "critical", st.Fighters["ana"].Critical, true)
	eq(t, "toughness", st.Fighters["ana"].Toughness, 2)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	// Her own tests: two dice, the worse kept.
	events, st := do(t, st, gm, cmd(CmdStand, "ana"), 2, 9)
	eq(t, "the worse", rollOf(t, events, "Stand up").Total, 9)
	// One point of Toughness healed ends it.
	_, st = do(t, st, gm, cmd(CmdUseItem, "ana", "item", ItemHerbalCure, "target", "ana"))
	eq(t, "over", st.Fighters["ana"].Critical, false)
}

func TestUndeadHaveNoPainThreshold(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy"}}},
		spec{ID: "dead", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 15}, Stats: map[string]any{"undead": true}},
	)))
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "dead"), 3, 10)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "10 through", d.Damage, 10)
	eq(t, "no pain", d.Pain, false)
	eq(t, "immune", st.Fighters["dead"].Critical, false)
	eq(t, "not prone", st.Fighters["dead"].Prone, false)
	// At 0 it is destroyed.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	st = endTurns(t, st, "ana")
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "dead"), 3, 5)
	if c := st.Combatant("dead"); !c.Out {
		t.Fatal("destroyed at 0")
	}
	eq(t, "the fight is over", st.Status, engine.StatusFinished)
}
