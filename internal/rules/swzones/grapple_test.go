package swzones

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The seed: "A simple push is sufficient to remove a character from melee
// (or push him into one!), but a raise on the opposed Strength roll is
// needed to push him to another zone."
func TestPushOutOfMelee(t *testing.T) {
	st := skirmish(t, nil)
	// Brak Strength d8 6, Wild 1 = 6 against gob1's Strength d6 3: the target
	// number is 4 (gob1's 3 is lower), 6 succeeds without a raise.
	events, st := do(t, st, gm, cmd(CmdPush, "brak", "target", "gob1", "into", "out"), 6, 1, 3)
	var p Push
	decodeOne(t, events, KindPush, &p)
	eq(t, "total", p.Total, 6)
	eq(t, "opposed", p.DefTotal, 3)
	eq(t, "TN", p.TN, 4)
	eq(t, "success", p.Success, true)
	eq(t, "raises", p.Raises, 0)
	eq(t, "from", p.From, "m1")
	eq(t, "rolls", len(events[0].Rolls), 2)
	eq(t, "gob1 out of the melee", st.Fighters["gob1"].Melee, "")
	eq(t, "gob1 still in z1", st.Fighters["gob1"].Zone, "z1")
	if !slices.Equal(st.melee("m1").Members, []string{"brak", "gob2"}) {
		t.Fatalf("m1 = %v", st.melee("m1").Members)
	}
	eq(t, "an action", st.Fighters["brak"].Actions, 1)
	eq(t, "no free attacks", len(find(events, KindAttack)), 0)

	// The other's total is the target number: 7 against 7 succeeds, 6 against 7 fails.
	st = skirmish(t, nil)
	events, _ = do(t, st, gm, cmd(CmdPush, "brak", "target", "gob1"), 7, 1, 6, 1)
	decodeOne(t, events, KindPush, &p)
	eq(t, "tie", p.Success, true)
	events, _ = do(t, st, gm, cmd(CmdPush, "brak", "target", "gob1"), 6, 1, 6, 1)
	decodeOne(t, events, KindPush, &p)
	eq(t, "lower", p.Success, false)
}

