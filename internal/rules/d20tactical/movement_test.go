package d20tactical

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// open is an encounter on an open 20 × 10 grid: ana at 0,0 and her foes
// far away (bo at 19,9, cy at 19,5). Order ana, bo, cy.
func open(t *testing.T, opts map[string]string, with ...func([]spec)) *State {
	t.Helper()
	return skirmish(t, opts, append([]func([]spec){at(0, 0, 0), at(1, 19, 9), at(2, 19, 5)}, with...)...)
}

func movedTo(t *testing.T, events []engine.Event) Moved {
	t.Helper()
	ms := find(events, KindMoved)
	if len(ms) == 0 {
		t.Fatalf("no move: %v", kinds(events))
	}
	var m Moved
	if err := ms[len(ms)-1].Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMove(t *testing.T) {
	cases := []struct {
		name     string
		opts     map[string]string
		to       string
		wantFeet int
		budget   Budget
	}{
		{"a move action: up to the speed (30 ft)", nil, "6,0", 30, Budget{Standard: true, Moved: true}},
		{"part of a move action", nil, "2,0", 10, Budget{Standard: true, Feet: 20, Moved: true}},
		{"a double move takes the standard action too", nil, "12,0", 60, Budget{}}, // nothing left: the turn ended
		{"diagonals 5 and 10 ft alternately", nil, "4,4", 30, Budget{Standard: true, Moved: true}},
		{"diagonals always 5 ft (option)", map[string]string{OptDiagonals: Five}, "4,4", 20, Budget{Standard: true, Feet: 10, Moved: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := open(t, c.opts)
			events, st := do(t, st, gm, cmd(CmdMove, "ana", "to", c.to))
			m := movedTo(t, events)
			eq(t, "to", m.To.String(), c.to)
			eq(t, "budget", st.Fighters["ana"].Budget, c.budget)
			var a ActionTaken
			decodeOne(t, events, KindAction, &a)
			if got := len(m.Path); got == 0 {
				t.Fatal("no path")
			}
			rs := routes(open(t, c.opts), open(t, c.opts).Fighters["ana"], 60)
			eq(t, "feet", rs[m.To].Feet, c.wantFeet)
		})
	}
	st := open(t, nil)
	msg := fail(t, st, gm, cmd(CmdMove, "ana", "to", "13,0"), "illegal")
	eq(t, "message", msg, "move: out of reach — N1 is beyond what this movement allows now, or no open path leads there")
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "here"), "invalid")
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "19,9"), "illegal") // bo stands there
	// After a full move action and a double move nothing is left: the turn
	// ends by itself.
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "12,0"))
	eq(t, "turn passes", st.Current(), "bo")
}

