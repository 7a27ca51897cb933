package d20duel

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestRecklessExchange: seed "Reckless: +3 to your attack this turn; anyone
// attacking you this turn gains +5". Ana fights Reckless, Bront Default:
// Ana's window is Guard 5 < die ≤ 12+1+3 = 16, Bront's Guard 7 < die ≤
// 13+5 = 18. Both hit: Ana's 14 deals 4+2 = 6 (a −2 wound); Bront's 18 is
// above the mail's Coverage 12 and deals 5+3 = 8 (a −3 wound). Both were
// hurt, so neither may maneuver, and the next exchange opens with the
// wounds counting.
func TestRecklessExchange(t *testing.T) {
	st := duel(t, nil, "striking")
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceReckless}, "bront": {Stance: StanceDefault}}, 14, 3, 18, 2)

	a := attackBy(t, events, "ana")
	eq(t, "ana's Strike", a.Strike, 16)
	eq(t, "ana's Guard to beat", a.Guard, 5)
	eq(t, "ana hits with", a.HitDie, 14)
	eq(t, "ana's damage", a.Damage, 6)
	eq(t, "bront's wound", a.Wound.Penalty, 2)
	r := rollOf(t, events, KindAttack, "ana")
	if v, ok := modValue(r, "Reckless"); !ok || v != 3 {
		t.Errorf("ana's roll mods %+v: want Reckless +3", r.Mods)
	}
	eq(t, "ana's roll compares", r.Compare, "window")
	eq(t, "black die role", r.Dice[0].Role, "black")
	eq(t, "white die role", r.Dice[1].Role, "white")

	b := attackBy(t, events, "bront")
	eq(t, "bront's Strike", b.Strike, 18)
	eq(t, "bront's Guard to beat", b.Guard, 7)
	eq(t, "bront hits with", b.HitDie, 18)
	eq(t, "the mail", b.Armor, ArmorFails)
	eq(t, "bront's damage", b.Damage, 8)
	eq(t, "ana's wound", b.Wound.Penalty, 3)
	if v, ok := modValue(rollOf(t, events, KindAttack, "bront"), "Ana is Reckless"); !ok || v != 5 {
		t.Errorf("bront's roll: want +5 for Ana's Reckless stance")
	}
	if !hasKind(events, KindDistanceStays) || distanceOf(st, "ana", "bront") != Striking {
		t.Errorf("both hurt: the distance must stay Striking (%v)", kinds(events))
	}
	// The next exchange is open, and Ana's −3 wound now counts.
	if len(st.Pending) != 2 || st.Round != 2 {
		t.Fatalf("round %d, pending %+v", st.Round, st.Pending)
	}
	events, _ = choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 10, 10, 20, 20)
	a = attackBy(t, events, "ana")
	eq(t, "ana's Strike wounded", a.Strike, 12+1-3)
	if v, _ := modValue(rollOf(t, events, KindAttack, "ana"), "wounds"); v != -3 {
		t.Errorf("ana's wound modifier %d, want −3", v)
	}
	eq(t, "bront's Guard lowered by his −2 wound", a.Guard, 5-2)
}

// TestStancesShownAfterReveal: the board draws each pair with its
// distance; the stances appear only once both are revealed.
func TestStancesShownAfterReveal(t *testing.T) {
	st := duel(t, nil, "striking")
	bd := ruleset.Board(st, anaPl)
	if bd.Model != "pairs" || len(bd.Pairs.Engagements) != 1 || bd.Pairs.Engagements[0].Distance != "Striking" {
		t.Fatalf("board %+v", bd.Pairs)
	}
	if bd.Pairs.Engagements[0].Shown != nil {
		t.Fatalf("stances shown before the reveal: %v", bd.Pairs.Engagements[0].Shown)
	}
	_, st = answer(t, st, gm, DecStance, "bront", StanceDefensive, nil)
	if s := ruleset.Board(st, anaPl).Pairs.Engagements[0].Shown; s != nil {
		t.Fatalf("one stance committed, board shows %v", s)
	}
	// Ana attacks (no complete miss), Bront Defensive does not counter.
	_, st = answer(t, st, anaPl, DecStance, "ana", StanceReckless, nil, 9, 12)
	shown := ruleset.Board(st, anaPl).Pairs.Engagements[0].Shown
	if shown["ana"] != "Reckless" || shown["bront"] != "Defensive" {
		t.Fatalf("shown after the reveal: %v", shown)
	}
	if !strings.Contains(ruleset.Board(st, gm).Pairs.Engagements[0].Distance, "Striking") {
		t.Fatal("distance missing")
	}
}

