package d20under

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Distance categories (spec c12): per pair of sides, moves to engage,
// ranged effects.

// range is ana the archer (Accurate 13) against an orc (Defense 10) at
// rung.
func rangeFight(t *testing.T, rung string) *State {
	t.Helper()
	return begin(t, newState(t, ladderSetup(noCrit, rung,
		spec{ID: "ana", Side: "heroes", PC: true, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}}},
		spec{ID: "orc", Side: "foes", Attr: map[string]int{Quick: 10},
			Weapons: []map[string]any{{"id": "xbow", "name": "Crossbow", "type": "crossbow"}, {"id": "axe", "name": "Axe", "type": "one-handed"}}},
	)))
}

func TestDistanceCategoryEffects(t *testing.T) {
	for _, tc := range []struct {
		rung   string
		moves  int
		target int
		extra  bool // +1d4 damage
	}{
		{"Short", 1, 15, true},
		{"Medium", 2, 13, false},
		{"Long", 5, 11, false},
		{"Extreme", 10, 8, false},
	} {
		t.Run(tc.rung, func(t *testing.T) {
			st := rangeFight(t, tc.rung)
			eq(t, "moves to engage", st.moves("ana", "orc"), tc.moves)
			faces := []int{1, 4}
			if tc.extra {
				faces = append(faces, 3)
			}
			events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), faces...)
			r := rollOf(t, events, "Attack")
			eq(t, "target", r.Target, tc.target)
			var d Damage
			decodeOne(t, events, KindDamage, &d)
			want := 4
			if tc.extra {
				want = 7
				if len(events) == 0 || !strings.Contains(rollOf(t, events, "Damage").Dice[1].Role, "Short") {
					t.Errorf("the +1d4 names its source: %+v", rollOf(t, events, "Damage").Dice)
				}
			}
			eq(t, "damage", d.Rolled, want)
		})
	}
}

func TestCloseOnlyInTheFirstRoundForTheFaster(t *testing.T) {
	st := rangeFight(t, "Close")
	eq(t, "close", rungs[st.rung("ana", "orc")].Name, "Close")
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 13, 2)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	msg := fail(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), fray.EILLEGAL)
	if !strings.Contains(msg, "Close") {
		t.Errorf("message %q", msg)
	}
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	eq(t, "round", st.Round, 2)
	fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL)
}

func TestMovesToEngage(t *testing.T) {
	st := rangeFight(t, "Medium")
	fail(t, st, gm, cmd(CmdEngage, "ana", "target", "orc"), fray.EILLEGAL) // two moves away
	_, st = do(t, st, gm, cmd(CmdAdvance, "ana", "side", "foes"))
	eq(t, "now Short", rungs[st.rung("ana", "orc")].Name, "Short")
	_, st = do(t, st, gm, cmd(CmdEngage, "ana", "target", "orc")) // the combat action traded
	if !st.inMelee("ana", "orc") {
		t.Fatal("engaged")
	}
	eq(t, "combat action traded", st.Fighters["ana"].Combat, false)
	eq(t, "close", st.moves("ana", "orc"), 0)
	// The board shows the gap between the sides and who is ahead.
	b := ruleset.Board(st, gm)
	if b.Model != board.Ladder || len(b.Ladder.Rungs) != 5 || b.Ladder.Gaps[0].Rung != 2 {
		t.Fatalf("board %+v", b.Ladder)
	}
	if !strings.Contains(b.Ladder.Gaps[0].Note, "Ana 2 moves ahead") {
		t.Errorf("note %q", b.Ladder.Gaps[0].Note)
	}
	// The melee is drawn on the ladder, not told in a note.
	if len(b.Ladder.Engaged) != 1 || b.Ladder.Engaged[0].A+b.Ladder.Engaged[0].B != "anaorc" && b.Ladder.Engaged[0].A+b.Ladder.Engaged[0].B != "orcana" {
		t.Errorf("engaged %+v", b.Ladder.Engaged)
	}
}

