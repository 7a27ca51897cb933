package swzones

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The area fixture, four zones in a line z1–z2–z3–z4:
//   - vance, Wild Card PC in z1, in melee m1 with g1: Athletics d8,
//     Shooting d8; a frag grenade (3d6, 5/10/20 → 0/2/3, Medium Burst), a
//     flash-bang (2d6, Small Burst), a launcher (3d6, 24/48/96 → 4/8/16,
//     Large Burst), a flamethrower (2d10, Cone), an acid hose (2d6, Jet);
//   - mara, Wild Card PC in z2, in melee m2 with g2: Smarts d8,
//     Spellcasting d8; powers Bolt (2d6, Smarts×2 → 3), Blast (2d6, Medium
//     Burst, Smarts×2 → 3) and Relief (Medium Burst, Smarts → 1 [I]);
//   - sam, an Extra on the heroes' side (an NPC) in z2;
//   - goblins g1 (z1), g2 (z2), g3 and g4 (z3), g5 (z4), Extras.
//
// Cards give the order vance, mara, sam, g1, g2, g3, g4, g5.
func areaSetup(opts map[string]string) engine.Setup {
	weapons := []map[string]any{
		{"id": "frag", "name": "Frag grenade", "damage": "3d6", "range": "5/10/20", "thrown": true, "template": "medium"},
		{"id": "flash", "name": "Flash-bang", "damage": "2d6", "range": "5/10/20", "thrown": true, "template": "small"},
		{"id": "launcher", "name": "Launcher", "damage": "3d6", "range": "24/48/96", "template": "large"},
		{"id": "flamer", "name": "Flamethrower", "damage": "2d10", "template": "cone"},
		{"id": "hose", "name": "Acid hose", "damage": "2d6", "template": "jet"},
		{"id": "knife", "name": "Knife", "damage": "Str+d4"},
	}
	powers := []map[string]any{
		{"id": "bolt", "name": "Bolt", "range": "smarts-x2", "damage": "2d6"},
		{"id": "blast", "name": "Blast", "range": "smarts-x2", "template": "medium", "damage": "2d6"},
		{"id": "relief", "name": "Relief", "range": "smarts", "template": "medium", "effect": "relief"},
	}
	return newSetup(opts, chain(4, nil, []string{"z1", "vance", "g1"}, []string{"z2", "mara", "g2"}),
		spec{ID: "vance", Side: "heroes", Zone: "z1", WC: true, PC: true, Weapons: weapons,
			Skills: map[string]string{"athletics": "d8", "shooting": "d8"}},
		spec{ID: "mara", Side: "heroes", Zone: "z2", WC: true, PC: true, Powers: powers,
			Attr: map[string]string{"smarts": "d8"}, Skills: map[string]string{"spellcasting": "d8"}},
		spec{ID: "sam", Side: "heroes", Zone: "z2"},
		spec{ID: "g1", Side: "goblins", Zone: "z1"},
		spec{ID: "g2", Side: "goblins", Zone: "z2"},
		spec{ID: "g3", Side: "goblins", Zone: "z3"},
		spec{ID: "g4", Side: "goblins", Zone: "z3"},
		spec{ID: "g5", Side: "goblins", Zone: "z4"},
	)
}

func areaFight(t *testing.T, opts map[string]string) *State {
	t.Helper()
	_, st := startWith(t, newState(t, areaSetup(opts)), []string{"A♠", "K♠", "Q♠", "J♠", "10♠", "9♠", "8♠", "7♠"})
	return st
}

func aimValues(st *State, who, tool string, power bool) string {
	f := st.Fighters[who]
	t, err := st.tool(f, tool, power)
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, c := range st.aims(f, t) {
		out = append(out, c.Value)
	}
	return strings.Join(out, " ")
}

