package d20tactical

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// TestInitiative: d20 + Dexterity once; highest first, ties to the higher
// modifier, then setup order; the order holds every round.
func TestInitiative(t *testing.T) {
	specs := skirmishSetup(nil, nil)
	specs[1].Stats = map[string]any{"abilities": map[string]int{"dex": 14}} // +2
	specs[2].Stats = map[string]any{"initiative": 4}                        // Improved Initiative
	st := newState(t, newSetup(nil, field(20, 10), specs...))
	// ana 12, bo 10 + 2 = 12 (higher modifier first), cy 5 + 4 = 9.
	events, st := start(t, st, 12, 10, 5)
	var in Initiative
	decodeOne(t, events, KindInitiative, &in)
	eq(t, "order", slices.Equal(in.Order, []string{"bo", "ana", "cy"}), true)
	eq(t, "bo's total", in.Totals["bo"], 12)
	eq(t, "rolls recorded", len(find(events, KindInitiative)[0].Rolls), 3)
	eq(t, "bo first", st.Current(), "bo")
	st = nextTurnOf(t, st, "bo")
	eq(t, "round 2, same order", slices.Equal(st.Order, []string{"bo", "ana", "cy"}), true)
	// An exact tie goes by setup order.
	_, st = start(t, newState(t, newSetup(nil, field(20, 10), skirmishSetup(nil, nil)...)), 7, 7, 7)
	eq(t, "setup order", slices.Equal(st.Order, []string{"ana", "bo", "cy"}), true)
}

// TestSurprise: when someone starts surprised, the others act first in a
// surprise round, one action each, in any order; the surprised stay
// flat-footed until their first turn.
func TestSurprise(t *testing.T) {
	specs := skirmishSetup(nil, nil)
	specs[2].Surprised = true
	specs[2].X = 5
	st := newState(t, newSetup(nil, field(20, 10), specs...))
	_, st = start(t, st, 20, 10, 5)
	eq(t, "phase", st.Label, "Surprise round")
	eq(t, "ana and bo act", slices.Equal(st.Acting, []string{"ana", "bo"}), true)
	eq(t, "round", st.Round, 1)
	eq(t, "one action", st.Fighters["ana"].Budget.Single, true)
	// bo acts first (any order): one standard action, and he is done.
	_, st = do(t, st, gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "knife"), 2)
	eq(t, "only ana left", slices.Equal(st.Acting, []string{"ana"}), true)
	// ana shoots the flat-footed cy; bo, who has acted, gets an attack of
	// opportunity for the shot in his reach (2: a miss).
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 2, 2)
	eq(t, "round 2", st.Round, 2)
	eq(t, "phase over", st.Label, "")
	eq(t, "ana's turn", st.Current(), "ana")
	eq(t, "cy still flat-footed", st.Fighters["cy"].FlatFooted, true)
	st = endTurns(t, st, "cy")
	eq(t, "cy acts", st.Fighters["cy"].FlatFooted, false)

	// Flat-footed: no Dexterity bonus to Defense.
	specs = skirmishSetup(nil, nil)
	specs[1].Surprised = true
	specs[1].Stats = map[string]any{"abilities": map[string]int{"dex": 16}}
	_, st = start(t, newState(t, newSetup(map[string]string{OptSurpriseRounds: "2"}, field(20, 10), specs...)), 20, 10, 5)
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), 2)
	eq(t, "no Dexterity when flat-footed", attackOf(t, events).Defense, 10)
	// Two surprise rounds (option): cy still in the surprise.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "cy"))
	eq(t, "second surprise round", st.Label, "Surprise round")
	eq(t, "round", st.Round, 2)
}

// TestDelay: a fighter acts later; the order changes for good.
func TestDelay(t *testing.T) {
	st := skirmish(t, nil)
	fail(t, st, gm, cmd(CmdDelay, "ana", "after", "ana"), "illegal")
	_, st = do(t, st, gm, cmd(CmdDelay, "ana", "after", "cy"))
	eq(t, "order", slices.Equal(st.Order, []string{"bo", "cy", "ana"}), true)
	eq(t, "bo now", st.Current(), "bo")
	st = endTurns(t, st, "ana")
	eq(t, "still round 1", st.Round, 1)
	st = nextTurnOf(t, st, "bo")
	eq(t, "round 2 keeps it", slices.Equal(st.Order, []string{"bo", "cy", "ana"}), true)
	// Only before doing anything.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdPosture, "ana", "to", Crouched))
	fail(t, st, gm, cmd(CmdDelay, "ana", "after", "cy"), "illegal")
	// To the end of the round.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdDelay, "ana", "after", "end"))
	eq(t, "last", st.Order[2], "ana")
}

