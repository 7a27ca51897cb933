package d20tactical

import (
	"testing"
)

// TestCover: +1 Defense per 10% covered (at most +10), ± material, against
// shots only; the board's obstacles against the target's posture; the
// GM's rulings.
func TestCover(t *testing.T) {
	cases := []struct {
		name      string
		cells     []map[string]any
		posture   string
		wantCover int
	}{
		{"open ground", nil, Standing, 0},
		{"standing behind a half obstacle: 50%", []map[string]any{sq(9, 2, "obstacle", "half")}, Standing, 5},
		{"crouched behind it: 100%", []map[string]any{sq(9, 2, "obstacle", "half")}, Crouched, 10},
		{"prone behind a low one: 100%", []map[string]any{sq(9, 2, "obstacle", "low")}, Prone, 10},
		{"standing behind a low one: 25%", []map[string]any{sq(9, 2, "obstacle", "low")}, Standing, 2},
		{"crouched behind a low one: 50%", []map[string]any{sq(9, 2, "obstacle", "low")}, Crouched, 5},
		{"standing behind a high one: 75%", []map[string]any{sq(9, 2, "obstacle", "high")}, Standing, 7},
		{"steel: +1", []map[string]any{sq(9, 2, "obstacle", "half", "material", 1)}, Standing, 6},
		{"drywall: −1", []map[string]any{sq(9, 2, "obstacle", "half", "material", -1)}, Standing, 4},
		{"an obstacle by the shooter covers nothing", []map[string]any{sq(3, 2, "obstacle", "half")}, Standing, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := skirmishOn(t, nil, field(20, 10, c.cells...), at(1, 0, 9), posture(2, c.posture))
			events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 2)
			eq(t, "Defense", attackOf(t, events).Defense, 10+c.wantCover)
		})
	}
}

func TestCoverRulings(t *testing.T) {
	cases := []struct {
		percent, material, want int
	}{
		{40, 0, 4}, {40, -1, 3}, {100, 2, 10}, {5, 0, 0}, {0, 2, 0},
	}
	for _, c := range cases {
		st := skirmish(t, nil, at(1, 0, 9))
		_, st = do(t, st, gm, cmd(CmdSetCover, "", "combatant", "cy", "percent", c.percent, "material", c.material))
		events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 2)
		eq(t, "cover bonus", attackOf(t, events).Defense-10, c.want)
	}
	// The ruling stands until cy moves.
	st := skirmish(t, nil, at(1, 0, 9))
	_, st = do(t, st, gm, cmd(CmdSetCover, "", "combatant", "cy", "percent", 40))
	st = endTurns(t, st, "cy")
	_, st = do(t, st, gm, cmd(CmdMove, "cy", "to", "11,2"))
	eq(t, "ruling gone", st.Fighters["cy"].Cover == nil, true)
	// Clearing no ruling is still a legal ruling (the form's checkbox).
	cleared, _ := do(t, st, gm, cmd(CmdSetCover, "", "combatant", "cy", "clear", true))
	eq(t, "as it did", cleared[0].Text, "The GM: Cy's cover comes from the board, as it did.")
	fail(t, st, gm, cmd(CmdSetCover, "", "combatant", "cy", "percent", 140), "invalid")
	fail(t, st, engineViewer("ana"), cmd(CmdSetCover, "", "combatant", "cy", "percent", 40), "forbidden")

	// With cover-ruling "ask", the GM confirms the board's 50% — or says 30%.
	bf := field(20, 10, sq(9, 2, "obstacle", "half"))
	st = skirmishOn(t, map[string]string{OptCoverRuling: CoverAsk}, bf, at(1, 0, 9))
	_, st = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"))
	d := pendingKind(t, st, DecCover)
	eq(t, "offered", d.Fields[0].Default, "50")
	events, _ := answer(t, st, gm, DecCover, "set", map[string]any{"percent": 30}, 2)
	eq(t, "GM's 30%", attackOf(t, events).Defense, 13)
	// No cover on the board: no question.
	st = skirmish(t, map[string]string{OptCoverRuling: CoverAsk}, at(1, 0, 9))
	events, _ = do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 2)
	eq(t, "no question", attackOf(t, events).Defense, 10)
}

// TestObjectAttack: the GM sets the object's Defense (and range); it
// cannot dodge.
func TestObjectAttack(t *testing.T) {
	st := skirmish(t, nil, at(1, 0, 9), stat(2, "dodge", 5))
	_, st = do(t, st, gm, cmd(CmdObject, "ana", "weapon", "pistol"))
	d := pendingKind(t, st, DecObject)
	eq(t, "default Defense", d.Fields[1].Default, "5")
	// Defense 12 at Extreme range: 18 + 2 − 3 = 17 hits; 2d6 = 5 + 4 = 9, halved.
	events, st := answer(t, st, gm, DecObject, "attack", map[string]any{"what": "the rope bridge", "defense": 12, "range": "Extreme"}, 18, 5, 4)
	a := attackOf(t, events)
	eq(t, "object", a.Object, "the rope bridge")
	eq(t, "Defense", a.Defense, 12)
	eq(t, "hit", a.Hit, true)
	var dmg DamageRolled
	decodeOne(t, events, KindDamage, &dmg)
	eq(t, "damage", dmg.Total, 4)
	eq(t, "no dodge", len(find(events, KindDodge)), 0)
	eq(t, "standard action spent", st.Fighters["ana"].Budget.Standard, false)
	// The GM may rule it cannot be attacked.
	st = skirmish(t, nil)
	_, st = do(t, st, gm, cmd(CmdObject, "ana", "weapon", "knife"))
	events, _ = answer(t, st, gm, DecObject, "cancel", nil)
	eq(t, "lost", len(find(events, KindAttackLost)), 1)
}
