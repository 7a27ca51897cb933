package d20under

import (
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The base game (spec b): sheets, tests, who rolls, damage, dying, the
// turn's actions.

func TestDerivedValues(t *testing.T) {
	attrs := func(kv ...any) map[string]int {
		m := map[string]int{}
		for _, a := range attributes {
			m[a] = 10
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(int)
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		stats map[string]any
		want  map[string]string
	}{
		{"strong 13, resolute 11, quick 14 in medium armour with a shield",
			map[string]any{"attributes": attrs(Strong, 13, Resolute, 11, Quick, 14), "armour": map[string]any{"type": "medium"}, "shield": "shield"},
			map[string]string{"Toughness": "13", "Pain Threshold": "7", "Corruption Threshold": "6", "Defense": "12"}},
		{"strong 8: Toughness at least 10",
			map[string]any{"attributes": attrs(Strong, 8, Resolute, 6)},
			map[string]string{"Toughness": "10", "Pain Threshold": "4", "Corruption Threshold": "3", "Defense": "10"}},
		{"buckler +1, light armour −2",
			map[string]any{"attributes": attrs(Quick, 15), "armour": map[string]any{"type": "light"}, "shield": "buckler"},
			map[string]string{"Defense": "14"}},
		{"undead: no Pain Threshold",
			map[string]any{"attributes": attrs(Strong, 15), "undead": true},
			map[string]string{"Toughness": "15", "Pain Threshold": "none"}},
		{"damage carried from an earlier fight",
			map[string]any{"attributes": attrs(Strong, 12), "damage": 5},
			map[string]string{"Toughness": "7 of 12"}},
		{"cuirass and helmet of a medium suit: 60% of 3 = 1.8 → Impeding 2",
			map[string]any{"attributes": attrs(Quick, 13), "armour": map[string]any{"type": "medium", "segments": "cuirass, helmet"}},
			map[string]string{"Defense": "11", "Armour": "Medium 1d6, Impeding 2 (cuirass, helmet)"}},
		{"one leg of a custom suit of Impeding 5: 10% = 0.5 → 1",
			map[string]any{"attributes": attrs(Quick, 13), "armour": map[string]any{"type": "custom", "die": 8, "impeding": 5, "segments": "left-leg"}},
			map[string]string{"Defense": "12"}},
		{"legs of a heavy suit: 20% of 4 = 0.8 → 1",
			map[string]any{"attributes": attrs(Quick, 13), "armour": map[string]any{"type": "heavy", "segments": "legs"}},
			map[string]string{"Defense": "12"}},
		{"arms of a light suit: 20% of 2 = 0.4 → 0",
			map[string]any{"attributes": attrs(Quick, 13), "armour": map[string]any{"type": "light", "segments": "arms"}},
			map[string]string{"Defense": "13"}},
		{"both legs, cuirass, both arms and helmet make the whole suit",
			map[string]any{"attributes": attrs(Quick, 13), "armour": map[string]any{"type": "heavy", "segments": "left-leg right-leg cuirass arms helmet"}},
			map[string]string{"Defense": "9", "Armour": "Heavy 1d8, Impeding 4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ruleset.Derive(mustJSON(tc.stats))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				eq(t, k, got[k], v)
			}
		})
	}
}

func TestBadStatsAreRefused(t *testing.T) {
	for _, stats := range []string{
		`{}`,
		`{"attributes":{"accurate":10}}`,
		`{"attributes":{"accurate":10,"cunning":10,"discreet":10,"persuasive":10,"quick":10,"resolute":10,"strong":10,"vigilant":25}}`,
		`{"attributes":{"accurate":10,"cunning":10,"discreet":10,"persuasive":10,"quick":10,"resolute":10,"strong":10,"vigilant":10},"armour":{"type":"mithril"}}`,
		`{"attributes":{"accurate":10,"cunning":10,"discreet":10,"persuasive":10,"quick":10,"resolute":10,"strong":10,"vigilant":10},"weapons":[{"id":"x","type":"laser"}]}`,
		`{"attributes":{"accurate":10,"cunning":10,"discreet":10,"persuasive":10,"quick":10,"resolute":10,"strong":10,"vigilant":10},"weapons":[{"id":"x","type":"bow","ammo":4}]}`,
		`{"attributes":{"accurate":10,"cunning":10,"discreet":10,"persuasive":10,"quick":10,"resolute":10,"strong":10,"vigilant":10},"abilities":{"medicus":"grandmaster"}}`,
		`{"attributes":{"accurate":10,"cunning":10,"discreet":10,"persuasive":10,"quick":10,"resolute":10,"strong":10,"vigilant":10},"lasers":1}`,
	} {
		_, err := ruleset.Derive(json.RawMessage(stats))
		if fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s: want invalid, got %v", stats, err)
		}
	}
}

