package d20under

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Feats (spec c13): 1 Experience or 1 permanent Corruption (NPCs:
// Corruption only).

// featDuel is ana (a PC with 2 XP, Accurate 13, Quick 12, Resolute 10:
// Corruption Threshold 5) next to an orc (Defense 8, flat armour 3,
// Toughness 13, PT 7) and a goblin.
func featDuel(t *testing.T, opts map[string]string, anaStats map[string]any) *State {
	t.Helper()
	stats := map[string]any{"xp": 2}
	for k, v := range anaStats {
		stats[k] = v
	}
	return begin(t, newState(t, gridSetup(withOpts(opts), 8, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12}, Stats: stats},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 13, Accurate: 12}, Armour: map[string]any{"type": "medium"}},
		spec{ID: "gob", Side: "foes", X: 1, Y: 2, Attr: map[string]int{Quick: 10, Accurate: 10}},
	)))
}

func TestCleanHitDealsMaximumDamage(t *testing.T) {
	st := featDuel(t, noCrit, nil)
	events, st := do(t, st, engine.PlayerViewer("ana"), cmd(CmdAttack, "ana", "target", "orc", "clean", PayXP), 3)
	var d Damage
	decodeOne(t, events, KindDamage, &d)
	eq(t, "maximum 8", d.Rolled, 8)
	eq(t, "no damage die rolled", len(rollOf(t, events, "Damage").Dice), 0)
	eq(t, "xp", st.Fighters["ana"].XP, 1)
	eq(t, "xp spent", st.Fighters["ana"].XPSpent, 1)
	// Paid in Corruption instead.
	st = featDuel(t, noCrit, nil)
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc", "clean", PayCorruption), 3)
	eq(t, "permanent Corruption", st.Fighters["ana"].Permanent, 1)
	eq(t, "xp kept", st.Fighters["ana"].XP, 2)
}

func TestNPCsPayInCorruptionOnly(t *testing.T) {
	st := featDuel(t, noCrit, nil)
	eq(t, "NPC budget", strings.Join(st.budget("orc"), ","), PayCorruption)
	eq(t, "PC budget", strings.Join(st.budget("ana"), ","), PayXP+","+PayCorruption)
	st = endTurns(t, st, "orc")
	fail(t, st, gm, cmd(CmdAttack, "orc", "target", "ana", "clean", PayXP), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana", "clean", PayCorruption), 1)
	eq(t, "orc's Corruption", st.Fighters["orc"].Permanent, 1)
	st2 := featDuel(t, map[string]string{OptCriticals: Off, OptNPCFeats: FeatsNever}, nil)
	eq(t, "no NPC feats", len(st2.budget("orc")), 0)
}

func TestPerfectDefenceAndResilienceWhenHit(t *testing.T) {
	mk := func() *State {
		st := featDuel(t, map[string]string{OptCriticals: Off, OptFeatOffers: OffersPCs}, map[string]any{"armour": map[string]any{"type": "light"}})
		return endTurns(t, st, "orc")
	}
	t.Run("Perfect Defence parries, once per round", func(t *testing.T) {
		st := mk()
		_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
		d := pendingKind(t, st, DecHit)
		eq(t, "asked", d.For, "ana")
		events, st := answer(t, st, engine.PlayerViewer("ana"), DecHit, FeatPerfectDefence+":"+PayXP, nil)
		eq(t, "no damage", len(find(events, KindDamage)), 0)
		eq(t, "toughness", st.Fighters["ana"].Toughness, 10)
		eq(t, "xp", st.Fighters["ana"].XP, 1)
		// The goblin hits too: Perfect Defence is no longer offered.
		_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
		_, st = do(t, st, gm, cmd(CmdAttack, "gob", "target", "ana"), 20)
		for _, o := range pendingKind(t, st, DecHit).Options {
			if strings.HasPrefix(o.Value, FeatPerfectDefence) {
				t.Fatalf("Perfect Defence twice in a round: %v", o)
			}
		}
	})
	t.Run("Resilience: +1d4 armour", func(t *testing.T) {
		st := mk()
		_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
		// Flat 4 against light armour 1 + Resilience 2: 1.
		events, st := answer(t, st, engine.PlayerViewer("ana"), DecHit, FeatResilience+":"+PayCorruption, nil, 1, 2)
		var d Damage
		decodeOne(t, events, KindDamage, &d)
		eq(t, "armour", d.Armour, 3)
		eq(t, "toughness", st.Fighters["ana"].Toughness, 9)
		eq(t, "paid", st.Fighters["ana"].Permanent, 1)
	})
	t.Run("take it", func(t *testing.T) {
		st := mk()
		_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
		_, st = answer(t, st, engine.PlayerViewer("ana"), DecHit, "take", nil, 1)
		eq(t, "toughness", st.Fighters["ana"].Toughness, 7)
	})
}

func TestIgnoreCorruption(t *testing.T) {
	// Resolute 10: threshold 5; 7 Corruption is 2 over: −2 on tests.
	st := featDuel(t, noCrit, map[string]any{"corruption": map[string]int{"permanent": 3, "temporary": 4}})
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 20)
	r := rollOf(t, events, "Attack")
	if v, ok := hasMod(r, "Corruption"); !ok || v != -2 {
		t.Errorf("mods %+v", r.Mods)
	}
	eq(t, "target", r.Target, 13)
	_, st = do(t, st, gm, cmd(CmdFeat, "ana", "feat", FeatIgnoreCorruption, "pay", PayXP))
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 20)
	eq(t, "as if none", rollOf(t, events, "Attack").Target, 15)
	// Option: Corruption does not weigh on tests at all.
	st = featDuel(t, map[string]string{OptCriticals: Off, OptCorruptionTests: CorruptionNone}, map[string]any{"corruption": map[string]int{"permanent": 3, "temporary": 4}})
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 20)
	eq(t, "no penalty", rollOf(t, events, "Attack").Target, 15)
}

