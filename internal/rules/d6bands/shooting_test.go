package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// duelists is ana (Archery 14, a bow: 2D+2, optimal Close/Distant) at
// (0,0) and orc at p, on a 6×6 map with the given squares; ana acts first.
func duelists(t *testing.T, opts map[string]string, p point, group bool, cells ...cellAt) *State {
	t.Helper()
	g := ""
	if group {
		g = "g1"
	}
	return start(t, newState(t, newSetup(opts, grid(6, 6, cells...),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, Group: g, PC: true, Init: 30},
		spec{ID: "orc", Side: "foes", X: p.X, Y: p.Y, Group: g, Init: 10},
	)))
}

// ones is n faces of 1.
func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// Shooting difficulties (seed: "Shooting difficulties"): close contact
// 3D, optimal band 4D + cover, +1D per band off optimal, snapshot +1D and
// one action instead of two, called shot +2D.
func TestShootingDifficulty(t *testing.T) {
	light := cellAt{0, 0, map[string]any{"cover": "1"}}
	tests := []struct {
		name    string
		at      point
		group   bool
		cells   []cellAt
		mode    string
		called  bool
		dice    int
		actions int
		mod     string
	}{
		{"optimal band Distant: 4D", point{2, 0}, false, nil, ModeAimed, false, 4, 2, ""},
		{"optimal band Close: 4D", point{1, 1}, false, nil, ModeAimed, false, 4, 2, ""},
		{"Very Close, one band off: 5D", point{0, 0}, false, nil, ModeAimed, false, 5, 2, "Very Close, 1 band off optimal"},
		{"Far, one band off: 5D", point{3, 2}, false, nil, ModeAimed, false, 5, 2, "Far, 1 band off optimal"},
		{"Very Far, two bands off: 6D", point{4, 4}, false, nil, ModeAimed, false, 6, 2, "Very Far, 2 bands off optimal"},
		{"snapshot: +1D, one action", point{2, 0}, false, nil, ModeSnapshot, false, 5, 1, "snapshot"},
		{"called shot: +2D", point{2, 0}, false, nil, ModeAimed, true, 6, 2, "called shot"},
		{"light cover: +1D", point{2, 0}, false, []cellAt{{2, 0, map[string]any{"cover": "1"}}}, ModeAimed, false, 5, 2, "light cover"},
		{"medium cover: +2D", point{2, 0}, false, []cellAt{{2, 0, map[string]any{"cover": "2"}}}, ModeAimed, false, 6, 2, "medium cover"},
		{"heavy cover: +3D", point{2, 0}, false, []cellAt{{2, 0, map[string]any{"cover": "3"}}}, ModeAimed, false, 7, 2, "heavy cover"},
		{"close contact: 3D, no cover", point{0, 0}, true, []cellAt{light}, ModeAimed, false, 3, 2, ""},
		{"close contact snapshot: 4D", point{0, 0}, true, []cellAt{light}, ModeSnapshot, false, 4, 1, "snapshot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := duelists(t, nil, tc.at, tc.group, tc.cells...)
			faces := append(ones(tc.dice), 1, 1) // the check, then the bow's 2D damage
			events, next := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", tc.mode, "called", tc.called), faces...)
			r := rollOf(t, events, "")
			for _, e := range events {
				if e.Kind == KindAttack {
					r = e.Rolls[0]
				}
			}
			eq(t, "dice", dieCount(r), tc.dice)
			eq(t, "target number", r.Target, 14)
			eq(t, "actions left", next.Fighters["ana"].Actions, 3-tc.actions)
			if tc.mod != "" && !hasModLabel(r, tc.mod) {
				t.Errorf("no modifier %q in %+v", tc.mod, r.Mods)
			}
			if tc.group && len(find(events, KindHarm)) != 1 {
				t.Errorf("want the hit to harm: %v", kinds(events))
			}
		})
	}
}

func hasModLabel(r dice.Roll, label string) bool {
	for _, m := range r.Mods {
		if m.Label == label {
			return true
		}
	}
	return false
}

// attackRoll is the roll of the attack event in events.
func attackRoll(t *testing.T, events []engine.Event) (AttackRolled, dice.Roll) {
	t.Helper()
	var a AttackRolled
	ev := decodeOne(t, events, KindAttack, &a)
	return a, ev.Rolls[0]
}

// A hit deals the weapon's dice plus the margin, less armour, against
// Toughness: a Serious wound from Toughness, Lethal from twice it.
func TestShotDamage(t *testing.T) {
	st := duelists(t, nil, point{2, 0}, false)
	// 4D: 2+3+4+1 = 10 against 14, a hit by 4. Damage 2D+2: 3+3+2 = 8, +4 = 12 against Toughness 10.
	events, st := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), 2, 3, 4, 1, 3, 3)
	a, _ := attackRoll(t, events)
	eq(t, "hit", a.Hit, true)
	eq(t, "margin", a.Margin, 4)
	var h Harmed
	ev := decodeOne(t, events, KindHarm, &h)
	eq(t, "damage", h.Damage, 12)
	eq(t, "level", h.Level, WoundSerious)
	eq(t, "damage total", ev.Rolls[0].Total, 12)
	eq(t, "wounds", len(st.Fighters["orc"].Wounds), 1)
	eq(t, "bleeding", bleeding(st.Fighters["orc"]), 1)
	eq(t, "the bow is empty", st.Fighters["ana"].Loads["bow"].Loaded, false)
	msg := fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "snapshot"), fray.EILLEGAL)
	eq(t, "refusal", msg, "the Bow is not loaded")
}

