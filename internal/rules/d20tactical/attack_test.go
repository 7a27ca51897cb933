package d20tactical

import (
	"strings"
	"testing"
)

// TestMelee: d20 + BAB + Strength ≥ Defense hits; the posture and charge
// modifiers (options, d20 values); a natural 20 always hits, a natural 1
// always misses; cover plays no part.
func TestMelee(t *testing.T) {
	cases := []struct {
		name       string
		with       []func([]spec)
		face       int
		wantMod    string
		wantValue  int
		wantTotal  int
		wantHit    bool
		wantDamage int // bo's hit points lost (1d4 = 3)
	}{
		{"equal to Defense hits", nil, 8, "", 0, 10, true, 3},
		{"one short misses", nil, 7, "", 0, 9, false, 0},
		{"a natural 20 always hits (and threatens: the critical waits for ana's choice)", []func([]spec){stat(1, "classDefense", 30)}, 20, "", 0, 22, true, 0},
		{"a natural 1 always misses", []func([]spec){stat(1, "classDefense", -10)}, 1, "", 0, 3, false, 0},
		{"Strength to hit and damage", []func([]spec){stat(0, "abilities", map[string]int{"str": 14})}, 6, "Strength", 2, 10, true, 5},
		{"target crouched +2", []func([]spec){posture(1, Crouched)}, 6, "target crouched", 2, 10, true, 3},
		{"target prone +4", []func([]spec){posture(1, Prone)}, 4, "target prone", 4, 10, true, 3},
		{"from a crouch −2", []func([]spec){posture(0, Crouched)}, 10, "attacking from a crouch", -2, 10, true, 3},
		{"from prone −4", []func([]spec){posture(0, Prone)}, 12, "attacking from prone", -4, 10, true, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := skirmish(t, nil, c.with...)
			faces := []int{c.face}
			if c.wantHit && c.face != 20 {
				faces = append(faces, 3)
			}
			if c.face == 1 {
				faces = append(faces, 2) // the fumble: bo's free attack misses
			}
			hp := st.Fighters["bo"].HP
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), faces...)
			var a AttackRolled
			if err := find(events, KindAttack)[0].Decode(&a); err != nil {
				t.Fatal(err)
			}
			eq(t, "total", a.Total, c.wantTotal)
			eq(t, "hit", a.Hit, c.wantHit)
			if c.wantMod != "" {
				v, ok := modValue(a.Mods, c.wantMod)
				if !ok {
					t.Fatalf("no %q in %v", c.wantMod, a.Mods)
				}
				eq(t, c.wantMod, v, c.wantValue)
			}
			eq(t, "damage", hp-st.Fighters["bo"].HP, c.wantDamage)
		})
	}
	// Options change the numbers.
	st := skirmish(t, map[string]string{OptMeleeVsProne: "2"}, posture(1, Prone))
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 2)
	v, _ := modValue(attackOf(t, events).Mods, "target prone")
	eq(t, "option", v, 2)
	// Cover counts for nothing in melee: 90% covered, still Defense 10.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdSetCover, "", "combatant", "bo", "percent", 90))
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 8, 1)
	eq(t, "melee ignores cover", attackOf(t, events).Defense, 10)
	// Out of reach.
	msg := fail(t, skirmish(t, nil), gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "knife"), "illegal")
	if !strings.Contains(msg, "out of reach") {
		t.Fatal(msg)
	}
}

