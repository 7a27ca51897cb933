package swzones

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// holdFight: zones z1–z2–z3; brak and lyra (Wild Card PCs) in z1, gob (an
// Extra) in z2, gob2 in z3. Cards: gob, brak, lyra, gob2. gob holds at once,
// so it is brak's turn.
func holdFight(t *testing.T, opts map[string]string) *State {
	t.Helper()
	setup := newSetup(opts, chain(3, nil),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true},
		spec{ID: "lyra", Side: "heroes", Zone: "z1", WC: true, PC: true},
		spec{ID: "gob", Side: "goblins", Zone: "z2"},
		spec{ID: "gob2", Side: "goblins", Zone: "z3"},
	)
	_, st := startWith(t, newState(t, setup), []string{"K♠", "Q♠", "A♠", "J♠"})
	events, st := do(t, st, gm, cmd(CmdHold, "gob"))
	if got := kinds(events); !slices.Equal(got, []string{KindHeld, engine.KindTurnStarted}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "brak's turn", st.Current(), "brak")
	eq(t, "gob holds", st.Fighters["gob"].Hold, true)
	return st
}

// The seed: "Holding your action to interrupt his movement is a great way
// to prevent him from getting too far!" Every Movement step asks the
// opponents on Hold.
func TestInterruptMovementHolderFirst(t *testing.T) {
	st := holdFight(t, nil)
	events, st := do(t, st, engine.PlayerViewer("brak"), cmd(CmdMove, "brak", "to", "z2"))
	eq(t, "only the question", strings.Join(kinds(events), " "), engine.KindDecisionOpened)
	d := pendingKind(t, st, DecInterrupt)
	eq(t, "for", d.For, "gob")
	eq(t, "prompt", d.Prompt, "Interrupt Brak leaving Zone 1 for Zone 2?")
	eq(t, "options", optionValues(d), "interrupt pass")
	eq(t, "brak has not moved", st.Fighters["brak"].Zone, "z1")
	// The GM interrupts: opposed Agility, gob 5 against brak 3 (Wild 2): gob first.
	events, st = answer(t, st, gm, DecInterrupt, "interrupt", 5, 3, 2)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindContest, engine.KindInterruptStarted}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "gob acts", st.Current(), "gob")
	eq(t, "gob's MP", st.Fighters["gob"].MP, 2)
	eq(t, "hold used", st.Fighters["gob"].Hold, false)
	eq(t, "shown", factOf(view(st, engine.PlayerViewer("brak")), "Interrupting"), "Gob interrupts Brak")
	fail(t, st, gm, cmd(CmdMove, "brak", "to", "z2"), fray.ENOTYOURTURN)
	// Gob runs into z1 and engages brak: the seed's block.
	_, st = do(t, st, gm, cmd(CmdMove, "gob", "to", "z1"))
	_, st = do(t, st, gm, cmd(CmdEngage, "gob", "target", "brak"))
	events, st = do(t, st, gm, cmd(CmdEndTurn, "gob"))
	if got := kinds(events); !slices.Equal(got, []string{KindTurnEnded, engine.KindInterruptEnded, KindBlocked}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "blocked", events[2].Text, "Brak cannot move: Brak is in a melee: disengage first.")
	eq(t, "back to brak", st.Current(), "brak")
	eq(t, "brak keeps his Movement", st.Fighters["brak"].MP, 2)
	eq(t, "gob's ledger closed", st.Fighters["gob"].MP, 0)
	// Brak goes on with his turn.
	_, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob", "weapon", "sword"), 1, 2)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "brak"))
	eq(t, "then lyra", st.Current(), "lyra")
}

func TestInterruptMovementMoverFirst(t *testing.T) {
	st := holdFight(t, nil)
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	// gob 2 against brak 5: brak completes the step, then gob acts.
	events, st := answer(t, st, gm, DecInterrupt, "interrupt", 2, 5, 1)
	if got := kinds(events); !slices.Equal(got, []string{engine.KindDecisionResolved, KindContest, KindMoved, engine.KindInterruptStarted}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "brak moved", st.Fighters["brak"].Zone, "z2")
	eq(t, "gob acts", st.Current(), "gob")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "gob"))
	eq(t, "back to brak", st.Current(), "brak")
	eq(t, "brak's MP", st.Fighters["brak"].MP, 1)
}

