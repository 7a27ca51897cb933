package d20under

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Movement actions (spec c2), free attacks (c3), shields (c4) and the 2 m
// scale (c11). Criticals are off so that a 1 or a 20 changes nothing.

var noCrit = map[string]string{OptCriticals: Off}

// freeAttacks returns the free attacks in events.
func freeAttacks(t *testing.T, events []engine.Event) []Attack {
	t.Helper()
	var out []Attack
	for _, e := range find(events, KindAttack) {
		var a Attack
		if err := e.Decode(&a); err != nil {
			t.Fatal(err)
		}
		if a.Mode == ModeFree {
			out = append(out, a)
		}
	}
	return out
}

func TestScaleFiveSquaresAndEngagement(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 12, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "orc", Side: "foes", X: 7, Y: 1},
	)))
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), fray.EILLEGAL)
	// Two squares apart: ranged only.
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "5,1"))
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), fray.EILLEGAL)
	// Next to each other: engaged, no shooting.
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"))
	if !st.inMelee("ana", "orc") {
		t.Fatal("neighbours are engaged")
	}
	msg := fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL)
	if !strings.Contains(msg, "engaged") {
		t.Errorf("message %q", msg)
	}
	// Diagonal neighbours are engaged too.
	st2 := begin(t, newState(t, gridSetup(noCrit, 4, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 0}, spec{ID: "orc", Side: "foes", X: 1, Y: 1})))
	if !st2.inMelee("ana", "orc") {
		t.Fatal("diagonal neighbours are engaged")
	}
}

func TestEngageStopsNextToTheEnemy(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1},
		spec{ID: "orc", Side: "foes", X: 5, Y: 1},
	)))
	_, st = do(t, st, gm, cmd(CmdEngage, "ana", "target", "orc"))
	f := st.Fighters["ana"]
	if f.X != 4 || f.Y != 1 {
		t.Fatalf("ana at %d,%d, want 4,1", f.X, f.Y)
	}
	eq(t, "movement action used", f.Moves, 0)
	eq(t, "combat action kept", f.Combat, true)
}

func TestWithdrawGivesEachEngagedEnemyAFreeAttack(t *testing.T) {
	// Ana (Defense 12) engaged by two orcs (Accurate 10) who do not flank
	// her: her defence is 12.
	st := begin(t, newState(t, gridSetup(noCrit, 6, 5, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 2, Y: 1, Attr: map[string]int{Quick: 12}},
		spec{ID: "orc1", Side: "foes", X: 1, Y: 1, Attr: map[string]int{Quick: 11, Accurate: 10}},
		spec{ID: "orc2", Side: "foes", X: 2, Y: 0, Attr: map[string]int{Quick: 10, Accurate: 10}},
	)))
	events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "2,3"), 12, 13)
	fa := freeAttacks(t, events)
	if len(fa) != 2 || fa[0].Attacker != "orc1" || fa[1].Attacker != "orc2" {
		t.Fatalf("free attacks %+v", fa)
	}
	eq(t, "the first misses", fa[0].Hit, false)
	eq(t, "the second hits", fa[1].Hit, true)
	eq(t, "ana took the orc's flat 4", st.Fighters["ana"].Toughness, 6)
	eq(t, "ana moved", st.Fighters["ana"].Y, 3)
}

func TestOneFreeAttackPerTrigger(t *testing.T) {
	mk := func(limit string) *State {
		// The orc stands between ana and bo in a three-square-wide
		// corridor; cyd is far off.
		return begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off, OptFreeAttackLimit: limit}, 10, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 3, Y: 1, Attr: map[string]int{Quick: 14}},
			spec{ID: "bo", Side: "heroes", PC: true, X: 5, Y: 1, Attr: map[string]int{Quick: 13}},
			spec{ID: "cyd", Side: "heroes", PC: true, X: 9, Y: 2, Attr: map[string]int{Quick: 12}},
			spec{ID: "orc", Side: "foes", X: 4, Y: 1, Attr: map[string]int{Quick: 11}},
		)))
	}
	t.Run("two withdrawals in a round: one free attack; a move past: another", func(t *testing.T) {
		st := mk(LimitRound)
		events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"), 20)
		eq(t, "ana's withdrawal", len(freeAttacks(t, events)), 1)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		events, st = do(t, st, gm, cmd(CmdMove, "bo", "to", "8,1"))
		eq(t, "bo's withdrawal", len(freeAttacks(t, events)), 0)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "bo"))
		events, _ = do(t, st, gm, cmd(CmdMove, "cyd", "to", "1,2", "actions", 2), 20)
		if fa := freeAttacks(t, events); len(fa) != 1 || fa[0].Attacker != "orc" {
			t.Fatalf("a move past is another trigger: %+v (%v)", fa, kinds(events))
		}
	})
	t.Run("option: one per combatant's turn", func(t *testing.T) {
		st := mk(LimitTurn)
		_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"), 20)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		events, _ := do(t, st, gm, cmd(CmdMove, "bo", "to", "8,1"), 20)
		eq(t, "bo's withdrawal", len(freeAttacks(t, events)), 1)
	})
}

