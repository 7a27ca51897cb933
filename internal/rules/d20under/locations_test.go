package d20under

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// Hit locations (spec c17) and armour segments (c18).

func TestHitLocationTables(t *testing.T) {
	// The seed's d10 columns; its row "1 Right Left" is the right leg.
	high := []string{"", PartRightLeg, PartLeftLeg, PartTorso, PartTorso, PartRightArm, PartRightArm, PartLeftArm, PartLeftArm, PartHead, PartHead}
	low := []string{"", PartRightLeg, PartRightLeg, PartLeftLeg, PartLeftLeg, PartTorso, PartTorso, PartTorso, PartRightArm, PartLeftArm, PartHead}
	part := []string{"", PartRightLeg, PartLeftLeg, PartTorso, PartTorso, PartTorso, PartRightArm, PartRightArm, PartLeftArm, PartLeftArm, PartHead}
	for d := 1; d <= 10; d++ {
		eq(t, "high", highTable[d], high[d])
		eq(t, "low", lowTable[d], low[d])
		eq(t, "body part", partTable[d], part[d])
	}
}

// helmeted is ana (Accurate 13) next to an orc (Quick 11, Strong 13: PT
// 7) wearing only a medium helmet (1d6, flat 3; 20% of Impeding 3 is 0.6,
// rounded to 1: Defense 10).
func helmeted(t *testing.T, opts map[string]string, anaWeapon string) *State {
	t.Helper()
	return begin(t, newState(t, gridSetup(withOpts(opts), 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "w", "name": "Maul", "type": anaWeapon}}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 13},
			Armour: map[string]any{"type": "medium", "segments": "helmet"}},
	)))
}

func TestAimHighOrLow(t *testing.T) {
	for _, tc := range []struct {
		aim   string
		d10   int
		where string
		armed bool // the helmet protects
	}{
		{AimHigh, 9, PartHead, true},
		{AimHigh, 3, PartTorso, false},
		{AimLow, 10, PartHead, true},
		{AimLow, 2, PartRightLeg, false},
	} {
		t.Run(tc.aim+" "+tc.where, func(t *testing.T) {
			st := helmeted(t, noCrit, "one-handed")
			// [Accurate 13 − 2 ← Defense 10] = 11.
			events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", tc.aim), 10, tc.d10, 6)
			r := rollOf(t, events, "Attack")
			eq(t, "target", r.Target, 11)
			if v, ok := hasMod(r, "aiming "+tc.aim); !ok || v != -2 {
				t.Errorf("mods %+v", r.Mods)
			}
			var d Damage
			decodeOne(t, events, KindDamage, &d)
			eq(t, "location", d.Location, tc.where)
			armour := 0
			if tc.armed {
				armour = 3
			}
			eq(t, "armour", d.Armour, armour)
			eq(t, "rolled on the table", rollOf(t, events, "Aim").Result, partWords(tc.where))
		})
	}
}

func TestAimAtABodyPart(t *testing.T) {
	// −5: [Accurate 13 − 5 ← Defense 10] = 8. A maul's 1d10 against the
	// unprotected part; 7 or more is the Pain Threshold.
	t.Run("leg: prone, half movement", func(t *testing.T) {
		st := helmeted(t, noCrit, "heavy")
		events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", PartLeftLeg), 7, 7)
		eq(t, "target", rollOf(t, events, "Attack").Target, 8)
		f := st.Fighters["orc"]
		eq(t, "prone", f.Prone, true)
		eq(t, "lame", f.Lame, true)
		eq(t, "half movement", st.gridSquares(f), 2)
	})
	t.Run("below the Pain Threshold: no effect", func(t *testing.T) {
		st := helmeted(t, noCrit, "heavy")
		_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", PartLeftLeg), 7, 6)
		eq(t, "not prone", st.Fighters["orc"].Prone, false)
		eq(t, "not lame", st.Fighters["orc"].Lame, false)
	})
	t.Run("torso: loses its next turn", func(t *testing.T) {
		st := helmeted(t, noCrit, "heavy")
		_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", PartTorso), 7, 8)
		eq(t, "winded", st.Fighters["orc"].Winded, 1)
		events, st := do(t, st, gm, cmd(CmdEndTurn, "ana"))
		eq(t, "turn lost", len(find(events, KindTurnLost)), 1)
		eq(t, "back to ana", st.Current(), "ana")
	})
	t.Run("right arm: a Quick test to keep hold; second chance to fail attacks", func(t *testing.T) {
		st := helmeted(t, noCrit, "heavy")
		// The orc's Quick 11: 12 fails, the sword drops.
		_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", PartRightArm), 7, 7, 12)
		f := st.Fighters["orc"]
		eq(t, "arm", f.ArmRight, true)
		eq(t, "dropped", f.Drawn, false)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		events, _ := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 5, 15)
		// The orc's second chance to fail, seen from ana's defence: her better die.
		eq(t, "the player keeps the better", rollOf(t, events, "Defence").Total, 5)
	})
	t.Run("head: +1d6 and unconscious 1d4 turns", func(t *testing.T) {
		st := helmeted(t, noCrit, "heavy")
		// Helmet: 10 against flat 3 = 7, PT; +1d6 (2); unconscious 3 turns.
		events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", PartHead), 7, 10, 2, 3)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, "armour on the head", d.Armour, 3)
		eq(t, "taken", d.Taken, 9)
		eq(t, "unconscious", st.Fighters["orc"].Unconscious, 3)
		eq(t, "down", st.Combatant("orc").Down, true)
	})
	t.Run("option: Aim High's locations have the effects too", func(t *testing.T) {
		st := helmeted(t, map[string]string{OptCriticals: Off, OptAimEffects: AimLocated}, "heavy")
		_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", AimLow), 10, 1, 7)
		eq(t, "leg: prone", st.Fighters["orc"].Prone, true)
		eq(t, "lame", st.Fighters["orc"].Lame, true)
	})
}

func TestRowOneOption(t *testing.T) {
	for _, tc := range []struct{ opt, want string }{{RowOneRight, PartRightLeg}, {RowOneLeft, PartLeftLeg}} {
		st := helmeted(t, map[string]string{OptCriticals: Off, OptRowOne: tc.opt}, "one-handed")
		events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "aim", AimHigh), 10, 1, 6)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, tc.opt, d.Location, tc.want)
	}
}

func TestEveryHitLocatedOption(t *testing.T) {
	st := helmeted(t, map[string]string{OptCriticals: Off, OptHitLocations: LocationsEvery}, "one-handed")
	// No aim, but a d10 on the body-part column: 10, the head (helmet).
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 12, 10, 5)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "head", d.Location, PartHead)
	eq(t, "helmet", d.Armour, 3)
}

func TestUnlocatedHitsAndSegments(t *testing.T) {
	// Helmet only: an unlocated hit is not protected (no cuirass)…
	st := helmeted(t, noCrit, "one-handed")
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 12, 5)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "no armour", d.Armour, 0)
	// …unless the option says any segment protects.
	st = helmeted(t, map[string]string{OptCriticals: Off, OptUnlocatedArmour: UnlocatedAny}, "one-handed")
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 12, 5)
	decodeOne(t, events, KindDamage, &d)
	eq(t, "armour", d.Armour, 3)
	_ = engine.GM
}
