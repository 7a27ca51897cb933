package d20duel

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// armoured is Bront in mail like Ana's: Coverage 12, Protection 3.
var armoured = with(brontStats, "armor", map[string]any{"name": "Mail", "coverage": 12, "protection": 3})

// TestFindWeakness: seed "Find Weakness … incurs a −2 To Hit penalty …
// Armor does not protect from Find Weakness attacks if either die, black
// or white, is higher than Coverage … the die that is compared to
// Coverage does not have to be successful to count."
func TestFindWeakness(t *testing.T) {
	for _, tc := range []struct {
		name         string
		aim          string
		black, white int
		strike       int
		armor        string
		damage       int
		wound        int
	}{
		// Find Weakness: Strike 13−2 = 11. The black 9 hits; the white
		// 14 misses, but it is above Coverage 12: the mail fails.
		{"a missed die above Coverage defeats the armour", AimWeakness, 9, 14, 11, ArmorFails, 6, 2},
		// Both dice at or below Coverage: the mail protects.
		{"both dice within Coverage", AimWeakness, 9, 4, 11, ArmorProtects, 3, 1},
		// The same dice without Find Weakness: the hitting 9 is within
		// Coverage, so the mail protects.
		{"the same dice aimed normally", AimNormal, 9, 14, 13, ArmorProtects, 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}},
				spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
				spec{ID: "bront", Side: "foes", Stats: armoured}))
			_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
			events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault, Aim: tc.aim}, "bront": {Stance: StanceDefault}}, tc.black, tc.white, 20, 1)
			a := attackBy(t, events, "ana")
			eq(t, "Strike", a.Strike, tc.strike)
			eq(t, "hit with", a.HitDie, 9)
			eq(t, "armour", a.Armor, tc.armor)
			eq(t, "damage", a.Damage, tc.damage)
			eq(t, "wound", a.Wound.Penalty, tc.wound)
			fw, ok := modValue(rollOf(t, events, KindAttack, "ana"), "Find Weakness")
			if (tc.aim == AimWeakness) != (ok && fw == -2) {
				t.Errorf("Find Weakness modifier %d (%v)", fw, ok)
			}
		})
	}
}

// TestFindWeaknessAutoFirstOnly: seed "If you make several attacks in one
// turn (Auto), Find Weakness applies only to the first attack." A
// repeater (Auto 2, Strike 11) shot with Find Weakness: the first roll at
// −2 with the armour rule, the second a plain attack.
func TestFindWeaknessAutoFirstOnly(t *testing.T) {
	shooter := with(anaStats, "weapons", []map[string]any{
		{"id": "repeater", "name": "Repeater", "ranged": true, "strike": 11, "damage": 4, "auto": 2}})
	st := newState(t, newSetup(nil, nil,
		spec{ID: "ana", Side: "heroes", PC: true, Stats: shooter},
		spec{ID: "bront", Side: "foes", Stats: armoured}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	if st.Label != PhaseApproach {
		t.Fatalf("phase %q, want the approach", st.Label)
	}
	events, st := do(t, st, anaPl, cmd(CmdShoot, "ana", "target", "bront", "weapon", "repeater", "aim", AimWeakness), 8, 15, 8, 15)
	as := attacks(t, events)
	if len(as) != 2 {
		t.Fatalf("%d attacks, want 2", len(as))
	}
	eq(t, "first Strike (−2)", as[0].Strike, 9)
	eq(t, "first: the white 15 defeats the mail", as[0].Armor, ArmorFails)
	eq(t, "first wound", as[0].Wound.Penalty, 2) // 4 damage, no Damage Modifier at range
	eq(t, "second Strike", as[1].Strike, 11)
	eq(t, "second: the hitting 8 meets the mail", as[1].Armor, ArmorProtects)
	eq(t, "second wound", as[1].Wound.Penalty, 1)
	rolls := []int{}
	for _, e := range find(events, KindAttack) {
		v, _ := modValue(e.Rolls[0], "Find Weakness")
		rolls = append(rolls, v)
	}
	if rolls[0] != -2 || rolls[1] != 0 {
		t.Errorf("Find Weakness modifiers %v, want [-2 0]", rolls)
	}
	if st.IsActing("ana") {
		t.Error("shooting did not use Ana's action")
	}
}

// TestGrapplingFindsWeakness: seed "In Grappling it is easier to work
// around the armor: all Grappling attacks have the advantages of Find
// Weakness" — the armour rule, without the −2.
func TestGrapplingFindsWeakness(t *testing.T) {
	st := newState(t, newSetup(nil, []pair{{"ana", "bront", "grappling"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", Stats: armoured}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	// Ana's sword in Grappling: Grapple 6 + Grappling modifier 2 = 8
	// against Bront's Defense 3 + 2 = 5. The 7 hits, the 14 is above
	// Coverage: the mail fails.
	events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 7, 14, 20, 1)
	a := attackBy(t, events, "ana")
	eq(t, "mode", a.Mode, Grappling)
	eq(t, "Grapple", a.Strike, 8)
	eq(t, "Defense", a.Guard, 5)
	eq(t, "armour", a.Armor, ArmorFails)
	if _, ok := modValue(rollOf(t, events, KindAttack, "ana"), "Find Weakness"); ok {
		t.Error("Grappling attacks take no Find Weakness penalty")
	}
}