func TestTemplatesByZone(t *testing.T) {
	st := areaFight(t, nil)
	// Small Burst: one character, or all of a melee (the thrower himself is
	// never a target of his own attack, but his melee may be).
	eq(t, "small", aimValues(st, "vance", "flash", false),
		"m:m1 f:g1 m:m2 f:mara f:sam f:g2 f:g3 f:g4 f:g5")
	eq(t, "small on a melee", strings.Join(st.covered("m:m2"), " "), "mara g2")
	eq(t, "small on one character", strings.Join(st.covered("f:g2"), " "), "g2")
	// Medium Burst: a zone.
	eq(t, "medium", aimValues(st, "vance", "frag", false), "z:z1 z:z2 z:z3 z:z4")
	eq(t, "medium covers the zone", strings.Join(st.covered("z:z2"), " "), "mara sam g2")
	// Large Burst: a zone and a neighbour.
	eq(t, "large", aimValues(st, "vance", "launcher", false), "z:z1+z2 z:z2+z3 z:z3+z4")
	eq(t, "large covers both", strings.Join(st.covered("z:z3+z4"), " "), "g3 g4 g5")
	// Cone: a target in the caster's zone (g1), and/or a Small Burst in the
	// same or a neighbouring zone.
	cone := aimValues(st, "vance", "flamer", false)
	for _, want := range []string{"t:g1", "m:m2", "f:sam", "t:g1,m:m2", "t:g1,f:g2", "t:g1,m:m1"} {
		if !slices.Contains(strings.Fields(cone), want) {
			t.Errorf("cone aims %q lack %q", cone, want)
		}
	}
	for _, bad := range []string{"f:g3", "t:g2", "t:g1,f:g1"} {
		if slices.Contains(strings.Fields(cone), bad) {
			t.Errorf("cone aims %q include %q", cone, bad)
		}
	}
	eq(t, "cone covers both parts", strings.Join(st.covered("t:g1,m:m2"), " "), "mara g1 g2")
	// Jet: a Small Burst in the caster's zone, and/or a target in the same
	// or a neighbouring zone.
	jet := strings.Fields(aimValues(st, "vance", "hose", false))
	for _, want := range []string{"m:m1", "f:g1", "t:g2", "t:g2,m:m1"} {
		if !slices.Contains(jet, want) {
			t.Errorf("jet aims %v lack %q", jet, want)
		}
	}
	if slices.Contains(jet, "m:m2") || slices.Contains(jet, "t:g3") {
		t.Errorf("jet aims %v reach too far", jet)
	}
	// Either/or: no combined aims.
	st = areaFight(t, map[string]string{OptConeJet: ConeEither})
	for _, a := range strings.Fields(aimValues(st, "vance", "flamer", false)) {
		if strings.Contains(a, ",") {
			t.Errorf("either/or cone offers %q", a)
		}
	}
}

// Power ranges are limits by the seed's table: Mara's Smarts d8 gives
// Smarts×2 = 3 zones, Smarts = 1 ([I] interpolated; "lower": 0).
func TestPowerReach(t *testing.T) {
	st := areaFight(t, nil)
	eq(t, "bolt", aimValues(st, "mara", "bolt", true), "t:g1 t:g2 t:g3 t:g4 t:g5")
	eq(t, "relief, Smarts d8 → 1", aimValues(st, "mara", "relief", true), "z:z1 z:z2 z:z3")
	st = areaFight(t, map[string]string{OptPowerRangeGaps: GapsLower})
	eq(t, "relief, Smarts d8 → 0", aimValues(st, "mara", "relief", true), "z:z2")
}