func TestLadderMeleeWithdrawAndPast(t *testing.T) {
	st := begin(t, newState(t, ladderSetup(noCrit, "Short",
		spec{ID: "ana", Side: "heroes", PC: true, Attr: map[string]int{Quick: 12}, Group: "m1"},
		spec{ID: "orc", Side: "foes", Attr: map[string]int{Quick: 11}, Group: "m1"},
		spec{ID: "gob", Side: "foes", Attr: map[string]int{Quick: 10}, Props: map[string]any{"ahead": 1}},
		spec{ID: "chief", Side: "foes", Attr: map[string]int{Quick: 9}},
	)))
	if !st.inMelee("ana", "orc") {
		t.Fatal("a starting melee group")
	}
	// Ana leaves the orc for the chief, past the goblin standing Close.
	if got := st.pastChoices(st.Fighters["ana"]); strings.Join(got, ",") != "gob" {
		t.Fatalf("past choices %v", got)
	}
	events, st := do(t, st, gm, cmd(CmdEngage, "ana", "target", "chief", "past", "gob"), 1, 1)
	fa := freeAttacks(t, events)
	if len(fa) != 2 || fa[0].Attacker != "orc" || fa[1].Attacker != "gob" {
		t.Fatalf("free attacks %+v", fa)
	}
	if !st.inMelee("ana", "chief") || st.inMelee("ana", "orc") {
		t.Fatalf("melee %+v", st.Melee)
	}
	// Withdraw: each engaged enemy strikes.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEngage, "orc", "target", "ana"))
	st = endTurns(t, st, "ana")
	events, st = do(t, st, gm, cmd(CmdWithdraw, "ana", "back", true), 1, 1)
	if fa := freeAttacks(t, events); len(fa) != 2 {
		t.Fatalf("free attacks %+v", fa)
	}
	eq(t, "out of the melee", st.engaged("ana"), false)
	eq(t, "fell back", st.Fighters["ana"].Ahead["foes"], 0)
}

func TestLadderFlankingAndFour(t *testing.T) {
	st := begin(t, newState(t, ladderSetup(noCrit, "Close",
		spec{ID: "ana", Side: "heroes", PC: true, Attr: map[string]int{Accurate: 13, Quick: 14}, Group: "m"},
		spec{ID: "bo", Side: "heroes", PC: true, Attr: map[string]int{Quick: 13}},
		spec{ID: "orc", Side: "foes", Attr: map[string]int{Quick: 12}, Group: "m"},
	)))
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 16)
	eq(t, "alone: no Advantage", rollOf(t, events, "Attack").Target, 11)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdFlank, "bo", "target", "orc"))
	st = endTurns(t, st, "ana")
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 16)
	eq(t, "two flankers: Advantage", rollOf(t, events, "Attack").Target, 13)
	// Five around one: refused.
	setup := ladderSetup(noCrit, "Close",
		spec{ID: "h1", Side: "heroes", PC: true, Group: "m"}, spec{ID: "h2", Side: "heroes", PC: true, Group: "m"},
		spec{ID: "h3", Side: "heroes", PC: true, Group: "m"}, spec{ID: "h4", Side: "heroes", PC: true, Group: "m"},
		spec{ID: "h5", Side: "heroes", PC: true}, spec{ID: "troll", Side: "foes", Group: "m"})
	st = begin(t, newState(t, setup))
	st = endTurns(t, st, "h5")
	msg := fail(t, st, gm, cmd(CmdEngage, "h5", "target", "troll"), fray.EILLEGAL)
	if !strings.Contains(msg, "four") {
		t.Errorf("message %q", msg)
	}
	setup.Combatants[4].Start = mustJSON(map[string]any{"group": "m"})
	if _, err := engine.NewEncounter(New(), "x", setup); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("five starting around one: %v", err)
	}
}

func TestGMSetsTheDistance(t *testing.T) {
	st := rangeFight(t, "Medium")
	_, st = do(t, st, gm, cmd(CmdAdvance, "ana", "side", "foes"))
	_, st = do(t, st, gm, cmd(GMDistance, "", "sides", "heroes+foes", "rung", "Long"))
	eq(t, "long", rungs[st.rung("ana", "orc")].Name, "Long")
	eq(t, "back on the line", st.Fighters["ana"].Ahead["foes"], 0)
	gridSt := duel(t, nil)
	fail(t, gridSt, gm, cmd(GMDistance, "", "sides", "heroes+foes", "rung", "Long"), fray.EILLEGAL)
}

func TestChargeOnTheLadder(t *testing.T) {
	st := begin(t, newState(t, ladderSetup(noCrit, "Medium",
		spec{ID: "ana", Side: "heroes", PC: true, Attr: map[string]int{Accurate: 13, Quick: 12}},
		spec{ID: "orc", Side: "foes", Attr: map[string]int{Quick: 10}},
	)))
	// Two moves and an attack; it misses, and the orc strikes back.
	events, st := do(t, st, gm, cmd(CmdCharge, "ana", "target", "orc"), 20, 20)
	if !st.inMelee("ana", "orc") {
		t.Fatal("engaged")
	}
	var modes []string
	for _, e := range find(events, KindAttack) {
		var a Attack
		_ = e.Decode(&a)
		modes = append(modes, a.Mode+":"+a.Attacker)
	}
	if strings.Join(modes, " ") != "charge:ana free:orc" {
		t.Fatalf("attacks %v", modes)
	}
	eq(t, "the whole turn", st.Fighters["ana"].Combat || st.Fighters["ana"].Moves > 0, false)
}
