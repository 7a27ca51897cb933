package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// snipers: ana (a PC, Tactics 11, Stealth 12, Archery 14) at (0,0) in
// light cover with a longbow (optimal Far) and a rifle (Firearms 14,
// optimal Very Far); orc off the map with a rifle; gob at (5,5), five
// bands away.
func snipers(t *testing.T) *State {
	t.Helper()
	longbow := map[string]any{"id": "longbow", "name": "Longbow", "skill": "archery", "damage": "2D+3", "optimal": "distant/far", "class": "bow", "reload": 1}
	rifle := map[string]any{"id": "rifle", "name": "Rifle", "skill": "firearms", "damage": "3D+2", "optimal": "very far", "class": "firearm", "reload": 4}
	return start(t, newState(t, newSetup(nil, grid(8, 8, cellAt{0, 0, map[string]any{"cover": "1"}}),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30, Weapons: []map[string]any{longbow, rifle, bow}},
		spec{ID: "orc", Side: "foes", Off: true, Init: 10, Weapons: []map[string]any{rifle}},
		spec{ID: "gob", Side: "foes", X: 5, Y: 5, Init: 5},
	)))
}

// duel answers both sealed skill choices: ana's as her player, orc's as
// the GM; the last answer rolls the duel with faces.
func duel(t *testing.T, st *State, anaSkill, orcSkill string, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	var anaD, orcD engine.Decision
	for _, d := range st.Pending {
		if d.Kind != DecDuel {
			continue
		}
		if d.For == "ana" {
			anaD = d
		} else {
			orcD = d
		}
	}
	eq(t, "sealed", anaD.Sealed && orcD.Sealed, true)
	eq(t, "orc's is the GM's to answer", orcD.For, "orc")
	_, st = scenario.Answer(t, st, engine.PlayerViewer("ana"), anaD, anaSkill, nil)
	return scenario.Answer(t, st, gm, orcD, orcSkill, nil, faces...)
}

// Extreme range: a duel of skill, and the winner's shot at 5D (Very Far
// weapons) or 6D (Far).
func TestExtremeDuel(t *testing.T) {
	for _, tc := range []struct {
		weapon string
		dice   int
		damage int
	}{{"longbow", 6, 2}, {"rifle", 5, 3}} {
		t.Run(tc.weapon, func(t *testing.T) {
			st := snipers(t)
			_, st = do(t, st, engine.PlayerViewer("ana"), cmd(CmdDuel, "ana", "target", "orc", "weapon", tc.weapon))
			eq(t, "the rest of the turn", st.Fighters["ana"].Actions, 0)
			// Ana: Tactics 3D 1+1+1 against 11, by 8. Orc: Stealth 3D 4+4+4 against 12, by 0. Ana shoots.
			faces := append([]int{1, 1, 1, 4, 4, 4}, ones(tc.dice+tc.damage)...)
			events, st := duel(t, st, "tactics", "stealth", faces...)
			var d Dueled
			decodeOne(t, events, KindDuel, &d)
			eq(t, "winner", d.Winner, "ana")
			a, r := attackRoll(t, events)
			eq(t, "kind", a.Kind, AttackDuel)
			eq(t, "dice", dieCount(r), tc.dice)
			eq(t, "orc hurt", len(st.Fighters["orc"].Wounds), 1)
			eq(t, "the turn passed", st.Current(), "orc")
		})
	}
}

// The other side may win the duel and take the shot, with the shooter's
// cover; a tie gives no one a shot.
func TestExtremeDuelLost(t *testing.T) {
	st := snipers(t)
	_, st = do(t, st, gm, cmd(CmdDuel, "ana", "target", "orc", "weapon", "rifle"))
	// Ana 4+4+4 against Stealth 12: by 0. Orc 1+1+1 against Perception 12: by 9. Orc's rifle: 5D +1D her light cover.
	events, _ := duel(t, st, "stealth", "perception", append([]int{4, 4, 4, 1, 1, 1}, ones(6+3)...)...)
	a, r := attackRoll(t, events)
	eq(t, "shooter", a.Attacker, "orc")
	eq(t, "dice", dieCount(r), 6)
	if !hasMod(r, "light cover", 1, unitDice) {
		t.Errorf("no cover: %+v", r.Mods)
	}

	st = snipers(t)
	_, st = do(t, st, gm, cmd(CmdDuel, "ana", "target", "orc", "weapon", "rifle"))
	events, _ = duel(t, st, "stealth", "stealth", 2, 2, 2, 2, 2, 2)
	var d Dueled
	decodeOne(t, events, KindDuel, &d)
	eq(t, "tie", d.Winner, "")
	eq(t, "no shot", len(find(events, KindAttack)), 0)
}

func TestExtremeRefusals(t *testing.T) {
	st := snipers(t)
	eq(t, "a bow", fail(t, st, gm, cmd(CmdDuel, "ana", "target", "orc", "weapon", "bow"), fray.EILLEGAL),
		"the Bow does not reach Extreme range (a Far or Very Far optimal range does)")
	// Gob, five bands away on the map, is at Extreme range too.
	_, next := do(t, st, gm, cmd(CmdDuel, "ana", "target", "gob", "weapon", "rifle"))
	eq(t, "a duel with gob", len(next.Pending), 2)
	_, st = do(t, st, gm, cmd(CmdPlace, "", "combatant", "gob", "x", 4, "y", 4))
	eq(t, "not Extreme", fail(t, st, gm, cmd(CmdDuel, "ana", "target", "gob", "weapon", "rifle"), fray.EILLEGAL), "Gob is not at Extreme range")
}
