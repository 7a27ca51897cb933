package d20under

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Clarifications (spec c19) and surprise (c5).

func TestMedicusAndHerbalCures(t *testing.T) {
	mk := func(opts map[string]string) *State {
		return begin(t, newState(t, gridSetup(withOpts(opts), 8, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Cunning: 12},
				Stats: map[string]any{"abilities": map[string]string{"medicus": "novice"}, "items": map[string]int{ItemHerbalCure: 1}}},
			spec{ID: "bo", Side: "heroes", PC: true, X: 2, Y: 1, Stats: map[string]any{"damage": 7}},
			spec{ID: "orc", Side: "foes", X: 7, Y: 1},
		)))
	}
	// A Cunning test (12), then 1d4.
	st := mk(noCrit)
	events, st := do(t, st, gm, cmd(CmdFirstAid, "ana", "target", "bo"), 12, 3)
	eq(t, "Medicus 1d4", st.Fighters["bo"].Toughness, 6)
	eq(t, "the healer rolls", rollOf(t, events, "Medicus").Who, "ana")
	eq(t, "a combat action", st.Fighters["ana"].Combat, false)
	st = mk(noCrit)
	_, st = do(t, st, gm, cmd(CmdFirstAid, "ana", "target", "bo"), 13)
	eq(t, "a failed test heals nothing", st.Fighters["bo"].Toughness, 3)
	// With a herbal cure: +1 (option medicus-cure-bonus).
	st = mk(noCrit)
	_, st = do(t, st, gm, cmd(CmdFirstAid, "ana", "target", "bo", "cure", true), 12, 3)
	eq(t, "1d4 + 1", st.Fighters["bo"].Toughness, 7)
	eq(t, "cure used", st.Fighters["ana"].Items[ItemHerbalCure], 0)
	st = mk(map[string]string{OptCriticals: Off, OptMedicusCure: "2"})
	_, st = do(t, st, gm, cmd(CmdFirstAid, "ana", "target", "bo", "cure", true), 12, 3)
	eq(t, "1d4 + 2", st.Fighters["bo"].Toughness, 8)
	// Without Medicus, no first aid.
	fail(t, st, gm, cmd(CmdFirstAid, "bo", "target", "ana"), fray.ENOTYOURTURN)
}

func TestQuakeHalfDamageOnAPassedDefence(t *testing.T) {
	mk := func() *State {
		return begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
			spec{ID: "mage", Side: "foes", X: 1, Y: 1, Attr: map[string]int{Resolute: 12, Quick: 13}, Stats: map[string]any{"powers": "quake", "tradition": true}},
			spec{ID: "ana", Side: "heroes", PC: true, X: 6, Y: 1, Attr: map[string]int{Quick: 12}},
		)))
	}
	// Ana's defence [Defense 12 ← Resolute 12] = 10: passed, yet half of
	// the standard weapon damage (flat 4): 2.
	st := mk()
	events, st := do(t, st, gm, cmd(CmdQuake, "mage", "target", "ana"), 10)
	eq(t, "label", rollOf(t, events, "Defence").Label, "Defence: Defense against Resolute")
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "half", d.Damage, 2)
	eq(t, "toughness", st.Fighters["ana"].Toughness, 8)
	eq(t, "a tradition: 1 Corruption", st.Fighters["mage"].Temporary, 1)
	// Failed: all of it.
	st = mk()
	_, st = do(t, st, gm, cmd(CmdQuake, "mage", "target", "ana"), 11)
	eq(t, "full", st.Fighters["ana"].Toughness, 6)
}

func TestCurse(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Resolute: 12, Quick: 13}, Stats: map[string]any{"powers": "curse"}},
		spec{ID: "orc", Side: "foes", X: 6, Y: 1, Attr: map[string]int{Quick: 12, Accurate: 13}, Weapons: []map[string]any{{"id": "xbow", "name": "Crossbow", "type": "crossbow"}}},
	)))
	// [Resolute 12 ← Resolute 10] = 12; then 1d4 temporary Corruption.
	_, st = do(t, st, gm, cmd(CmdCurse, "ana", "target", "orc"), 12, 3)
	eq(t, "cursed", st.Fighters["orc"].CursedBy, "ana")
	eq(t, "corruption", st.Fighters["ana"].Temporary, 3)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// The cursed orc's shot: ana's defence with a second chance (the
	// orc's second chance to fail), and taking damage does not break the
	// curse (no concentration).
	events, st := do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), 20, 19)
	eq(t, "ana's better die", rollOf(t, events, "Defence").Total, 19)
	eq(t, "ana hit", st.Fighters["ana"].Toughness < 10, true)
	eq(t, "still cursed", st.Fighters["orc"].CursedBy, "ana")
	// Keeping it up takes ana's combat action at her turn.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	eq(t, "combat action spent on the curse", st.Fighters["ana"].Combat, false)
	_, st = do(t, st, gm, cmd(CmdEndCurse, "ana"))
	eq(t, "lifted", st.Fighters["orc"].CursedBy, "")
}