func TestPushRaiseIntoAnotherZone(t *testing.T) {
	st := skirmish(t, nil)
	// Strength 8+4 = 12, Wild 1 against 2: two raises. Brak picks the zone.
	events, st := do(t, st, gm, cmd(CmdPush, "brak", "target", "gob1"), 8, 4, 1, 2)
	if got := kinds(events); !slices.Equal(got, []string{KindPush, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	d := pendingKind(t, st, DecPushZone)
	eq(t, "for", d.For, "brak")
	eq(t, "prompt", d.Prompt, "A raise: push Gob1 on into another zone?")
	eq(t, "options", optionValues(d), "z2 stay")
	fail(t, st, engine.PlayerViewer("brak"), answerCmd(d.ID, "z4"), fray.EINVALID)
	events, st = answer(t, st, engine.PlayerViewer("brak"), DecPushZone, "z2")
	var p Pushed
	decodeOne(t, events, KindPushed, &p)
	eq(t, "to", p.To, "z2")
	eq(t, "gob1 in z2", st.Fighters["gob1"].Zone, "z2")
	eq(t, "unengaged", st.Fighters["gob1"].Melee, "")
}

// Pushing an unengaged fighter into a melee; withdrawal free attacks only
// with push-free-attacks "withdraw".
func TestPushIntoMeleeAndFreeAttacks(t *testing.T) {
	setup := newSetup(map[string]string{OptPushFreeAttacks: PushWithdraw}, chain(2, nil, []string{"z1", "brak", "lyra", "gob1", "gob3"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true},
		spec{ID: "lyra", Side: "heroes", Zone: "z1", WC: true},
		spec{ID: "gob1", Side: "goblins", Zone: "z1"},
		spec{ID: "gob2", Side: "goblins", Zone: "z1"},
		spec{ID: "amy", Side: "heroes", Zone: "z1", WC: true},
		spec{ID: "gob3", Side: "goblins", Zone: "z1"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "K♠", "Q♠", "J♠", "10♠", "9♠"})
	// Brak pushes gob1 out (Strength 5, Wild 1 vs 2): lyra, the other
	// opponent of gob1 in the melee, gets a free attack (Fighting 1, Wild 1:
	// a critical failure); gob3 is gob1's ally.
	events, st := do(t, st, gm, cmd(CmdPush, "brak", "target", "gob1", "into", "out"), 5, 1, 2, 1, 1)
	as := attacks(t, events)
	eq(t, "free attacks", len(as), 1)
	eq(t, "by lyra", as[0].Attacker, "lyra")
	eq(t, "why", events[1].Text[:len("As Gob1 is pushed out")], "As Gob1 is pushed out")

	// Amy (unengaged) pushes unengaged gob2 into the melee: 5 vs 1.
	st = endTurns(t, st, "amy")
	fail(t, st, gm, cmd(CmdPush, "amy", "target", "gob2"), fray.EINVALID) // into which melee?
	events, st = do(t, st, gm, cmd(CmdPush, "amy", "target", "gob2", "into", "m1"), 5, 1, 1)
	var p Push
	decodeOne(t, events, KindPush, &p)
	eq(t, "into", p.Into, "m1")
	eq(t, "gob2 engaged", st.Fighters["gob2"].Melee, "m1")
}

func TestPushIllegal(t *testing.T) {
	st := skirmish(t, nil)
	for _, tc := range []struct {
		cmd  engine.Command
		code string
	}{
		{cmd(CmdPush, "brak", "target", "lyra"), fray.EILLEGAL},               // an ally
		{cmd(CmdPush, "brak", "target", "gob3"), fray.EILLEGAL},               // another zone
		{cmd(CmdPush, "brak", "target", "gob1", "into", "m1"), fray.EILLEGAL}, // already there
		{cmd(CmdPush, "brak", "target", "gob1", "into", "m9"), fray.EILLEGAL},
		{cmd(CmdPush, "brak", "target", "gob1", "trait", "agility"), fray.EINVALID},
		{cmd(CmdPush, "gob1", "target", "brak"), fray.ENOTYOURTURN},
	} {
		fail(t, st, gm, tc.cmd, tc.code)
	}
}

// Grappling: opposed Athletics (SWADE) or Fighting (SWD). Success
// Entangles, a raise Binds.
func grappleFight(t *testing.T, opts map[string]string) *State {
	t.Helper()
	setup := newSetup(opts, chain(2, nil, []string{"z1", "brak", "gob1"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true,
			Attr: map[string]string{"strength": "d8"}, Skills: map[string]string{"athletics": "d8", "fighting": "d8"},
			Weapons: []map[string]any{{"id": "wire", "name": "Garrotte", "damage": "Str+d4", "garrotte": true}, {"id": "knife", "name": "Knife", "damage": "Str+d4"}}},
		spec{ID: "gob1", Side: "goblins", Zone: "z1"},
		spec{ID: "gob2", Side: "goblins", Zone: "z2"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "K♠", "Q♠"})
	return st
}

func TestGrappleEntanglesAndBinds(t *testing.T) {
	st := grappleFight(t, nil)
	// Athletics 6, Wild 1 against gob1's untrained Athletics d4−2: 3 −2 = 1. Success.
	events, st := do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1", "with", "hands"), 6, 1, 3)
	var g GrappleDone
	decodeOne(t, events, KindGrapple, &g)
	eq(t, "level", g.Level, Entangled)
	eq(t, "skill", events[0].Rolls[0].Label, "Athletics")
	eq(t, "grip", st.Fighters["gob1"].Grip.Level, Entangled)
	eq(t, "by", st.Fighters["gob1"].Grip.By, "brak")
	gob1, _ := tokenOf(view(st, engine.PlayerViewer("brak")), "gob1")
	grip, _ := conditionOf(gob1, "grip")
	eq(t, "shown", grip.Text, "Entangled by Brak.")

	// gob1, Entangled: no Movement at all, −2 to actions.
	st = endTurns(t, st, "gob1")
	fail(t, st, gm, cmd(CmdDisengage, "gob1"), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdRun, "gob1"), fray.EILLEGAL)
	events, _ = do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), 2)
	v, _ := modValue(one(t, events).Mods, "entangled")
	eq(t, "entangled penalty", v, -2)

	// A raise Binds: Athletics 8+3 = 11 vs 4.
	st = grappleFight(t, nil)
	_, st = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1"), 8, 3, 1, 1)
	eq(t, "bound", st.Fighters["gob1"].Grip.Level, Bound)
	st = endTurns(t, st, "gob1")
	fail(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), fray.EILLEGAL)
	eq(t, "only escape", kindsOf(New().Actions(st, gm)), "hold prone escape drop set-cover end-turn")

	// SWD: opposed Fighting.
	st = grappleFight(t, map[string]string{OptEdition: EditionSWD})
	events, _ = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1"), 6, 1, 3)
	eq(t, "SWD skill", events[0].Rolls[0].Label, "Fighting")
}

