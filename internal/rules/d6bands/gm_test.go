package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The GM changes a square mid-fight: the cover counts at once.
func TestSetCell(t *testing.T) {
	st := duelists(t, nil, point{2, 0}, false)
	events, st := do(t, st, gm, cmd(CmdSetCell, "", "x", 2, "y", 0, "cover", "3", "dash", "4", "label", "Smoke"))
	eq(t, "text", events[0].Text, "The GM changes square C1 Smoke: Hard terrain: dash 4D; Heavy cover +3D.")
	c := st.cell(2, 0)
	eq(t, "cover", c.Cover, 3)
	eq(t, "dash", c.Dash, 4)
	eq(t, "label", c.Label, "Smoke")
	events, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), append(ones(7), 1, 1)...)
	_, r := attackRoll(t, events)
	eq(t, "heavy cover now", dieCount(r), 7)
	// Back to open ground: the square leaves the list.
	_, st = do(t, st, gm, cmd(CmdSetCell, "", "x", "2", "y", "0", "cover", "0", "dash", "0", "blocks", false))
	eq(t, "open", len(st.Cells), 0)
	for _, tc := range []struct {
		args []any
		code string
		msg  string
	}{
		{[]any{"x", 6, "y", 0}, fray.EINVALID, "square (6,0) is outside the 6×6 map"},
		{[]any{"x", 1, "y", 0, "dash", 2}, fray.EINVALID, "dash difficulty must be 0, 3, 4 or 5, not 2"},
		{[]any{"x", 1, "y", 0, "impassable", 3}, fray.EINVALID, "impassable difficulty must be 0, 4, 5 or 6, not 3"},
		{[]any{"x", 1, "y", 0, "cover", 4}, fray.EINVALID, "cover must be 0–3, not 4"},
		{[]any{"x", "one", "y", 0}, fray.EINVALID, "bad \"set-cell\" command: \"one\" is not a whole number"},
		{[]any{"x", 1, "y", 0, "water", "maybe"}, fray.EINVALID, "bad \"set-cell\" command: \"maybe\" is not true or false"},
		{[]any{"x", 1, "y", 0, "fog", true}, fray.EINVALID, "bad \"set-cell\" command: unknown field \"fog\""},
	} {
		eq(t, "message", fail(t, st, gm, cmd(CmdSetCell, "", tc.args...), tc.code), tc.msg)
	}
	// The form as it stands (an open square left open) is the GM's ruling
	// that it stays so.
	events, _ = do(t, st, gm, cmd(CmdSetCell, "", "x", 1, "y", 0))
	eq(t, "unchanged", events[0].Text, "The GM rules square B1 stays as it is: open ground.")
	fail(t, st, engine.PlayerViewer("ana"), cmd(CmdSetCell, "", "x", 1, "y", 1, "cover", 1), fray.EFORBIDDEN)
	fail(t, st, gm, cmd(CmdSetCell, "ana", "x", 1, "y", 1, "cover", 1), fray.EINVALID)
}

func TestPlace(t *testing.T) {
	st := brawl(t, nil)
	_, st = do(t, st, gm, cmd(CmdPlace, "", "combatant", "orc", "x", 3, "y", 3))
	eq(t, "placed", st.Fighters["orc"].where(), "(3,3)")
	eq(t, "out of contact", st.Fighters["orc"].Group == "" && st.Fighters["ana"].Group == "", true)
	_, st = do(t, st, gm, cmd(CmdPlace, "", "combatant", "orc", "off", true))
	eq(t, "off", st.Fighters["orc"].Off, true)
	events, st := do(t, st, gm, cmd(CmdPlace, "", "combatant", "orc", "off", true))
	eq(t, "again: left there", events[0].Text, "The GM leaves Orc where they are.")
	eq(t, "still off", st.Fighters["orc"].Off, true)
	eq(t, "off the grid", fail(t, st, gm, cmd(CmdPlace, "", "combatant", "orc", "x", 4, "y", 0), fray.EINVALID), "square (4,0) is outside the 4×4 map")
	eq(t, "no one", fail(t, st, gm, cmd(CmdPlace, "", "combatant", "zed", "x", 0, "y", 0), fray.ENOTFOUND), "no combatant \"zed\" in the fight")
}

// A one-off ruling on a combatant's next check ("a crowd is much
// easier").
func TestAdjust(t *testing.T) {
	st := duelists(t, nil, point{2, 0}, false)
	_, st = do(t, st, gm, cmd(CmdAdjust, "", "combatant", "ana", "dice", -2, "tn", 1, "reason", "a crowd"))
	events, st := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), 1, 1, 1, 1)
	_, r := attackRoll(t, events)
	eq(t, "dice", dieCount(r), 2)
	eq(t, "skill", r.Target, 15)
	if !hasMod(r, "GM: a crowd", -2, unitDice) {
		t.Errorf("no GM modifier: %+v", r.Mods)
	}
	eq(t, "used up", st.Fighters["ana"].Adjust == nil, true)
	// Dice 0 and skill 0: a ruling of no adjustment, which clears one.
	_, st = do(t, st, gm, cmd(CmdAdjust, "", "combatant", "ana", "dice", -1))
	_, st = do(t, st, gm, cmd(CmdAdjust, "", "combatant", "ana", "dice", 0, "tn", 0))
	eq(t, "cleared", st.Fighters["ana"].Adjust == nil, true)
	eq(t, "too much", fail(t, st, gm, cmd(CmdAdjust, "", "combatant", "ana", "dice", 4), fray.EINVALID), "dice must be −3 to +3")
}
