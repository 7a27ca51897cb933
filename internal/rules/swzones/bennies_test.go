package swzones

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

var soakOn = map[string]string{OptSoakOffers: OffersAll}

// gob1 hits brak for two wounds: Fighting 5 +1 gang-up = 6 vs Parry 6, a
// hit; damage Str d6 6+4 + sword d6 4 = 14 vs Toughness 6: two raises.
func twoWoundsOnBrak(t *testing.T, opts map[string]string) ([]engine.Event, *State) {
	t.Helper()
	st := endTurns(t, skirmish(t, opts), "gob1")
	return do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), 5, 6, 4, 4)
}

func TestSoakCancelsEveryWound(t *testing.T) {
	events, st := twoWoundsOnBrak(t, soakOn)
	if got := kinds(events); !slices.Equal(got, []string{KindAttack, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	a := one(t, events)
	eq(t, "deferred", a.Damage.Deferred, true)
	eq(t, "text", events[0].Text, "Gob1 attacks Brak with Sword: hit; 14 damage against Toughness 6 — Brak would take 2 wounds.")
	eq(t, "nothing applied yet", st.Fighters["brak"].Wounds, 0)
	d := pendingKind(t, st, DecSoak)
	eq(t, "for", d.For, "brak")
	eq(t, "prompt", d.Prompt, "Soak 2 wounds with a Benny? (3 left)")
	eq(t, "options", optionValues(d), "soak take")
	// Brak's player soaks: Vigor d8 8+1 = 9, Wild 2: a raise, both wounds cancelled.
	events, st = answer(t, st, engine.PlayerViewer("brak"), DecSoak, "soak", 8, 1, 2)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindSoak, KindHarm}) {
		t.Fatalf("events = %v", got)
	}
	var s Soak
	decodeOne(t, events, KindSoak, &s)
	eq(t, "soaked", s.Soaked, 2)
	eq(t, "pool", s.Pool, PoolOwn)
	b := st.Fighters["brak"]
	eq(t, "wounds", b.Wounds, 0)
	eq(t, "every wound soaked: not Shaken either", b.Shaken, false)
	eq(t, "bennies", b.Bennies, 2)
	eq(t, "still gob1's turn", st.Current(), "gob1")
}

func TestSoakPartialRerollAndTake(t *testing.T) {
	_, st := twoWoundsOnBrak(t, soakOn)
	// Vigor 5, Wild 1: one wound cancelled; another Benny is offered.
	events, st := answer(t, st, engine.PlayerViewer("brak"), DecSoak, "soak", 5, 1)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindSoak, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "prompt", pendingKind(t, st, DecSoak).Prompt, "Still 1 wound: reroll the Soak with another Benny? (2 left)")
	// Reroll: Vigor 2, Wild 3: nothing; the best (1) stands. Asked again; he takes it.
	_, st = answer(t, st, engine.PlayerViewer("brak"), DecSoak, "soak", 2, 3)
	events, st = answer(t, st, engine.PlayerViewer("brak"), DecSoak, "take")
	var h HarmDone
	decodeOne(t, events, KindHarm, &h)
	eq(t, "soaked", h.Harm.Soaked, 1)
	eq(t, "wounds", h.Harm.Wounds, 1)
	b := st.Fighters["brak"]
	eq(t, "wounds", b.Wounds, 1)
	eq(t, "shaken", b.Shaken, true)
	eq(t, "bennies", b.Bennies, 1)
	eq(t, "log", events[len(events)-1].Text, "Brak soaks 1 wound: 1 wound.")
}

func TestSoakDeclined(t *testing.T) {
	_, st := twoWoundsOnBrak(t, soakOn)
	events, st := answer(t, st, gm, DecSoak, "take")
	eq(t, "events", strings.Join(kinds(events), " "), engine.KindDecisionResolved+" "+KindHarm)
	eq(t, "wounds", st.Fighters["brak"].Wounds, 2)
	eq(t, "bennies", st.Fighters["brak"].Bennies, 3)
}