// duel is ana (a player character: Accurate 13, Quick 12, Strong 10 —
// Toughness 10, Pain Threshold 5 — light armour 1d4, Impeding 2, so
// Defense 10) next to an orc (NPC: Accurate 12, Quick 11, Strong 13 —
// Toughness 13, PT 7 — medium armour 1d6 (flat 3), Impeding 3, Defense
// 8; a sword 1d8, flat 4). Ana acts first.
func duel(t *testing.T, opts map[string]string) *State {
	t.Helper()
	return begin(t, newState(t, gridSetup(opts, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12, Strong: 10},
			Armour: map[string]any{"type": "light"}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Accurate: 12, Quick: 11, Strong: 13},
			Armour: map[string]any{"type": "medium"}},
	)))
}

func TestPlayerAttackIsAccurateAgainstDefense(t *testing.T) {
	// [Accurate 13 ← Defense 8]: 13 + (10 − 8) = 15.
	for _, tc := range []struct {
		face int
		hit  bool
	}{{15, true}, {16, false}, {1, true}, {20, false}} {
		st := duel(t, map[string]string{OptCriticals: Off})
		faces := []int{tc.face}
		if tc.hit {
			faces = append(faces, 5) // ana's sword, 1d8
		}
		events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), faces...)
		var a Attack
		ev := decodeOne(t, events, KindAttack, &a)
		eq(t, "hit", a.Hit, tc.hit)
		eq(t, "rolled by", a.RolledBy, "ana")
		r := ev.Rolls[0]
		eq(t, "label", r.Label, "Attack: Accurate against Defense")
		eq(t, "who", r.Who, "ana")
		eq(t, "target", r.Target, 15)
		eq(t, "compare", r.Compare, dice.AtMost)
		if v, ok := hasMod(r, "vs Defense 8"); !ok || v != 2 {
			t.Errorf("mods %+v: want vs Defense 8 = +2", r.Mods)
		}
		if tc.hit {
			var d Damage
			decodeOne(t, events, KindDamage, &d)
			// 5 rolled against the orc's flat armour 3 (1d6 → ⌈6/2⌉).
			eq(t, "rolled", d.Rolled, 5)
			eq(t, "armour", d.Armour, 3)
			eq(t, "damage", d.Damage, 2)
		}
	}
}

func TestNPCAttackIsThePlayersDefence(t *testing.T) {
	// The orc attacks: ana rolls [Defense 10 ← Accurate 12] = 10 + (10 − 12) = 8.
	for _, tc := range []struct {
		face int
		hit  bool
	}{{8, false}, {9, true}} {
		st := duel(t, map[string]string{OptCriticals: Off})
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		faces := []int{tc.face}
		if tc.hit {
			faces = append(faces, 1) // ana's armour, 1d4
		}
		events, st := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), faces...)
		var a Attack
		ev := decodeOne(t, events, KindAttack, &a)
		eq(t, "hit", a.Hit, tc.hit)
		eq(t, "rolled by", a.RolledBy, "ana")
		eq(t, "label", ev.Rolls[0].Label, "Defence: Defense against Accurate")
		eq(t, "who", ev.Rolls[0].Who, "ana")
		eq(t, "target", ev.Rolls[0].Target, 8)
		if tc.hit {
			var d Damage
			dev := decodeOne(t, events, KindDamage, &d)
			// The orc's sword is flat: ⌈8/2⌉ = 4, against ana's rolled 1.
			eq(t, "rolled", d.Rolled, 4)
			eq(t, "armour", d.Armour, 1)
			eq(t, "taken", d.Taken, 3)
			eq(t, "toughness", st.Fighters["ana"].Toughness, 7)
			eq(t, "damage roll has no dice", len(dev.Rolls[0].Dice), 0)
			eq(t, "armour roll is ana's", dev.Rolls[1].Who, "ana")
		}
	}
}

func TestNPCAgainstNPCOption(t *testing.T) {
	for _, tc := range []struct {
		opt, who, label string
	}{{RollerAttacker, "orc", "Attack: Accurate against Defense"}, {RollerDefender, "wolf", "Defence: Defense against Accurate"}} {
		st := begin(t, newState(t, gridSetup(map[string]string{OptNPCvsNPC: tc.opt, OptCriticals: Off}, 6, 3, nil,
			spec{ID: "orc", Side: "foes", X: 1, Y: 1},
			spec{ID: "wolf", Side: "heroes", X: 2, Y: 1},
		)))
		events, _ := do(t, st, gm, cmd(CmdAttack, "orc", "target", "wolf"), 20)
		r := rollOf(t, events, "")
		eq(t, tc.opt+": who", r.Who, tc.who)
		eq(t, tc.opt+": label", r.Label, tc.label)
	}
}