// TestRanged: the Distance table — Short 0, Medium −1, Long −2, Extreme −3
// and half damage — with bands at 1, 2 and 4 range increments and the
// maximum at 10; +1 from a crouch; from prone +1 and one step better,
// Extreme still halving; crouched and prone targets get nothing.
func TestRanged(t *testing.T) {
	cases := []struct {
		name     string
		cyX      int // ana at 2,2; the pistol's increment is 30 ft
		opts     map[string]string
		with     []func([]spec)
		wantBand string
		wantMods map[string]int
		wantDmg  int // 2d6 = 5 + 4 = 9
	}{
		{"short range (30 ft)", 8, nil, nil, "Short", nil, 9},
		{"medium range (60 ft): −1", 14, nil, nil, "Medium", map[string]int{"medium range": -1}, 9},
		{"long range (120 ft): −2", 26, nil, nil, "Long", map[string]int{"long range": -2}, 9},
		{"extreme range (150 ft): −3, half damage", 32, nil, nil, "Extreme", map[string]int{"extreme range": -3}, 4},
		{"extreme up to 10 increments (300 ft)", 59, nil, nil, "Extreme", map[string]int{"extreme range": -3}, 4},
		{"medium band to 3 increments (option)", 20, map[string]string{OptBandMedium: "3"}, nil, "Medium", map[string]int{"medium range": -1}, 9},
		{"from a crouch +1", 14, nil, []func([]spec){posture(0, Crouched)}, "Medium", map[string]int{"medium range": -1, "firing from a crouch": 1}, 9},
		{"from prone: +1, long counts as medium", 26, nil, []func([]spec){posture(0, Prone)}, "Long", map[string]int{"long range": -1, "firing from prone": 1}, 9},
		{"from prone at extreme: −2, still half", 32, nil, []func([]spec){posture(0, Prone)}, "Extreme", map[string]int{"extreme range": -2, "firing from prone": 1}, 4},
		{"from prone at short: no penalty to better", 8, nil, []func([]spec){posture(0, Prone)}, "Short", map[string]int{"firing from prone": 1}, 9},
		{"a crouched target gets no bonus", 8, nil, []func([]spec){posture(2, Crouched)}, "Short", nil, 9},
		{"a prone target gets no bonus", 8, nil, []func([]spec){posture(2, Prone)}, "Short", nil, 9},
		{"Dexterity to hit", 8, nil, []func([]spec){stat(0, "abilities", map[string]int{"dex": 16})}, "Short", map[string]int{"Dexterity": 3}, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			with := append([]func([]spec){at(1, 0, 9), at(2, c.cyX, 2)}, c.with...)
			st := skirmishOn(t, c.opts, field(60, 10), with...)
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 18, 5, 4)
			a := attackOf(t, events)
			eq(t, "band", a.Band, c.wantBand)
			eq(t, "defense", a.Defense, 10)
			for src, want := range c.wantMods {
				v, ok := modValue(a.Mods, src)
				if !ok {
					t.Fatalf("no %q in %v", src, a.Mods)
				}
				eq(t, src, v, want)
			}
			want := 18 + 2 + sumMods(a.Mods) - 2
			eq(t, "total", a.Total, want)
			eq(t, "damage", 20-st.Fighters["cy"].HP, c.wantDmg)
			eq(t, "ammo", st.Fighters["ana"].Weapon("pistol").Ammo, 14)
		})
	}
	// Beyond 10 increments: out of range.
	st := skirmishOn(t, nil, field(60, 10), at(1, 0, 9), at(2, 23, 2), stat(0, "weapons", []map[string]any{{"id": "sling", "name": "Sling", "damage": "1d4", "range": 10}}))
	msg := fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "sling"), "illegal")
	if !strings.Contains(msg, "out of range") {
		t.Fatal(msg)
	}
	// A thrown weapon reaches 5 increments.
	st = skirmishOn(t, nil, field(60, 10), at(1, 0, 9), at(2, 13, 2), stat(0, "weapons", []map[string]any{{"id": "axe", "name": "Axe", "damage": "1d6", "range": 10, "thrown": true}}))
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "axe"), "illegal")
	// No line of sight through a wall.
	st = skirmishOn(t, nil, field(20, 10, sq(5, 2, "wall", true)), at(1, 0, 9))
	msg = fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), "illegal")
	if !strings.Contains(msg, "line of sight") {
		t.Fatal(msg)
	}
}

// TestShootingIntoMeleeAndProvoking: a shot at a target next to one of
// the shooter's allies takes −4 (option); shooting where an opponent
// threatens provokes an attack of opportunity.
func TestShootingIntoMeleeAndProvoking(t *testing.T) {
	specs := []spec{
		{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true},
		{ID: "di", Side: "heroes", X: 5, Y: 5},
		{ID: "bo", Side: "foes", X: 6, Y: 5},
		{ID: "cy", Side: "foes", X: 19, Y: 9},
	}
	_, st := start(t, newState(t, newSetup(nil, field(20, 10), specs...)), 20, 19, 10, 5)
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "pistol"), 10)
	v, _ := modValue(attackOf(t, events).Mods, "shooting into melee")
	eq(t, "into melee", v, -4)
	// di shoots bo point-blank after bo has acted: bo's attack of
	// opportunity comes first.
	specs[3].X = 9
	_, st = start(t, newState(t, newSetup(nil, field(20, 10), specs...)), 5, 10, 20, 1)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "bo"))
	eq(t, "di's turn", st.Current(), "di")
	events, _ = do(t, st, gm, cmd(CmdAttack, "di", "target", "bo", "weapon", "pistol"), 2, 10, 3, 3)
	as := find(events, KindAttack)
	if len(as) != 2 {
		t.Fatalf("want bo's attack of opportunity then di's shot: %v", kinds(events))
	}
	var first AttackRolled
	_ = as[0].Decode(&first)
	eq(t, "first the aoo", first.Attacker, "bo")
}

