package swzones

import (
	"slices"
	"testing"
)

func TestMovementCosts(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "lyra")

	// Crossing a border costs 1.
	events, st := do(t, st, gm, cmd(CmdMove, "lyra", "to", "z3"))
	eq(t, "events", len(events), 1)
	eq(t, "zone", st.Fighters["lyra"].Zone, "z3")
	eq(t, "MP", st.Fighters["lyra"].MP, 1)

	// Engaging an unengaged opponent in the zone costs 1 and forms a melee.
	_, st = do(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob3"))
	eq(t, "MP", st.Fighters["lyra"].MP, 0)
	m := st.melee(st.Fighters["lyra"].Melee)
	if m == nil || m.ID != "m2" || m.Zone != "z3" || !slices.Equal(m.Members, []string{"gob3", "lyra"}) {
		t.Fatalf("new melee = %+v", m)
	}
	eq(t, "gob3's melee", st.Fighters["gob3"].Melee, "m2")

	// Out of Movement: disengaging is illegal (and no free attack happens).
	fail(t, st, gm, cmd(CmdDisengage, "lyra"), "illegal")
	// Engaged: moving is illegal.
	fail(t, st, gm, cmd(CmdMove, "lyra", "to", "z4"), "illegal")
}

func TestMovementJoinMeleeAndLimits(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "lyra")
	fail(t, st, gm, cmd(CmdMove, "lyra", "to", "z4"), "illegal")         // not adjacent to z2
	fail(t, st, gm, cmd(CmdMove, "lyra", "to", "nowhere"), "not_found")  // unknown zone
	fail(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob1"), "illegal") // in another zone

	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z1"))
	// Joining the existing melee around gob1 costs 1.
	_, st = do(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob1"))
	eq(t, "MP", st.Fighters["lyra"].MP, 0)
	eq(t, "lyra's melee", st.Fighters["lyra"].Melee, "m1")
	if !slices.Equal(st.melee("m1").Members, []string{"brak", "gob1", "gob2", "lyra"}) {
		t.Fatalf("m1 = %v", st.melee("m1").Members)
	}
	fail(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob2"), "illegal") // already in a melee
}

func TestMovementRunsOut(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "lyra")
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z3"))
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z4"))
	eq(t, "MP", st.Fighters["lyra"].MP, 0)
	msg := fail(t, st, gm, cmd(CmdMove, "lyra", "to", "z3"), "illegal")
	eq(t, "message", msg, "not enough Movement: 0 left, 1 needed")
}

func TestEngageAllyOnlyToJoinAMelee(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "lyra")
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z1"))
	// brak is in a melee: engaging him joins it.
	_, st = do(t, st, gm, cmd(CmdEngage, "lyra", "target", "brak"))
	eq(t, "lyra's melee", st.Fighters["lyra"].Melee, "m1")
}

func TestDisengageFreeAttacks(t *testing.T) {
	tests := []struct {
		name          string
		shaken        []string
		faces         []int
		freeAttackers []string
		gangUp        int
	}{
		// gob1 and gob2 (Fighting d6) both attack: 2 and 3, +1 gang-up (2 goblins vs brak), vs Parry 6: misses.
		{"two non-Shaken opponents, two free attacks", nil, []int{2, 3}, []string{"gob1", "gob2"}, 1},
		// A Shaken opponent gets none.
		{"a Shaken opponent gets none", []string{"gob2"}, []int{2}, []string{"gob1"}, 1},
		{"both Shaken, no free attack", []string{"gob1", "gob2"}, nil, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := skirmish(t, nil)
			for _, id := range tc.shaken {
				st.Fighters[id].Shaken = true
			}
			events, st := do(t, st, gm, cmd(CmdDisengage, "brak"), tc.faces...)
			as := attacks(t, events)
			var who []string
			for _, a := range as {
				who = append(who, a.Attacker)
				eq(t, "kind", a.Kind, "free attack")
				eq(t, "target", a.Target, "brak")
				eq(t, "TN", a.TN, 6)
				eq(t, "gang-up", a.GangUp, tc.gangUp)
				eq(t, "result", a.Result, "miss")
				eq(t, "action", a.Action, false)
			}
			if !slices.Equal(who, tc.freeAttackers) {
				t.Fatalf("free attacks by %v, want %v", who, tc.freeAttackers)
			}
			eq(t, "last event", events[len(events)-1].Kind, KindDisengaged)
			eq(t, "MP", st.Fighters["brak"].MP, 1)
			eq(t, "brak's melee", st.Fighters["brak"].Melee, "")
			// Only goblins are left in m1: the melee is over.
			eq(t, "melees", len(st.Melees), 0)
			eq(t, "gob1's melee", st.Fighters["gob1"].Melee, "")
		})
	}
}

