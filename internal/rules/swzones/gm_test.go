package swzones

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The Drop (+4 to attack and damage) is the GM's ruling.
func TestTheDrop(t *testing.T) {
	st := skirmish(t, nil)
	fail(t, st, engine.PlayerViewer("brak"), cmd(CmdDrop, "", "attacker", "brak", "target", "gob1"), fray.EFORBIDDEN)
	fail(t, st, gm, cmd(CmdDrop, "", "attacker", "brak", "target", "lyra"), fray.EILLEGAL) // an ally
	events, st := do(t, st, gm, cmd(CmdDrop, "", "attacker", "brak", "target", "gob1"))
	eq(t, "text", events[0].Text, "The GM rules that Brak has The Drop on Gob1: +4 to attack and damage until the end of Brak's turn.")
	brak, _ := tokenOf(view(st, engine.PlayerViewer("lyra")), "brak")
	drop, _ := conditionOf(brak, "drop")
	eq(t, "shown", drop.Text, "Has the Drop on Gob1: +4 to attack and damage.")
	// Fighting 3, Wild 2, +4 The Drop, −2 two actions = 5 vs 5: hit; damage
	// 1 + 1 + 4 = 6 vs 5: Shaken.
	events, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), 3, 2, 1, 1)
	a := one(t, events)
	eq(t, "drop", a.Drop, true)
	if v, _ := modValue(a.Mods, "The Drop"); v != 4 {
		t.Fatalf("mods = %v", a.Mods)
	}
	eq(t, "total", a.Total, 3+4-2)
	eq(t, "damage", a.Damage.Total, 6)
	eq(t, "damage mod", events[0].Rolls[1].Mod, 4)
	// Not against gob2.
	events, st = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob2", "weapon", "sword"), 1, 2)
	eq(t, "no drop on gob2", one(t, events).Drop, false)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "brak"))
	eq(t, "gone at the end of the turn", st.Fighters["brak"].Drop, "")
	// The GM may grant it to a fighter whose turn it is not, with attacker.
	_, st = do(t, st, gm, cmd(CmdDrop, "", "attacker", "gob3", "target", "lyra"))
	eq(t, "granted", st.Fighters["gob3"].Drop, "lyra")
}

// Zones carry cover features the GM can change mid-fight.
func TestSetCover(t *testing.T) {
	st := shooting(t, nil, nil)
	fail(t, st, engine.PlayerViewer("doc"), cmd(CmdSetCover, "", "zone", "z2", "cover", "medium"), fray.EFORBIDDEN)
	fail(t, st, gm, cmd(CmdSetCover, "", "zone", "z2", "cover", "thick"), fray.EINVALID)
	// No cover has no Armour: the form's Armour is dropped, not refused.
	events, st := do(t, st, gm, cmd(CmdSetCover, "", "zone", "z2", "cover", "none", "armor", 4))
	eq(t, "text", events[0].Text, "The GM sets Zone 2's cover to none.")
	eq(t, "no armour without cover", st.zone("z2").CoverArmor, 0)
	fail(t, st, gm, cmd(CmdSetCover, "", "zone", "z9", "cover", "light"), fray.ENOTFOUND)
	events, st = do(t, st, gm, cmd(CmdSetCover, "", "zone", "z2", "cover", "medium", "armor", 2))
	eq(t, "text", events[0].Text, "The GM sets Zone 2's cover to medium (Armour 2).")
	eq(t, "cover", st.zone("z2").Cover, "medium")
	eq(t, "armour", st.zone("z2").CoverArmor, 2)
	// Shooting 7, Wild 1, Medium range −2, Medium cover −4 = 1: misses, but 5
	// would hit: the cover is hit, and the shot goes through its Armour 2.
	// Damage 2d4 (4+1) + 2 = 7 vs 5 + 2: Shaken.
	events, st = do(t, st, gm, cmd(CmdShoot, "doc", "target", "gb", "weapon", "derringer"), 7, 1, 4, 1, 2)
	a := one(t, events)
	eq(t, "cover hit", a.CoverHit, true)
	eq(t, "obstacle", a.Damage.Obstacle, 2)
	eq(t, "shaken", st.Fighters["gb"].Shaken, true)
}

// engage-free-attacks "all": joining a melee provokes a free attack from
// every non-Shaken opponent in it.
func TestEngageFreeAttacks(t *testing.T) {
	st := endTurns(t, skirmish(t, map[string]string{OptEngageFreeAttacks: EngageAll}), "lyra")
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z1"))
	// gob1 and gob2 attack: 2 and 2 (no gang-up: 2 goblins vs brak and lyra), misses.
	events, _ := do(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob1"), 2, 2)
	if got := kinds(events); !slices.Equal(got, []string{KindEngaged, KindAttack, KindAttack}) {
		t.Fatalf("events = %v", got)
	}
	eq(t, "why", events[1].Text[:len("As Lyra joins the melee")], "As Lyra joins the melee")
	// The default ("edges"): nothing.
	st = endTurns(t, skirmish(t, nil), "lyra")
	_, st = do(t, st, gm, cmd(CmdMove, "lyra", "to", "z1"))
	events, _ = do(t, st, gm, cmd(CmdEngage, "lyra", "target", "gob1"))
	eq(t, "no free attack", len(events), 1)
}

// Commands of the new rules that the rules forbid change nothing.
func TestNewCommandsIllegal(t *testing.T) {
	st := skirmish(t, nil)
	for _, tc := range []struct {
		name string
		v    engine.Viewer
		cmd  engine.Command
		code string
	}{
		{"run out of turn", gm, cmd(CmdRun, "lyra"), fray.ENOTYOURTURN},
		{"run with a skill", gm, cmd(CmdRun, "brak", "trait", "fighting"), fray.EINVALID},
		{"rise standing", gm, cmd(CmdRise, "brak"), fray.EILLEGAL},
		{"escape unheld", gm, cmd(CmdEscape, "brak"), fray.EILLEGAL},
		{"grapple out of the melee", gm, cmd(CmdGrapple, "brak", "target", "gob3"), fray.EILLEGAL},
		{"grapple with a sword", gm, cmd(CmdGrapple, "brak", "target", "gob1", "with", "sword"), fray.EILLEGAL},
		{"release no one", gm, cmd(CmdRelease, "brak"), fray.EILLEGAL},
		{"speak unheld", gm, cmd(CmdSpeak, "brak"), fray.EILLEGAL},
		{"interrupt without Hold", gm, cmd(CmdInterrupt, "lyra"), fray.EILLEGAL},
		{"area without an area weapon", gm, cmd(CmdArea, "brak"), fray.EILLEGAL},
		{"cast without powers", gm, cmd(CmdCast, "brak", "power", "bolt"), fray.EILLEGAL},
		{"spare without running", gm, cmd(CmdFight, "brak", "target", "gob1", "spare", 1), fray.EILLEGAL},
		{"unknown field", gm, cmd(CmdRun, "brak", "mp", 3), fray.EINVALID},
		{"player grants the drop", engine.PlayerViewer("brak"), cmd(CmdDrop, "", "attacker", "brak", "target", "gob1"), fray.EFORBIDDEN},
	} {
		t.Run(tc.name, func(t *testing.T) { fail(t, st, tc.v, tc.cmd, tc.code) })
	}
}
