package swzones

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The seed: "Each success and raise on the Running roll gives you 1
// additional Movement point".
func TestRunGainsOneMPPerSuccessAndRaise(t *testing.T) {
	tests := []struct {
		name   string
		faces  []int // brak's Agility d6, Wild Die
		total  int
		gained int
	}{
		{"failure", []int{2, 3}, 3, 0},
		{"success", []int{4, 2}, 4, 1},
		{"raise", []int{6, 2, 1}, 8, 2},
		{"two raises", []int{6, 6, 1, 2}, 13, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := skirmish(t, nil)
			events, st := do(t, st, gm, cmd(CmdRun, "brak", "trait", "agility"), tc.faces...)
			var r Run
			decodeOne(t, events, KindRun, &r)
			eq(t, "total", r.Total, tc.total)
			eq(t, "gained", r.Gained, tc.gained)
			eq(t, "label", events[0].Rolls[0].Label, "Running (Agility)")
			b := st.Fighters["brak"]
			eq(t, "MP", b.MP, MovementPerTurn+tc.gained)
			eq(t, "ran", b.Ran, true)
			eq(t, "penalty", b.RunPenalty, -2)
			// Running is declared once, at the start of the turn.
			fail(t, st, gm, cmd(CmdRun, "brak"), fray.EILLEGAL)
		})
	}
}

func TestRunTraitAndTiming(t *testing.T) {
	st := endTurns(t, skirmish(t, nil), "lyra")
	// Lyra has no Athletics (d4−2): the better trait is Agility d6.
	events, _ := do(t, st, gm, cmd(CmdRun, "lyra"), 4, 1)
	eq(t, "default trait", events[0].Rolls[0].Label, "Running (Agility)")
	events, _ = do(t, st, gm, cmd(CmdRun, "lyra", "trait", "athletics"), 4, 1, 2)
	eq(t, "athletics untrained", events[0].Rolls[0].Mod, -2)
	fail(t, st, gm, cmd(CmdRun, "lyra", "trait", "spirit"), fray.EINVALID)
	// After moving it is too late to run.
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z3"))
	fail(t, st, gm, cmd(CmdRun, "lyra"), fray.EILLEGAL)
	fail(t, st, engine.PlayerViewer("brak"), cmd(CmdRun, "lyra"), fray.EFORBIDDEN)
}

// The seed: running "incurs a −2 penalty to all other actions".
func TestRunPenaltyOnEveryOtherAction(t *testing.T) {
	st := skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdRun, "brak"), 4, 2) // +1 MP
	// Fighting d8 6, Wild 1: 6 −2 running = 4 vs Parry 5: miss.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), 6, 1)
	a := one(t, events)
	if v, ok := modValue(a.Mods, "running"); !ok || v != -2 {
		t.Fatalf("mods = %v, want running −2", a.Mods)
	}
	eq(t, "total", a.Total, 6-2-2) // and −2 for the second declared action
	events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 6, 1)
	v, _ := modValue(one(t, events).Mods, "running")
	eq(t, "second action running", v, -2)
	brak, _ := tokenOf(view(st, gm), "brak")
	_, running := conditionOf(brak, "running")
	eq(t, "projected running", running, true)
	eq(t, "projected penalty", statOf(brak, "Running penalty"), "-2")
}

// The seed: "Unspent movement points from very successful rolls can be put
// back towards reducing the penalty" — 1 point per MP, at most 2 ([S] of
// the spec), committed with the first other roll ([I] run-refund).
func TestRunRefundCancelsPenalty(t *testing.T) {
	st := skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdRun, "brak"), 6, 6, 1, 2) // 13: +3 MP, 5 in all
	eq(t, "MP", st.Fighters["brak"].MP, 5)
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", 3), fray.EILLEGAL) // at most 2
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", -1), fray.EINVALID)
	// Two MP given up: the penalty is gone. Fighting 7, Wild 1, −2 for two
	// actions = 5 vs 5: hit; damage 1+1.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2, "spare", 2), 7, 1, 1, 1)
	if got := kinds(events)[:2]; !slices.Equal(got, []string{KindRefund, KindAttack}) {
		t.Fatalf("events = %v", kinds(events))
	}
	a := one(t, events)
	if _, ok := modValue(a.Mods, "running"); ok {
		t.Fatalf("mods = %v: the running penalty should be cancelled", a.Mods)
	}
	eq(t, "MP", st.Fighters["brak"].MP, 3)
	eq(t, "refund", st.Fighters["brak"].Refund, 2)
	// Committed with the first roll: nothing more may be given up.
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", 1), fray.EILLEGAL)
	events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 1, 2)
	if _, ok := modValue(one(t, events).Mods, "running"); ok {
		t.Fatal("the cancelled penalty came back on the second action")
	}

	// Only one MP given up: −1.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdRun, "brak"), 4, 2) // 3 MP
	events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", 1), 2, 2)
	v, _ := modValue(one(t, events).Mods, "running")
	eq(t, "one MP back", v, -1)

	// Without Running there is nothing to give up.
	fail(t, skirmish(t, nil), gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", 1), fray.EILLEGAL)
}

