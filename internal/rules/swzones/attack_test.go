package swzones

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

func TestGangUpClamp(t *testing.T) {
	tests := []struct {
		attackers, defenders, want int
	}{
		{1, 1, 0},
		{2, 1, 1},
		{3, 1, 2},
		{2, 2, 0},
		{3, 2, 1},
		{1, 3, 0}, // outnumbered: never negative
		{5, 1, 4},
		{7, 1, 4}, // at most +4
	}
	for _, tc := range tests {
		st := &State{Fighters: map[string]*Fighter{}}
		m := Melee{ID: "m1", Zone: "z1"}
		add := func(id, side string) {
			st.Combatants = append(st.Combatants, engine.Combatant{ID: id, Name: id, Side: side})
			st.Fighters[id] = &Fighter{ID: id, Zone: "z1", Melee: "m1"}
			m.Members = append(m.Members, id)
		}
		for i := range tc.attackers {
			add(fmt.Sprintf("a%d", i), "heroes")
		}
		for i := range tc.defenders {
			add(fmt.Sprintf("d%d", i), "goblins")
		}
		// A bystander of a third side counts for neither.
		add("x", "bandits")
		st.Melees = []Melee{m}
		got, a, d := st.gangUp("a0", "d0")
		if got != tc.want || a != tc.attackers || d != tc.defenders {
			t.Errorf("%d v %d: gang-up %d (%d, %d), want %d", tc.attackers, tc.defenders, got, a, d, tc.want)
		}
	}
}

func TestFightHitShakesAndRaiseTakesExtraOut(t *testing.T) {
	st := skirmish(t, nil)
	// Fighting d8 7, Wild 3 → 7 vs Parry 5: hit. No gang-up (brak alone vs two).
	// Damage Str d8 4 + sword d6 3 = 7 vs Toughness 5: Shaken.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), 7, 3, 4, 3)
	a := one(t, events)
	eq(t, "total", a.Total, 5) // 7 −2 multi-action
	eq(t, "result", a.Result, "hit")
	eq(t, "TN", a.TN, 5)
	eq(t, "gang-up", a.GangUp, 0)
	eq(t, "damage", a.Damage.Total, 7)
	eq(t, "toughness", a.Damage.Toughness, 5)
	eq(t, "gob1 shaken", st.Fighters["gob1"].Shaken, true)
	eq(t, "gob1 in", st.Combatant("gob1").Out, false)
	eq(t, "text", events[0].Text, "Brak attacks Gob1 with Sword: hit; 7 damage against Toughness 5 — Gob1 is Shaken.")
	roll := events[0].Rolls[0]
	eq(t, "roll label", roll.Label, "Fighting")
	eq(t, "roll dice", len(roll.Dice), 2)
	eq(t, "kept", roll.Kept, 1)
	eq(t, "roll mod", roll.Mod, -2)

	// Second declared action: Fighting 8+4 = 12, Wild 1, −2 = 10 vs 5: a raise.
	// Damage 5 + 4 + raise d6 2 = 11 vs 5: one raise, a wound: the Extra is out.
	events, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 8, 4, 1, 5, 4, 2)
	if got, want := kinds(events), []string{KindAttack, engine.KindCombatantOut}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	a = one(t, events)
	eq(t, "result", a.Result, "raise")
	eq(t, "damage", a.Damage.Total, 11)
	eq(t, "wounds", a.Damage.Wounds, 1)
	eq(t, "incapacitated", a.Damage.Incapacitated, true)
	eq(t, "gob1 out", st.Combatant("gob1").Out, true)
	eq(t, "gob1 left the melee", st.Fighters["gob1"].Melee, "")
	if !slices.Equal(st.melee("m1").Members, []string{"brak", "gob2"}) {
		t.Fatalf("m1 = %v", st.melee("m1").Members)
	}
	eq(t, "brak actions", st.Fighters["brak"].Actions, 2)
	// Two declared, two taken.
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob2", "weapon", "sword"), "illegal")
}

