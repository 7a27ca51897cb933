package d20tactical

import (
	"fmt"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestHitPoints: 0 disabled, −1 … −9 dying, −10 dead.
func TestHitPoints(t *testing.T) {
	cases := []struct {
		name   string
		hp     int // bo's hit points before the knife's 1d4 = 3 (+ Strength 0)
		status string
		down   bool
		out    bool
	}{
		{"to 0: disabled", 3, "disabled", false, false},
		{"to −1: dying", 2, "dying", true, false},
		{"to −9: dying", -6, "dying", true, false},
		{"to −10: dead", -7, "dead", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			with := []func([]spec){stat(1, "wounds", 20-c.hp)}
			var st *State
			if c.hp < 0 {
				// Start unconscious but stable, then hit again.
				st = skirmish(t, nil, with...)
			} else {
				st = skirmish(t, nil, with...)
			}
			_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 15, 3)
			bo := st.Fighters["bo"]
			eq(t, "hp", bo.HP, c.hp-3)
			eq(t, "status", status(bo), c.status)
			eq(t, "down", st.Combatant("bo").Down, c.down)
			eq(t, "out", st.Combatant("bo").Out, c.out)
			if c.down {
				eq(t, "prone", bo.Posture, Prone)
			}
		})
	}
}

// TestDisabled: one move or standard action a turn; a standard action
// costs a hit point and leaves it dying.
func TestDisabled(t *testing.T) {
	st := skirmish(t, nil, stat(1, "wounds", 20))
	st = endTurns(t, st, "bo")
	eq(t, "single", st.Fighters["bo"].Budget.Single, true)
	events, st := do(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "knife"), 5)
	eq(t, "strained", st.Fighters["bo"].HP, -1)
	eq(t, "down", st.Combatant("bo").Down, true)
	eq(t, "turn passed", st.Current(), "cy")
	_ = events
	// A move instead costs nothing, and ends the turn.
	st = skirmish(t, nil, stat(1, "wounds", 20), at(1, 5, 5))
	st = endTurns(t, st, "bo")
	_, st = do(t, st, gm, cmd(CmdMove, "bo", "to", "6,5"))
	_, st = do(t, st, gm, cmd(CmdMove, "bo", "to", "7,5")) // the rest of the one move action
	fail(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "pistol"), "illegal")
	eq(t, "unhurt", st.Fighters["bo"].HP, 0)
}

// TestDying: each of its turns a dying combatant rolls d%: 10 or less
// stabilises, else it loses a hit point. A stable one rolls no more.
func TestDying(t *testing.T) {
	st := skirmish(t, nil, stat(1, "wounds", 20))
	// Knock bo to −1.
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 15, 1)
	eq(t, "dying", status(st.Fighters["bo"]), "dying")
	// ana's turn ends: bo's turn is his roll (11: −2), then cy's turn.
	events, st := do(t, st, gm, cmd(CmdEndTurn, "ana"), 11)
	var s Stabilized
	decodeOne(t, events, KindStabilize, &s)
	eq(t, "bleeding", s.HP, -2)
	eq(t, "cy's turn", st.Current(), "cy")
	st = nextTurnOf(t, st, "ana")
	events, st = do(t, st, gm, cmd(CmdEndTurn, "ana"), 10)
	decodeOne(t, events, KindStabilize, &s)
	eq(t, "stable", st.Fighters["bo"].Stable, true)
	eq(t, "hp", st.Fighters["bo"].HP, -2)
	// Stable: no more rolls.
	st = nextTurnOf(t, st, "ana")
	events, _ = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	eq(t, "no roll", len(find(events, KindStabilize)), 0)
	// Bleeding to −10 kills.
	st = skirmish(t, nil, stat(1, "wounds", 20+8))
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "unarmed"), 18, 1) // 1d3 = 1: −9
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"), 50)
	eq(t, "dead", st.Fighters["bo"].Dead, true)
	eq(t, "out", st.Combatant("bo").Out, true)
}

