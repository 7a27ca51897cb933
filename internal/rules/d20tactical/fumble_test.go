package d20tactical

import (
	"strings"
	"testing"
)

// TestMeleeFumble: every opponent in reach gets one immediate attack.
func TestMeleeFumble(t *testing.T) {
	// bo and cy both next to ana; they act first so they are not flat-footed.
	st := skirmish(t, nil, at(2, 2, 3))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	st = endTurns(t, st, "ana")
	// The knife's natural 1: bo misses (5), cy hits (18) for 1d4 = 2.
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 1, 5, 18, 2)
	var f Fumbled
	decodeOne(t, events, KindFumble, &f)
	eq(t, "melee fumble", f.Result, FumbleMelee)
	as := find(events, KindAttack)
	if len(as) != 3 {
		t.Fatalf("want the fumble and two free attacks: %v", kinds(events))
	}
	for i, who := range []string{"bo", "cy"} {
		var a AttackRolled
		_ = as[i+1].Decode(&a)
		eq(t, "free attacker", a.Attacker, who)
		eq(t, "free", a.Free, reactFumble)
	}
	eq(t, "ana hurt", st.Fighters["ana"].HP, 18)
	// A fumble range of 2.
	st = skirmish(t, nil, stat(0, "weapons", []map[string]any{{"id": "saw", "name": "Saw", "damage": "1d6", "fumble": 2}}))
	// (bo, flat-footed in round 1, still gets its free attack: 2 misses.)
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "saw"), 2, 2)
	var a AttackRolled
	_ = find(events, KindAttack)[0].Decode(&a)
	eq(t, "2 fumbles", a.Fumble, true)
	eq(t, "bo's free attack", len(find(events, KindAttack)), 2)
}

// TestRangedFumble: the seed's d6 table.
func TestRangedFumble(t *testing.T) {
	// ana shoots cy (10,2) with the rifle; di stands 10 ft east of cy at 12,2.
	specs := func() []spec {
		return []spec{
			{ID: "ana", Side: "heroes", X: 2, Y: 2, PC: true},
			{ID: "di", Side: "heroes", X: 12, Y: 2},
			{ID: "bo", Side: "foes", X: 0, Y: 9},
			{ID: "cy", Side: "foes", X: 10, Y: 2},
		}
	}
	// The table at every range (cy is 40 ft away: Short for the rifle).
	begin := func(t *testing.T, opts map[string]string) *State {
		all := map[string]string{OptRangedFumbles: AllRanges}
		for k, v := range opts {
			all[k] = v
		}
		_, st := start(t, newState(t, newSetup(all, field(20, 10), specs()...)), 20, 1, 10, 5)
		return st
	}
	t.Run("1: 10 ft astray, hitting di", func(t *testing.T) {
		// d6 1, d8 3 (east): lands on 12,2. di does not dodge; 2d8 = 3 + 3.
		events, st := do(t, begin(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, 1, 3, 3, 3)
		var f Fumbled
		decodeOne(t, events, KindFumble, &f)
		eq(t, "result", f.Result, FumbleStray)
		eq(t, "feet", f.Feet, 10)
		eq(t, "direction", f.Direction, "east")
		eq(t, "victim", f.Victim, "di")
		eq(t, "di hurt", st.Fighters["di"].HP, 14)
	})
	t.Run("1: nobody there with stray-shots miss", func(t *testing.T) {
		events, st := do(t, begin(t, map[string]string{OptStrayShots: StrayMiss}), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, 1, 3)
		var f Fumbled
		decodeOne(t, events, KindFumble, &f)
		eq(t, "no victim", f.Victim, "")
		eq(t, "di fine", st.Fighters["di"].HP, 20)
	})
	t.Run("2: 20 ft astray", func(t *testing.T) {
		events, _ := do(t, begin(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, 2, 7)
		var f Fumbled
		decodeOne(t, events, KindFumble, &f)
		eq(t, "feet", f.Feet, 20)
		eq(t, "landing", f.Landing.String(), "6,2")
	})
	t.Run("3: the whole clip wasted", func(t *testing.T) {
		_, st := do(t, begin(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, 3)
		eq(t, "ammo", st.Fighters["ana"].Weapon("rifle").Ammo, 0)
	})
	for _, face := range []int{4, 5} {
		t.Run("4–5: jams", func(t *testing.T) {
			_, st := do(t, begin(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, face)
			eq(t, "jammed", st.Fighters["ana"].Weapon("rifle").Jammed, true)
			eq(t, "ammo used", st.Fighters["ana"].Weapon("rifle").Ammo, 29)
			st = nextTurnOf(t, st, "ana")
			fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), "illegal")
			// Clearing the jam is a move action.
			_, st = do(t, st, gm, cmd(CmdClearJam, "ana", "weapon", "rifle"))
			eq(t, "clear", st.Fighters["ana"].Weapon("rifle").Jammed, false)
			eq(t, "move action spent", st.Fighters["ana"].Budget.Move, false)
			fail(t, st, gm, cmd(CmdClearJam, "ana", "weapon", "rifle"), "illegal")
		})
	}
	t.Run("6: 26% is no backfire, it jams", func(t *testing.T) {
		_, st := do(t, begin(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, 6, 26)
		eq(t, "jammed", st.Fighters["ana"].Weapon("rifle").Jammed, true)
	})
	t.Run("6: 25% backfires: the GM rules", func(t *testing.T) {
		_, st := do(t, begin(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1, 6, 25)
		d := pendingKind(t, st, DecBackfire)
		eq(t, "for the GM", d.For, "gm")
		_, st = answer(t, st, gm, DecBackfire, "ruined", map[string]any{"damage": 6})
		eq(t, "ruined", st.Fighters["ana"].Weapon("rifle").Ruined, true)
		eq(t, "hurt", st.Fighters["ana"].HP, 14)
		fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), "illegal")
	})
	t.Run("long-range fumbles only: nearer, a plain miss", func(t *testing.T) {
		events, _ := do(t, begin(t, map[string]string{OptRangedFumbles: LongRanges}), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), 1)
		var f Fumbled
		decodeOne(t, events, KindFumble, &f)
		eq(t, "miss", f.Result, FumbleMiss)
	})
}

// TestFumbleChains (seed "Fumbles": a melee fumble — a natural 1 — gives
// every opponent in reach "an immediate single attack"): ana fumbles her
// knife attack on bo (1); bo's free attack fumbles too (1), so ana gets
// one on bo, and fumbles again (1). With fumble-chains "once" (the
// default) bo has had his attack on ana this turn: the chain ends, three
// attacks in all. With "again" every fumble gives it: bo attacks once
// more (5 + 2 misses Defense 10) and the chain ends there.
func TestFumbleChains(t *testing.T) {
	for _, tc := range []struct {
		chains  string
		faces   []int
		attacks []string
	}{
		{ChainOnce, []int{1, 1, 1}, []string{"ana", "bo", "ana"}},
		{ChainAgain, []int{1, 1, 1, 5}, []string{"ana", "bo", "ana", "bo"}},
	} {
		t.Run(tc.chains, func(t *testing.T) {
			st := skirmish(t, map[string]string{OptFumbleChains: tc.chains})
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), tc.faces...)
			var who []string
			for _, ev := range find(events, KindAttack) {
				var a AttackRolled
				if err := ev.Decode(&a); err != nil {
					t.Fatal(err)
				}
				who = append(who, a.Attacker)
				eq(t, "a fumble", a.Fumble, a.Attacker == "ana" || tc.chains == ChainOnce || len(who) < 4)
			}
			eq(t, "the attacks", strings.Join(who, " "), strings.Join(tc.attacks, " "))
			eq(t, "fumbles", len(find(events, KindFumble)), 3)
			eq(t, "nobody hurt", st.Fighters["ana"].HP+st.Fighters["bo"].HP, 40)
		})
	}
}