// The seed: "Allies caught in a burst can make an Agility roll to dive out
// of the way." A player is asked live; the GM's fighters roll at once.
func TestGrenadeHitAlliesDiveOut(t *testing.T) {
	st := areaFight(t, nil)
	// Vance throws a frag grenade at z2, 1 zone away: Medium range −2.
	// Athletics 8+1 = 9, Wild 2, −2 = 7 vs 4: a hit, no raise.
	// Sam (an NPC ally) dives at once: Agility d6 2: caught. Mara (a PC) is asked.
	events, st := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z2"), 8, 1, 2, 2)
	if got, want := kinds(events), []string{KindAreaAttack, KindAreaLanded, KindDive, engine.KindDecisionOpened}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	var aa AreaAttack
	decodeOne(t, events, KindAreaAttack, &aa)
	eq(t, "total", aa.Total, 7)
	eq(t, "band", aa.Band, "medium")
	if v, _ := modValue(aa.Mods, "medium range"); v != -2 {
		t.Fatalf("mods = %v", aa.Mods)
	}
	var l AreaLanded
	decodeOne(t, events, KindAreaLanded, &l)
	eq(t, "victims", strings.Join(l.Victims, " "), "mara sam g2")
	eq(t, "divers", strings.Join(l.Divers, " "), "mara sam")
	d := pendingKind(t, st, DecDive)
	eq(t, "asked", d.For, "mara")
	eq(t, "prompt", d.Prompt, "Dive out of Frag grenade? (Agility)")
	eq(t, "options", optionValues(d), "dive stay")
	eq(t, "actions wait", len(New().Actions(st, gm)), 0)
	view := engine.Project(New(), st, engine.PlayerViewer("mara"))
	eq(t, "mara's page shows it", len(view.Pending), 1)
	eq(t, "vance's page waits", strings.Join(engine.Project(New(), st, engine.PlayerViewer("vance")).Waiting, ", "), "Mara")
	eq(t, "the action is counted", st.Fighters["vance"].Actions, 1)

	// Mara's player dives: Agility 5, Wild 1: spared. Then the damage, each
	// victim rolled separately: sam 3d6 1+1+1 = 3 vs 5, no effect; g2
	// 4+4+4 = 12 vs 5: a wound, out.
	events, st = answer(t, st, engine.PlayerViewer("mara"), DecDive, "dive", 5, 1, 1, 1, 1, 4, 4, 4)
	if got, want := kinds(events), []string{engine.KindDecisionResolved, KindDive, KindAreaDamage, KindAreaDamage, engine.KindCombatantOut}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	var dv Dive
	decodeOne(t, events, KindDive, &dv)
	eq(t, "mara spared", dv.Spared, true)
	eq(t, "g2 out", st.Combatant("g2").Out, true)
	eq(t, "mara unhurt", st.Fighters["mara"].Shaken, false)
	eq(t, "sam unhurt", st.Fighters["sam"].Shaken, false)
	for _, e := range find(events, KindAreaDamage) {
		eq(t, "no raise die on area damage", len(e.Rolls[0].Dice), 3)
	}
}