func TestSecondChances(t *testing.T) {
	// Ana's shot at the orc six squares away: [Accurate 13 ← Defense 8] = 15.
	setup := func(opts map[string]string, critical bool) *State {
		st := begin(t, newState(t, gridSetup(withOpts(opts), 10, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
				Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
			spec{ID: "orc", Side: "foes", X: 7, Y: 1, Attr: map[string]int{Quick: 11}, Armour: map[string]any{"type": "medium"}},
		)))
		if critical {
			_, st = do(t, st, gm, cmd(GMCondition, "", "combatant", "ana", "condition", "critical", "on", true))
		}
		return st
	}
	for _, tc := range []struct {
		name     string
		careful  bool
		critical bool
		faces    []int
		hit      bool
		dice     int
	}{
		{"a second chance keeps the better: 18 and 9", true, false, []int{18, 9, 4}, true, 2},
		{"a second chance keeps the better: 9 and 18", true, false, []int{9, 18, 4}, true, 2},
		{"a second chance to fail keeps the worse: 9 and 18", false, true, []int{9, 18}, false, 2},
		{"the two cancel: one die", true, true, []int{9, 4}, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := setup(map[string]string{OptCriticals: Off}, tc.critical)
			volley := ""
			if tc.careful {
				volley = VolleyCareful
			}
			events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", volley), tc.faces...)
			var a Attack
			ev := decodeOne(t, events, KindAttack, &a)
			eq(t, "hit", a.Hit, tc.hit)
			r := ev.Rolls[0]
			eq(t, "dice", len(r.Dice), tc.dice)
			if tc.dice == 2 {
				kept := r.Dice[0]
				if kept.Dropped {
					kept = r.Dice[1]
				}
				eq(t, "one die dropped", r.Dice[0].Dropped != r.Dice[1].Dropped, true)
				eq(t, "total is the kept die", r.Total, kept.Faces[0])
			}
		})
	}
}

func TestPainThresholdKnocksProne(t *testing.T) {
	// The orc's Pain Threshold is 7: ana's 8 (rolled) plus nothing against
	// flat armour 3 deals 5 (no pain); a Clean Hit… see feats. Here the
	// orc hits ana (PT 5) for flat 4 against armour 1 → 3: no pain; with
	// a heavy sword (flat 5) against 0 armour roll… armour dice are never
	// 0, so ana takes off her armour in this test.
	st := begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off}, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Accurate: 15},
			Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy"}}},
	)))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// Flat 5 (1d10) against no armour: 5 ≥ PT 5 → prone; 5 is not > 5:
	// no Critical Damage.
	events, st := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "damage", d.Damage, 5)
	eq(t, "pain", d.Pain, true)
	eq(t, "critical", d.Critical, false)
	eq(t, "prone", st.Fighters["ana"].Prone, true)
	eq(t, "not critically damaged", st.Fighters["ana"].Critical, false)
}

func TestPainEffectChoose(t *testing.T) {
	st := begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off, OptPainEffect: PainChoose}, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy"}}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 13}, Armour: map[string]any{"type": "medium"}},
	)))
	// 10 on the maul against flat armour 3: 7, the orc's Pain Threshold.
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 10)
	d := pendingKind(t, st, DecPain)
	eq(t, "asked", d.For, "ana")
	eq(t, "not prone yet", st.Fighters["orc"].Prone, false)
	// A free attack instead: 7 more, and the orc (13) is dead.
	events, st := answer(t, st, engine.PlayerViewer("ana"), DecPain, "free", nil, 3, 10)
	if len(find(events, KindAttack)) != 1 {
		t.Fatalf("want a free attack, got %v", kinds(events))
	}
	eq(t, "orc out", st.Combatant("orc").Out, true)
}