// TestTreatAndHeal: Treat Injury DC 15 stabilises a dying ally; the GM
// heals, and a healed combatant gets up.
func TestTreatAndHeal(t *testing.T) {
	specs := []spec{
		{ID: "ana", Side: "heroes", X: 2, Y: 2, PC: true, Stats: map[string]any{"skills": map[string]int{"treatInjury": 5}}},
		{ID: "di", Side: "heroes", X: 2, Y: 3, Stats: map[string]any{"wounds": 21}},
		{ID: "bo", Side: "foes", X: 9, Y: 9},
	}
	_, st := start(t, newState(t, newSetup(nil, field(20, 10), specs...)), 20, 10, 5)
	eq(t, "di starts down", st.Combatant("di").Down, true)
	eq(t, "and stable", st.Fighters["di"].Stable, true)
	fail(t, st, gm, cmd(CmdTreat, "ana", "target", "di"), "illegal")
	// A blow makes her dying again.
	_, st = do(t, st, gm, cmd(CmdDamage, "", "combatant", "di", "amount", 1))
	eq(t, "dying", status(st.Fighters["di"]), "dying")
	fail(t, st, gm, cmd(CmdTreat, "ana", "target", "bo"), "illegal")
	events, st2 := do(t, st, gm, cmd(CmdTreat, "ana", "target", "di"), 10)
	eq(t, "10 + 5 stabilises", st2.Fighters["di"].Stable, true)
	eq(t, "treat event", len(find(events, KindTreat)), 1)
	_, st2 = do(t, st, gm, cmd(CmdTreat, "ana", "target", "di"), 9)
	eq(t, "14 does not", st2.Fighters["di"].Stable, false)
	// The GM heals di by 5: at 4 she is up again.
	_, st2 = do(t, st, gm, cmd(CmdHeal, "", "combatant", "di", "hp", 5))
	eq(t, "hp", st2.Fighters["di"].HP, 3)
	eq(t, "up", st2.Combatant("di").Down, false)
	fail(t, st, gm, cmd(CmdHeal, "", "combatant", "bo", "hp", 5), "illegal")
}

// TestMassiveDamage: a hit of at least the threshold (Constitution, 10)
// forces a DC 15 Fortitude save — failing drops to −1 (d20 Modern) or
// kills (option) — unless the target spends a Life Point.
func TestMassiveDamage(t *testing.T) {
	con := map[string]string{OptMassiveThreshold: ThresholdCon}
	hit := func(t *testing.T, opts map[string]string, with ...func([]spec)) *State {
		st := skirmish(t, opts, append([]func([]spec){at(1, 0, 9)}, with...)...)
		// The rifle at cy: 2d8 = 6 + 6 = 12 ≥ Con 10.
		_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 15, 6, 6)
		return st
	}
	st := hit(t, con)
	d := pendingKind(t, st, DecMassive)
	eq(t, "cy's controller (the GM)", d.For, "cy")
	// Spending avoids the damage.
	_, st2 := answer(t, st, gm, DecMassive, "spend", nil)
	eq(t, "life points", st2.Fighters["cy"].LifePoints, 2)
	eq(t, "unhurt", st2.Fighters["cy"].HP, 20)
	// Taking it: Fortitude 14 fails: −1.
	_, st2 = answer(t, st, gm, DecMassive, "take", nil, 14)
	eq(t, "dropped to −1", st2.Fighters["cy"].HP, -1)
	eq(t, "dying", st2.Combatant("cy").Down, true)
	// 15 saves: 8 left.
	_, st2 = answer(t, st, gm, DecMassive, "take", nil, 15)
	eq(t, "saved", st2.Fighters["cy"].HP, 8)
	// Failing kills under the d20 System's rule.
	st = hit(t, map[string]string{OptMassiveThreshold: ThresholdCon, OptMassiveFailure: FailDead})
	_, st2 = answer(t, st, gm, DecMassive, "take", nil, 3)
	eq(t, "dead", st2.Fighters["cy"].Dead, true)
	// Spending only skips the save (option): the damage stands.
	st = hit(t, map[string]string{OptMassiveThreshold: ThresholdCon, OptLifePointSpend: SpendSave})
	_, st2 = answer(t, st, gm, DecMassive, "spend", nil)
	eq(t, "damage stands", st2.Fighters["cy"].HP, 8)
	// With one Life Point left (spending it would kill) there is no offer:
	// the save is rolled at once.
	st = skirmish(t, con, at(1, 0, 9), stat(2, "lifePoints", 1))
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 15, 6, 6, 15)
	eq(t, "no offer", len(st.Pending), 0)
	eq(t, "saved", len(find(events, KindSave)), 1)
	// Under the threshold of 50 nothing happens.
	st = hit(t, nil)
	eq(t, "no question", len(st.Pending), 0)
	eq(t, "hp", st.Fighters["cy"].HP, 8)
}