func TestWoundLevels(t *testing.T) {
	tests := []struct {
		name  string
		faces []int // the 4D check, then the damage dice
		dmg   int
		level string
	}{
		{"below Toughness: Light", []int{5, 5, 2, 1, 1, 1}, 4 + 1, WoundLight},               // hit by 1: 1+1+2+1
		{"Toughness: Serious", []int{5, 5, 2, 1, 4, 3}, 4 + 5 + 1, WoundSerious},             // hit by 1: 4+3+2+1
		{"twice Toughness: Lethal", []int{1, 1, 1, 1, 5, 6, 5, 5}, 15 + 2 + 10, WoundLethal}, // hit by 10, a 6 replaced by 5+5
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := duelists(t, nil, point{2, 0}, false)
			events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), tc.faces...)
			var h Harmed
			decodeOne(t, events, KindHarm, &h)
			eq(t, "damage", h.Damage, tc.dmg)
			eq(t, "level", h.Level, tc.level)
		})
	}
}

// Aim then an aimed shot: +2 to the skill; aiming three rounds in a row
// −1D more, for firearms and crossbows only.
func TestAiming(t *testing.T) {
	arquebus := map[string]any{"id": "arquebus", "name": "Arquebus", "skill": "firearms", "damage": "3D", "optimal": "distant", "class": "firearm", "reload": 6}
	for _, tc := range []struct {
		name    string
		weapon  map[string]any
		longAim bool
		skill   int
	}{
		{"a firearm", arquebus, true, 14},
		{"a bow", bow, false, 14},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := start(t, newState(t, newSetup(nil, grid(6, 6),
				spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30, Weapons: []map[string]any{tc.weapon}},
				spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10, Weapons: []map[string]any{sword}},
			)))
			w := tc.weapon["id"].(string)
			for round := 1; round <= 3; round++ {
				events, next := do(t, st, gm, cmd(CmdAim, "ana", "target", "orc"))
				var a AimTaken
				decodeOne(t, events, KindAim, &a)
				eq(t, "rounds aimed", a.Rounds, round)
				st = next
				if round < 3 {
					_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
					_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1) // the next round's initiative
				}
			}
			n := 4
			if tc.longAim {
				n = 3
			}
			dmg := 2
			if w == "arquebus" {
				dmg = 3
			}
			events, st := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", w, "mode", "aimed"), append(ones(n), ones(dmg)...)...)
			_, r := attackRoll(t, events)
			eq(t, "dice", dieCount(r), n)
			eq(t, "skill", r.Target, tc.skill+2)
			if !hasMod(r, "aimed", 2, "") {
				t.Errorf("no +2 for aiming: %+v", r.Mods)
			}
			eq(t, "aimed 3 rounds", hasMod(r, "aimed 3 rounds", -1, unitDice), tc.longAim)
			eq(t, "aim used up", st.Fighters["ana"].Aim == nil, true)
		})
	}
}

// An aim lapses after a round without aiming, and moving loses it.
func TestAimLapses(t *testing.T) {
	st := duelists(t, nil, point{2, 0}, false)
	_, st = do(t, st, gm, cmd(CmdAim, "ana", "target", "orc"))
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"))
	eq(t, "aim lost by moving", st.Fighters["ana"].Aim == nil, true)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	_, st = do(t, st, gm, cmd(CmdAim, "ana", "target", "orc"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	eq(t, "aim kept into the next round", st.Fighters["ana"].Aim != nil, true)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	eq(t, "aim lapsed after a round without aiming", st.Fighters["ana"].Aim == nil, true)
}

func TestShootingRefusals(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(8, 3, cellAt{2, 1, map[string]any{"blocks": true}}),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 1, PC: true, Init: 30},
		spec{ID: "orc", Side: "foes", X: 4, Y: 1, Init: 10},
		spec{ID: "far", Side: "foes", X: 7, Y: 0, Init: 9},
		spec{ID: "off", Side: "foes", Off: true, Init: 8},
		spec{ID: "spy", Side: "foes", X: 1, Y: 1, Init: 7, Hidden: true},
	)))
	player := engine.PlayerViewer("ana")
	tests := []struct {
		name string
		args []any
		code string
		msg  string
	}{
		{"no line of sight", []any{"target", "orc", "weapon", "bow"}, fray.EILLEGAL, "Ana has no line of sight to Orc"},
		{"beyond Very Far", []any{"target", "far", "weapon", "bow"}, fray.EILLEGAL, "Far is at Extreme range: only an Extreme range duel gives a shot"},
		{"off the map", []any{"target", "off", "weapon", "bow"}, fray.EILLEGAL, "Off is at Extreme range: only an Extreme range duel gives a shot"},
		{"a melee weapon", []any{"target", "spy", "weapon", "sword"}, fray.ENOTFOUND, "no combatant \"spy\""},
		{"a sword", []any{"target", "far", "weapon", "sword"}, fray.EILLEGAL, "the Sword is not a ranged weapon"},
		{"no such weapon", []any{"target", "far", "weapon", "axe"}, fray.EINVALID, "Ana has no weapon \"axe\""},
		{"bad mode", []any{"target", "far", "weapon", "bow", "mode", "wild"}, fray.EINVALID, "mode must be aimed or snapshot, not \"wild\""},
		{"no target", []any{"weapon", "bow"}, fray.EINVALID, "choose a target"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eq(t, "message", fail(t, st, player, cmd(CmdShoot, "ana", tc.args...), tc.code), tc.msg)
		})
	}
}
