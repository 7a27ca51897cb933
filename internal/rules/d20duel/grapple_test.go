package d20duel

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestGrapplingModifier: seed "The Grappling modifier equals half of the
// Damage modifier, rounded up, plus Close combat. Example: A character
// with a Damage Modifier of 3 and Close Combat -1 has a Grappling modifier
// of 1."
func TestGrapplingModifier(t *testing.T) {
	for _, tc := range []struct{ dm, cc, want int }{
		{3, -1, 1}, // the seed's example
		{4, 0, 2}, {1, 0, 1}, {0, 2, 2}, {-1, 0, 0}, {-3, 0, -1},
	} {
		f := &Fighter{DamageMod: tc.dm, CloseCombat: tc.cc}
		if got := f.GrapplingMod(); got != tc.want {
			t.Errorf("DM %d, CC %d: %d, want %d", tc.dm, tc.cc, got, tc.want)
		}
	}
	derived, err := ruleset.Derive(mustJSON(map[string]any{"damageMod": 3, "closeCombat": -1,
		"weapons": []map[string]any{{"name": "Dagger", "strike": 10, "guard": 3, "grapple": 10, "defense": 5, "damage": 2}}}))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "derived Grappling modifier", derived["Grappling modifier"], "+1")
	// "added to the Grapple and Defense stats of melee attacks, just like
	// Close combat is added to Strike and Guard"
	eq(t, "derived dagger", derived["Dagger"], "Strike 9 · Guard 2 · Grapple 11 · Defense 6 · Damage 5")
}

// plated is Bront in plate: Coverage 20, Protection 6.
var plated = with(brontStats, "armor", map[string]any{"name": "Plate", "coverage": 20, "protection": 6})

// TestUnarmedGrapplingIgnoresArmour: seed "Unarmed attacks in Grappling
// ignore all armor (even Coverage 20), representing throws and breaking
// joints." Armed, the Find Weakness rule cannot beat Coverage 20.
func TestUnarmedGrapplingIgnoresArmour(t *testing.T) {
	for _, tc := range []struct {
		weapon string
		strike int
		armor  string
		damage int
	}{
		// Fists (options: Grapple 10) + Grappling modifier 2 = 12
		// against Defense 3+2 = 5; damage 1 + 2, the plate ignored.
		{"fists", 12, ArmorIgnored, 3},
		// The dagger: Grapple 10+2; both dice within Coverage 20, so the
		// plate stops 6 of 4.
		{"dagger", 12, ArmorProtects, 0},
	} {
		st := newState(t, newSetup(nil, []pair{{"ana", "bront", "grappling"}},
			spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
			spec{ID: "bront", Side: "foes", Stats: plated}))
		_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
		events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault, Weapon: tc.weapon}, "bront": {Stance: StanceDefault}}, 11, 19, 20, 1)
		a := attackBy(t, events, "ana")
		eq(t, tc.weapon+" Grapple", a.Strike, tc.strike)
		eq(t, tc.weapon+" Defense", a.Guard, 5)
		eq(t, tc.weapon+" armour", a.Armor, tc.armor)
		eq(t, tc.weapon+" damage", a.Damage, tc.damage)
	}
}

// TestTwoDistances: seed "In Striking distance, the attacker rolls Strike
// against the Guard … In Grappling distance, the attacker instead rolls
// Grapple against the target's Defense."
func TestTwoDistances(t *testing.T) {
	for _, tc := range []struct {
		distance      string
		strike, guard int
	}{
		{Striking, 12 + 1, 5},     // sword Strike + Close combat against axe Guard + 0
		{Grappling, 6 + 2, 3 + 2}, // sword Grapple + Grappling modifier against axe Defense + 2
	} {
		st := duel(t, nil, tc.distance)
		events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 20, 1, 20, 1)
		a := attackBy(t, events, "ana")
		eq(t, tc.distance+" mode", a.Mode, tc.distance)
		eq(t, tc.distance+" top", a.Strike, tc.strike)
		eq(t, tc.distance+" bottom", a.Guard, tc.guard)
	}
}