func TestRegeneration(t *testing.T) {
	mk := func(opts map[string]string) *State {
		return begin(t, newState(t, gridSetup(withOpts(opts), 8, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 13}},
			spec{ID: "troll", Side: "foes", X: 6, Y: 1, Attr: map[string]int{Quick: 12, Strong: 15}, Stats: map[string]any{"damage": 6, "traits": map[string]int{"regeneration": 2}}},
		)))
	}
	// Regeneration 2 is rolled as 1d4 (3), at the start of the troll's own turn.
	st := mk(noCrit)
	eq(t, "not on ana's turn", st.Fighters["troll"].Toughness, 9)
	events, st := do(t, st, gm, cmd(CmdEndTurn, "ana"), 3)
	eq(t, "1d4", st.Fighters["troll"].Toughness, 12)
	eq(t, "the GM's die", rollOf(t, events, "Regeneration").Who, "")
	// Option: flat.
	st = mk(map[string]string{OptCriticals: Off, OptTraitValues: TraitsFlat})
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	eq(t, "flat 2", st.Fighters["troll"].Toughness, 11)
	// Not while dying: a character who starts the fight at 0 Toughness is
	// dying, and its turn is only its death test.
	st = begin(t, newState(t, gridSetup(noCrit, 8, 3, nil,
		spec{ID: "wulf", Side: "heroes", PC: true, X: 1, Y: 1, Stats: map[string]any{"damage": 10, "traits": map[string]int{"regeneration": 2}}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 1, Y: 2},
		spec{ID: "orc", Side: "foes", X: 6, Y: 1},
	)))
	eq(t, "dying from the start", st.Fighters["wulf"].Dying, true)
	eq(t, "its turn", st.Current(), "wulf")
	eq(t, "no regeneration", st.Fighters["wulf"].Toughness, 0)
}

func TestMonstrousTraitsRolled(t *testing.T) {
	// Armoured 3: a player character's rolled 1d6; an NPC's flat 3 either way.
	st := begin(t, newState(t, gridSetup(noCrit, 8, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 13}, Stats: map[string]any{"traits": map[string]int{"armoured": 3}}},
		spec{ID: "beast", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 12, Accurate: 15}, Stats: map[string]any{"traits": map[string]int{"natural-weapon": 2}},
			Weapons: []map[string]any{{"id": "claws", "name": "Claws", "type": "natural"}}},
	)))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// Claws 1d6 flat 3 + natural weapon 2 (1d4) flat 2 = 5, against ana's Armoured 1d6 (4): 1.
	events, st := do(t, st, gm, cmd(CmdAttack, "beast", "target", "ana"), 20, 4)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "damage", d.Rolled, 5)
	eq(t, "armour", d.Armour, 4)
	eq(t, "taken", d.Taken, 1)
}

func TestFamiliarSharesDamage(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 8, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 13}, Stats: map[string]any{"familiar": "crow"}},
		spec{ID: "crow", Side: "heroes", PC: true, X: 0, Y: 0, Attr: map[string]int{Quick: 11}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 12}, Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy", "bonus": 2}}},
	)))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// Flat 5 + 2 = 7 against no armour: 7 > PT 5, judged on the whole; ana 4, the crow 3.
	events, st := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "critical on the whole", d.Critical, true)
	eq(t, "ana", st.Fighters["ana"].Toughness, 6)
	eq(t, "crow", st.Fighters["crow"].Toughness, 7)
}

func TestSurprise(t *testing.T) {
	mk := func() *State {
		st := newState(t, gridSetup(noCrit, 10, 4, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Discreet: 12, Quick: 12}},
			spec{ID: "bo", Side: "heroes", PC: true, X: 3, Y: 3, Attr: map[string]int{Discreet: 9, Quick: 11},
				Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
			spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Vigilant: 11, Quick: 14},
				Weapons: []map[string]any{{"id": "axe", "name": "Axe", "type": "one-handed"}}},
			spec{ID: "gob", Side: "foes", X: 8, Y: 3, Attr: map[string]int{Vigilant: 8, Quick: 13},
				Weapons: []map[string]any{{"id": "knife", "name": "Knife", "type": "short"}}},
		))
		_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
		return st
	}
	// The heroes' lowest Discreet (bo, 9) against the foes' highest
	// Vigilant (orc, 11): [9 ← 11] = 8, rolled by bo.
	st := mk()
	events, st := do(t, st, gm, cmd(GMSurprise, "", "ambush", "heroes>foes"), 8)
	r := rollOf(t, events, "Surprise")
	eq(t, "rolled by the lowest Discreet", r.Who, "bo")
	eq(t, "target", r.Target, 8)
	eq(t, "surprised", st.Ambush, "heroes")
	eq(t, "the orc's axe is not drawn", st.Fighters["orc"].Drawn, false)
	eq(t, "a Short knife comes out free", st.Fighters["gob"].Drawn, true)
	fail(t, st, gm, cmd(GMSurprise, "", "ambush", "foes>heroes"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(GMBegin, ""))
	eq(t, "phase", st.Phase, PhaseSurprise)
	if len(st.Acting) != 2 {
		t.Fatalf("the ambushers act: %v", st.Acting)
	}
	// One free attack each: ana in melee, bo with the bow.
	_, st = do(t, st, gm, cmd(CmdSurpriseHit, "ana", "target", "orc"), 20)
	fail(t, st, gm, cmd(CmdSurpriseHit, "ana", "target", "orc"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdSurpriseHit, "bo", "target", "gob"), 20)
	eq(t, "phase over", st.Phase, "")
	eq(t, "then the usual order", st.Current(), "orc")
	// The orc must draw: a movement action.
	_, st = do(t, st, gm, cmd(CmdSwitch, "orc", "weapon", "axe"))
	eq(t, "drawn", st.Fighters["orc"].Drawn, true)
	eq(t, "with its movement action", st.Fighters["orc"].Moves, 0)
	// Foes surprising heroes: the heroes' highest Vigilant rolls to notice.
	st = mk()
	events, _ = do(t, st, gm, cmd(GMSurprise, "", "side", "foes", "target", "heroes"), 3)
	r = rollOf(t, events, "Surprise")
	eq(t, "a player rolls", r.Label, "Surprise: Vigilant against Discreet")
}
