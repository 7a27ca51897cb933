package d20tactical

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestIllegal: bad commands are refused with a clear code and change
// nothing.
func TestIllegal(t *testing.T) {
	st := skirmish(t, nil)
	ana := engine.PlayerViewer("ana")
	cases := []struct {
		name string
		v    engine.Viewer
		c    engine.Command
		code string
	}{
		{"out of turn", gm, cmd(CmdAttack, "bo", "target", "ana", "weapon", "knife"), "not_your_turn"},
		{"not your character", ana, cmd(CmdEndTurn, "bo"), "forbidden"},
		{"unknown field", gm, cmd(CmdMove, "ana", "to", "2,4", "speed", 90), "invalid"},
		{"end turn takes nothing", gm, cmd(CmdEndTurn, "ana", "now", true), "invalid"},
		{"unknown weapon", gm, cmd(CmdAttack, "ana", "target", "bo", "weapon", "bazooka"), "invalid"},
		{"no weapon", gm, cmd(CmdAttack, "ana", "target", "bo"), "invalid"},
		{"no target", gm, cmd(CmdAttack, "ana", "weapon", "knife"), "invalid"},
		{"unknown target", gm, cmd(CmdAttack, "ana", "target", "zed", "weapon", "knife"), "not_found"},
		{"an ally", gm, cmd(CmdAttack, "bo", "target", "cy", "weapon", "knife"), "not_your_turn"},
		{"square off the grid", gm, cmd(CmdMove, "ana", "to", "40,40"), "illegal"},
		{"a square as a number", gm, cmd(CmdMove, "ana", "to", 7), "invalid"},
		{"run off the straight lines", gm, cmd(CmdRun, "ana", "to", "3,5"), "illegal"},
		{"jump over nothing", gm, cmd(CmdJump, "ana", "over", "1,1"), "illegal"},
		{"reload a knife", gm, cmd(CmdReload, "ana", "weapon", "knife"), "illegal"},
		{"reload the full pistol", gm, cmd(CmdReload, "ana", "weapon", "pistol"), "illegal"},
		{"clear no jam", gm, cmd(CmdClearJam, "ana", "weapon", "rifle"), "illegal"},
		{"pick up nothing", gm, cmd(CmdPickUp, "ana"), "illegal"},
		{"treat the healthy", gm, cmd(CmdTreat, "ana", "target", "bo"), "illegal"},
		{"ready nothing", gm, cmd(CmdReady, "ana", "action", "dance", "trigger", TriggerMove), "invalid"},
		{"interrupt unready", gm, cmd(CmdInterrupt, "bo"), "illegal"},
		{"a GM ruling with an actor", gm, cmd(CmdHeal, "ana", "combatant", "ana", "hp", 2), "invalid"},
		{"a player's GM ruling", ana, cmd(CmdLifePoints, "", "combatant", "bo", "value", 0), "forbidden"},
		{"heal the unhurt", gm, cmd(CmdHeal, "", "combatant", "ana", "hp", 2), "illegal"},
		{"Life Points out of bounds", gm, cmd(CmdLifePoints, "", "combatant", "bo", "value", 100), "invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if msg := fail(t, st, c.v, c.c, c.code); msg == "" {
				t.Fatal("no message")
			}
		})
	}
	// After the encounter ends nothing goes.
	_, done := do(t, st, gm, engine.NewCommand(engine.KindEnd, "", map[string]any{"winner": "heroes"}))
	fail(t, done, gm, cmd(CmdEndTurn, "ana"), "illegal")
	if len(New().Actions(done, gm)) != 0 {
		t.Fatal("actions offered after the end")
	}
}