func TestGrenadeDiveDeclinedAndNPCAsked(t *testing.T) {
	st := areaFight(t, map[string]string{OptNPCDive: DiveAsk})
	events, st := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z2"), 8, 1, 2)
	if got := len(find(events, engine.KindDecisionOpened)); got != 2 {
		t.Fatalf("want two dive decisions at once, got %v", kinds(events))
	}
	// Sam's is the GM's to answer; a player cannot.
	sam := st.Pending[1]
	eq(t, "sam's", sam.For, "sam")
	fail(t, st, engine.PlayerViewer("mara"), engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": sam.ID, "choice": "dive"}), fray.EFORBIDDEN)
	// Mara stays put (no roll); nothing is rolled until the last diver answers.
	events, st = answer(t, st, engine.PlayerViewer("mara"), DecDive, "stay")
	eq(t, "only resolved", strings.Join(kinds(events), " "), engine.KindDecisionResolved)
	// The GM dives Sam: 6+3 = 9: spared. Damage: mara 2+2+2 = 6 vs 5, Shaken; g2 1+1+1.
	events, st = answer(t, st, gm, DecDive, "dive", 6, 3, 2, 2, 2, 1, 1, 1)
	eq(t, "damage", len(find(events, KindAreaDamage)), 2)
	eq(t, "mara shaken", st.Fighters["mara"].Shaken, true)
	eq(t, "sam spared", st.Fighters["sam"].Shaken, false)
}

// The seed: "If the caster scores a raise, they are spared automatically."
func TestGrenadeRaiseSparesAllies(t *testing.T) {
	st := areaFight(t, nil)
	// Athletics 8+8+2 = 18, Wild 1, −2 = 16: three raises. No dives; g2 takes 1+1+1.
	events, st := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z2"), 8, 8, 2, 1, 1, 1, 1)
	if got, want := kinds(events), []string{KindAreaAttack, KindAreaLanded, KindAreaDamage}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	var l AreaLanded
	decodeOne(t, events, KindAreaLanded, &l)
	eq(t, "spared", strings.Join(l.Spared, " "), "mara sam")
	eq(t, "divers", len(l.Divers), 0)
	_ = st
}

// The seed: "Missing grenades or Blasts deviate by 1 zone to an adjacent
// zone determined randomly. You still get the usual Agility roll to get out
// of the grenade's area" ([I] at −2).
func TestMissedGrenadeDeviates(t *testing.T) {
	for _, tc := range []struct {
		opts    map[string]string
		penalty int
	}{{nil, -2}, {map[string]string{OptScatterDodge: "0"}, 0}} {
		st := areaFight(t, tc.opts)
		// Aimed at z2: Athletics 2, Wild 3, −2 = 1: a miss. z2 borders z1 and
		// z3: the d2 says 2, z3. g3 and g4 (enemies, NPCs) dive at once:
		// Agility 4 and 6+1 = 7; at −2 g3's 2 fails and g3 takes 3d6.
		faces := []int{2, 3, 2, 4, 6, 1}
		if tc.penalty != 0 {
			faces = append(faces, 1, 1, 1) // g3's 4 −2 fails: 3d6 for g3
		}
		events, st := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z2"), faces...)
		var sc AreaScatter
		decodeOne(t, events, KindAreaScatter, &sc)
		eq(t, "from", sc.From, "z2")
		eq(t, "to", sc.To, "z3")
		scatterEv := find(events, KindAreaScatter)[0]
		eq(t, "deviation die", scatterEv.Rolls[0].Dice[0].Sides, 2)
		var l AreaLanded
		decodeOne(t, events, KindAreaLanded, &l)
		eq(t, "deviated", l.Deviated, true)
		eq(t, "penalty", l.Penalty, tc.penalty)
		eq(t, "divers: every victim", strings.Join(l.Divers, " "), "g3 g4")
		dives := find(events, KindDive)
		eq(t, "dives", len(dives), 2)
		var dv Dive
		if err := dives[0].Decode(&dv); err != nil {
			t.Fatal(err)
		}
		v, _ := modValue(dv.Mods, "deviated blast")
		eq(t, "dive penalty", v, tc.penalty)
		eq(t, "g3 spared", dv.Spared, tc.penalty == 0)
		_ = st
	}
}

// A deviated Small Burst lands where the GM says in the new zone
// (scatter-placement), or where a die says.
func TestScatterPlacement(t *testing.T) {
	st := areaFight(t, nil)
	// The flash-bang at g3 (z3, 2 zones: Medium −2): Athletics 1, Wild 2: a
	// miss. z3 borders z2 and z4: the d2 says 1, z2.
	events, st := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "flash", "at", "f:g3"), 1, 2, 1)
	if got := kinds(events); !slices.Equal(got, []string{KindAreaAttack, KindAreaScatter, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	d := pendingKind(t, st, DecScatter)
	eq(t, "for", d.For, engine.GM)
	eq(t, "prompt", d.Prompt, "Where in Zone 2 does Vance's Flash-bang land?")
	eq(t, "options", optionValues(d), "m:m2 f:sam open")
	fail(t, st, engine.PlayerViewer("vance"), engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": "f:sam"}), fray.EFORBIDDEN)
	// The GM puts it on the melee: mara and g2. Mara is asked to dive (−2).
	events, st = answer(t, st, gm, DecScatter, "m:m2", 3)
	var l AreaLanded
	decodeOne(t, events, KindAreaLanded, &l)
	eq(t, "victims", strings.Join(l.Victims, " "), "mara g2")
	eq(t, "g2 rolled at once", len(find(events, KindDive)), 1)
	eq(t, "mara asked", pendingKind(t, st, DecDive).Prompt, "Dive out of Flash-bang? (Agility -2)")

	// A die instead of the GM: d2 for z2, then d2 among the melee and Sam.
	st = areaFight(t, map[string]string{OptScatterPlacement: PlaceRandom})
	events, st = do(t, st, gm, cmd(CmdArea, "vance", "weapon", "flash", "at", "f:g3"), 1, 2, 1, 2, 5, 1, 1)
	var sc AreaScatter
	decodeOne(t, events, KindAreaScatter, &sc)
	eq(t, "landed on", sc.At, "f:sam")
	eq(t, "two dice", len(find(events, KindAreaScatter)[0].Rolls), 2)
	eq(t, "sam dove clear (5 −2)", st.Fighters["sam"].Shaken, false)
}

func TestLargeBurstAndCone(t *testing.T) {
	st := areaFight(t, nil)
	// Launcher at z3+z4 (2 zones: Short): Shooting 5, Wild 1 = 5: hit.
	// g3, g4, g5: 1+1+1 each.
	events, _ := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "launcher", "at", "z:z3+z4"), 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	eq(t, "three victims", len(find(events, KindAreaDamage)), 3)
	eq(t, "skill", events[0].Rolls[0].Label, "Shooting")

	// The flamethrower (a Cone) at g1 and the melee in z2: Shooting 4, Wild 1: hit.
	// Mara (a PC ally) is asked to dive; she declines. Damage 2d10 each: g1 1+1,
	// mara 1+1, g2 1+1.
	st = areaFight(t, nil)
	events, st = do(t, st, gm, cmd(CmdArea, "vance", "weapon", "flamer", "at", "t:g1,m:m2"), 4, 1)
	var l AreaLanded
	decodeOne(t, events, KindAreaLanded, &l)
	eq(t, "cone victims", strings.Join(l.Victims, " "), "mara g1 g2")
	events, _ = answer(t, st, engine.PlayerViewer("mara"), DecDive, "stay", 1, 1, 1, 1, 1, 1)
	eq(t, "cone damage", len(find(events, KindAreaDamage)), 3)

	// A Cone that misses hits no one (only Bursts deviate).
	st = areaFight(t, nil)
	events, _ = do(t, st, gm, cmd(CmdArea, "vance", "weapon", "flamer", "at", "t:g1"), 1, 2)
	eq(t, "miss", strings.Join(kinds(events), " "), KindAreaAttack)
}

// Picking where to aim is a decision for the attacker; cancelling takes no
// action.
func TestAimDecision(t *testing.T) {
	st := areaFight(t, nil)
	events, st := do(t, st, engine.PlayerViewer("vance"), cmd(CmdArea, "vance", "weapon", "frag"))
	eq(t, "only the question", strings.Join(kinds(events), " "), engine.KindDecisionOpened)
	d := pendingKind(t, st, DecAim)
	eq(t, "for", d.For, "vance")
	eq(t, "prompt", d.Prompt, "Where does Vance aim Frag grenade (Medium Burst)?")
	eq(t, "options", optionValues(d), "z:z1 z:z2 z:z3 z:z4 cancel")
	_, after := answer(t, st, engine.PlayerViewer("vance"), DecAim, "cancel")
	eq(t, "no action taken", after.Fighters["vance"].Actions, 0)
	// Aimed at z4 (3 zones: Long −4): Athletics 8+2 = 10, Wild 1, −4 = 6: hit. g5 1+1+1.
	events, after = answer(t, st, engine.PlayerViewer("vance"), DecAim, "z:z4", 8, 2, 1, 1, 1, 1)
	eq(t, "fired", len(find(events, KindAreaDamage)), 1)
	eq(t, "counted", after.Fighters["vance"].Actions, 1)

	// Illegal aims and tools change nothing.
	st = areaFight(t, nil)
	fail(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z9"), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdArea, "vance", "weapon", "flamer", "at", "t:g3"), fray.EILLEGAL) // not in the cone's reach
	fail(t, st, gm, cmd(CmdArea, "vance", "weapon", "knife"), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdArea, "vance", "weapon", "bazooka"), fray.ENOTFOUND)
	fail(t, st, gm, cmd(CmdArea, "vance", "power", "blast"), fray.EINVALID)
	fail(t, st, gm, cmd(CmdShoot, "vance", "target", "g3", "weapon", "frag"), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdCast, "mara", "power", "blast", "at", "z:z1"), fray.ENOTYOURTURN)
}