// A Soak can save a Wild Card from incapacitation.
func TestSoakPreventsIncapacitation(t *testing.T) {
	st := endTurns(t, skirmish(t, soakOn), "gob1")
	st.Fighters["brak"].Wounds = 3
	// gob1: 5 +1 = 6 vs 6: hit; damage 6+4 + 1 = 11 vs 6: one raise, a fourth wound.
	_, st = do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), 5, 6, 4, 1)
	eq(t, "prompt", pendingKind(t, st, DecSoak).Prompt, "Soak 1 wound (incapacitating) with a Benny? (3 left)")
	// Vigor 7, Wild 1, −3 wounds = 4: one wound soaked.
	events, st := answer(t, st, gm, DecSoak, "soak", 7, 1)
	eq(t, "events", strings.Join(kinds(events), " "), engine.KindDecisionResolved+" "+KindSoak+" "+KindHarm)
	eq(t, "in the fight", st.Combatant("brak").Out, false)
	eq(t, "wounds", st.Fighters["brak"].Wounds, 3)
	eq(t, "Shaken from before? no: still as before", st.Fighters["brak"].Shaken, false)
}

// soak-offers "pcs" and "off"; Extras have no Bennies (extras-bennies).
func TestSoakOfferOptions(t *testing.T) {
	events, _ := twoWoundsOnBrak(t, map[string]string{OptSoakOffers: OffersOff})
	eq(t, "off: applied at once", one(t, events).Damage.Deferred, false)
	st := skirmish(t, map[string]string{OptSoakOffers: OffersAll})
	// Brak hits gob1 hard: Fighting 8+2, Wild 1 = 10 vs 5: a raise; 8+1 +5 +3 = 17 vs 5.
	events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 8, 2, 1, 8, 1, 5, 3)
	eq(t, "an Extra is not asked", strings.Join(kinds(events), " "), KindAttack+" "+engine.KindCombatantOut)
}

// The GM may not spend Bennies against a player's Critical Success: an NPC
// may not Soak a PC's attack with a raise ([I] gm-benny-limit).
func bossFight(t *testing.T, opts map[string]string) *State {
	t.Helper()
	setup := newSetup(opts, chain(2, nil, []string{"z1", "brak", "boss"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true,
			Attr: map[string]string{"strength": "d8"}, Skills: map[string]string{"fighting": "d8"}},
		spec{ID: "boss", Side: "goblins", Zone: "z1", WC: true, Bennies: intp(0)},
		spec{ID: "gob", Side: "goblins", Zone: "z2"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "K♠", "Q♠"})
	return st
}

func TestNoSoakAgainstAPlayersCriticalSuccess(t *testing.T) {
	// Fighting 8+2 = 10, Wild 1 vs Parry 5: a raise. Damage 6 + 3 + raise 1 = 10 vs 5: a wound.
	st := bossFight(t, map[string]string{OptSoakOffers: OffersAll})
	eq(t, "GM pool: one per PC", st.GMBennies, 1)
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "boss", "weapon", "sword"), 8, 2, 1, 6, 3, 1)
	eq(t, "not offered", len(find(events, engine.KindDecisionOpened)), 0)
	eq(t, "wounded", st.Fighters["boss"].Wounds, 1)

	// Without a raise the boss may Soak, with the GM's Benny (his own are gone).
	st = bossFight(t, map[string]string{OptSoakOffers: OffersAll})
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "boss", "weapon", "sword"), 5, 1, 6, 4)
	d := pendingKind(t, st, DecSoak)
	eq(t, "for", d.For, "boss")
	fail(t, st, engine.PlayerViewer("brak"), answerCmd(d.ID, "soak"), fray.EFORBIDDEN)
	events, st = answer(t, st, gm, DecSoak, "soak", 4, 1)
	var s Soak
	decodeOne(t, events, KindSoak, &s)
	eq(t, "pool", s.Pool, PoolGM)
	eq(t, "GM pool", st.GMBennies, 0)
	eq(t, "soaked", st.Fighters["boss"].Wounds, 0)

	// gm-benny-limit two-raises: one raise is not a Critical Success.
	st = bossFight(t, map[string]string{OptSoakOffers: OffersAll, OptGMBennyLimit: LimitTwoRaises})
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "boss", "weapon", "sword"), 8, 2, 1, 6, 3, 1)
	eq(t, "offered", pendingKind(t, st, DecSoak).For, "boss")
}

