package d20tactical

import (
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"strings"
	"testing"
)

// TestAimedShots: −4, −6 at the head or groin, the front torso a normal
// shot; no criticals; half damage but for the head and the back torso;
// none at Long or Extreme range and no bursts; the armour's negate DC.
func TestAimedShots(t *testing.T) {
	cases := []struct {
		aim    string
		mod    int
		half   bool
		opts   map[string]string
		effect bool
	}{
		{LocHead, -6, false, nil, true},
		{LocGroin, -6, true, nil, true},
		{LocBackTorso, -4, false, nil, true},
		{LocLeftArm, -4, true, nil, true},
		{LocRightLeg, -4, true, nil, true},
		{LocFrontTorso, 0, false, nil, false},
		{LocHead, -6, true, map[string]string{OptAimedDamage: AimedHalf}, true},
	}
	for _, c := range cases {
		name := c.aim
		if c.opts != nil {
			name += " (all half)"
		}
		t.Run(name, func(t *testing.T) {
			// The pistol at cy, 40 ft: medium range, −1. d20 17; 2d6 = 5 + 4.
			st := skirmish(t, c.opts, at(1, 0, 9))
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol", "aim", c.aim), 17, 5, 4)
			a := attackOf(t, events)
			v, ok := modValue(a.Mods, "aimed at the "+locationName(c.aim))
			if c.mod == 0 && ok {
				t.Fatalf("the front torso is a normal shot: %v", a.Mods)
			}
			eq(t, "aim penalty", v, c.mod)
			eq(t, "hit", a.Hit, true)
			want := 9
			if c.half {
				want = 4
			}
			eq(t, "damage", 20-st.Fighters["cy"].HP, want)
			eq(t, "effect", len(find(events, KindEffect)) == 1, c.effect)
		})
	}
	st := skirmishOn(t, nil, field(60, 10), at(1, 0, 9), at(2, 26, 2))
	msg := fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol", "aim", LocHead), "illegal")
	if !strings.Contains(msg, "no aimed shots at long range") {
		t.Fatal(msg)
	}
	st = skirmish(t, nil, at(1, 0, 9))
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "aim", LocHead, "shots", 3), "illegal")
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "rifle", "aim", "tail"), "invalid")
	// A natural 20 aimed at an arm is a hit, not a critical.
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol", "aim", LocLeftArm), 20, 1, 1)
	a := attackOf(t, events)
	eq(t, "no critical", a.Critical, false)
	eq(t, "hit", a.Hit, true)
	// Melee can aim too.
	st = skirmish(t, nil)
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife", "aim", LocGroin), 14, 3)
	v, _ := modValue(attackOf(t, events).Mods, "aimed at the groin")
	eq(t, "melee aim", v, -6)
}

// TestLocationArmour: the target negates an aimed hit by rolling a d20
// above its armour's DC at that location (16 for the helmet here); armour
// at 0 Armour Points stops nothing.
func TestLocationArmour(t *testing.T) {
	helmet := map[string]any{"name": "Helmet and vest", "defense": 2, "points": 10, "dc": map[string]int{"head": 16}}
	cases := []struct {
		name    string
		roll    int
		left    int
		negated bool
	}{
		{"17 is above 16: negated", 17, 10, true},
		{"16 is not above 16", 16, 10, false},
		{"useless armour negates nothing", 20, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			armour := map[string]any{}
			for k, v := range helmet {
				armour[k] = v
			}
			armour["current"] = c.left
			st := skirmish(t, nil, at(1, 0, 9), stat(2, "armor", armour))
			faces := []int{19}
			if c.left > 0 {
				faces = append(faces, c.roll)
			}
			if !c.negated {
				faces = append(faces, 5, 4)
			}
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol", "aim", LocHead), faces...)
			eq(t, "negate rolled", len(find(events, KindNegated)), map[bool]int{true: 1, false: 0}[c.left > 0])
			eq(t, "hurt", st.Fighters["cy"].HP < 20, !c.negated)
			eq(t, "effect", len(find(events, KindEffect)), map[bool]int{true: 0, false: 1}[c.negated])
		})
	}
}