// Blast (a power) deviates like a grenade; a power's range is a limit, not
// a penalty.
func TestCastBlastAndBolt(t *testing.T) {
	st := endTurns(t, areaFight(t, nil), "mara")
	// Blast at z3 (1 zone): Spellcasting 4, Wild 1 = 4: hit, no range penalty.
	// g3, g4: 2d6 1+1 each.
	events, st := do(t, st, gm, cmd(CmdCast, "mara", "power", "blast", "at", "z:z3"), 4, 1, 1, 1, 1, 1)
	var aa AreaAttack
	decodeOne(t, events, KindAreaAttack, &aa)
	eq(t, "no range penalty", len(aa.Mods), 0)
	eq(t, "skill", events[0].Rolls[0].Label, "Spellcasting")
	eq(t, "damage", len(find(events, KindAreaDamage)), 2)
	fail(t, st, gm, cmd(CmdCast, "mara", "power", "bolt", "at", "t:g5"), fray.EILLEGAL) // one action

	// Bolt at g5 (2 zones): Spellcasting 5, Wild 1 = 5 vs 4: hit; 2d6 3+3 = 6 vs 5: Shaken.
	st = endTurns(t, areaFight(t, nil), "mara")
	events, st = do(t, st, gm, cmd(CmdCast, "mara", "power", "bolt", "at", "t:g5"), 5, 1, 3, 3)
	a := one(t, events)
	eq(t, "kind", a.Kind, "cast")
	eq(t, "shaken", st.Fighters["g5"].Shaken, true)
	eq(t, "text", events[0].Text, "Mara casts Bolt at G5: hit; 6 damage against Toughness 5 — G5 is Shaken.")
}

