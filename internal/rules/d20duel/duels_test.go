package d20duel

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestTwoDuelsAtOnce: several duels in one encounter. Each pair chooses in
// its own sealed group and resolves as soon as both have chosen; the other
// pair's choices stay sealed meanwhile; the round ends when every pair is
// done.
func TestTwoDuelsAtOnce(t *testing.T) {
	st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}, {"cara", "dane", "grappling"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", Stats: brontStats},
		spec{ID: "cara", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "dane", Side: "foes", Stats: brontStats}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	if len(st.Pending) != 4 || st.Label != PhaseExchange || len(st.Acting) != 4 {
		t.Fatalf("pending %d, phase %q, acting %v", len(st.Pending), st.Label, st.Acting)
	}
	if pendingFor(t, st, DecStance, "ana").Group == pendingFor(t, st, DecStance, "cara").Group {
		t.Fatal("two separate duels share a sealed group")
	}
	_, st = answer(t, st, gm, DecStance, "cara", StanceReckless, nil)
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, missB, missW, missB, missW)
	if len(attacks(t, events)) != 2 || st.Round != 1 {
		t.Fatalf("the first duel did not resolve alone: %v", kinds(events))
	}
	if d := pendingFor(t, st, DecStance, "dane"); d.Answered {
		t.Fatal("dane has not answered")
	}
	if len(st.Sealed) != 1 {
		t.Fatalf("cara's choice must still be sealed: %+v", st.Sealed)
	}
	events, st = answer(t, st, gm, DecStance, "dane", StanceReckless, nil, missB, missW, missB, missW)
	as := attacks(t, events)
	if len(as) != 2 || as[0].Mode != Grappling {
		t.Fatalf("the second duel: %+v", as)
	}
	if !nextExchange(st) || st.Round != 2 || len(st.Pending) != 4 {
		t.Fatalf("round %d, pending %+v", st.Round, st.Pending)
	}
}

// TestOneAgainstTwo: a fighter engaged with two chooses whom to attack;
// a Reckless stance gives +5 to both attackers; each pair maneuvers on
// its own.
func TestOneAgainstTwo(t *testing.T) {
	st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", Stats: brontStats},
		spec{ID: "dane", Side: "foes", Stats: brontStats}))
	_, st = do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	if st.Label != PhaseApproach || !slices.Equal(st.Acting, []string{"dane"}) {
		t.Fatalf("phase %q acting %v: want Dane alone in the approach", st.Label, st.Acting)
	}
	_, st = do(t, st, gm, cmd(CmdEngage, "dane", "target", "ana"))
	if st.Label != PhaseExchange || len(st.Pending) != 3 {
		t.Fatalf("after the engage: phase %q, pending %d", st.Label, len(st.Pending))
	}
	d := pendingFor(t, st, DecStance, "ana")
	if len(d.Fields) != 3 || d.Fields[2].Name != "target" || !d.Fields[2].Target {
		t.Fatalf("ana's fields %+v: want a target", d.Fields)
	}
	events, _ := choose(t, st, []string{"ana", "bront", "dane"}, map[string]stance{
		"ana": {Stance: StanceReckless, Target: "dane"}, "bront": {Stance: StanceDefault}, "dane": {Stance: StanceDefault}},
		missB, missW, missB, missW, missB, missW)
	eq(t, "ana attacks", attackBy(t, events, "ana").Target, "dane")
	eq(t, "bront's Strike", attackBy(t, events, "bront").Strike, 13+5)
	eq(t, "dane's Strike", attackBy(t, events, "dane").Strike, 13+5)
}