// TestReady: the standard action spent to act later, at a trigger; the
// readier acts at once (an interruption) and moves just before whoever set
// it off.
func TestReady(t *testing.T) {
	// ana readies an attack for when an opponent moves; cy (at 10,2) moves.
	st := skirmish(t, map[string]string{OptReactionPrompts: PromptPCs})
	_, st = do(t, st, gm, cmd(CmdReady, "ana", "action", "standard", "trigger", TriggerMove))
	eq(t, "turn over", st.Current(), "bo")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "bo"))
	_, st = do(t, st, gm, cmd(CmdMove, "cy", "to", "9,3"))
	d := pendingKind(t, st, DecReady)
	eq(t, "asked ana", d.For, "ana")
	_, st2 := answer(t, st, engine.PlayerViewer("ana"), DecReady, "act", nil)
	eq(t, "ana interrupts", st2.Current(), "ana")
	eq(t, "just before cy", slices.Equal(st2.Order, []string{"bo", "ana", "cy"}), true)
	eq(t, "a standard action", st2.Fighters["ana"].Budget, Budget{Standard: true, Single: true})
	// She shoots (bo, next to her, gets an attack of opportunity: both
	// miss); the floor goes back to cy.
	_, st2 = do(t, st2, engine.PlayerViewer("ana"), cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 2, 3)
	eq(t, "back to cy", st2.Current(), "cy")
	eq(t, "cy still has his standard action", st2.Fighters["cy"].Budget.Standard, true)
	// Waiting instead keeps the readied action.
	_, st2 = answer(t, st, engine.PlayerViewer("ana"), DecReady, "wait", nil)
	eq(t, "still ready", st2.Fighters["ana"].Ready != nil, true)
	// It lapses at her next turn.
	st2 = endTurns(t, st2, "ana")
	eq(t, "lapsed", st2.Fighters["ana"].Ready == nil, true)

	// Readied against an attack: before cy's attack roll.
	st = skirmish(t, nil, at(1, 0, 9), at(2, 5, 2))
	_, st = do(t, st, gm, cmd(CmdReady, "ana", "action", "standard", "trigger", TriggerAttack))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "bo"))
	_, st = do(t, st, gm, cmd(CmdAttack, "cy", "target", "ana", "weapon", "pistol"))
	_, st = answer(t, st, gm, DecReady, "act", nil)
	eq(t, "ana first", st.Current(), "ana")
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 2, 2)
	as := find(events, KindAttack)
	if len(as) != 2 {
		t.Fatalf("want ana's then cy's attack: %v", kinds(events))
	}
	var second AttackRolled
	_ = as[1].Decode(&second)
	eq(t, "cy's shot after", second.Attacker, "cy")
	eq(t, "cy's turn goes on", st.Current(), "cy")

	// "Whenever I choose": an interrupt action between commands.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdReady, "ana", "action", "move", "trigger", TriggerAny))
	acts := New().Actions(st, engine.PlayerViewer("ana"))
	if !slices.ContainsFunc(acts, func(a engine.Action) bool { return a.Kind == CmdInterrupt }) {
		t.Fatalf("no interrupt offered: %+v", acts)
	}
	_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdInterrupt, "ana"))
	eq(t, "ana acts", st.Current(), "ana")
	eq(t, "a move action", st.Fighters["ana"].Budget, Budget{Move: true, Single: true})
	fail(t, st, gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "knife"), "illegal")
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"), 2) // bo, on his turn, gets an attack of opportunity
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	eq(t, "back to bo", st.Current(), "bo")
	fail(t, st, engine.PlayerViewer("ana"), cmd(CmdInterrupt, "ana"), "illegal")
}