func TestEscapeAndBoundTarget(t *testing.T) {
	// Attacks on a Bound fighter get +2: brak declares two actions, binds
	// gob1 (8+3 = 11 −2 = 9 against 1: a raise), then stabs at him.
	st := grappleFight(t, nil)
	_, st = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1", "actions", 2), 8, 3, 1, 1)
	eq(t, "bound", st.Fighters["gob1"].Grip.Level, Bound)
	events, _ := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "knife"), 1, 2)
	v, _ := modValue(one(t, events).Mods, "bound target")
	eq(t, "bound target", v, 2)

	st = endTurns(t, st, "gob1")
	// Strength 5 against brak's Strength 2 (Wild 1): success, Bound → Entangled.
	events, st = do(t, st, gm, cmd(CmdEscape, "gob1", "trait", "strength"), 5, 2, 1)
	var e Escape
	decodeOne(t, events, KindEscape, &e)
	eq(t, "level", e.Level, Entangled)
	eq(t, "grip", st.Fighters["gob1"].Grip.Level, Entangled)
	fail(t, st, gm, cmd(CmdEscape, "gob1", "trait", "vigor"), fray.EINVALID)

	// A raise frees at once.
	st = grappleFight(t, nil)
	_, st = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1"), 8, 3, 1, 1)
	st = endTurns(t, st, "gob1")
	_, st = do(t, st, gm, cmd(CmdEscape, "gob1", "trait", "agility"), 6, 4, 1, 2)
	eq(t, "free", st.Fighters["gob1"].Grip == nil, true)
	fail(t, st, gm, cmd(CmdEscape, "gob1"), fray.EILLEGAL)
}

// The seed's garrotte: a grapple at −4 (The Drop offsets it); once it
// bites, +4 to the grappler's Strength (not Agility) in opposed rolls; the
// victim needs Vigor −4 to speak, a raise to yell.
func TestGarrotte(t *testing.T) {
	st := grappleFight(t, nil)
	// Athletics 6, Wild 1, −4 = 2: fails against 4.
	events, _ := do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1", "with", "wire"), 6, 1, 1)
	var g GrappleDone
	decodeOne(t, events, KindGrapple, &g)
	v, _ := modValue(g.Mods, "garrotte (the throat)")
	eq(t, "garrotte penalty", v, -4)
	eq(t, "fails", g.Success, false)
	// With The Drop (the GM's ruling), +4 offsets it: 6 = success.
	_, st = do(t, st, gm, cmd(CmdDrop, "", "attacker", "brak", "target", "gob1"))
	events, st = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1", "with", "wire"), 6, 1, 1)
	decodeOne(t, events, KindGrapple, &g)
	eq(t, "succeeds", g.Success, true)
	eq(t, "garrotte", st.Fighters["gob1"].Grip.Garrotte, true)

	st = endTurns(t, st, "gob1")
	// Speak: Vigor d6 6+3 = 9 −4 = 5: can speak. Once a turn.
	events, st = do(t, st, gm, cmd(CmdSpeak, "gob1"), 6, 3)
	var sp Speak
	decodeOne(t, events, KindSpeak, &sp)
	eq(t, "speaks", sp.Result, "speaks")
	fail(t, st, gm, cmd(CmdSpeak, "gob1"), fray.EILLEGAL)
	// Escaping by Strength faces brak's +4: 6 against 2 +4 = 6: fails? No:
	// the target number is 6 and 6 meets it. 5 does not.
	events, _ = do(t, st, gm, cmd(CmdEscape, "gob1", "trait", "strength"), 5, 2, 1)
	var e Escape
	decodeOne(t, events, KindEscape, &e)
	eq(t, "garrotte bonus", e.DefTotal, 6)
	eq(t, "fails", e.Success, false)
	// By Agility there is no bonus: 5 against 2.
	events, _ = do(t, st, gm, cmd(CmdEscape, "gob1", "trait", "agility"), 5, 2, 1)
	decodeOne(t, events, KindEscape, &e)
	eq(t, "no bonus", e.DefTotal, 2)
	eq(t, "free", e.Success, true)

	st = grappleFight(t, nil)
	fail(t, st, gm, cmd(CmdSpeak, "brak"), fray.EILLEGAL)
}

