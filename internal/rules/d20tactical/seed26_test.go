package d20tactical

import "testing"

// Seed 004's own words as the defaults (issue 26), each with the seed's
// numbers in and its outcome out.

// TestFumbleGivesAllOpponentsInReachAnAttack: "If a fumble happens in
// melee, all opponents within range of the fumbling attacker get an
// immediate single attack" — in round 1 too, before those opponents have
// acted (flat-footed: no attack of opportunity, but this is no attack of
// opportunity).
func TestFumbleGivesAllOpponentsInReachAnAttack(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first bool // ana fumbles before bo and cy have acted
	}{
		{"round 1, opponents flat-footed", true},
		{"after the opponents acted", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := skirmish(t, nil, at(2, 2, 3))
			if !tc.first {
				_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
				st = endTurns(t, st, "ana")
			} else if !st.Fighters["bo"].FlatFooted || !st.Fighters["cy"].FlatFooted {
				t.Fatal("bo and cy should not have acted yet")
			}
			// The knife's natural 1; bo's free attack 5 misses, cy's 18 hits
			// for 1d4 = 2.
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 1, 5, 18, 2)
			as := find(events, KindAttack)
			if len(as) != 3 {
				t.Fatalf("want the fumble and two free attacks, got %v", kinds(events))
			}
			for i, who := range []string{"bo", "cy"} {
				var a AttackRolled
				_ = as[i+1].Decode(&a)
				eq(t, "free attacker", a.Attacker, who)
				eq(t, "free", a.Free, reactFumble)
			}
			eq(t, "ana hurt", st.Fighters["ana"].HP, 18)
		})
	}
}

// TestRangedFumbleAtLongRangeOnly: "If the fumble happens at long range,
// roll on the table" — by default a fumbled pistol shot at 15 ft simply
// misses; at 70 ft (Long: 3 increments of 30 ft) it rolls the d6 (4:
// jams). ranged-fumbles: all rolls it at 15 ft too.
func TestRangedFumbleAtLongRangeOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   map[string]string
		cyX    int
		faces  []int
		result string
	}{
		{"default, 15 ft: a plain miss", nil, 5, []int{1}, FumbleMiss},
		{"default, 70 ft (Long): the table, 4 jams", nil, 16, []int{1, 4}, FumbleJam},
		{"all, 15 ft: the table, 4 jams", map[string]string{OptRangedFumbles: AllRanges}, 5, []int{1, 4}, FumbleJam},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := skirmish(t, tc.opts, at(1, 19, 9), at(2, tc.cyX, 2))
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), tc.faces...)
			var f Fumbled
			decodeOne(t, events, KindFumble, &f)
			eq(t, "result", f.Result, tc.result)
			eq(t, "jammed", st.Fighters["ana"].Weapon("pistol").Jammed, tc.result == FumbleJam)
		})
	}
}

// TestChargeIsExactSpeed: "Using the exact speed value of the player to
// reach a target counts as a charge" — at speed 30, a run of 25 ft or 35
// ft is no charge by default; charge-tolerance 5 allows both.
func TestChargeIsExactSpeed(t *testing.T) {
	// ana at 0,5; cy at cyX,5. The nearest squares from which ana's
	// knife reaches cy are (cyX-1)*5 ft away; with cy at 6,5, walls at 6,4
	// and 6,6 leave no square at exactly 30 ft.
	for _, tc := range []struct {
		name string
		opts map[string]string
		cyX  int
		ok   bool
	}{
		{"30 ft", nil, 7, true},
		{"25 ft", nil, 6, false},
		{"35 ft", nil, 8, false},
		{"25 ft, tolerance 5", map[string]string{OptChargeTolerance: "5"}, 6, true},
		{"35 ft, tolerance 5", map[string]string{OptChargeTolerance: "5"}, 8, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bf := field(20, 10, sq(6, 4, "wall", true), sq(6, 6, "wall", true))
			st := skirmishOn(t, tc.opts, bf, at(0, 0, 5), at(1, 19, 0), at(2, tc.cyX, 5))
			c := cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife")
			if !tc.ok {
				fail(t, st, gm, c, "illegal")
				return
			}
			_, st = do(t, st, gm, c, 6, 2)
			eq(t, "charging", st.Fighters["ana"].Charging, true)
		})
	}
}