func TestRunRefundAnyRoll(t *testing.T) {
	st := skirmish(t, map[string]string{OptRunRefund: RefundAnyRoll})
	_, st = do(t, st, gm, cmd(CmdRun, "brak"), 6, 6, 1, 2) // 5 MP
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 3, "spare", 1), 2, 2)
	v, _ := modValue(one(t, events).Mods, "running")
	eq(t, "first", v, -1)
	events, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", 1), 2, 2)
	if _, ok := modValue(one(t, events).Mods, "running"); ok {
		t.Fatal("two MP given up should cancel the penalty")
	}
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "spare", 1), fray.EILLEGAL) // 2 at most
}

// The seed: "Rising from Prone places a −2 penalty on any Running rolls
// taken on the same turn." Rising is free ([I] rise-cost).
func TestRiseThenRun(t *testing.T) {
	st := skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdProne, "brak"))
	eq(t, "prone", st.Fighters["brak"].Prone, true)
	fail(t, st, gm, cmd(CmdRun, "brak"), fray.EILLEGAL)       // prone: rise first
	fail(t, st, gm, cmd(CmdDisengage, "brak"), fray.EILLEGAL) // likewise
	fail(t, st, gm, cmd(CmdProne, "brak"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdRise, "brak"))
	eq(t, "MP after rising", st.Fighters["brak"].MP, 2)
	// Agility 5, Wild 1, −2 = 3: failure.
	events, st := do(t, st, gm, cmd(CmdRun, "brak"), 5, 1)
	var r Run
	decodeOne(t, events, KindRun, &r)
	if v, ok := modValue(r.Mods, "rose from prone"); !ok || v != -2 {
		t.Fatalf("mods = %v", r.Mods)
	}
	eq(t, "total", r.Total, 3)
	eq(t, "gained", r.Gained, 0)
	fail(t, st, gm, cmd(CmdRise, "brak"), fray.EILLEGAL)

	// rise-cost 1: standing up costs a Movement point.
	st = skirmish(t, map[string]string{OptRiseCost: "1"})
	_, st = do(t, st, gm, cmd(CmdProne, "brak"))
	_, st = do(t, st, gm, cmd(CmdRise, "brak"))
	eq(t, "MP after a 1 MP rise", st.Fighters["brak"].MP, 1)
}

// Prone: −2 to Fighting and Parry; shots from another zone treat a prone
// target as Medium cover.
func TestProneModifiers(t *testing.T) {
	st := skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdProne, "brak"))
	// Prone brak attacks: Fighting 6, Wild 1, −2 = 4 vs 5: miss.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 6, 1)
	if v, ok := modValue(one(t, events).Mods, "prone"); !ok || v != -2 {
		t.Fatalf("mods = %v", one(t, events).Mods)
	}
	st = endTurns(t, st, "gob1")
	// gob1 attacks prone brak: Parry 6 −2 = 4; 3 +1 gang-up = 4: hit; damage 1+1.
	events, _ = do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), 3, 1, 1)
	a := one(t, events)
	eq(t, "TN", a.TN, 4)
	eq(t, "result", a.Result, "hit")

	// Shooting at a prone target: from the same zone no modifier, from
	// another zone Medium cover (−4 SWADE, −2 SWD), or always with
	// prone-shots "always".
	for _, tc := range []struct {
		opts    map[string]string
		target  string
		penalty int
	}{
		{nil, "ga", 0},
		{nil, "gb", -4},
		{map[string]string{OptEdition: EditionSWD}, "gb", -2},
		{map[string]string{OptProneShots: ProneAlways}, "ga", -4},
	} {
		st := shooting(t, tc.opts, nil)
		st.Fighters[tc.target].Prone = true
		events, _ := do(t, st, gm, cmd(CmdShoot, "doc", "target", tc.target, "weapon", "derringer"), 1, 2)
		v, _ := modValue(one(t, events).Mods, "prone target (as Medium cover)")
		eq(t, tc.target+" prone penalty", v, tc.penalty)
	}
}