// The seed: "Beneficial spells that target areas (such as Bless) will help
// enemies unless the caster scores a raise."
func TestBeneficialAreaHelpsEnemiesWithoutRaise(t *testing.T) {
	for _, tc := range []struct {
		name      string
		faces     []int
		recovered string
	}{
		{"success: everyone", []int{4, 1}, "sam g2"},
		{"raise: allies only", []int{8, 1, 1}, "sam"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := endTurns(t, areaFight(t, nil), "mara")
			for _, id := range []string{"sam", "g2"} {
				st.Fighters[id].Shaken = true
			}
			events, st := do(t, st, gm, cmd(CmdCast, "mara", "power", "relief", "at", "z:z2"), tc.faces...)
			var r Relief
			decodeOne(t, events, KindRelief, &r)
			eq(t, "recovered", strings.Join(r.Recovered, " "), tc.recovered)
			eq(t, "g2 still shaken", st.Fighters["g2"].Shaken, !strings.Contains(tc.recovered, "g2"))
			eq(t, "no dives for a boon", len(st.Pending), 0)
		})
	}
}

// A player's missed grenade may be rerolled; keeping the miss deviates it.
func TestAreaRerollThenDeviation(t *testing.T) {
	st := areaFight(t, map[string]string{OptRerollOffers: OffersPCs})
	_, st = do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z3"), 2, 3)
	d := pendingKind(t, st, DecReroll)
	eq(t, "prompt", d.Prompt, "Vance missed with Frag grenade. Reroll with a Benny? (3 left)")
	// Keep: it deviates from z3 (d2: 2 → z4); g5 dives at once (−2): 1, caught; 1+1+1.
	events, st := answer(t, st, engine.PlayerViewer("vance"), DecReroll, "keep", 2, 1, 1, 1, 1)
	var sc AreaScatter
	decodeOne(t, events, KindAreaScatter, &sc)
	eq(t, "deviated to", sc.To, "z4")
	eq(t, "bennies kept", st.Fighters["vance"].Bennies, 3)
}