func answerCmd(decision, choice string) engine.Command {
	return engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": decision, "choice": choice})
}

// A player's failed attack may be rerolled with a Benny, never a Critical
// Failure; the action counts once.
func TestRerollFailedAttack(t *testing.T) {
	st := skirmish(t, map[string]string{OptRerollOffers: OffersPCs})
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 1)
	eq(t, "offered", strings.Join(kinds(events), " "), KindAttack+" "+engine.KindDecisionOpened)
	d := pendingKind(t, st, DecReroll)
	eq(t, "prompt", d.Prompt, "Brak missed. Reroll with a Benny? (3 left)")
	eq(t, "for", d.For, "brak")
	// Fighting 6, Wild 1: hit; damage 1+1.
	events, st = answer(t, st, engine.PlayerViewer("brak"), DecReroll, "reroll", 6, 1, 1, 1)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindBennySpent, KindAttack}) {
		t.Fatalf("events = %v", got)
	}
	a := one(t, events)
	eq(t, "reroll", a.Reroll, true)
	eq(t, "result", a.Result, "hit")
	eq(t, "text", events[2].Text[:7], "Reroll:")
	b := st.Fighters["brak"]
	eq(t, "one action", b.Actions, 1)
	eq(t, "bennies", b.Bennies, 2)
	fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), fray.EILLEGAL)

	// Keep: nothing more happens.
	st = skirmish(t, map[string]string{OptRerollOffers: OffersPCs})
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 1)
	events, st = answer(t, st, gm, DecReroll, "keep")
	eq(t, "kept", len(events), 1)
	eq(t, "bennies", st.Fighters["brak"].Bennies, 3)

	// A Critical Failure is not offered.
	st = skirmish(t, map[string]string{OptRerollOffers: OffersPCs})
	events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 1, 1)
	eq(t, "critical failure", strings.Join(kinds(events), " "), KindAttack)

	// Extras and NPCs are not asked under "pcs"; under "all" an NPC Wild
	// Card is, with the GM's Bennies.
	st = bossFight(t, map[string]string{OptRerollOffers: OffersAll})
	st = endTurns(t, st, "boss")
	events, st = do(t, st, gm, cmd(CmdFight, "boss", "target", "brak", "weapon", "sword"), 1, 2)
	eq(t, "NPC asked", pendingKind(t, st, DecReroll).For, "boss")
	_, st = answer(t, st, gm, DecReroll, "reroll", 1, 2)
	eq(t, "GM pool spent", st.GMBennies, 0)
}

func TestUnshakeFromTheGMPool(t *testing.T) {
	st := bossFight(t, nil)
	st.Fighters["boss"].Shaken = true
	_, st = do(t, st, gm, cmd(CmdUnshake, "boss"))
	eq(t, "GM pool", st.GMBennies, 0)
	eq(t, "not shaken", st.Fighters["boss"].Shaken, false)
	st.Fighters["gob"].Shaken = true
	fail(t, st, gm, cmd(CmdUnshake, "gob"), fray.EILLEGAL) // an Extra, and the pool is empty anyway
	eq(t, "GM sees the pool", factOf(view(st, gm), "GM Bennies"), "0")

	st = bossFight(t, map[string]string{OptExtrasBennies: Yes, OptGMBennies: "3"})
	eq(t, "gm-bennies 3", st.GMBennies, 3)
	st.Fighters["gob"].Shaken = true
	_, st = do(t, st, gm, cmd(CmdUnshake, "gob"))
	eq(t, "an Extra with the GM's Benny", st.GMBennies, 2)
}

