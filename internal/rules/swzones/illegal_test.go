package swzones

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestIllegalCommandsChangeNothing(t *testing.T) {
	st := skirmish(t, nil) // brak's turn
	tests := []struct {
		name   string
		viewer engine.Viewer
		cmd    engine.Command
		code   string
	}{
		{"wrong turn", gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), fray.ENOTYOURTURN},
		{"wrong turn to move", gm, cmd(CmdMove, "lyra", "to", "z1"), fray.ENOTYOURTURN},
		{"wrong turn to end", gm, cmd(CmdEndTurn, "lyra"), fray.ENOTYOURTURN},
		{"not controlled", engine.PlayerViewer("lyra"), cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), fray.EFORBIDDEN},
		{"unknown target", gm, cmd(CmdFight, "brak", "target", "troll", "weapon", "sword"), fray.ENOTFOUND},
		{"no target", gm, cmd(CmdFight, "brak", "weapon", "sword"), fray.EINVALID},
		{"unknown field", gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "bonus", 4), fray.EINVALID},
		{"unknown field on end-turn", gm, cmd(CmdEndTurn, "brak", "now", true), fray.EINVALID},
		{"wrong field type", gm, cmd(CmdMove, "brak", "to", 3), fray.EINVALID},
		{"unknown command", gm, cmd("teleport", "brak"), fray.EINVALID},
		{"move while engaged", gm, cmd(CmdMove, "brak", "to", "z2"), fray.EILLEGAL},
		{"shoot while engaged", gm, cmd(CmdShoot, "brak", "target", "gob3", "weapon", "pistol"), fray.EILLEGAL},
		{"attack an ally", gm, cmd(CmdFight, "brak", "target", "lyra", "weapon", "sword"), fray.EILLEGAL},
		{"unknown actor", gm, cmd(CmdEndTurn, "nobody"), fray.ENOTFOUND},
		{"answer without a decision", gm, engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": "d1", "choice": "x"}), fray.ENOTFOUND},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fail(t, st, tc.viewer, tc.cmd, tc.code)
		})
	}
}

func TestOutOfRange(t *testing.T) {
	// Lyra's pistol reaches 2/4/8 zones, Extreme to 32 in SWADE; in a
	// Deluxe game with a 3/6/12 weapon two zones is Long and three is out.
	st := shooting(t, map[string]string{OptEdition: EditionSWD}, nil)
	fail(t, st, gm, cmd(CmdShoot, "doc", "target", "gd", "weapon", "derringer"), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdShoot, "doc", "target", "gd", "weapon", "dagger"), fray.EILLEGAL) // not ranged
}

func TestHiddenTargetDoesNotExistForPlayers(t *testing.T) {
	setup := newSetup(nil, chain(2, nil),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true},
		spec{ID: "lurker", Side: "goblins", Zone: "z1", Hidden: true},
		spec{ID: "gob1", Side: "goblins", Zone: "z2"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "2♣", "3♣"})
	player := engine.PlayerViewer("brak")
	fail(t, st, player, cmd(CmdEngage, "brak", "target", "lurker"), fray.ENOTFOUND)
	// The GM may.
	_, st = do(t, st, gm, cmd(CmdEngage, "brak", "target", "lurker"))
	eq(t, "engaged", st.Fighters["brak"].Melee != "", true)
}