func TestDyingPlayerCharacterDeathTests(t *testing.T) {
	mk := func(t *testing.T, opts ...string) *State {
		o := map[string]string{OptCriticals: Off}
		for i := 0; i+1 < len(opts); i += 2 {
			o[opts[i]] = opts[i+1]
		}
		st := begin(t, newState(t, gridSetup(o, 6, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Stats: map[string]any{"damage": 8}},
			spec{ID: "bo", Side: "heroes", PC: true, X: 1, Y: 2, Attr: map[string]int{Quick: 11}, Stats: map[string]any{"items": map[string]int{ItemHerbalCure: 1}}},
			spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 10, Accurate: 15}},
		)))
		st = endTurns(t, st, "orc")
		// Flat 4 against no armour: ana, at 2, falls.
		_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
		if c := st.Combatant("ana"); !c.Down || c.Out || !st.Fighters["ana"].Dying {
			t.Fatalf("ana should be down and dying: %+v", c)
		}
		_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
		if st.Current() != "ana" {
			t.Fatalf("a dying character keeps its turns: current %q", st.Current())
		}
		acts := New().Actions(st, engine.PlayerViewer("ana"))
		if len(acts) != 1 || acts[0].Kind != CmdDeathTest {
			t.Fatalf("a dying character's only action is its death test: %+v", acts)
		}
		return st
	}
	t.Run("10 passes, 11 fails, the third failure kills", func(t *testing.T) {
		st := mk(t)
		_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdDeathTest, "ana"), 10)
		eq(t, "fails", st.Fighters["ana"].DeathFails, 0)
		eq(t, "turn passed", st.Current(), "bo")
		for i, face := range []int{11, 20, 15} {
			st = endTurns(t, st, "ana")
			events, next := do(t, st, engine.PlayerViewer("ana"), cmd(CmdDeathTest, "ana"), face)
			st = next
			r := rollOf(t, events, "Death test")
			eq(t, "death test ≤ 10", r.Target, 10)
			eq(t, "rolled by the player", r.Who, "ana")
			if i < 2 {
				eq(t, "fails", st.Fighters["ana"].DeathFails, i+1)
			}
		}
		if !st.Combatant("ana").Out {
			t.Fatal("the third failure kills")
		}
	})
	t.Run("the helpless are hit without a test; a blow is a failed death test", func(t *testing.T) {
		st := mk(t)
		_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdDeathTest, "ana"), 5)
		st = endTurns(t, st, "orc")
		events, st := do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"))
		var a Attack
		decodeOne(t, events, KindAttack, &a)
		eq(t, "hit", a.Hit, true)
		eq(t, "no test", len(find(events, KindAttack)[0].Rolls), 0)
		eq(t, "a failure", st.Fighters["ana"].DeathFails, 1)
		// Option: a blow kills.
		st = mk(t, OptDyingDamage, DyingDies)
		_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdDeathTest, "ana"), 5)
		st = endTurns(t, st, "orc")
		_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"))
		eq(t, "dead", st.Combatant("ana").Out, true)
	})
	t.Run("a 1 heals 1d4 and gets up", func(t *testing.T) {
		st := mk(t)
		_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdDeathTest, "ana"), 1, 3)
		eq(t, "toughness", st.Fighters["ana"].Toughness, 3)
		eq(t, "down", st.Combatant("ana").Down, false)
		eq(t, "dying", st.Fighters["ana"].Dying, false)
	})
	t.Run("healing gets a dying character up", func(t *testing.T) {
		st := mk(t)
		_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdDeathTest, "ana"), 5)
		_, st = do(t, st, gm, cmd(CmdUseItem, "bo", "item", ItemHerbalCure, "target", "ana"))
		eq(t, "toughness", st.Fighters["ana"].Toughness, 1)
		eq(t, "down", st.Combatant("ana").Down, false)
	})
}

func TestNPCsDieAtZero(t *testing.T) {
	st := begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off}, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Stats: map[string]any{"damage": 8}},
	)))
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 2)
	eq(t, "orc at 0", st.Fighters["orc"].Toughness, 0)
	if !st.Combatant("orc").Out {
		t.Fatal("an NPC at 0 Toughness dies")
	}
	eq(t, "the fight ends", st.Status, engine.StatusFinished)
}

func TestCombatActionTradesForMovement(t *testing.T) {
	st := begin(t, newState(t, gridSetup(nil, 20, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1},
		spec{ID: "orc", Side: "foes", X: 19, Y: 1},
	)))
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "6,1"), fray.EILLEGAL) // 6 squares: more than one movement action
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "5,1"))
	eq(t, "x", st.Fighters["ana"].X, 5)
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "10,1"))
	eq(t, "the combat action is traded", st.Fighters["ana"].Combat, false)
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "11,1"), fray.EILLEGAL)
	// Not the other way: after the combat action, one move only.
	st = begin(t, newState(t, gridSetup(nil, 20, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1},
		spec{ID: "orc", Side: "foes", X: 1, Y: 1},
	)))
	_, st = do(t, st, gm, cmd(CmdFullDefence, "ana"))
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,0")) // still next to the orc: no free attack
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "0,1"), fray.EILLEGAL)
}