// Bleeding Out: a Vigor roll at the start of every round; failure dies,
// success stabilises (bleeding-out "raise": only a raise).
func TestBleedingOut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   map[string]string
		vigor  []int
		status string
	}{
		{"failure dies", nil, []int{5, 1}, "dead"},         // 5 −3 = 2
		{"success stabilises", nil, []int{7, 1}, "stable"}, // 7 −3 = 4
		{"raise rule: success bleeds on", map[string]string{OptBleedingOut: BleedRaise}, []int{7, 1}, "bleeding out"},
		{"raise rule: a raise stabilises", map[string]string{OptBleedingOut: BleedRaise}, []int{8, 4, 1}, "stable"}, // 12 −3 = 9
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := endTurns(t, skirmish(t, tc.opts), "gob1")
			st.Fighters["brak"].Wounds = 3
			// gob1 incapacitates brak (as in TestWildCardIncapacitationRoll): Vigor 3 −3: bleeding out.
			_, st = do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), 5, 6, 4, 1, 3, 2)
			eq(t, "bleeding", st.Fighters["brak"].Status, "bleeding out")
			st = endTurns(t, st, "gob3")
			faces := append(dealFaces(st.Deck.Remaining, "2♠", "3♠", "4♠", "5♠"), tc.vigor...)
			events, st := do(t, st, gm, cmd(CmdEndTurn, "gob3"), faces...)
			var b Bleeding
			decodeOne(t, events, KindBleeding, &b)
			eq(t, "status", b.Status, tc.status)
			eq(t, "state", st.Fighters["brak"].Status, tc.status)
			eq(t, "after the deal", slices.Index(kinds(events), KindBleeding) > slices.Index(kinds(events), KindCardsDealt), true)
		})
	}
}

// A Soak in the middle of a disengage: the other free attacks and the
// disengage itself wait for the answer.
func TestSoakDuringFreeAttacks(t *testing.T) {
	st := skirmish(t, soakOn)
	// gob1: 5 +1 = 6 vs 6: hit; 6+4 + 4 = 14 vs 6: two wounds. Soak asked.
	events, st := do(t, st, gm, cmd(CmdDisengage, "brak"), 5, 6, 4, 4)
	if got := kinds(events); !slices.Equal(got, []string{KindAttack, engine.KindDecisionOpened}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "still engaged", st.Fighters["brak"].Melee, "m1")
	// Brak takes them; then gob2's free attack (2 +1: a miss) and the disengage.
	events, st = answer(t, st, engine.PlayerViewer("brak"), DecSoak, "take", 2)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindHarm, KindAttack, KindDisengaged}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "wounds", st.Fighters["brak"].Wounds, 2)
	eq(t, "away", st.Fighters["brak"].Melee, "")
	eq(t, "MP", st.Fighters["brak"].MP, 1)
}

// A decision about a hidden fighter goes to the GM and names no one (the
// engine's one policy, engine.Base.Answerer).
func TestHiddenFighterSoakAskedOfTheGM(t *testing.T) {
	setup := newSetup(soakOn, chain(2, nil, []string{"z1", "brak", "lurker"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true, Attr: map[string]string{"strength": "d8"}},
		spec{ID: "lurker", Side: "goblins", Zone: "z1", WC: true, Hidden: true},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "K♠"})
	// Brak (the GM plays him here) hits: Fighting 5, Wild 1 vs 5; 6+4 = 10 vs 5: a wound.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "lurker", "weapon", "sword"), 5, 1, 6, 4)
	d := pendingKind(t, st, DecSoak)
	eq(t, "asked of", st.Answerer(d), engine.GM)
	opened := find(events, engine.KindDecisionOpened)[0]
	eq(t, "log", opened.Text, "Waiting for the GM: Soak 1 wound with a Benny? (3 left)")
	enginetest.AssertGMAnswers(t, New(), st, events, d, engine.PlayerViewer("brak"))
}