func TestRun(t *testing.T) {
	st := open(t, nil)
	// Speed 30 → 90 ft in a straight line: 18 squares east.
	rs := runRoutes(st, st.Fighters["ana"])
	if _, ok := rs[Cell{18, 0}]; !ok {
		t.Fatalf("no run to 18,0: %v", rs)
	}
	if _, ok := rs[Cell{19, 0}]; ok {
		t.Fatal("ran past 90 ft")
	}
	if _, ok := rs[Cell{5, 3}]; ok {
		t.Fatal("a run off the straight lines")
	}
	events, st := do(t, st, gm, cmd(CmdRun, "ana", "to", "18,0"))
	eq(t, "at", movedTo(t, events).To.String(), "18,0")
	eq(t, "streak", st.Fighters["ana"].RunStreak, 1)
	eq(t, "turn over", st.Current(), "bo")

	// Running a second round in a row: Endurance, a Constitution check
	// against DC 10. A 9 fails: winded, no run, the turn goes on.
	st = endTurns(t, st, "ana")
	events, st2 := do(t, st, gm, cmd(CmdRun, "ana", "to", "0,0"), 9)
	var e Endurance
	decodeOne(t, events, KindEndurance, &e)
	eq(t, "dc", e.DC, 10)
	eq(t, "pass", e.Pass, false)
	eq(t, "winded till", e.WindedTill, 2+10)
	eq(t, "still ana's turn", st2.Current(), "ana")
	eq(t, "not moved", st2.Fighters["ana"].X, 18)
	fail(t, st2, gm, cmd(CmdRun, "ana", "to", "0,0"), "illegal")
	// A 10 passes; the third round needs 11.
	_, st = do(t, st, gm, cmd(CmdRun, "ana", "to", "0,0"), 10)
	eq(t, "streak", st.Fighters["ana"].RunStreak, 2)
	st = endTurns(t, st, "ana")
	events, _ = do(t, st, gm, cmd(CmdRun, "ana", "to", "18,0"), 10)
	decodeOne(t, events, KindEndurance, &e)
	eq(t, "third dc", e.DC, 11)
	eq(t, "third pass", e.Pass, false)

	// The GM may rule on Endurance instead.
	st = open(t, map[string]string{OptEndurance: AskGM})
	_, st = do(t, st, gm, cmd(CmdRun, "ana", "to", "18,0"))
	st = endTurns(t, st, "ana")
	_, st = do(t, st, gm, cmd(CmdRun, "ana", "to", "0,0"))
	_, st = answer(t, st, gm, DecEndurance, "pass", nil)
	eq(t, "ran back", st.Fighters["ana"].X, 0)

	// Not after moving; not crouched.
	st = open(t, nil)
	_, st2 = do(t, st, gm, cmd(CmdMove, "ana", "to", "1,0"))
	fail(t, st2, gm, cmd(CmdRun, "ana", "to", "18,0"), "illegal")
	st = open(t, nil, posture(0, Crouched))
	fail(t, st, gm, cmd(CmdRun, "ana", "to", "18,0"), "illegal")
}

func TestPosture(t *testing.T) {
	cases := []struct {
		from, to string
		feet     int
	}{
		{Standing, Crouched, 5}, {Crouched, Standing, 5},
		{Crouched, Prone, 5}, {Prone, Crouched, 5},
		{Standing, Prone, 10}, {Prone, Standing, 10},
	}
	for _, c := range cases {
		t.Run(c.from+" to "+c.to, func(t *testing.T) {
			st := open(t, nil, posture(0, c.from))
			events, st := do(t, st, gm, cmd(CmdPosture, "ana", "to", c.to))
			var p PostureChanged
			decodeOne(t, events, KindPosture, &p)
			eq(t, "posture", st.Fighters["ana"].Posture, c.to)
			eq(t, "feet left of the move action", st.Fighters["ana"].Budget.Feet, 30-c.feet)
		})
	}
	st := open(t, nil)
	fail(t, st, gm, cmd(CmdPosture, "ana", "to", Standing), "illegal")
	fail(t, st, gm, cmd(CmdPosture, "ana", "to", "sitting"), "invalid")
}

// TestProneAndCrouchedMovement: prone crawls a square per move action;
// crouched moves at half speed (option).
func TestProneAndCrouchedMovement(t *testing.T) {
	st := open(t, nil, posture(0, Prone))
	rs := moveRoutes(st, st.Fighters["ana"])
	if _, ok := rs[Cell{2, 0}]; !ok {
		t.Fatal("prone: two squares with two move actions")
	}
	if _, ok := rs[Cell{3, 0}]; ok {
		t.Fatal("prone crawled three squares")
	}
	st = open(t, nil, posture(0, Crouched))
	rs = moveRoutes(st, st.Fighters["ana"])
	eq(t, "crouched 3 squares cost", rs[Cell{3, 0}].Feet, 30)
	if _, ok := rs[Cell{7, 0}]; ok {
		t.Fatal("crouched went 7 squares")
	}
	st = open(t, map[string]string{OptCrouchedSpeed: FullSpeed}, posture(0, Crouched))
	eq(t, "crouched at full speed", moveRoutes(st, st.Fighters["ana"])[Cell{3, 0}].Feet, 15)
}

