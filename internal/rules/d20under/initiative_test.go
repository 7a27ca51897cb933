package d20under

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Initiative (spec c1): Quick → Vigilant → d20; a later slot for good;
// Delay; Take the Initiative; Quick Strike.

// four are d (Quick 13), then a, b, c (Quick 12); b and c share Vigilant
// 11 (a has 10), so only they roll the tie-break d20.
func four(t *testing.T, opts map[string]string) *State {
	t.Helper()
	return newState(t, gridSetup(opts, 12, 6, nil,
		spec{ID: "a", Side: "heroes", PC: true, X: 0, Y: 0, Attr: map[string]int{Quick: 12, Vigilant: 10}, Stats: map[string]any{"xp": 2}},
		spec{ID: "b", Side: "heroes", PC: true, X: 0, Y: 2, Attr: map[string]int{Quick: 12, Vigilant: 11}, Stats: map[string]any{"xp": 1}},
		spec{ID: "c", Side: "foes", X: 10, Y: 0, Attr: map[string]int{Quick: 12, Vigilant: 11}},
		spec{ID: "d", Side: "foes", X: 10, Y: 2, Attr: map[string]int{Quick: 13}},
	))
}

func TestInitiativeQuickVigilantD20(t *testing.T) {
	st := four(t, nil)
	events, st := do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 14)
	init := find(events, KindInitiative)[0]
	if len(init.Rolls) != 2 || init.Rolls[0].Who != "b" || init.Rolls[1].Who != "c" {
		t.Fatalf("only b and c tie: %+v", init.Rolls)
	}
	want := []string{"d", "c", "b", "a"}
	if !slices.Equal(st.Initiative, want) || !slices.Equal(st.Order, want) {
		t.Fatalf("order %v, want %v", st.Order, want)
	}
	eq(t, "phase", st.Phase, PhaseDeclare)
	if len(st.Acting) != 4 {
		t.Fatalf("everyone declares before the first round: %v", st.Acting)
	}
	fail(t, st, gm, cmd(CmdAttack, "d", "target", "a"), fray.EILLEGAL)
	_, st = do(t, st, gm, cmd(GMBegin, ""))
	eq(t, "first", st.Current(), "d")
}

func TestWaitTakesALaterSlotForGood(t *testing.T) {
	st := four(t, nil)
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 14)
	_, st = do(t, st, gm, cmd(GMBegin, ""))
	_, st = do(t, st, gm, cmd(CmdWait, "d", "after", "b"))
	eq(t, "c acts", st.Current(), "c")
	if want := []string{"c", "b", "d", "a"}; !slices.Equal(st.Order, want) || !slices.Equal(st.Initiative, want) {
		t.Fatalf("order %v / fixed %v, want %v", st.Order, st.Initiative, want)
	}
	st = endTurns(t, st, "d")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "d"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "a"))
	eq(t, "round", st.Round, 2)
	if want := []string{"c", "b", "d", "a"}; !slices.Equal(st.Order, want) {
		t.Fatalf("round 2 keeps the chosen slot: %v", st.Order)
	}
	fail(t, st, gm, cmd(CmdWait, "c", "after", "a"), fray.EILLEGAL)
}

func TestDelayIsForOneRound(t *testing.T) {
	st := four(t, nil)
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 14)
	_, st = do(t, st, gm, cmd(GMBegin, ""))
	_, st = do(t, st, gm, cmd(CmdDelay, "d", "after", "b"))
	if want := []string{"c", "b", "d", "a"}; !slices.Equal(st.Order, want) {
		t.Fatalf("round 1: %v", st.Order)
	}
	eq(t, "c acts", st.Current(), "c")
	st = endTurns(t, st, "d")
	fail(t, st, gm, cmd(CmdDelay, "d", "after", "b"), fray.EILLEGAL) // b has acted
	_, st = do(t, st, gm, cmd(CmdEndTurn, "d"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "a"))
	if want := []string{"d", "c", "b", "a"}; !slices.Equal(st.Order, want) {
		t.Fatalf("round 2 is back to normal: %v", st.Order)
	}
}

