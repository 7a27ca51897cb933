package d20duel

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestWoundTable: spec b "Damage: weapon damage + Damage Modifier −
// armour → wound table" with penalties −1…−3 and a would-kill level; the
// steps are options.
func TestWoundTable(t *testing.T) {
	for _, tc := range []struct {
		opts    map[string]string
		damage  int
		penalty int // 0: no wound
	}{
		{nil, 0, 0}, {nil, 1, 1}, {nil, 3, 1}, {nil, 4, 2}, {nil, 6, 2}, {nil, 7, 3}, {nil, 9, 3}, {nil, 10, Mortal}, {nil, 25, Mortal},
		{map[string]string{OptWoundLight: "3", OptWoundSerious: "5", OptWoundGrave: "8", OptWoundKill: "12"}, 2, 0},
		{map[string]string{OptWoundLight: "3", OptWoundSerious: "5", OptWoundGrave: "8", OptWoundKill: "12"}, 11, 3},
		{map[string]string{OptWoundLight: "3", OptWoundSerious: "5", OptWoundGrave: "8", OptWoundKill: "12"}, 12, Mortal},
	} {
		b := &engine.Base{Options: optionsWith(tc.opts)}
		w, _ := woundFor(b, tc.damage, AimNormal)
		got := 0
		if w != nil {
			got = w.Penalty
		}
		if got != tc.penalty {
			t.Errorf("%v: damage %d gives %d, want %d", tc.opts, tc.damage, got, tc.penalty)
		}
	}
}

// TestOptions: each reading the spec leaves open switches as documented.
func TestOptions(t *testing.T) {
	wounded := func(opts map[string]string) *State {
		st := newState(t, newSetup(opts, []pair{{"ana", "bront", "striking"}},
			spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
			spec{ID: "bront", Side: "foes", Stats: with(brontStats, "wounds", map[string]any{"body": map[string]int{"light": 1, "serious": 1}})}))
		return st
	}
	t.Run(OptWoundStacking, func(t *testing.T) {
		eq(t, "sum", wounded(nil).Fighters["bront"].penalty(&wounded(nil).Base, 0), 3)
		st := wounded(map[string]string{OptWoundStacking: StackWorst})
		eq(t, "worst", st.Fighters["bront"].penalty(&st.Base, 0), 2)
	})
	t.Run(OptWoundsLowerGuard, func(t *testing.T) {
		for _, tc := range []struct {
			v     string
			guard int
		}{{Yes, 5 - 3}, {No, 5}} {
			st := wounded(map[string]string{OptWoundsLowerGuard: tc.v})
			p, err := planAttack(st, "ana", "bront", "sword", Striking, AimNormal, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			eq(t, tc.v, p.guard, tc.guard)
		}
	})
	t.Run(OptRangedGuard, func(t *testing.T) {
		for _, tc := range []struct {
			v     string
			guard int
		}{{GuardNone, 0}, {GuardUse, 5 - 3}} {
			st := wounded(map[string]string{OptRangedGuard: tc.v})
			p, _ := planAttack(st, "ana", "bront", "bow", Ranged, AimNormal, 1, false)
			eq(t, tc.v, p.guard, tc.guard)
		}
	})
	t.Run(OptCollapseAt, func(t *testing.T) {
		// Bront starts at −3. With collapse-at 4, Ana's 10 (a −2 wound)
		// takes him to −5: out. With 0, never.
		for _, tc := range []struct {
			v   string
			out bool
		}{{"4", true}, {"0", false}} {
			st := wounded(map[string]string{OptCollapseAt: tc.v})
			_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
			_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 10, 2, missB, missW)
			if st.Combatant("bront").Out != tc.out {
				t.Errorf("collapse-at %s: bront out %v", tc.v, st.Combatant("bront").Out)
			}
		}
	})
	t.Run("fists", func(t *testing.T) {
		st := newState(t, newSetup(map[string]string{OptFistsStrike: "9", OptFistsGuard: "3", OptFistsGrapple: "11", OptFistsDefense: "7", OptFistsDamage: "2"}, nil,
			spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
			spec{ID: "bront", Side: "foes", Stats: brontStats}))
		w := st.Fighters["bront"].weapon("fists")
		if w == nil || !w.Unarmed || w.Strike != 9 || w.Guard != 3 || w.Grapple != 11 || w.Defense != 7 || w.Damage != 2 {
			t.Fatalf("fists %+v", w)
		}
	})
}