// The seed: "Disengaging costs the character 1 Movement, but the character
// can then make a Running Roll to keep moving during the same action."
func TestDisengageThenRun(t *testing.T) {
	st := skirmish(t, nil)
	// Two non-Shaken opponents: two free attacks (2 and 3, +1 gang-up, vs
	// Parry 6: misses); then Agility 6+2 = 8, Wild 1: a raise, +2 MP.
	events, st := do(t, st, gm, cmd(CmdDisengage, "brak", "run", true), 2, 3, 6, 2, 1)
	if got, want := kinds(events), []string{KindAttack, KindAttack, KindDisengaged, KindRun}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	var r Run
	decodeOne(t, events, KindRun, &r)
	eq(t, "mid-action", r.Mid, true)
	eq(t, "gained", r.Gained, 2)
	eq(t, "MP", st.Fighters["brak"].MP, 2-1+2)
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z3"))
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z4"))
	eq(t, "three zones on", st.Fighters["brak"].Zone, "z4")
	fail(t, st, gm, cmd(CmdRun, "brak"), fray.EILLEGAL)
}

// The seed: "A character may take the Defend option (+2 Parry) while
// retreating from combat, but won't be able to perform other actions that
// round besides the running roll."
func TestDisengageDefendingThenRun(t *testing.T) {
	st := skirmish(t, nil)
	// Free attacks 5 and 4, +1 gang-up, vs Parry 6 +2: misses. Agility 4, Wild 1: +1 MP.
	events, st := do(t, st, gm, cmd(CmdDisengage, "brak", "defend", true, "run", true), 5, 4, 4, 1)
	for _, a := range attacks(t, events) {
		eq(t, "TN", a.TN, 8)
	}
	eq(t, "ran", st.Fighters["brak"].Ran, true)
	eq(t, "MP", st.Fighters["brak"].MP, 2)
	fail(t, st, gm, cmd(CmdShoot, "brak", "target", "gob3", "weapon", "pistol"), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdDefend, "brak"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	eq(t, "moved on", st.Fighters["brak"].Zone, "z2")

	// Running already made: no second Running roll after disengaging.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdRun, "brak"), 2, 2)
	fail(t, st, gm, cmd(CmdDisengage, "brak", "run", true), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdDisengage, "brak", "trait", "agility"), fray.EINVALID)
}

// A player's failed Running roll may be rerolled with a Benny.
func TestRunReroll(t *testing.T) {
	st := skirmish(t, map[string]string{OptRerollOffers: OffersPCs})
	events, st := do(t, st, gm, cmd(CmdRun, "brak"), 2, 3)
	if got := kinds(events); !slices.Equal(got, []string{KindRun, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	d := pendingKind(t, st, DecReroll)
	eq(t, "for", d.For, "brak")
	eq(t, "prompt", d.Prompt, "Brak failed the Running roll (3). Reroll with a Benny? (3 left)")
	fail(t, st, engine.PlayerViewer("lyra"), engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": "reroll"}), fray.EFORBIDDEN)
	fail(t, st, gm, cmd(CmdEndTurn, "brak"), fray.EPENDING)
	// Brak's player answers: Agility 6+1 = 7, Wild 2: +1 MP.
	events, st = answer(t, st, engine.PlayerViewer("brak"), DecReroll, "reroll", 6, 1, 2)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindBennySpent, KindRun}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "bennies", st.Fighters["brak"].Bennies, 2)
	eq(t, "MP", st.Fighters["brak"].MP, 3)
	// A Critical Failure may not be rerolled.
	st = skirmish(t, map[string]string{OptRerollOffers: OffersPCs})
	events, _ = do(t, st, gm, cmd(CmdRun, "brak"), 1, 1)
	eq(t, "no offer after a critical failure", len(events), 1)
}
