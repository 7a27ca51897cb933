package d20duel

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// Dice that make an attack miss without missing completely: the black 20
// (an automatic miss) with a white 1 (below any Strike).
const missB, missW = 20, 1

// TestManeuverAfterCompleteMiss: seed "you may roll Agility to alter the
// distance, if: Your opponent missed completely." Ana rolls 15 and 17,
// both above her Strike 13: Bront may maneuver, Ana may not.
func TestManeuverAfterCompleteMiss(t *testing.T) {
	for _, tc := range []struct {
		name         string
		black, white int
		want         string
	}{
		{"passed", 6, 4, Grappling}, // Agility 10: the black 6 passes
		{"failed", 14, 3, Striking},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := duel(t, nil, "striking")
			_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 15, 17, missB, missW)
			for _, d := range st.Pending {
				if d.Kind == DecManeuver && d.For == "ana" {
					t.Fatal("Ana missed completely: she may not maneuver")
				}
			}
			events, st := answer(t, st, gm, DecManeuver, "bront", ManeuverChange, nil, tc.black, tc.white)
			var m Maneuver
			if err := find(events, KindManeuver)[0].Decode(&m); err != nil {
				t.Fatal(err)
			}
			eq(t, "bront's Agility target", m.Tests["bront"].Target, 10)
			eq(t, "distance", distanceOf(st, "ana", "bront"), tc.want)
			eq(t, "next round", st.Round, 2)
		})
	}
}

// TestManeuverHurtOrDistracted: seed "Your opponent was hurt or (very)
// distracted" — the GM rules (option hurt-or-distracted "ask"); the
// question comes pre-answered by the dice's reading, whoever took a wound,
// which it states, so one click confirms it.
func TestManeuverHurtOrDistracted(t *testing.T) {
	start := func(t *testing.T) *State {
		st := duel(t, map[string]string{OptHurtOrDistracted: HurtAsk}, "striking")
		// Ana's 10 hits Bront for a −2 wound; Bront misses, not
		// completely.
		_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 10, 2, missB, missW)
		return st
	}
	st := start(t)
	d := pendingFor(t, st, DecHurt, engine.GM)
	eq(t, "default answer", d.Default, "bront")
	if !strings.Contains(d.Prompt, "By the dice Bront took a wound") {
		t.Errorf("the question does not say the dice's reading: %q", d.Prompt)
	}
	// Accepting the defaults (one click) confirms the reading.
	_, accepted := scenario.Do(t, st, gm, engine.NewCommand(engine.KindAcceptDefaults, "", nil))
	pendingFor(t, accepted, DecManeuver, "ana")

	_, hurt := answer(t, st, gm, DecHurt, engine.GM, "bront", nil)
	pendingFor(t, hurt, DecManeuver, "ana")
	if len(hurt.Pending) != 1 {
		t.Fatalf("only Ana may maneuver: %+v", hurt.Pending)
	}

	_, none := answer(t, st, gm, DecHurt, engine.GM, HurtNone, nil)
	if !nextExchange(none) {
		t.Fatalf("no one hurt: no maneuver, next round (pending %+v)", none.Pending)
	}

	events, both := answer(t, st, gm, DecHurt, engine.GM, HurtBoth, nil)
	if !hasKind(events, KindDistanceStays) || both.Round != 2 {
		t.Fatalf("both hurt: %v", kinds(events))
	}
}

