package d20duel

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// strongAna is Ana with a Damage Modifier dm: her sword deals 4+dm.
func strongAna(dm int) map[string]any { return with(anaStats, "damageMod", dm) }

// limbDuel is strong Ana against unarmoured Bront, started.
func limbDuel(t *testing.T, opts map[string]string, dm int) *State {
	t.Helper()
	st := newState(t, newSetup(opts, []pair{{"ana", "bront", "striking"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: strongAna(dm)},
		spec{ID: "bront", Side: "foes", Stats: brontStats}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	return st
}

// TestDisarm: seed "Disarm: If the attack inflicts a Wound with at least
// a −3 penalty, the target drops what was held in a hand of the
// attacker's choice and is unable to use that arm until the wound heals."
func TestDisarm(t *testing.T) {
	// Damage Modifier 3: the sword deals 7, a −3 wound to Bront's arm.
	st := limbDuel(t, nil, 3)
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault, Aim: AimDisarm}, "bront": {Stance: StanceDefault}}, 10, 2, 20, 1)
	a := attackBy(t, events, "ana")
	if a.Wound == nil || a.Wound.Location != LocArm || a.Wound.Penalty != 3 || a.Wound.Effect != EffectDisarmed {
		t.Fatalf("wound %+v", a.Wound)
	}
	if _, ok := modValue(rollOf(t, events, KindAttack, "ana"), "Disarm (arm) at range"); ok {
		t.Error("a melee Disarm takes no penalty")
	}
	var d Disarmed
	if err := find(events, KindDisarmed)[0].Decode(&d); err != nil || d.Fighter != "bront" || d.Weapon != "axe" {
		t.Fatalf("disarmed %+v %v", d, err)
	}
	// The great axe is gone (and needs two arms anyway): Bront's next
	// stance offers only his fists.
	for st.Waiting() && len(st.Pending) > 0 && st.Pending[0].Kind != DecStance {
		_, st = answer(t, st, gm, st.Pending[0].Kind, st.Pending[0].For, ManeuverStay, nil)
	}
	weapons := pendingFor(t, st, DecStance, "bront").Fields[0].Options
	if len(weapons) != 1 || weapons[0].Value != "fists" {
		t.Fatalf("bront's weapons after the Disarm: %+v", weapons)
	}
	if bd := ruleset.Board(st, gm); !slices.ContainsFunc(tokenOf(bd.Tokens, "bront").Conditions, func(c boardCondition) bool { return c.ID == "arm" }) {
		t.Error("the board does not show the useless arm")
	}
}

// TestDisarmChoosesTheHand: with several weapons in hand the attacker
// chooses which one drops.
func TestDisarmChoosesTheHand(t *testing.T) {
	st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: with(anaStats, "armor", nil)},
		spec{ID: "bront", Side: "foes", Stats: brontStats}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	// Bront's axe deals 8 to unarmoured Ana: a −3 wound to her arm.
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault, Weapon: "sword"}, "bront": {Stance: StanceDefault, Aim: AimDisarm}}, 20, 1, 10, 3)
	if w := attackBy(t, events, "bront").Wound; w == nil || w.Penalty != 3 || w.Location != LocArm {
		t.Fatalf("ana's wound %+v", w)
	}
	d := pendingFor(t, st, DecDrop, "bront")
	if d.Default != "sword" || len(d.Options) != 3 {
		t.Fatalf("drop decision %+v: want the sword Ana fights with by default, among her three weapons", d)
	}
	events, st = answer(t, st, gm, DecDrop, "bront", "dagger", nil)
	if !slices.Contains(st.Fighters["ana"].Dropped, "dagger") || len(find(events, KindDisarmed)) != 1 {
		t.Fatalf("dropped %v", st.Fighters["ana"].Dropped)
	}
}