// TestBurst: a burst of up to 3 or automatic fire of up to 5: −1 per shot
// after the first, one roll; on a hit 1dN shots hit, each rolling damage.
func TestBurst(t *testing.T) {
	// The rifle (2d8, 80 ft) at cy, 40 ft away: short range.
	st := skirmish(t, nil, at(1, 0, 9))
	// Burst of 3: −2. d20 12 + 2 − 2 = 12 hits; 1d3 = 2 hits; 3+4, 5+6.
	events, st2 := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "shots", "3"), 12, 2, 3, 4, 5, 6)
	a := attackOf(t, events)
	v, _ := modValue(a.Mods, "burst, 3 shots")
	eq(t, "burst penalty", v, -2)
	eq(t, "shots", a.Shots, 3)
	var d DamageRolled
	decodeOne(t, events, KindDamage, &d)
	eq(t, "hits", len(d.Amounts), 2)
	eq(t, "first hit", d.Amounts[0], 7)
	eq(t, "second hit", d.Amounts[1], 11)
	eq(t, "cy hp", st2.Fighters["cy"].HP, 20-18)
	eq(t, "ammo", st2.Fighters["ana"].Weapon("rifle").Ammo, 27)
	// Automatic, 5 shots: −4, 1d5 hits.
	events, st2 = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "shots", 5), 14, 1, 2, 2)
	a = attackOf(t, events)
	v, _ = modValue(a.Mods, "automatic fire, 5 shots")
	eq(t, "auto penalty", v, -4)
	decodeOne(t, events, KindDamage, &d)
	eq(t, "one hit of five", len(d.Amounts), 1)
	eq(t, "ammo", st2.Fighters["ana"].Weapon("rifle").Ammo, 25)
	// A miss rolls no hits.
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "shots", 2), 5)
	eq(t, "miss", len(find(events, KindDamage)), 0)
	// The pistol fires single shots; six shots is no mode; ammunition runs out.
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol", "shots", 2), "illegal")
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "shots", 6), "invalid")
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "shots", "lots"), "invalid")
	st.Fighters["ana"].Weapon("rifle").Ammo = 2
	msg := fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "shots", 3), "illegal")
	if !strings.Contains(msg, "2 round(s) left") {
		t.Fatal(msg)
	}
	// Reloading is a move action.
	_, st2 = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "rifle"))
	eq(t, "reloaded", st2.Fighters["ana"].Weapon("rifle").Ammo, 30)
	eq(t, "move action spent", st2.Fighters["ana"].Budget.Move, false)
	fail(t, st2, gm, cmd(CmdReload, "ana", "weapon", "rifle"), "illegal")
}

// TestFullAttack: a base attack bonus of +6 gives a second attack at −5.
func TestFullAttack(t *testing.T) {
	st := skirmish(t, nil, stat(0, "bab", 6))
	events, st := do(t, st, gm, cmd(CmdFullAttack, "ana", "target", "bo", "weapon", "knife"), 10, 1, 10, 1)
	as := find(events, KindAttack)
	if len(as) != 2 {
		t.Fatalf("want two attacks: %v", kinds(events))
	}
	var second AttackRolled
	_ = as[1].Decode(&second)
	v, _ := modValue(second.Mods, "iterative attack")
	eq(t, "iterative", v, -5)
	eq(t, "second total", second.Total, 11)
	eq(t, "budget spent", st.Fighters["ana"].Budget.Move || st.Fighters["ana"].Budget.Standard, false)
	fail(t, skirmish(t, nil), gm, cmd(CmdFullAttack, "ana", "target", "bo", "weapon", "knife"), "illegal")
}