func TestInterruptWindowPass(t *testing.T) {
	st := holdFight(t, nil)
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	events, st := answer(t, st, gm, DecInterrupt, "pass")
	eq(t, "moved", strings.Join(kinds(events), " "), engine.KindDecisionResolved+" "+KindMoved)
	eq(t, "gob still holds", st.Fighters["gob"].Hold, true)
	// Engaging is a step too.
	_, st = do(t, st, gm, cmd(CmdEngage, "brak", "target", "gob"))
	eq(t, "engage prompt", pendingKind(t, st, DecInterrupt).Prompt, "Interrupt Brak before they engage Gob?")

	// interrupt-windows off: no question; interrupt-contest holder: no roll.
	st = holdFight(t, map[string]string{OptInterruptWindows: Off})
	events, _ = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	eq(t, "no window", strings.Join(kinds(events), " "), KindMoved)
	st = holdFight(t, map[string]string{OptInterruptContest: ContestHolder})
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	events, _ = answer(t, st, gm, DecInterrupt, "interrupt")
	eq(t, "holder first", strings.Join(kinds(events), " "), engine.KindDecisionResolved+" "+engine.KindInterruptStarted)
}

// Hold and interrupt between commands; the interrupted turn carries on
// where it stopped.
func TestHoldAndInterruptBetweenCommands(t *testing.T) {
	st := holdFight(t, nil)
	fail(t, st, gm, cmd(CmdInterrupt, "lyra"), fray.EILLEGAL) // not holding
	_, st = do(t, st, gm, cmd(CmdRun, "brak"), 4, 1)          // 3 MP
	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	_, st = answer(t, st, gm, DecInterrupt, "pass")
	// Gob acts now, between brak's commands.
	events, st := do(t, st, gm, cmd(CmdInterrupt, "gob"))
	eq(t, "interrupt", strings.Join(kinds(events), " "), engine.KindInterruptStarted)
	eq(t, "gob's turn", st.Current(), "gob")
	fail(t, st, gm, cmd(CmdHold, "gob"), fray.EILLEGAL) // an interruption cannot be held
	// Fighting 1: gob engages and misses brak.
	_, st = do(t, st, gm, cmd(CmdEngage, "gob", "target", "brak"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "gob"))
	eq(t, "brak again", st.Current(), "brak")
	b := st.Fighters["brak"]
	eq(t, "brak's Movement kept", b.MP, 2)
	eq(t, "brak still ran", b.Ran, true)
}

func TestHoldRules(t *testing.T) {
	st := holdFight(t, nil)
	_, st2 := do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	_, st2 = answer(t, st2, gm, DecInterrupt, "pass")
	fail(t, st2, gm, cmd(CmdHold, "brak"), fray.EILLEGAL) // too late: he moved
	fail(t, st, engine.PlayerViewer("brak"), cmd(CmdInterrupt, "gob"), fray.EFORBIDDEN)
	eq(t, "gob may interrupt", strings.Contains(kindsOf(New().Actions(st, gm)), CmdInterrupt), true)

	// A fighter on Hold at a new round keeps it and is not dealt in: he has
	// no place in the order and acts by interrupting.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "brak"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "lyra"))
	faces := dealFaces(st.Deck.Remaining, "A♥", "K♥", "Q♥")
	events, st := do(t, st, gm, cmd(CmdEndTurn, "gob2"), faces...)
	var deal CardsDealt
	decodeOne(t, events, KindCardsDealt, &deal)
	if _, dealt := deal.Cards["gob"]; dealt {
		t.Fatal("a fighter on Hold was dealt a card")
	}
	eq(t, "order", strings.Join(st.Order, " "), "brak lyra gob2")
	eq(t, "still holding", st.Fighters["gob"].Hold, true)

	// Being Shaken ends the Hold: lyra shoots gob (Shooting 5, Wild 1, Short
	// range: hit; 2d6 4+1 vs 5).
	st = endTurns(t, st, "lyra")
	_, st = do(t, st, gm, cmd(CmdShoot, "lyra", "target", "gob", "weapon", "pistol"), 5, 1, 4, 1)
	eq(t, "shaken", st.Fighters["gob"].Shaken, true)
	eq(t, "hold lost", st.Fighters["gob"].Hold, false)
}

// If everyone left is on Hold when a round begins, they all lose it.
func TestEveryoneHolding(t *testing.T) {
	setup := newSetup(nil, chain(2, nil),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true},
		spec{ID: "gob", Side: "goblins", Zone: "z2"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "K♠"})
	_, st = do(t, st, gm, cmd(CmdHold, "brak"))
	faces := dealFaces(st.Deck.Remaining, "A♥", "K♥")
	events, st := do(t, st, gm, cmd(CmdHold, "gob"), faces...)
	eq(t, "both lose it", len(find(events, KindHoldLost)), 2)
	eq(t, "dealt in", len(st.Order), 2)
	eq(t, "brak's turn", st.Current(), "brak")
}