func TestMovePastGivesAFreeAttack(t *testing.T) {
	// A corridor two squares wide: no way past the orc but next to it.
	st := begin(t, newState(t, gridSetup(noCrit, 10, 2, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 0, Attr: map[string]int{Quick: 12}},
		spec{ID: "orc", Side: "foes", X: 4, Y: 1, Attr: map[string]int{Quick: 11}},
	)))
	events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", "7,0", "actions", 2), 20)
	fa := freeAttacks(t, events)
	if len(fa) != 1 || fa[0].Attacker != "orc" {
		t.Fatalf("free attacks %+v", fa)
	}
	if len(find(events, KindMoved)) != 2 {
		t.Fatalf("the move stops where the orc strikes, then goes on: %v", kinds(events))
	}
	eq(t, "ana arrived", st.Fighters["ana"].X, 7)
}

func TestFreeAttackOfferedToPlayers(t *testing.T) {
	st := begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off, OptFreeAttackOffers: OffersPCs}, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 10}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 12}},
	)))
	_, st = do(t, st, gm, cmd(CmdMove, "orc", "to", "4,1"))
	d := pendingKind(t, st, DecFreeAttack)
	eq(t, "asked", d.For, "ana")
	eq(t, "the orc has not left yet", st.Fighters["orc"].X, 2)
	// A player answers for their character only.
	fail(t, st, engine.PlayerViewer("bo"), engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": "attack"}), fray.EFORBIDDEN)
	events, st := answer(t, st, engine.PlayerViewer("ana"), DecFreeAttack, "attack", nil, 20)
	eq(t, "one free attack", len(freeAttacks(t, events)), 1)
	eq(t, "then the orc moves on", st.Fighters["orc"].X, 4)
}

func TestLongWeapons(t *testing.T) {
	spear := []map[string]any{{"id": "spear", "name": "Spear", "type": "long"}}
	for _, tc := range []struct {
		name           string
		ana, guard     []map[string]any
		anaPM, guardPM bool
		shield         bool
		want           []string // free attackers, in order
	}{
		{"the guard's spear strikes as ana closes", nil, spear, false, false, false, []string{"guard"}},
		{"ana's spear strikes as she closes on a sword", spear, nil, false, false, false, []string{"ana"}},
		{"spear against spear: neither", spear, spear, false, false, false, nil},
		{"Polearm Mastery (adept): when the enemy approaches, even a spear", spear, spear, false, true, false, []string{"guard"}},
		{"Polearm Mastery (adept): not when the master approaches", spear, spear, true, false, false, nil},
		{"a shield cancels the reach", nil, spear, false, false, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := spec{ID: "guard", Side: "foes", X: 5, Y: 1, Attr: map[string]int{Quick: 11}, Weapons: tc.guard}
			if tc.guardPM {
				g.Stats = map[string]any{"abilities": map[string]string{"polearm-mastery": "adept"}}
			}
			if tc.shield {
				g.Stats = map[string]any{"shield": "shield"}
			}
			a := spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Weapons: tc.ana}
			if tc.anaPM {
				a.Stats = map[string]any{"abilities": map[string]string{"polearm-mastery": "adept"}}
			}
			st := begin(t, newState(t, gridSetup(noCrit, 8, 3, nil, a, g)))
			faces := make([]int, len(tc.want))
			for i := range faces {
				faces[i] = 20 // misses: ana's attack fails, or her defence… a 20 fails too
			}
			if len(tc.want) == 1 && tc.want[0] == "guard" {
				faces = []int{1} // ana's defence passes
			}
			events, _ := do(t, st, gm, cmd(CmdEngage, "ana", "target", "guard"), faces...)
			fa := freeAttacks(t, events)
			var got []string
			for _, x := range fa {
				got = append(got, x.Attacker)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("free attacks by %v, want %v", got, tc.want)
			}
		})
	}
}

func TestStandUp(t *testing.T) {
	mk := func() *State {
		return begin(t, newState(t, gridSetup(noCrit, 6, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Props: map[string]any{"prone": true}},
			spec{ID: "orc", Side: "foes", X: 4, Y: 1, Attr: map[string]int{Quick: 11}},
		)))
	}
	st := mk()
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "2,1"), fray.EILLEGAL)
	_, passed := do(t, st, gm, cmd(CmdStand, "ana"), 12)
	eq(t, "up", passed.Fighters["ana"].Prone, false)
	eq(t, "a movement action", passed.Fighters["ana"].Moves, 0)
	eq(t, "combat action left", passed.Fighters["ana"].Combat, true)
	_, failed := do(t, st, gm, cmd(CmdStand, "ana"), 13)
	eq(t, "up anyway", failed.Fighters["ana"].Prone, false)
	eq(t, "the whole turn", failed.Fighters["ana"].Combat, false)
	events, whole := do(t, st, gm, cmd(CmdStand, "ana", "whole", true))
	eq(t, "no test", len(events[0].Rolls), 0)
	eq(t, "up", whole.Fighters["ana"].Prone, false)
	eq(t, "the whole turn", whole.Fighters["ana"].Combat, false)
}