func TestJump(t *testing.T) {
	bf := field(20, 10, sq(1, 0, "pit", true), sq(1, 1, "obstacle", "half", "jumpDC", 14), sq(1, 2, "obstacle", "high"))
	st := skirmishOn(t, nil, bf, at(0, 0, 0), at(1, 0, 2), at(2, 19, 0))
	js := jumpChoices(st, st.Fighters["ana"])
	eq(t, "over the pit", js[Cell{1, 0}].DC, 10)
	eq(t, "over the low wall (its own DC)", js[Cell{1, 1}].DC, 14)
	if _, ok := js[Cell{0, 1}]; ok {
		t.Fatal("a jump over open ground")
	}
	// The pit cannot be walked into.
	if _, ok := moveRoutes(st, st.Fighters["ana"])[Cell{1, 0}]; ok {
		t.Fatal("walked into the pit")
	}
	// Success: 10 + 0 ≥ 10, landing beyond; 10 ft of the move action spent.
	events, st2 := do(t, st, gm, cmd(CmdJump, "ana", "over", "1,0"), 10)
	var j Jumped
	decodeOne(t, events, KindJump, &j)
	eq(t, "success", j.Success, true)
	eq(t, "landed", cell(st2.Fighters["ana"]).String(), "2,0")
	eq(t, "feet left", st2.Fighters["ana"].Budget.Feet, 20)
	// Failure: 9: prone where she stood.
	_, st2 = do(t, st, gm, cmd(CmdJump, "ana", "over", "1,0"), 9)
	eq(t, "stayed", cell(st2.Fighters["ana"]).String(), "0,0")
	eq(t, "prone", st2.Fighters["ana"].Posture, Prone)
	fail(t, st, gm, cmd(CmdJump, "ana", "over", "1,2"), "illegal") // a high obstacle is not jumped

	// Over a foe: DC 15.
	st = skirmishOn(t, nil, field(20, 10), at(0, 0, 0), at(1, 1, 0), at(2, 19, 0))
	eq(t, "over bo", jumpChoices(st, st.Fighters["ana"])[Cell{1, 0}].DC, 15)
	_, st = do(t, st, gm, cmd(CmdJump, "ana", "over", "1,0"), 15)
	eq(t, "over bo", cell(st.Fighters["ana"]).String(), "2,0")
}

func TestStep(t *testing.T) {
	// bo acts first so he is not flat-footed and threatens ana.
	st := skirmish(t, nil)
	st = boFirst(t, st)
	events, st := do(t, st, gm, cmd(CmdStep, "ana", "to", "1,2"))
	if len(find(events, KindAttack)) != 0 {
		t.Fatal("a 5-ft step provoked")
	}
	eq(t, "budget", st.Fighters["ana"].Budget, Budget{Move: true, Standard: true, Stepped: true})
	fail(t, st, gm, cmd(CmdMove, "ana", "to", "0,2"), "illegal")
	fail(t, st, gm, cmd(CmdStep, "ana", "to", "0,2"), "illegal")
	// Moving away instead provokes bo's attack of opportunity.
	st = boFirst(t, skirmish(t, nil))
	events, _ = do(t, st, gm, cmd(CmdMove, "ana", "to", "0,2"), 5)
	a := attackOf(t, events)
	eq(t, "aoo by", a.Attacker, "bo")
	eq(t, "free", a.Free, reactAoO)
}

// boFirst plays a round in which bo acts before ana, so that he is no
// longer flat-footed: it returns the state on ana's next turn.
func boFirst(t *testing.T, st *State) *State {
	t.Helper()
	st = endTurns(t, st, "bo")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "bo"))
	return endTurns(t, st, "ana")
}