// A victim's Soak in the middle of an area attack: the other victims' damage
// waits for the answer.
func TestAreaDamageWaitsForSoak(t *testing.T) {
	st := areaFight(t, map[string]string{OptSoakOffers: OffersAll})
	// Frag at z2: 8+1, Wild 2, −2 = 7: hit. Sam dives at once (2: caught);
	// Mara stays put.
	_, st = do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z2"), 8, 1, 2, 2)
	// Damage: mara 6+4 +5 +3 = 18 vs 5: three raises, three wounds. She is asked to Soak.
	events, st := answer(t, st, engine.PlayerViewer("mara"), DecDive, "stay", 6, 4, 5, 3)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindAreaDamage, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "prompt", pendingKind(t, st, DecSoak).Prompt, "Soak 3 wounds with a Benny? (3 left)")
	// She takes them; then sam (1+1+1) and g2 (1+1+1).
	events, st = answer(t, st, engine.PlayerViewer("mara"), DecSoak, "take", 1, 1, 1, 1, 1, 1)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindHarm, KindAreaDamage, KindAreaDamage}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "mara's wounds", st.Fighters["mara"].Wounds, 3)
}

// The seed (Grenades dispersion): a missed grenade deviates to a random
// adjacent zone, and "you still get the usual Agility roll to get out of
// the grenade's area" — the burst applies where it lands, so one that
// deviates into the thrower's own zone catches the thrower, who may dive
// out at −2 like anyone there. The scatter-thrower option spares the
// thrower instead.
func TestBlastDeviatingIntoTheThrowersZone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    map[string]string
		victims string
		asked   bool // vance is asked whether to dive out
	}{
		{"the seed: the thrower is caught", nil, "vance g1", true},
		{"option: the thrower is spared", map[string]string{OptScatterThrower: ThrowerSpared}, "g1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := areaFight(t, tc.opts)
			// Vance (z1) throws the frag grenade at z2 (1 zone: −2):
			// Athletics 2, Wild 3, −2 = 1, a miss. z2 borders z1 and z3: the
			// d2 says 1, z1 — his own zone. g1 dives at once: Agility 6
			// (aces) +1 −2 = 5, clear.
			events, st := do(t, st, gm, cmd(CmdArea, "vance", "weapon", "frag", "at", "z:z2"), 2, 3, 1, 6, 1)
			var sc AreaScatter
			decodeOne(t, events, KindAreaScatter, &sc)
			eq(t, "deviated to his zone", sc.To, "z1")
			var l AreaLanded
			decodeOne(t, events, KindAreaLanded, &l)
			eq(t, "victims", strings.Join(l.Victims, " "), tc.victims)
			eq(t, "divers: every victim", strings.Join(l.Divers, " "), tc.victims)
			if !tc.asked {
				if len(st.Pending) != 0 {
					t.Fatalf("nobody is asked: %+v", st.Pending)
				}
				return
			}
			d := pendingKind(t, st, DecDive)
			eq(t, "vance asked", d.For, "vance")
			eq(t, "the usual roll", d.Prompt, "Dive out of Frag grenade? (Agility -2)")
			// He dives: Agility 3, Wild 2, −2 = 1, caught; 3d6 = 4+4+4 = 12.
			events, st = answer(t, st, engine.PlayerViewer("vance"), DecDive, "dive", 3, 2, 4, 4, 4)
			var dv Dive
			decodeOne(t, events, KindDive, &dv)
			eq(t, "caught", dv.Spared, false)
			eq(t, "damaged by his own grenade", len(find(events, KindAreaDamage)), 1)
		})
	}
}

// An encounter begun before scatter-thrower existed keeps the reading it
// began with (the thrower spared); a new one has the seed's.
func TestScatterThrowerOfOlderEncounters(t *testing.T) {
	st := areaFight(t, nil)
	raw, err := engine.Snapshot(st)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := New().Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "new", decoded.Core().Options[OptScatterThrower], ThrowerCaught)
	delete(st.Options, OptScatterThrower)
	if raw, err = engine.Snapshot(st); err != nil {
		t.Fatal(err)
	}
	if decoded, err = New().Decode(raw); err != nil {
		t.Fatal(err)
	}
	eq(t, "older", decoded.Core().Options[OptScatterThrower], ThrowerSpared)
}