// TestAttacksOfOpportunity: leaving a threatened square provokes one
// attack per opponent per round; players are asked; a fall stops the move.
func TestAttacksOfOpportunity(t *testing.T) {
	st := boFirst(t, skirmish(t, nil))
	// Out of bo's reach and back in and out again: only one attack.
	events, st2 := do(t, st, gm, cmd(CmdMove, "ana", "to", "1,2"), 3)
	eq(t, "one aoo", len(find(events, KindAttack)), 1)
	_, st2 = do(t, st2, gm, cmd(CmdMove, "ana", "to", "2,3"))
	events, _ = do(t, st2, gm, cmd(CmdMove, "ana", "to", "0,3"))
	eq(t, "once per round", len(find(events, KindAttack)), 0)

	// Standing up from prone provokes; so does reloading.
	st = boFirst(t, skirmish(t, nil, posture(0, Prone)))
	events, _ = do(t, st, gm, cmd(CmdPosture, "ana", "to", Standing), 2)
	eq(t, "stand up provokes", attackOf(t, events).Free, reactAoO)
	st = boFirst(t, skirmish(t, nil))
	st.Fighters["ana"].Weapon("pistol").Ammo = 3
	events, _ = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "pistol"), 2)
	eq(t, "reload provokes", attackOf(t, events).Free, reactAoO)

	// A player is asked (reaction-prompts "pcs"): ana lets bo go.
	st = skirmish(t, map[string]string{OptReactionPrompts: PromptPCs})
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdMove, "bo", "to", "4,2"))
	d := pendingKind(t, st, DecReaction)
	eq(t, "asked ana", d.For, "ana")
	events, st2 = answer(t, st, engine.PlayerViewer("ana"), DecReaction, "pass", nil)
	eq(t, "no attack", len(find(events, KindAttack)), 0)
	eq(t, "bo moved on", cell(st2.Fighters["bo"]).String(), "4,2")
	// Taking it: an attack that drops him stops his move.
	st.Fighters["bo"].HP = 1
	events, st2 = answer(t, st, engine.PlayerViewer("ana"), DecReaction, "attack", nil, 15, 4)
	eq(t, "bo down", st2.Combatant("bo").Down, true)
	eq(t, "where he fell", cell(st2.Fighters["bo"]).String(), "3,2")
	eq(t, "cy's turn", st2.Current(), "cy")
}

// TestHidden: players never learn of a hidden combatant; attacking gives
// it away (option); its questions go to the GM.
func TestHidden(t *testing.T) {
	specs := skirmishSetup(nil, nil)
	specs[2].Hidden = true
	initial := newState(t, newSetup(nil, field(20, 10), specs...))
	events, st := start(t, initial, 20, 10, 5)
	player := engine.PlayerViewer("ana")
	// Nothing the player receives names cy: not the initiative, not the
	// order, not cy's turn.
	_, st2 := do(t, st, gm, cmd(CmdEndTurn, "ana"))
	ev2, _ := do(t, st2, gm, cmd(CmdEndTurn, "bo"))
	for _, e := range engine.FilterEvents(st, player, append(events, ev2...)) {
		raw, _ := json.Marshal(e)
		if strings.Contains(string(raw), `"cy"`) || strings.Contains(string(raw), "Cy") {
			t.Fatalf("the player learns of cy: %s", raw)
		}
	}
	msg := fail(t, st, player, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), "not_found")
	eq(t, "message", msg, `no combatant "cy"`)
	view := engine.Project(New(), st, player)
	for _, tok := range view.Board.Tokens {
		if tok.ID == "cy" {
			t.Fatal("cy on the player's board")
		}
	}
	for _, a := range view.Actions {
		for _, f := range a.Fields {
			for _, o := range f.Options {
				if o.Value == "cy" {
					t.Fatalf("cy offered in %s", a.Kind)
				}
			}
		}
	}
	// cy shoots ana: revealed first.
	st = endTurns(t, st, "cy")
	events, st2 = do(t, st, gm, cmd(CmdAttack, "cy", "target", "ana", "weapon", "pistol"), 2)
	eq(t, "revealed", st2.Combatant("cy").Hidden, false)
	eq(t, "reveal event", len(find(events, engine.KindRevealed)), 1)
	// Staying hidden (option): the attack is secret.
	st = skirmish(t, map[string]string{OptHiddenAttacks: Stay}, func(s []spec) { s[2].Hidden = true })
	st = endTurns(t, st, "cy")
	events, st2 = do(t, st, gm, cmd(CmdAttack, "cy", "target", "ana", "weapon", "pistol"), 20)
	eq(t, "still hidden", st2.Combatant("cy").Hidden, true)
	eq(t, "secret", find(events, KindAttack)[0].Secret, true)
	eq(t, "the critical's choice goes to the GM", st2.Answerer(pendingKind(t, st2, DecCritical)), "gm")
	enginetest.AssertGMAnswers(t, New(), st2, events, pendingKind(t, st2, DecCritical), player)
}