func TestGarrotteSpeakResults(t *testing.T) {
	for _, tc := range []struct {
		faces  []int
		result string
	}{{[]int{3}, "silent"}, {[]int{6, 3}, "speaks"}, {[]int{6, 6, 2}, "yells"}} {
		st := grappleFight(t, nil)
		_, st = do(t, st, gm, cmd(CmdDrop, "", "attacker", "brak", "target", "gob1"))
		_, st = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1", "with", "wire"), 6, 1, 1)
		st = endTurns(t, st, "gob1")
		events, _ := do(t, st, gm, cmd(CmdSpeak, "gob1"), tc.faces...)
		var sp Speak
		decodeOne(t, events, KindSpeak, &sp)
		eq(t, "result", sp.Result, tc.result)
	}
}

// A grapple ends when the grappler lets go or leaves the melee; it blocks
// the victim's movement.
func TestGrappleEnds(t *testing.T) {
	st := grappleFight(t, nil)
	// Two actions declared: 6 −2 = 4 against 1: Entangled; again, 6 −2
	// against 1: a second success on his own victim Binds.
	_, st = do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1", "actions", 2), 6, 1, 3)
	_, bound := do(t, st, gm, cmd(CmdGrapple, "brak", "target", "gob1"), 6, 1, 3)
	eq(t, "bound", bound.Fighters["gob1"].Grip.Level, Bound)
	fail(t, bound, gm, cmd(CmdGrapple, "brak", "target", "gob1"), fray.EILLEGAL)
	_, st2 := do(t, st, gm, cmd(CmdRelease, "brak"))
	eq(t, "released", st2.Fighters["gob1"].Grip == nil, true)
	fail(t, st2, gm, cmd(CmdRelease, "brak"), fray.EILLEGAL)
	// Disengaging lets go too (gob1 is not Shaken: one free attack,
	// Fighting 1: a miss).
	_, st3 := do(t, st, gm, cmd(CmdDisengage, "brak"), 1)
	eq(t, "disengaged: released", st3.Fighters["gob1"].Grip == nil, true)
}

// A player's failed push may be rerolled: the defender's roll stands.
func TestPushReroll(t *testing.T) {
	st := skirmish(t, map[string]string{OptRerollOffers: OffersPCs})
	// Strength 2, Wild 1 against gob1's 3: failure. Reroll: 5, Wild 1 ≥ 4: out.
	_, st = do(t, st, gm, cmd(CmdPush, "brak", "target", "gob1"), 2, 1, 3)
	events, st := answer(t, st, engine.PlayerViewer("brak"), DecReroll, "reroll", 5, 1)
	var p Push
	decodeOne(t, events, KindPush, &p)
	eq(t, "reroll", p.Reroll, true)
	eq(t, "defender kept", p.DefTotal, 3)
	eq(t, "one roll rerolled", len(find(events, KindPush)[0].Rolls), 1)
	eq(t, "success", p.Success, true)
	eq(t, "one action", st.Fighters["brak"].Actions, 1)
	eq(t, "out", st.Fighters["gob1"].Melee, "")
}