var _ = engine.GM

// TestDefensive: seed "If either one of the opponent's dice are within
// your Guard, the attack misses. You may attack this turn only if the
// opponent rolls higher than her Strike with both dice. Defensive fighting
// counts as an action even if you don't get to attack."
func TestDefensive(t *testing.T) {
	t.Run("a die within Guard blocks the attack", func(t *testing.T) {
		st := duel(t, nil, "striking")
		// Ana: Guard 5 < die ≤ 13. The black 9 would hit, but the white
		// 4 is within Bront's Guard 5.
		events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefensive}}, 9, 4)
		a := attackBy(t, events, "ana")
		if a.Hit || !a.Blocked || a.CompleteMiss {
			t.Fatalf("ana's attack %+v: want blocked", a)
		}
		if len(attacks(t, events)) != 1 {
			t.Fatalf("Bront attacked without an opening: %v", kinds(events))
		}
		var hb HeldBack
		if err := find(events, KindHeldBack)[0].Decode(&hb); err != nil || hb.Fighter != "bront" || hb.Reason != "no-opening" {
			t.Fatalf("held back %+v %v", hb, err)
		}
		if len(st.Fighters["bront"].Wounds) != 0 {
			t.Fatal("a blocked attack wounded")
		}
		// Nobody missed completely, nobody was hurt, no Reckless at
		// Striking: no one may maneuver; the next exchange opens.
		eq(t, "round", st.Round, 2)
	})
	t.Run("both dice in the window and none within Guard: a hit", func(t *testing.T) {
		st := duel(t, nil, "striking")
		events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefensive}}, 9, 6)
		if a := attackBy(t, events, "ana"); !a.Hit || a.HitDie != 9 {
			t.Fatalf("ana's attack %+v: want a hit with 9", a)
		}
	})
	t.Run("a complete miss opens the counter-attack", func(t *testing.T) {
		st := duel(t, nil, "striking")
		// Ana rolls 15 and 17, both above her Strike 13; Bront strikes
		// back, 10 against Ana's Guard 7 < die ≤ 13: the mail (Coverage
		// 12) stops 3 of 8.
		events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefensive}}, 15, 17, 10, 3)
		if a := attackBy(t, events, "ana"); !a.CompleteMiss {
			t.Fatalf("ana's attack %+v: want a complete miss", a)
		}
		b := attackBy(t, events, "bront")
		if !b.Counter || !b.Hit || b.Armor != ArmorProtects || b.Damage != 5 || b.Wound.Penalty != 2 {
			t.Fatalf("bront's counter %+v", b)
		}
		// Bront may maneuver: Ana missed completely (and was hurt).
		d := pendingFor(t, st, DecManeuver, "bront")
		if d.Sealed {
			t.Fatal("one fighter's maneuver need not be sealed")
		}
	})
	t.Run("both Defensive: no blows, and the pair is at Striking", func(t *testing.T) {
		st := duel(t, nil, "grappling")
		events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefensive}, "bront": {Stance: StanceDefensive}})
		if len(attacks(t, events)) != 0 {
			t.Fatalf("blows between two Defensive fighters: %v", kinds(events))
		}
		if n := len(find(events, KindHeldBack)); n != 1 {
			t.Fatalf("%d held-back events, want one for the pair", n)
		}
		eq(t, "distance", distanceOf(st, "ana", "bront"), Striking)
	})
}
