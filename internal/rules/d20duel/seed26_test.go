package d20duel

import "testing"

// Where seed 003 contradicts itself, the default follows its words for
// the situation at hand and the other reading is an option (issue 26).

// TestBlackOneAgainstADefensiveGuard: "If either one of the opponent's
// dice are within your Guard, the attack misses" (Defensive) against "If
// the black die comes up 1, the roll is always a success". Ana (Strike 13)
// rolls black 1, white 17 at a Defensive Bront (Guard 5): the 1 is within
// his Guard, so by default the attack misses; automatic-attacks: on
// lets the black 1 hit with the 17.
func TestBlackOneAgainstADefensiveGuard(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    map[string]string
		hit     bool
		blocked bool
	}{
		{"default: the Guard blocks it", nil, false, true},
		{"automatic-attacks: on", map[string]string{OptAutomaticAttacks: On}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := duel(t, tc.opts, "striking")
			events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefensive}}, 1, 17)
			a := attackBy(t, events, "ana")
			eq(t, "hit", a.Hit, tc.hit)
			eq(t, "blocked", a.Blocked, tc.blocked)
			if tc.hit {
				eq(t, "hit die", a.HitDie, 17)
			}
		})
	}
}

// TestMissedCompletely: "Your opponent missed completely: both dice in her
// attack roll were above Guard/Defense" lets the other maneuver. Ana
// (Strike 13) rolls black 20, white 9 at Bront (Guard 5): an automatic
// miss, both dice above his Guard — by default a complete miss, so Bront
// may maneuver; complete-miss: strike measures against Ana's Strike, which
// the 9 is not above: no maneuver. Bront's 3 and 4 are parried by Ana's
// Guard 7: no complete miss either way.
func TestMissedCompletely(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     map[string]string
		complete bool
	}{
		{"default: above the defender's Guard", nil, true},
		{"complete-miss: strike", map[string]string{OptCompleteMiss: MissStrike}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{OptHurtOrDistracted: HurtWounds}
			for k, v := range tc.opts {
				opts[k] = v
			}
			st := duel(t, opts, "striking")
			events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 20, 9, 3, 4)
			eq(t, "ana's complete miss", attackBy(t, events, "ana").CompleteMiss, tc.complete)
			eq(t, "bront's complete miss", attackBy(t, events, "bront").CompleteMiss, false)
			offered := false
			for _, d := range st.Pending {
				if d.Kind == DecManeuver {
					eq(t, "who may maneuver", d.For, "bront")
					offered = true
				}
			}
			eq(t, "bront may maneuver", offered, tc.complete)
		})
	}
}

// TestDefensiveCounterNeedsBothDiceOverStrike: "You may attack this turn
// only if the opponent rolls higher than her Strike with both dice" — the
// counter-attack's own words, whatever complete-miss says. Ana (Strike 13)
// rolls 9 and 4 at a Defensive Bront (Guard 5; the 4 is blocked): no
// counter; 15 and 17: Bront counters.
func TestDefensiveCounterNeedsBothDiceOverStrike(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    map[string]string
		faces   []int
		counter bool
	}{
		{"9 and 4: no opening", nil, []int{9, 4}, false},
		{"9 and 4, complete-miss no-hit: still none", map[string]string{OptCompleteMiss: MissNoHit}, []int{9, 4}, false},
		{"15 and 17: a counter-attack", nil, []int{15, 17, missB, missW}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := duel(t, tc.opts, "striking")
			events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefensive}}, tc.faces...)
			eq(t, "counter-attack", len(attacks(t, events)) == 2, tc.counter)
		})
	}
}