// TestAimedEffects: what a hit to each location does, and how long.
func TestAimedEffects(t *testing.T) {
	hit := func(t *testing.T, st *State, loc string) *State {
		t.Helper()
		_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife", "aim", loc), 19, 1)
		return st
	}
	// Head: drops what it holds and falls prone.
	st := hit(t, skirmish(t, nil), LocHead)
	bo := st.Fighters["bo"]
	eq(t, "dropped", bo.Dropped, true)
	eq(t, "prone", bo.Posture, Prone)
	st = endTurns(t, st, "bo")
	msg := fail(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "knife"), "illegal")
	if !strings.Contains(msg, "pick it up") {
		t.Fatal(msg)
	}
	_, st = do(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "unarmed"), 2) // still a fist
	events, st := do(t, st, gm, cmd(CmdPickUp, "bo"), 2)                                 // ana's attack of opportunity misses
	eq(t, "provoked", attackOf(t, events).Free, reactAoO)
	eq(t, "armed again", st.Fighters["bo"].Dropped, false)

	// Back torso: knocked prone.
	st = hit(t, skirmish(t, nil), LocBackTorso)
	eq(t, "prone", st.Fighters["bo"].Posture, Prone)

	// Groin: only a move-equivalent action next turn.
	st = hit(t, skirmish(t, nil), LocGroin)
	st = endTurns(t, st, "bo")
	eq(t, "no standard action", st.Fighters["bo"].Budget.Standard, false)
	fail(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "knife"), "illegal")
	_, st = do(t, st, gm, cmd(CmdMove, "bo", "to", "4,2"), 5)
	st = nextTurnOf(t, st, "bo")
	eq(t, "the turn after", st.Fighters["bo"].Budget.Standard, true)

	// Arms: −1 to hit each; both: −1 melee damage too.
	st = hit(t, skirmish(t, nil), LocLeftArm)
	st = nextTurnOf(t, st, "ana")
	st = hit(t, st, LocRightArm)
	st = endTurns(t, st, "bo")
	events, _ = do(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "knife"), 10, 3)
	a := attackOf(t, events)
	v, _ := modValue(a.Mods, "2 arm(s) hit")
	eq(t, "arms", v, -2)
	var d DamageRolled
	decodeOne(t, events, KindDamage, &d)
	eq(t, "melee damage −1", d.Total, 2)
	// Hitting the same arm twice counts once.
	st = hit(t, skirmish(t, nil), LocLeftArm)
	st = nextTurnOf(t, st, "ana")
	st = hit(t, st, LocLeftArm)
	eq(t, "one arm", st.Fighters["bo"].hurtCount("arm"), 1)

	// Legs: −10 ft each. The GM heals them.
	st = hit(t, skirmish(t, nil), LocLeftLeg)
	eq(t, "speed", st.Fighters["bo"].Speed(), 20)
	_, st = do(t, st, gm, cmd(CmdClearEffects, "", "combatant", "bo"))
	eq(t, "healed", st.Fighters["bo"].Speed(), 30)
	fail(t, st, gm, cmd(CmdClearEffects, "", "combatant", "bo"), "illegal")

	// With effect-duration "ask", the GM sets the rounds: 1 round lapses
	// when round 3 starts.
	st = skirmish(t, map[string]string{OptEffectDuration: AskRounds})
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife", "aim", LocRightLeg), 19, 1)
	_, st = answer(t, st, gm, DecDuration, "set", map[string]any{"rounds": 1})
	eq(t, "until", st.Fighters["bo"].Hurt[0].Until, 2)
	st = nextTurnOf(t, st, "ana")
	eq(t, "round 2", st.Round, 2)
	eq(t, "still hurt in round 2", st.Fighters["bo"].Speed(), 20)
	st = nextTurnOf(t, st, "ana")
	eq(t, "round 3", st.Round, 3)
	eq(t, "healed in round 3", st.Fighters["bo"].Speed(), 30)
}

// TestAttackFormsOfferWhatTheAttackAccepts: the seed's aimed shots are
// single shots, never at Long or Extreme range. With cy 120 ft away (Long
// for the pistol) the plain attacks offer both targets and the rifle's
// bursts; the aimed attacks offer bo alone and no fire mode. Every
// combination each form offers is accepted.
func TestAttackFormsOfferWhatTheAttackAccepts(t *testing.T) {
	st := skirmishOn(t, nil, field(60, 10), at(1, 3, 2), at(2, 26, 2))
	forms := map[string]engine.Action{}
	for _, a := range engine.Project(New(), st, gm).Actions {
		if a.Kind == CmdAttack {
			forms[a.Label] = a
		}
	}
	options := func(a engine.Action, name string) []string {
		for _, f := range a.Fields {
			if f.Name == name {
				var out []string
				for _, o := range f.Options {
					out = append(out, o.Value)
				}
				return out
			}
		}
		return nil
	}
	for _, tc := range []struct {
		label                 string
		targets, shots, aimAt []string
	}{
		{"Attack: Pistol", []string{"bo", "cy"}, nil, nil},
		{"Aimed attack: Pistol", []string{"bo"}, nil, []string{LocHead, LocBackTorso, LocGroin, LocLeftArm, LocRightArm, LocLeftLeg, LocRightLeg}},
		{"Attack: Rifle", []string{"bo", "cy"}, []string{"1", "2", "3", "4", "5"}, nil},
		{"Aimed attack: Rifle", []string{"bo", "cy"}, nil, []string{LocHead, LocBackTorso, LocGroin, LocLeftArm, LocRightArm, LocLeftLeg, LocRightLeg}},
	} {
		a, ok := forms[tc.label]
		if !ok {
			t.Fatalf("no %q among %v", tc.label, forms)
		}
		eq(t, tc.label+": targets", strings.Join(options(a, "target"), " "), strings.Join(tc.targets, " "))
		eq(t, tc.label+": fire", strings.Join(options(a, "shots"), " "), strings.Join(tc.shots, " "))
		eq(t, tc.label+": aim", strings.Join(options(a, "aim"), " "), strings.Join(tc.aimAt, " "))
		for _, target := range options(a, "target") {
			for _, shots := range append(options(a, "shots"), "") {
				for _, aim := range append(options(a, "aim"), "") {
					if (shots == "") != (options(a, "shots") == nil) || (aim == "") != (options(a, "aim") == nil) {
						continue
					}
					c := cmd(CmdAttack, "ana", "target", target, "weapon", options(a, "weapon")[0], "shots", shots, "aim", aim)
					if _, _, err := engine.Decide(New(), st, gm, "c", c, dice.NewRoller(dice.NewSeeded(1))); err != nil {
						t.Errorf("%s offers %s, refused: %v", tc.label, c.Args, err)
					}
				}
			}
		}
	}
}