func TestTakeTheInitiative(t *testing.T) {
	for _, tc := range []struct {
		name  string
		face  int
		order []string
		bonus int
	}{
		// Resolute 10: 10 passes, Quick 12 + 5 = 17 beats d's 13.
		{"passed: +5", 10, []string{"a", "d", "c", "b"}, 5},
		{"failed: no bonus", 11, []string{"d", "c", "b", "a"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := four(t, nil)
			_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 14)
			_, st = do(t, st, engine.PlayerViewer("a"), cmd(CmdTakeInit, "a"))
			events, st := do(t, st, gm, cmd(GMBegin, ""), tc.face)
			r := rollOf(t, events, "Take the Initiative")
			eq(t, "rolled by", r.Who, "a")
			eq(t, "against Resolute", r.Target, 10)
			if !slices.Equal(st.Order, tc.order) {
				t.Fatalf("order %v, want %v", st.Order, tc.order)
			}
			eq(t, "bonus", st.Fighters["a"].InitBonus, tc.bonus)
			eq(t, "hasty either way", st.Fighters["a"].Hasty, true)
			// A second chance to fail every test this round: standing up
			// rolls two dice and keeps the worse.
			st = endTurns(t, st, "a")
			_, st = do(t, st, gm, cmd(GMCondition, "", "combatant", "a", "condition", "prone", "on", true))
			events, st = do(t, st, gm, cmd(CmdStand, "a"), 3, 17)
			r = rollOf(t, events, "Stand up")
			eq(t, "two dice", len(r.Dice), 2)
			eq(t, "keeps the worse", r.Total, 17)
			if _, ok := hasMod(r, "took the initiative"); !ok {
				t.Errorf("the roll card names the source: %+v", r.Mods)
			}
			// The next round, back to the usual place and no second chance.
			st = endTurns(t, st, "d")
			for st.Round < 2 {
				_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
			}
			eq(t, "hasty over", st.Fighters["a"].Hasty, false)
			if st.Order[0] != "d" {
				t.Fatalf("round 2: %v", st.Order)
			}
		})
	}
}

func TestQuickStrike(t *testing.T) {
	st := four(t, nil)
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 14)
	_, st = do(t, st, engine.PlayerViewer("a"), cmd(CmdQuickStrike, "a", "pay", PayXP))
	_, st = do(t, st, engine.PlayerViewer("b"), cmd(CmdQuickStrike, "b", "pay", PayCorruption))
	_, st = do(t, st, gm, cmd(GMBegin, ""))
	// Both strike first, in their usual order: b (tie-break 5) after c…
	// among the strikers b comes before a.
	if want := []string{"b", "a", "d", "c"}; !slices.Equal(st.Order, want) {
		t.Fatalf("order %v, want %v", st.Order, want)
	}
	eq(t, "a paid 1 XP", st.Fighters["a"].XP, 1)
	eq(t, "a's XP spent", st.Fighters["a"].XPSpent, 1)
	eq(t, "b paid 1 permanent Corruption", st.Fighters["b"].Permanent, 1)
	eq(t, "b's Corruption gained", st.Fighters["b"].CorruptionGained, 1)
	// Declared again with the end of a turn, for the next round.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "b"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "a", "next", PlanQuickStrike+":"+PayXP))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "d", "next", PlanTakeInit))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "c"), 20) // d's Resolute test fails
	if want := []string{"a", "d", "c", "b"}; !slices.Equal(st.Order, want) {
		t.Fatalf("round 2: %v", st.Order)
	}
	eq(t, "a has no XP left", st.Fighters["a"].XP, 0)
	msg := fail(t, st, gm, cmd(CmdEndTurn, "a", "next", PlanQuickStrike+":"+PayXP), fray.EILLEGAL)
	if !strings.Contains(msg, "Experience") {
		t.Errorf("message %q", msg)
	}
}

func TestEndTurnBeforeTheFirstRoundIsReady(t *testing.T) {
	st := four(t, nil)
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), 5, 14)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "d"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "c"))
	_, st = do(t, st, engine.PlayerViewer("b"), cmd(CmdEndTurn, "b", "next", PlanQuickStrike+":"+PayXP))
	fail(t, st, gm, cmd(CmdEndTurn, "a", "next", "nap"), fray.EINVALID)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "a"))
	eq(t, "the first round", st.Phase, "")
	eq(t, "b strikes first", st.Current(), "b")
}