// TestManeuverStances: seed "Either fighter was Reckless at Striking
// Distance; Either fighter was Defensive at Grappling Distance" — then
// both may roll, choosing together in secret.
func TestManeuverStances(t *testing.T) {
	t.Run("Reckless at Striking", func(t *testing.T) {
		st := duel(t, nil, "striking")
		_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceReckless}, "bront": {Stance: StanceDefault}}, missB, missW, missB, missW)
		a, b := pendingFor(t, st, DecManeuver, "ana"), pendingFor(t, st, DecManeuver, "bront")
		if !a.Sealed || !b.Sealed || a.Group != b.Group {
			t.Fatal("two fighters maneuvering choose in secret, together")
		}
		// Both try: Ana's black 15 fails her Agility 12, Bront's 7
		// passes his 10.
		_, st = answer(t, st, gm, DecManeuver, "ana", ManeuverChange, nil)
		_, st = answer(t, st, gm, DecManeuver, "bront", ManeuverChange, nil, 15, 3, 7, 2)
		eq(t, "distance", distanceOf(st, "ana", "bront"), Grappling)
	})
	t.Run("Defensive at Grappling, Reckless there is no opening", func(t *testing.T) {
		st := duel(t, nil, "grappling")
		_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceReckless}, "bront": {Stance: StanceDefault}}, missB, missW, missB, missW)
		if !nextExchange(st) {
			t.Fatalf("Reckless at Grappling opens no maneuver: %+v", st.Pending)
		}
		st = duel(t, nil, "grappling")
		_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefensive}, "bront": {Stance: StanceDefault}}, missB, missW)
		pendingFor(t, st, DecManeuver, "ana")
		pendingFor(t, st, DecManeuver, "bront")
	})
}

// TestManeuverDisagreement: spec c8 [I] "if both fighters roll and
// disagree, the higher degree wins" (option maneuver-tie).
func TestManeuverDisagreement(t *testing.T) {
	for _, tc := range []struct {
		name       string
		tie        string
		ana, bront [2]int // black, white
		want       string
	}{
		{"higher degree wins", TieDegree, [2]int{8, 6}, [2]int{9, 3}, Striking},
		{"equal degrees keep the distance", TieDegree, [2]int{8, 6}, [2]int{9, 6}, Grappling},
		{"the resister fails", TieDegree, [2]int{8, 2}, [2]int{12, 9}, Striking},
		{"the mover fails", TieDegree, [2]int{13, 2}, [2]int{12, 9}, Grappling},
		{"option stay: both passing keeps it", TieStay, [2]int{8, 6}, [2]int{9, 3}, Grappling},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := duel(t, map[string]string{OptManeuverTie: tc.tie}, "grappling")
			_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
				"ana": {Stance: StanceDefensive}, "bront": {Stance: StanceDefault}}, missB, missW)
			_, st = answer(t, st, gm, DecManeuver, "bront", ManeuverStay, nil)
			// Ana wants Striking and rolls first; Bront resists.
			events, st := answer(t, st, anaPl, DecManeuver, "ana", ManeuverChange, nil, tc.ana[0], tc.ana[1], tc.bront[0], tc.bront[1])
			if len(find(events, KindManeuver)[0].Rolls) != 2 {
				t.Fatal("both should roll")
			}
			eq(t, "distance", distanceOf(st, "ana", "bront"), tc.want)
		})
	}
}

// TestManeuverOutcomes: seed "If you both miss, were hurt or distracted,
// the distance doesn't change. If you were both Reckless, the distance is
// now Grappling."
func TestManeuverOutcomes(t *testing.T) {
	st := duel(t, nil, "striking")
	// Ana 15, 17 above her 13; Bront 18, 19 above his 13.
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 15, 17, 18, 19)
	if !hasKind(events, KindDistanceStays) || !nextExchange(st) {
		t.Fatalf("both missed completely: %v", kinds(events))
	}

	st = duel(t, nil, "striking")
	events, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceReckless}, "bront": {Stance: StanceReckless}}, missB, missW, missB, missW)
	if len(attacks(t, events)) != 2 || distanceOf(st, "ana", "bront") != Grappling {
		t.Fatalf("both Reckless: %v, distance %s", kinds(events), distanceOf(st, "ana", "bront"))
	}
	if len(find(events, KindManeuver)) != 0 || !nextExchange(st) {
		t.Fatal("both Reckless needs no roll")
	}
}