// TestStrayShotsOffTheBoard: ana's rifle fumbles at cy (K3, on a 20 × 10
// board) with the table at every range: d6 2, the shot goes 20 ft astray,
// d8 1, north — two squares past the board's top edge. With
// stray-off-board "lost" (the default) it leaves the battlefield; with
// "edge" it stops on K1, the last square that way, and hits di standing
// there (2d8: 3 + 3).
func TestStrayShotsOffTheBoard(t *testing.T) {
	for _, tc := range []struct {
		off     string
		faces   []int
		landing string
		victim  string
		diHP    int
	}{
		{StrayLost, []int{1, 2, 1}, "", "", 20},
		{StrayEdge, []int{1, 2, 1, 3, 3}, "10,0", "di", 14},
	} {
		t.Run(tc.off, func(t *testing.T) {
			opts := map[string]string{OptRangedFumbles: AllRanges, OptStrayOffBoard: tc.off}
			_, st := start(t, newState(t, newSetup(opts, field(20, 10),
				spec{ID: "ana", Side: "heroes", X: 2, Y: 2, PC: true},
				spec{ID: "di", Side: "heroes", X: 10, Y: 0},
				spec{ID: "bo", Side: "foes", X: 0, Y: 9},
				spec{ID: "cy", Side: "foes", X: 10, Y: 2},
			)), 20, 1, 10, 5)
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle"), tc.faces...)
			var f Fumbled
			ev := decodeOne(t, events, KindFumble, &f)
			eq(t, "astray", f.Result+" "+f.Direction, FumbleStray+" north")
			landing := ""
			if f.Landing != nil {
				landing = f.Landing.String()
			}
			eq(t, "landing", landing, tc.landing)
			eq(t, "victim", f.Victim, tc.victim)
			eq(t, "di", st.Fighters["di"].HP, tc.diHP)
			if tc.off == StrayLost {
				eq(t, "the log", ev.Text, "Ana fumbles: the shot goes 20 ft astray to the north and off the battlefield.")
			} else {
				eq(t, "the log", ev.Text, "Ana fumbles: the shot goes 20 ft astray to the north and hits Di (K1).")
			}
		})
	}
}