func TestDisengageFreeAttackHits(t *testing.T) {
	st := skirmish(t, nil)
	// gob1: 6+5 = 11 +1 gang-up = 12 vs Parry 6: a raise. Damage Str d6 3 +
	// sword d6 2 + raise d6 4 = 9 vs Toughness 6: Shaken (3 over, no raise).
	// gob2: 1 +1 = 2: miss. Brak still gets away, Shaken.
	events, st := do(t, st, gm, cmd(CmdDisengage, "brak"), 6, 5, 3, 2, 4, 1)
	as := attacks(t, events)
	eq(t, "attacks", len(as), 2)
	eq(t, "first result", as[0].Result, "raise")
	eq(t, "first total", as[0].Total, 12)
	eq(t, "damage", as[0].Damage.Total, 9)
	eq(t, "shaken by it", as[0].Damage.Shaken, true)
	eq(t, "damage dice", len(events[0].Rolls[1].Dice), 3)
	eq(t, "brak shaken", st.Fighters["brak"].Shaken, true)
	eq(t, "brak wounds", st.Fighters["brak"].Wounds, 0)
	eq(t, "brak away", st.Fighters["brak"].Melee, "")
	fail(t, st, gm, cmd(CmdShoot, "brak", "target", "gob3", "weapon", "pistol"), "illegal") // Shaken: no actions
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))                                 // but moving is free
	eq(t, "zone", st.Fighters["brak"].Zone, "z2")
}

func TestDisengageDefending(t *testing.T) {
	st := skirmish(t, nil)
	// Defending while retreating: +2 Parry against the free attacks (6 → 8).
	// gob1 5 +1 gang-up = 6 and gob2 4 +1 = 5: both miss, though 6 would
	// have hit Parry 6.
	events, st := do(t, st, gm, cmd(CmdDisengage, "brak", "defend", true), 5, 4)
	as := attacks(t, events)
	eq(t, "attacks", len(as), 2)
	for _, a := range as {
		eq(t, "TN", a.TN, 8)
		eq(t, "result", a.Result, "miss")
		if v, ok := modValue(a.Against, "defending while retreating"); !ok || v != 2 {
			t.Errorf("against = %v, want defending while retreating +2", a.Against)
		}
	}
	eq(t, "defend lasts", st.Fighters["brak"].Defend, 2)
	// No other action this turn; moving on is still allowed.
	fail(t, st, gm, cmd(CmdShoot, "brak", "target", "gob1", "weapon", "pistol"), "illegal")
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	eq(t, "MP", st.Fighters["brak"].MP, 0)
	// The bonus lasts until brak's next turn.
	st = endTurns(t, st, "gob1")
	eq(t, "still defending on gob1's turn", st.Fighters["brak"].Defend, 2)
}

func TestDisengageDefendNeedsNoActionTaken(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "lyra")
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z1"))
	_, st = do(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob1"))
	st.Fighters["lyra"].MP = 1 // as if she had run
	// Lyra: Fighting d6 1, Wild 3 → 3 +0 gang-up (2 v 2) vs Parry 5: miss.
	_, st = do(t, st, gm, cmd(CmdFight, "lyra", "target", "gob1", "weapon", "sword"), 1, 3)
	fail(t, st, gm, cmd(CmdDisengage, "lyra", "defend", true), "illegal")
}