func TestSwitchWeaponAndShield(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Stats: map[string]any{"shield": "shield"},
			Weapons: []map[string]any{{"id": "sword", "name": "Sword", "type": "one-handed"}, {"id": "bow", "name": "Bow", "type": "bow"},
				{"id": "dagger", "name": "Dagger", "type": "short"}}},
		spec{ID: "orc", Side: "foes", X: 8, Y: 1, Attr: map[string]int{Quick: 11}},
	)))
	f := st.Fighters["ana"]
	eq(t, "shield up: Defense 12 + 1", f.defense(), 13)
	// With a shield there is no shooting: the bow is not in hand.
	fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdSwitch, "ana", "weapon", "bow"))
	f = st.Fighters["ana"]
	eq(t, "bow in hand", f.Wielded, "bow")
	eq(t, "shield slung", f.ShieldUp, false)
	eq(t, "a movement action", f.Moves, 0)
	// A Short weapon comes out for free.
	_, st = do(t, st, gm, cmd(CmdSwitch, "ana", "weapon", "dagger"))
	eq(t, "dagger", st.Fighters["ana"].Wielded, "dagger")
	eq(t, "shield up again", st.Fighters["ana"].ShieldUp, true)
	eq(t, "combat action left", st.Fighters["ana"].Combat, true)
}

func TestElixirs(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Stats: map[string]any{"damage": 3, "items": map[string]int{ItemHerbalCure: 2}}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 2, Y: 1, Attr: map[string]int{Quick: 11}, Stats: map[string]any{"damage": 3}},
		spec{ID: "orc", Side: "foes", X: 8, Y: 1, Attr: map[string]int{Quick: 10}},
	)))
	_, st = do(t, st, gm, cmd(CmdUseItem, "ana", "item", ItemHerbalCure, "target", "ana"))
	eq(t, "herbal cure: 1", st.Fighters["ana"].Toughness, 8)
	eq(t, "on oneself: a movement action", st.Fighters["ana"].Moves, 0)
	eq(t, "combat action left", st.Fighters["ana"].Combat, true)
	_, st = do(t, st, gm, cmd(CmdUseItem, "ana", "item", ItemHerbalCure, "target", "bo"))
	eq(t, "bo healed", st.Fighters["bo"].Toughness, 8)
	eq(t, "on another: the combat action", st.Fighters["ana"].Combat, false)
	fail(t, st, gm, cmd(CmdUseItem, "ana", "item", ItemHerbalCure, "target", "ana"), fray.EILLEGAL)
}

func TestAtMostFourAround(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 9, 9, nil,
		spec{ID: "h1", Side: "heroes", PC: true, X: 3, Y: 4},
		spec{ID: "h2", Side: "heroes", PC: true, X: 5, Y: 4},
		spec{ID: "h3", Side: "heroes", PC: true, X: 4, Y: 3},
		spec{ID: "h4", Side: "heroes", PC: true, X: 4, Y: 5},
		spec{ID: "h5", Side: "heroes", PC: true, X: 8, Y: 8},
		spec{ID: "troll", Side: "foes", X: 4, Y: 4},
	)))
	st = endTurns(t, st, "h5")
	msg := fail(t, st, gm, cmd(CmdEngage, "h5", "target", "troll"), fray.EILLEGAL)
	if !strings.Contains(msg, "cannot reach") {
		t.Errorf("message %q", msg)
	}
	fail(t, st, gm, cmd(CmdMove, "h5", "to", "5,5"), fray.EILLEGAL)
}

func TestLineOfSight(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 3, []map[string]any{{"x": 5, "y": 2, "props": map[string]any{"terrain": "wall"}}},
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 3, Y: 1},
		spec{ID: "orc", Side: "foes", X: 7, Y: 1},
		spec{ID: "gob", Side: "foes", X: 4, Y: 0},
		spec{ID: "rat", Side: "foes", X: 8, Y: 2},
	)))
	for _, hidden := range []string{"orc", "rat"} { // behind bo; behind the wall
		msg := fail(t, st, gm, cmd(CmdShoot, "ana", "target", hidden), fray.EILLEGAL)
		if !strings.Contains(msg, "line of sight") {
			t.Errorf("message %q", msg)
		}
	}
	do(t, st, gm, cmd(CmdShoot, "ana", "target", "gob"), 20) // past bo's shoulder
}