// TestImmobilize: seed "If the attack inflicts a Wound with at least a −3
// penalty, the target falls to the ground, unable to stand up until the
// wound heals."
func TestImmobilize(t *testing.T) {
	st := limbDuel(t, map[string]string{OptFallenPenalty: "2"}, 3)
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault, Aim: AimImmobilize}, "bront": {Stance: StanceDefault}}, 10, 2, 20, 1)
	if w := attackBy(t, events, "ana").Wound; w == nil || w.Location != LocLeg || w.Penalty != 3 || w.Effect != EffectFallen {
		t.Fatalf("wound %+v", w)
	}
	if !st.Fighters["bront"].Fallen() {
		t.Fatal("bront is not on the ground")
	}
	// Bront was hurt, so Ana may maneuver; Bront, on the ground, may not.
	pendingFor(t, st, DecManeuver, "ana")
	for _, d := range st.Pending {
		if d.For == "bront" {
			t.Fatalf("a fallen fighter was offered %s", d.Kind)
		}
	}
	_, st = answer(t, st, gm, DecManeuver, "ana", ManeuverStay, nil)
	// On the ground: −2 to Strike and to Guard, besides the −3 wound.
	events, _ = choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 20, 1, 20, 1)
	eq(t, "bront's Strike", attackBy(t, events, "bront").Strike, 13-3-2)
	eq(t, "bront's Guard", attackBy(t, events, "ana").Guard, 5-3-2)
}

// TestLimbWouldKill: seed "Disarming Wounds that would ordinarily kill the
// character enforces a crippled Trait." By default the fighter lives,
// crippled, with the −3 wound and its effect; with limb-would-kill
// "crippled-out" the fighter is out as well.
func TestLimbWouldKill(t *testing.T) {
	// Damage Modifier 6: the sword deals 10, a would-kill wound.
	t.Run("crippled", func(t *testing.T) {
		st := limbDuel(t, nil, 6)
		events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault, Aim: AimImmobilize}, "bront": {Stance: StanceDefault}}, 10, 2, 20, 1)
		a := attackBy(t, events, "ana")
		if a.Crippled != "Crippled leg" || a.Wound.Penalty != 3 || a.Wound.Effect != EffectCrippled {
			t.Fatalf("attack %+v wound %+v", a, a.Wound)
		}
		b := st.Fighters["bront"]
		if st.Combatant("bront").Out || !slices.Contains(b.Traits, "Crippled leg") || !b.Fallen() {
			t.Fatalf("bront out %v traits %v fallen %v", st.Combatant("bront").Out, b.Traits, b.Fallen())
		}
	})
	t.Run("crippled and out", func(t *testing.T) {
		st := limbDuel(t, map[string]string{OptLimbWouldKill: LimbCrippledOut}, 6)
		_, st = choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault, Aim: AimDisarm}, "bront": {Stance: StanceDefault}}, 10, 2, 20, 1)
		if !st.Combatant("bront").Out || st.Status != engine.StatusFinished {
			t.Fatalf("bront out %v, status %s", st.Combatant("bront").Out, st.Status)
		}
	})
	t.Run("a would-kill wound to the body ends the duel", func(t *testing.T) {
		st := limbDuel(t, nil, 6)
		events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
			"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 10, 2, 20, 1)
		if w := attackBy(t, events, "ana").Wound; w.Penalty != Mortal {
			t.Fatalf("wound %+v", w)
		}
		if !st.Combatant("bront").Out || st.Status != engine.StatusFinished || st.Outcome.Winner != "heroes" {
			t.Fatalf("status %s outcome %+v", st.Status, st.Outcome)
		}
	})
}

// TestRangedDisarmPenalty: seed "Ranged Immobilize or Disarm attacks
// incur a −2 penalty to hit."
func TestRangedDisarmPenalty(t *testing.T) {
	for _, aim := range []string{AimDisarm, AimImmobilize, AimNormal} {
		st := newState(t, newSetup(nil, nil,
			spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
			spec{ID: "bront", Side: "foes", Stats: brontStats}))
		_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
		events, _ := do(t, st, anaPl, cmd(CmdShoot, "ana", "target", "bront", "weapon", "bow", "aim", aim), 5, 5)
		a := attackBy(t, events, "ana")
		want := 11
		if aim != AimNormal {
			want = 9
		}
		eq(t, aim+" Strike at range", a.Strike, want)
		if v, ok := modValue(rollOf(t, events, KindAttack, "ana"), aimLabels[aim]+" at range"); (aim != AimNormal) != (ok && v == -2) {
			t.Errorf("%s: at-range modifier %d %v", aim, v, ok)
		}
	}
}
