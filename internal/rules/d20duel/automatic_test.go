package d20duel

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestJudgeTest: spec "Black ≤ T passes; the degree is the white die if
// ≤ T"; seed "If the black die comes up 1, the roll is always a success.
// The degree of success is determined by the white die, ignoring the
// Attribute. If the black die comes up 20, the roll is always a failure."
func TestJudgeTest(t *testing.T) {
	for _, tc := range []struct {
		black, white, target int
		passed               bool
		degree               int
		automatic            string
	}{
		{7, 5, 12, true, 5, ""},
		{12, 12, 12, true, 12, ""},
		{7, 15, 12, true, 0, ""},
		{13, 5, 12, false, 5, ""},
		{1, 18, 3, true, 18, "black 1"},   // T 3: only the black 1 passes, and the white 18 is the degree
		{1, 2, -4, true, 2, "black 1"},    // even below 1
		{20, 4, 25, false, 4, "black 20"}, // even above 20
	} {
		got := judgeTest(tc.black, tc.white, tc.target)
		if got.Passed != tc.passed || got.Degree != tc.degree || got.Automatic != tc.automatic {
			t.Errorf("black %d white %d vs %d: %+v", tc.black, tc.white, tc.target, got)
		}
	}
}

// approachDuel is ana and bront apart, in round 1's approach.
func approachDuel(t *testing.T, opts map[string]string) *State {
	t.Helper()
	st := newState(t, newSetup(opts, nil,
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", Stats: brontStats}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	return st
}

// TestTestCommand: a test rolls the black and the white d20 against the
// Attribute with the modifier; automatic results apply.
func TestTestCommand(t *testing.T) {
	st := approachDuel(t, nil)
	// Agility 12 − 4 = 8: the black 1 passes anyway, degree 17.
	events, st := do(t, st, anaPl, cmd(CmdTest, "ana", "attribute", "agility", "modifier", -4, "what", "leap the table"), 1, 17)
	var d TestDone
	if err := find(events, KindTest)[0].Decode(&d); err != nil {
		t.Fatal(err)
	}
	if d.Test.Target != 8 || !d.Test.Passed || d.Test.Degree != 17 || d.Test.Automatic != "black 1" {
		t.Fatalf("test %+v", d.Test)
	}
	r := rollOf(t, events, KindTest, "ana")
	eq(t, "compare", r.Compare, "≤")
	eq(t, "roll target", r.Target, 8)
	if st.IsActing("ana") {
		t.Error("the test did not use Ana's action")
	}
	// The GM rolls for Bront at once: Strength 10 + 10 = 20, black 20
	// fails anyway.
	events, _ = do(t, st, gm, cmd(CmdRollTest, "", "fighter", "bront", "attribute", "strength", "modifier", 10), 20, 3)
	if err := find(events, KindTest)[0].Decode(&d); err != nil || d.Test.Passed || d.Test.Degree != 3 || d.Test.Automatic != "black 20" {
		t.Fatalf("black 20: %+v %v", d.Test, err)
	}
}

// TestVeto: seed "the GM may veto absurd intentions without a roll,
// simply stating that the attempt fails."
func TestVeto(t *testing.T) {
	st := approachDuel(t, map[string]string{OptVeto: VetoAsk})
	test := cmd(CmdTest, "ana", "attribute", "strength", "modifier", 0, "what", "lift the castle")
	events, vetoed := do(t, st, anaPl, test)
	d := pendingFor(t, vetoed, DecVeto, engine.GM)
	if len(find(events, KindTest)) != 0 || d.Default != VetoRoll {
		t.Fatalf("the test rolled before the GM allowed it: %v", kinds(events))
	}
	events, after := answer(t, vetoed, gm, DecVeto, engine.GM, VetoFail, nil)
	if len(find(events, KindVetoed)) != 1 || len(find(events, KindTest)) != 0 || after.IsActing("ana") {
		t.Fatalf("veto: %v, ana acting %v", kinds(events), after.IsActing("ana"))
	}
	// Allowed, it rolls.
	events, _ = answer(t, vetoed, gm, DecVeto, engine.GM, VetoRoll, nil, 5, 6)
	if len(find(events, KindTest)) != 1 {
		t.Fatalf("allowed: %v", kinds(events))
	}
	// The GM's own test is not put to a vote.
	events, _ = do(t, st, gm, test, 5, 6)
	if len(find(events, KindTest)) != 1 {
		t.Fatalf("the GM's test: %v", kinds(events))
	}
	fail(t, st, anaPl, cmd(CmdTest, "ana", "attribute", "luck"), fray.EINVALID)
	fail(t, st, anaPl, cmd(CmdTest, "ana", "attribute", "agility", "modifier", 11), fray.EINVALID)
}

// TestAutomaticAttacks: the black die's automatic results in attack rolls
// (option automatic-attacks, on by default): black 1 hits with the white
// die, whatever the window; black 20 misses.
func TestAutomaticAttacks(t *testing.T) {
	// Ana: Guard 5 < die ≤ 13. Black 1, white 17: an automatic hit with
	// the 17, above the window. Bront: black 20, white 9: a miss.
	// (Against a Defensive Guard only with automatic-attacks: on.)
	st := duel(t, map[string]string{OptAutomaticAttacks: On}, "striking")
	events, _ := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefensive}}, 1, 17)
	a := attackBy(t, events, "ana")
	if !a.Hit || a.HitDie != 17 || a.Automatic != "black 1" || a.Blocked {
		t.Fatalf("black 1 against a Defensive Bront: %+v", a)
	}
	st = duel(t, nil, "striking")
	events, _ = choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 20, 9, 20, 1)
	if a := attackBy(t, events, "ana"); a.Hit || a.Automatic != "black 20" {
		t.Fatalf("black 20: %+v", a)
	}
	// Off: the window alone decides.
	st = duel(t, map[string]string{OptAutomaticAttacks: Off}, "striking")
	events, _ = choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, 1, 17, 20, 9)
	if a := attackBy(t, events, "ana"); a.Hit || a.Automatic != "" {
		t.Fatalf("black 1 with the option off: %+v", a)
	}
	if b := attackBy(t, events, "bront"); !b.Hit || b.HitDie != 9 {
		t.Fatalf("black 20 with the option off: %+v", b)
	}
}