func TestCharge(t *testing.T) {
	// ana at 0,5, cy at 7,5: the square next to cy is 30 ft away.
	st := skirmish(t, nil, at(0, 0, 5), at(1, 19, 0), at(2, 7, 5))
	// +2 to hit: 6 + 2 + 2 = 10 hits Defense 10; 1d4 = 2.
	events, st := do(t, st, gm, cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife"), 6, 2)
	eq(t, "charged to", movedTo(t, events).To.String(), "6,5")
	a := attackOf(t, events)
	v, _ := modValue(a.Mods, "charge")
	eq(t, "charge bonus", v, 2)
	eq(t, "hit", a.Hit, true)
	eq(t, "charging", st.Fighters["ana"].Charging, true)
	eq(t, "turn over", st.Current(), "bo")
	// −2 Defense until her next turn: cy's knife needs 8.
	st = endTurns(t, st, "cy")
	events, st = do(t, st, gm, cmd(CmdAttack, "cy", "target", "ana", "weapon", "knife"), 6, 1)
	a = attackOf(t, events)
	eq(t, "Defense while charging", a.Defense, 8)
	eq(t, "hit", a.Hit, true)
	st = endTurns(t, st, "ana")
	eq(t, "charge over", st.Fighters["ana"].Charging, false)

	// 45 ft away is no charge; nor is 10 ft.
	st = skirmish(t, nil, at(0, 0, 5), at(1, 19, 0), at(2, 10, 5))
	fail(t, st, gm, cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife"), "illegal")
	st = skirmish(t, nil, at(0, 0, 5), at(1, 19, 0), at(2, 3, 5))
	fail(t, st, gm, cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife"), "illegal")
	// 35 ft is within a ±5 ft tolerance; not by default (exactly the speed).
	st = skirmish(t, map[string]string{OptChargeTolerance: "5"}, at(0, 0, 5), at(1, 19, 0), at(2, 8, 5))
	if len(chargeLanes(st, st.Fighters["ana"], st.Fighters["cy"], st.Fighters["ana"].Weapon("knife"), nil)) == 0 {
		t.Fatal("35 ft is a charge")
	}
	st = skirmish(t, nil, at(0, 0, 5), at(1, 19, 0), at(2, 8, 5))
	fail(t, st, gm, cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife"), "illegal")
	// A wall in the way blocks a straight charge, not one along a path.
	bf := field(20, 10, sq(3, 5, "wall", true))
	st = skirmishOn(t, nil, bf, at(0, 0, 5), at(1, 19, 0), at(2, 7, 5))
	fail(t, st, gm, cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife"), "illegal")
	st = skirmishOn(t, map[string]string{OptChargeLine: AnyPath}, bf, at(0, 0, 5), at(1, 19, 0), at(2, 7, 5))
	// (A natural 1 fumbles: cy's free attack, 2, misses.)
	_, st = do(t, st, gm, cmd(CmdCharge, "ana", "target", "cy", "weapon", "knife"), 1, 2)
	eq(t, "charged round the wall", st.Fighters["ana"].Charging, true)
}

// TestLegs: each leg hit takes 10 ft off the speed, down to 5 ft per full
// round.
func TestLegs(t *testing.T) {
	st := open(t, nil)
	f := st.Fighters["ana"]
	f.Hurt = []Hurt{{Location: LocLeftLeg}}
	eq(t, "one leg", f.Speed(), 20)
	f.Hurt = append(f.Hurt, Hurt{Location: LocRightLeg})
	eq(t, "two legs", f.Speed(), 10)
	st = open(t, nil, stat(0, "speed", 20))
	st.Fighters["ana"].Hurt = []Hurt{{Location: LocLeftLeg}, {Location: LocRightLeg}}
	rs := moveRoutes(st, st.Fighters["ana"])
	if len(rs) != 3 { // 1,0  0,1  1,1 on the corner
		t.Fatalf("5 ft per full round: %v", rs)
	}
	_, st = do(t, st, gm, cmd(CmdMove, "ana", "to", "1,1"))
	eq(t, "the full round", st.Current(), "bo")
}