// TestArmourPoints: below half (round down) of its points the armour
// gives −1 Defense; at 0 it is useless; fire and acid cost points.
func TestArmourPoints(t *testing.T) {
	cases := []struct {
		left, defense int
	}{
		{10, 12}, {5, 12}, {4, 11}, {1, 11}, {0, 10},
	}
	for _, c := range cases {
		st := skirmish(t, nil, stat(1, "armor", map[string]any{"defense": 2, "points": 10, "current": c.left}))
		eq(t, "Defense", st.Fighters["bo"].Defense(), c.defense)
	}
	st := skirmish(t, nil, stat(1, "armor", vest))
	_, st = do(t, st, gm, cmd(CmdArmour, "", "combatant", "bo", "lost", 6))
	eq(t, "acid", st.Fighters["bo"].ArmorLeft, 4)
	eq(t, "worn", st.Fighters["bo"].Defense(), 11)
	_, st = do(t, st, gm, cmd(CmdArmour, "", "combatant", "bo", "lost", -2))
	eq(t, "repaired", st.Fighters["bo"].ArmorLeft, 6)
	fail(t, st, gm, cmd(CmdArmour, "", "combatant", "ana", "lost", 1), "illegal")
	// Every number the form offers is a legal ruling: 0, or more than is
	// left (to 0), or a repair past full (to full); nothing to lose or to
	// repair leaves the armour as it is.
	for _, c := range []struct {
		lost, left int
	}{{0, 6}, {20, 0}, {1, 0}, {-20, 10}, {-1, 10}} {
		_, st = do(t, st, gm, cmd(CmdArmour, "", "combatant", "bo", "lost", c.lost))
		eq(t, fmt.Sprintf("lost %d", c.lost), st.Fighters["bo"].ArmorLeft, c.left)
	}
	fail(t, st, gm, cmd(CmdArmour, "", "combatant", "bo", "lost", 1000), "invalid")
}

// TestGMDamageAndLifePoints: the GM's harm (a fall, a car) with the
// massive-damage rules; Life Points set by the GM, 0 kills.
func TestGMDamageAndLifePoints(t *testing.T) {
	st := skirmish(t, nil)
	_, st2 := do(t, st, gm, cmd(CmdDamage, "", "combatant", "bo", "amount", 4))
	eq(t, "hp", st2.Fighters["bo"].HP, 16)
	_, st2 = do(t, st, gm, cmd(CmdDamage, "", "combatant", "bo", "amount", 4, "massive", true))
	d := pendingKind(t, st2, DecMassive)
	_ = d
	_, st2 = answer(t, st2, gm, DecMassive, "spend", nil)
	eq(t, "spent", st2.Fighters["bo"].LifePoints, 2)
	eq(t, "avoided", st2.Fighters["bo"].HP, 20)
	_, st2 = do(t, st, gm, cmd(CmdLifePoints, "", "combatant", "bo", "value", 5))
	// The form's default, 3, is bo's own: the GM's ruling that they stay.
	same, _ := do(t, st, gm, cmd(CmdLifePoints, "", "combatant", "bo", "value", 3))
	eq(t, "kept", same[0].Text, "The GM rules Bo keeps 3 Life Points.")
	eq(t, "set", st2.Fighters["bo"].LifePoints, 5)
	events, st2 := do(t, st, gm, cmd(CmdLifePoints, "", "combatant", "bo", "value", 0))
	eq(t, "0 kills", st2.Combatant("bo").Out, true)
	_ = events
	fail(t, st, engine.PlayerViewer("ana"), cmd(CmdDamage, "", "combatant", "bo", "amount", 4), "forbidden")
	fail(t, st, gm, cmd(CmdDamage, "", "combatant", "bo", "amount", 0), "invalid")
	fail(t, st, gm, cmd(CmdDamage, "ana", "combatant", "bo", "amount", 3), "invalid")
}
