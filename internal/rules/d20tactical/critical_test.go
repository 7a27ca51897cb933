package d20tactical

import "testing"

var vest = map[string]any{"name": "Vest", "defense": 2, "points": 10}

// TestCritical: a natural 20 that hits is a critical: the target loses an
// Armour Point, then the attacker chooses double damage (the dice again,
// which cannot kill) or a Life Point.
func TestCritical(t *testing.T) {
	// The pistol at cy (40 ft): natural 20. Vest: Defense 12.
	st := skirmish(t, nil, at(1, 0, 9), stat(2, "armor", vest))
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 20)
	a := attackOf(t, events)
	eq(t, "critical", a.Critical, true)
	eq(t, "armour point lost", st.Fighters["cy"].ArmorLeft, 9)
	d := pendingKind(t, st, DecCritical)
	eq(t, "ana chooses", d.For, "ana")

	// Double damage: 2d6 = 5 + 4, again 3 + 3: 15.
	events, st2 := answer(t, st, gm, DecCritical, critDouble, nil, 5, 4, 3, 3)
	var dmg DamageRolled
	decodeOne(t, events, KindDamage, &dmg)
	eq(t, "extra", dmg.Extra, 6)
	eq(t, "hp", st2.Fighters["cy"].HP, 5)

	// A Life Point: an NPC just loses it (no save); damage as normal.
	events, st2 = answer(t, st, gm, DecCritical, critLife, nil, 5, 4)
	eq(t, "life point", st2.Fighters["cy"].LifePoints, 2)
	eq(t, "no save for NPCs", len(find(events, KindSave)), 0)
	eq(t, "hp", st2.Fighters["cy"].HP, 11)
}

// TestCriticalExtraCannotKill: the extra stops at −9 (crit-floor); the
// base damage alone can still kill.
func TestCriticalExtraCannotKill(t *testing.T) {
	cases := []struct {
		name   string
		hp     int
		opts   map[string]string
		faces  []int // base 2d6, extra 2d6
		wantHP int
		dead   bool
	}{
		{"extra stops at −9", 5, nil, []int{3, 3, 6, 6}, -9, false},
		{"extra above the floor counts in full", 20, nil, []int{3, 3, 2, 2}, 10, false},
		{"base damage alone kills", 2, nil, []int{6, 6, 6, 6}, 0, true},
		{"floor at 0 (option)", 5, map[string]string{OptCritFloor: "0"}, []int{1, 1, 6, 6}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := skirmish(t, c.opts, at(1, 0, 9), stat(2, "hp", 20), stat(2, "wounds", 20-c.hp))
			_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 20)
			_, st = answer(t, st, gm, DecCritical, critDouble, nil, c.faces...)
			cy := st.Fighters["cy"]
			if c.dead {
				eq(t, "dead", cy.Dead, true)
				eq(t, "out", st.Combatant("cy").Out, true)
				return
			}
			eq(t, "hp", cy.HP, c.wantHP)
			eq(t, "alive", cy.Dead, false)
		})
	}
}

// TestCriticalLifePoint: a player character saves on Fortitude (DC 15) to
// keep its Life Point; the last Life Point lost kills.
func TestCriticalLifePoint(t *testing.T) {
	// cy shoots ana this time: cy first.
	begin := func(t *testing.T, with ...func([]spec)) *State {
		st := skirmish(t, nil, append([]func([]spec){at(1, 0, 9)}, with...)...)
		st = endTurns(t, st, "cy")
		_, st = do(t, st, gm, cmd(CmdAttack, "cy", "target", "ana", "weapon", "pistol"), 20)
		return st
	}
	st := begin(t)
	// Fortitude 15 + 0 ≥ 15: kept.
	events, st2 := answer(t, st, gm, DecCritical, critLife, nil, 1, 1, 15)
	var s Saved
	decodeOne(t, events, KindSave, &s)
	eq(t, "dc", s.DC, 15)
	eq(t, "kept", st2.Fighters["ana"].LifePoints, 3)
	// 14: lost.
	_, st2 = answer(t, st, gm, DecCritical, critLife, nil, 1, 1, 14)
	eq(t, "lost", st2.Fighters["ana"].LifePoints, 2)
	// Her last one: dead.
	st = begin(t, stat(0, "lifePoints", 1))
	_, st2 = answer(t, st, gm, DecCritical, critLife, nil, 1, 1, 2)
	eq(t, "dead", st2.Fighters["ana"].Dead, true)
	eq(t, "out", st2.Combatant("ana").Out, true)
	eq(t, "the fight is over", st2.Status, "finished")
}

// TestCriticalRange and confirmation.
func TestCriticalRangeAndConfirmation(t *testing.T) {
	// A critical range of 19: a 19 that hits is a critical.
	st := skirmish(t, nil, at(1, 0, 9), stat(0, "weapons", []map[string]any{{"id": "pistol", "name": "Pistol", "damage": "2d6", "range": 30, "crit": 19}}))
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 19)
	eq(t, "19 threatens", attackOf(t, events).Critical, true)
	// With confirmation: the second roll (8 + 2 − 1 = 9) misses Defense 10.
	st = skirmish(t, map[string]string{OptCritConfirm: Roll}, at(1, 0, 9))
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 20, 8, 5, 4)
	a := attackOf(t, events)
	eq(t, "threat", a.Threat, true)
	eq(t, "not confirmed", a.Critical, false)
	eq(t, "two rolls", len(find(events, KindAttack)[0].Rolls), 2)
	events, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 20, 9)
	eq(t, "confirmed", attackOf(t, events).Critical, true)
	pendingKind(t, st, DecCritical)
}