func TestCorruptionAtResoluteMakesAnAbomination(t *testing.T) {
	// Resolute 10: at 10 Corruption, lost at the start of her next turn —
	// unless she ignores the Corruption this round.
	st := featDuel(t, noCrit, map[string]any{"corruption": map[string]int{"permanent": 4, "temporary": 5}})
	_, st = do(t, st, gm, cmd(CmdFeat, "ana", "feat", FeatIgnoreCorruption, "pay", PayCorruption))
	eq(t, "at 10", st.Fighters["ana"].totalCorruption(), 10)
	_, st = do(t, st, gm, cmd(CmdDelay, "ana", "after", "gob")) // her turn comes again this round
	st = endTurns(t, st, "ana")
	eq(t, "still here this round", st.Combatant("ana").Out, false)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	if !st.Combatant("ana").Out || !st.Fighters["ana"].Abomination {
		t.Fatal("the next round she is lost")
	}
}

func TestWhirlwind(t *testing.T) {
	st := featDuel(t, noCrit, nil)
	events, _ := do(t, st, gm, cmd(CmdWhirlwind, "ana", "pay", PayXP), 20, 20)
	var at []string
	for _, e := range find(events, KindAttack) {
		var a Attack
		_ = e.Decode(&a)
		at = append(at, a.Target)
	}
	if strings.Join(at, ",") != "orc,gob" {
		t.Fatalf("attacks on %v", at)
	}
}

func TestFearlessAgainstTerrify(t *testing.T) {
	mk := func(offers string) *State {
		return begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off, OptFeatOffers: offers}, 8, 4, nil,
			spec{ID: "ghoul", Side: "foes", X: 2, Y: 1, Stats: map[string]any{"traits": map[string]int{"terrify": 1}}},
			spec{ID: "ana", Side: "heroes", PC: true, X: 5, Y: 1, Stats: map[string]any{"xp": 1}},
		)))
	}
	// Ana faces it: her Resolute 10 against its 10; 11 fails.
	st := mk(OffersPCs)
	_, st = do(t, st, gm, cmd(CmdTerrify, "ghoul", "target", "ana"))
	_, st = answer(t, st, engine.PlayerViewer("ana"), DecFearless, "face", nil, 11)
	eq(t, "terrified", st.Fighters["ana"].Terrified, true)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ghoul"))
	eq(t, "no combat action", st.Fighters["ana"].Combat, false)
	// Fearless instead.
	st = mk(OffersPCs)
	_, st = do(t, st, gm, cmd(CmdTerrify, "ghoul", "target", "ana"))
	_, st = answer(t, st, engine.PlayerViewer("ana"), DecFearless, FeatFearless+":"+PayXP, nil)
	eq(t, "fearless", st.Fighters["ana"].Fearless, true)
	eq(t, "not terrified", st.Fighters["ana"].Terrified, false)
}

func TestSteelyGazeAndPreparedAreTheGMs(t *testing.T) {
	st := featDuel(t, noCrit, nil)
	_, st = do(t, st, gm, cmd(CmdSteelyGaze, "ana", "target", "orc", "pay", PayXP))
	d := pendingKind(t, st, DecGaze)
	eq(t, "the GM rules", d.For, engine.GM)
	_, st = answer(t, st, gm, DecGaze, "refrains", map[string]any{"rounds": 2})
	st = endTurns(t, st, "orc")
	msg := fail(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), fray.EILLEGAL)
	if !strings.Contains(msg, "Steely Gaze") {
		t.Errorf("message %q", msg)
	}
	for _, a := range New().Actions(st, gm) {
		if a.Kind == CmdAttack {
			for _, o := range a.Fields[0].Options {
				if o.Value == "ana" {
					t.Error("ana is offered as the orc's target")
				}
			}
		}
	}
	// Prepared: +1 on non-combat tests once the GM allows it.
	st = begin(t, newState(t, gridSetup(noCrit, 8, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Stats: map[string]any{"xp": 1,
			"items": map[string]int{ItemMechanicalTrap: 1}, "abilities": map[string]string{"trapper": "novice"}}},
		spec{ID: "orc", Side: "foes", X: 6, Y: 1},
	)))
	_, st = do(t, st, gm, cmd(CmdFeat, "ana", "feat", FeatPrepared, "pay", PayXP, "what", "a coil of wire"))
	_, st = answer(t, st, gm, DecPrepared, "allow", nil)
	eq(t, "prepared", st.Fighters["ana"].Prepared, "a coil of wire")
	events, _ := do(t, st, gm, cmd(CmdSetTrap, "ana", "item", ItemMechanicalTrap, "at", "2,1"), 11)
	if v, ok := hasMod(rollOf(t, events, "Set a trap"), "Prepared"); !ok || v != 1 {
		t.Errorf("mods %+v", rollOf(t, events, "Set a trap").Mods)
	}
}