func TestMultiActionDeclared(t *testing.T) {
	st := skirmish(t, nil)
	// Declares 3 actions: −4 to each. Fighting 6, Wild 2 → 6 −4 = 2: miss.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 3), 6, 2)
	a := one(t, events)
	if v, _ := modValue(a.Mods, "multi-action"); v != -4 {
		t.Fatalf("mods = %v, want multi-action −4", a.Mods)
	}
	eq(t, "declared", st.Fighters["brak"].Declared, 3)
	// A later action may not change the declaration.
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), "illegal")
	events, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 2)
	if v, _ := modValue(one(t, events).Mods, "multi-action"); v != -4 {
		t.Fatalf("second action: multi-action %d, want −4", v)
	}
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 2)
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), "illegal")
	// More than three cannot be declared.
	st = skirmish(t, nil)
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 4), "invalid")
	// One action (the default) leaves no second.
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 2)
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), "illegal")
}

func TestMultiActionProgressive(t *testing.T) {
	st := skirmish(t, map[string]string{OptMultiAction: MultiProgressive})
	for i, want := range []int{0, -2, -4} {
		var events []engine.Event
		events, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 2)
		v, _ := modValue(one(t, events).Mods, "multi-action")
		eq(t, fmt.Sprintf("action %d multi-action", i+1), v, want)
	}
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), "illegal")
	fail(t, skirmish(t, map[string]string{OptMultiAction: MultiProgressive}), gm,
		cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), "invalid")
}

func TestWoundPenaltyOnRolls(t *testing.T) {
	st := skirmish(t, nil)
	st.Fighters["brak"].Wounds = 3
	// Fighting 7, Wild 1, −3 wounds = 4 vs 5: miss.
	events, _ := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 7, 1)
	a := one(t, events)
	if v, _ := modValue(a.Mods, "wounds"); v != -3 {
		t.Fatalf("mods = %v, want wounds −3", a.Mods)
	}
	eq(t, "total", a.Total, 4)
	eq(t, "result", a.Result, "miss")
	eq(t, "no damage", a.Damage == nil, true)
}

func TestGangUpOnAttack(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "gob1")
	// gob1 and gob2 against brak: +1. Fighting d6 5 +1 = 6 vs Parry 6: hit.
	// Damage Str d6 2 + sword d6 3 = 5 vs Toughness 6: no effect.
	events, st := do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), 5, 2, 3)
	a := one(t, events)
	eq(t, "gang-up", a.GangUp, 1)
	if v, _ := modValue(a.Mods, "gang-up"); v != 1 {
		t.Fatalf("mods = %v", a.Mods)
	}
	eq(t, "total", a.Total, 6)
	eq(t, "result", a.Result, "hit")
	eq(t, "damage result", events[0].Rolls[1].Result, "no effect")
	eq(t, "brak shaken", st.Fighters["brak"].Shaken, false)
}

func TestFightTargets(t *testing.T) {
	st := skirmish(t, nil)
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob3", "weapon", "sword"), "illegal")  // not in his melee
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "pistol"), "illegal") // not a melee weapon
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "axe"), "not_found")  // no such weapon
	// Unarmed is always there: Str only. Fighting 4, Wild 1 vs 5: miss.
	events, _ := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "unarmed"), 4, 1)
	eq(t, "weapon", one(t, events).Weapon, "unarmed")
}

func TestDefend(t *testing.T) {
	for _, tc := range []struct {
		edition string
		bonus   int
		faces   []int
		result  string
	}{
		// gob1: 6+2 = 8 +1 gang-up = 9 against Parry 6 + 4: miss.
		{EditionSWADE, 4, []int{6, 2}, "miss"},
		// Against Parry 6 + 2: hit; damage 1 + 1.
		{EditionSWD, 2, []int{6, 2, 1, 1}, "hit"},
	} {
		t.Run(tc.edition, func(t *testing.T) {
			st := skirmish(t, map[string]string{OptEdition: tc.edition})
			_, st = do(t, st, gm, cmd(CmdDefend, "brak"))
			eq(t, "defend", st.Fighters["brak"].Defend, tc.bonus)
			fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), "illegal")
			brak, _ := tokenOf(view(st, gm), "brak")
			eq(t, "projected Parry", statOf(brak, "Parry"), strconv.Itoa(6+tc.bonus))
			st = endTurns(t, st, "gob1")
			events, _ := do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), tc.faces...)
			a := one(t, events)
			eq(t, "TN", a.TN, 6+tc.bonus)
			eq(t, "total", a.Total, 9)
			eq(t, "result", a.Result, tc.result)
		})
	}
	// Defend takes the whole turn: not after another action.
	st := skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), 2, 2)
	fail(t, st, gm, cmd(CmdDefend, "brak"), "illegal")
}

// shooting is a range: a shooter in z1 of a 4-zone chain, a goblin in each
// zone. The derringer's 3/6/12 becomes 0/1/2 zones.
func shooting(t *testing.T, opts map[string]string, covers map[string]string) *State {
	t.Helper()
	weapons := []map[string]any{
		{"id": "derringer", "name": "Derringer", "damage": "2d4", "range": "3/6/12"},
		{"id": "knife", "name": "Throwing knife", "damage": "Str+d4", "range": "3/6/12", "thrown": true},
		{"id": "dagger", "name": "Dagger", "damage": "Str+d4"},
	}
	setup := newSetup(opts, chain(4, covers),
		spec{ID: "doc", Side: "heroes", Zone: "z1", WC: true, Weapons: weapons, Skills: map[string]string{"shooting": "d8", "athletics": "d10", "throwing": "d4"}},
		spec{ID: "ga", Side: "goblins", Zone: "z1"},
		spec{ID: "gb", Side: "goblins", Zone: "z2"},
		spec{ID: "gc", Side: "goblins", Zone: "z3"},
		spec{ID: "gd", Side: "goblins", Zone: "z4"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "2♣", "3♣", "4♣", "5♣"})
	return st
}

func TestShootRangeBands(t *testing.T) {
	tests := []struct {
		target  string
		dist    int
		band    string
		penalty int
	}{
		{"ga", 0, "short", 0},
		{"gb", 1, "medium", -2},
		{"gc", 2, "long", -4},
		{"gd", 3, "extreme", -8},
	}
	for _, tc := range tests {
		t.Run(tc.band, func(t *testing.T) {
			st := shooting(t, nil, nil)
			// Shooting d8 8+8+5 = 21, Wild 1: far enough to hit at every band.
			// Damage 2d4: 1, 2 = 3 vs Toughness 5, no effect; raise d6 1.
			events, _ := do(t, st, gm, cmd(CmdShoot, "doc", "target", tc.target, "weapon", "derringer"), 8, 8, 5, 1, 1, 2, 1)
			a := one(t, events)
			eq(t, "distance", a.Distance, tc.dist)
			eq(t, "band", a.Band, tc.band)
			v, _ := modValue(a.Mods, tc.band+" range")
			eq(t, "penalty", v, tc.penalty)
			eq(t, "total", a.Total, 21+tc.penalty)
			eq(t, "TN", a.TN, 4)
			eq(t, "raises", a.Raises, (17+tc.penalty)/4)
			eq(t, "damage dice", len(events[0].Rolls[1].Dice), 3)
		})
	}
	// Deluxe has no Extreme range: 3 zones is out of the derringer's reach.
	st := shooting(t, map[string]string{OptEdition: EditionSWD}, nil)
	msg := fail(t, st, gm, cmd(CmdShoot, "doc", "target", "gd", "weapon", "derringer"), "illegal")
	if !strings.Contains(msg, "out of range") {
		t.Errorf("message %q", msg)
	}
}

func TestShootThrown(t *testing.T) {
	for _, tc := range []struct {
		edition, skill string
		faces          []int
	}{
		// Athletics d10 7, Wild 2 = 7 vs 4: hit. Damage Str d6 3 + d4 2 = 5 vs 5: Shaken.
		{EditionSWADE, "Athletics", []int{7, 2, 3, 2}},
		// Throwing d4 4+3 = 7, Wild 2: hit. Same damage.
		{EditionSWD, "Throwing", []int{4, 3, 2, 3, 2}},
	} {
		st := shooting(t, map[string]string{OptEdition: tc.edition}, nil)
		events, st := do(t, st, gm, cmd(CmdShoot, "doc", "target", "ga", "weapon", "knife"), tc.faces...)
		eq(t, tc.edition+" skill", events[0].Rolls[0].Label, tc.skill)
		eq(t, tc.edition+" damage dice", len(events[0].Rolls[1].Dice), 2)
		eq(t, tc.edition+" shaken", st.Fighters["ga"].Shaken, true)
	}
}

func TestShootCover(t *testing.T) {
	// gb stands in z2, light cover: −2 (SWADE), −1 (SWD).
	tests := []struct {
		name     string
		opts     map[string]string
		faces    []int
		result   string
		coverHit bool
	}{
		// Shooting 5, Wild 2, medium range −2, light cover −2 = 1: miss, and
		// 3 without the cover still misses.
		{"miss", nil, []int{5, 2}, "miss", false},
		// 7 −2 −2 = 3: misses, but 5 without cover would hit: the cover is hit.
		{"hits the cover", nil, []int{7, 2}, "cover", true},
		// SWD light cover is −1: 7 −2 −1 = 4 hits. Damage 2d4 1, 1 = 2.
		{"swd light cover", map[string]string{OptEdition: EditionSWD}, []int{7, 2, 1, 1}, "hit", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := shooting(t, tc.opts, map[string]string{"z2": "light"})
			events, _ := do(t, st, gm, cmd(CmdShoot, "doc", "target", "gb", "weapon", "derringer"), tc.faces...)
			a := one(t, events)
			eq(t, "result", a.Result, tc.result)
			eq(t, "cover hit", a.CoverHit, tc.coverHit)
			eq(t, "cover", a.Cover, "light")
		})
	}
	// The shooter may say there is no cover.
	st := shooting(t, nil, map[string]string{"z2": "light"})
	events, _ := do(t, st, gm, cmd(CmdShoot, "doc", "target", "gb", "weapon", "derringer", "cover", "none"), 7, 2, 1, 1)
	eq(t, "no cover: hit", one(t, events).Result, "hit")
	fail(t, st, gm, cmd(CmdShoot, "doc", "target", "gb", "weapon", "derringer", "cover", "thick"), "invalid")
}

func TestShootThroughCoverArmor(t *testing.T) {
	battlefield := mustJSON(map[string]any{"zones": []map[string]any{
		{"id": "z1", "adjacent": []string{"z2"}},
		{"id": "z2", "props": map[string]any{"cover": "medium", "coverArmor": 2}},
	}})
	setup := newSetup(nil, battlefield,
		spec{ID: "doc", Side: "heroes", Zone: "z1", WC: true},
		spec{ID: "gb", Side: "goblins", Zone: "z2"},
	)
	for _, tc := range []struct {
		mode    string
		faces   []int
		damaged bool
	}{
		// Shooting d6 5, Wild 1: 5 −4 medium cover = 1 misses, 5 hits: the
		// cover is hit. With its Armour 2 the shot goes on: pistol 2d6 4, 3
		// = 7 vs Toughness 5 + 2: Shaken.
		{CoverArmor, []int{5, 1, 4, 3}, true},
		{CoverStops, []int{5, 1}, false},
	} {
		st := newState(t, withOptions(setup, map[string]string{OptCoverObstacle: tc.mode}))
		_, st = startWith(t, st, []string{"A♠", "2♣"})
		events, st := do(t, st, gm, cmd(CmdShoot, "doc", "target", "gb", "weapon", "pistol"), tc.faces...)
		a := one(t, events)
		eq(t, tc.mode+" cover hit", a.CoverHit, true)
		eq(t, tc.mode+" damaged", a.Damage != nil, tc.damaged)
		if tc.damaged {
			eq(t, "obstacle", a.Damage.Obstacle, 2)
			eq(t, "target", events[0].Rolls[1].Target, 7)
			eq(t, "no raise die", len(events[0].Rolls[1].Dice), 2)
		}
		eq(t, tc.mode+" shaken", st.Fighters["gb"].Shaken, tc.damaged)
	}
}

func withOptions(s engine.Setup, opts map[string]string) engine.Setup {
	s.Options = opts
	return s
}

func TestShootInMelee(t *testing.T) {
	st := skirmish(t, nil)
	fail(t, st, gm, cmd(CmdShoot, "brak", "target", "gob1", "weapon", "pistol"), "illegal")

	st = skirmish(t, map[string]string{OptShootInMelee: ShootAdjacent})
	fail(t, st, gm, cmd(CmdShoot, "brak", "target", "gob3", "weapon", "pistol"), "illegal") // not in his melee
	// At gob1 in his melee: against Parry 5, no gang-up. Shooting d6 5, Wild 1: hit; damage 2d6 1, 1.
	events, _ := do(t, st, gm, cmd(CmdShoot, "brak", "target", "gob1", "weapon", "pistol"), 5, 1, 1, 1)
	a := one(t, events)
	eq(t, "TN", a.TN, 5)
	eq(t, "against", a.Against[0].Source, "Parry")
	eq(t, "gang-up", a.GangUp, 0)
	eq(t, "result", a.Result, "hit")
}
