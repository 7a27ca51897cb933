package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// brawl is ana (a PC: Melee 13, sword 2D+1, Defense Pool 2) and orc (Melee
// 13, sword, Defense Pool 3) in close contact at (1,1); bob, a foe with a
// spear (long), in the same square but not in contact; ned in the next
// square. Order: orc, ana, bob, ned.
func brawl(t *testing.T, opts map[string]string) *State {
	t.Helper()
	spear := map[string]any{"id": "spear", "name": "Spear", "skill": "melee", "damage": "2D+2", "long": true}
	return start(t, newState(t, newSetup(opts, grid(4, 4),
		spec{ID: "ana", Side: "heroes", X: 1, Y: 1, Group: "g1", PC: true, Init: 20, Defense: intp(2)},
		spec{ID: "orc", Side: "foes", X: 1, Y: 1, Group: "g1", Init: 30, Defense: intp(3)},
		spec{ID: "bob", Side: "foes", X: 1, Y: 1, Init: 10, Weapons: []map[string]any{spear, sword}},
		spec{ID: "ned", Side: "foes", X: 2, Y: 1, Init: 5},
	)))
}

// A melee attack: 3D against the weapon's skill; the defender is asked how
// many Defense Pool dice to spend, each +1D to the attack.
func TestMeleeDefensePool(t *testing.T) {
	st := brawl(t, nil)
	events, st := do(t, st, gm, cmd(CmdStrike, "orc", "target", "ana", "weapon", "sword"))
	eq(t, "kinds", len(find(events, KindAttack)), 0)
	d := pendingKind(t, st, DecDefense)
	eq(t, "asked of", d.For, "ana")
	eq(t, "pool field max", d.Fields[0].Max, 2)
	// The player answers: two dice. 3D + 2D = 5D: 2+2+2+2+2 = 10 ≤ 13, a hit by 3; damage 2D+1+3: 1+1.
	events, st = answer(t, st, engine.PlayerViewer("ana"), DecDefense, "spend", map[string]any{"dice": 2}, 2, 2, 2, 2, 2, 1, 1)
	var def Defended
	decodeOne(t, events, KindDefense, &def)
	eq(t, "dice spent", def.Dice, 2)
	a, r := attackRoll(t, events)
	eq(t, "attack dice", dieCount(r), 5)
	eq(t, "defense in the attack", a.Defense, 2)
	if !hasMod(r, "Defense Pool", 2, unitDice) {
		t.Errorf("no Defense Pool modifier: %+v", r.Mods)
	}
	eq(t, "pool left", st.Fighters["ana"].Pool, 0)
	eq(t, "margin", a.Margin, 3)
	eq(t, "orc's actions", st.Fighters["orc"].Actions, 2)
	// An empty pool asks nothing.
	events, st = do(t, st, gm, cmd(CmdStrike, "orc", "target", "ana", "weapon", "sword"), 5, 5, 5)
	if len(st.Pending) != 0 || len(find(events, KindAttack)) != 1 {
		t.Fatalf("an empty pool must not be asked: %v", kinds(events))
	}
	// The pool refills with the round.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "bob"))
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ned"), 1, 1, 1, 1) // initiative
	eq(t, "pool refilled", st.Fighters["ana"].Pool, 2)
}

// The GM's combatants: asked (npc-defense "ask"), every die ("all") or
// none ("none").
func TestNPCDefense(t *testing.T) {
	for _, tc := range []struct {
		option string
		asked  bool
		spent  int
	}{{DefenseAsk, true, 0}, {DefenseAll, false, 3}, {DefenseNone, false, 0}} {
		t.Run(tc.option, func(t *testing.T) {
			st := brawl(t, map[string]string{OptNPCDefense: tc.option})
			_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
			if tc.asked {
				_, st = do(t, st, gm, cmd(CmdStrike, "ana", "target", "orc", "weapon", "sword"))
				d := pendingKind(t, st, DecDefense)
				eq(t, "asked of (the GM answers for its own)", d.For, "orc")
				fail(t, st, engine.PlayerViewer("ana"), engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": "none"}), fray.EFORBIDDEN)
				// Accept defaults: spend one die.
				events, next := do(t, st, gm, engine.NewCommand(engine.KindAcceptDefaults, "", nil), 1, 1, 1, 1, 1, 1)
				var def Defended
				decodeOne(t, events, KindDefense, &def)
				eq(t, "default dice", def.Dice, 1)
				eq(t, "pool left", next.Fighters["orc"].Pool, 2)
				return
			}
			faces := ones(3 + tc.spent + 2)
			events, next := do(t, st, gm, cmd(CmdStrike, "ana", "target", "orc", "weapon", "sword"), faces...)
			_, r := attackRoll(t, events)
			eq(t, "attack dice", dieCount(r), 3+tc.spent)
			eq(t, "pool left", next.Fighters["orc"].Pool, 3-tc.spent)
		})
	}
}

// Melee reaches only close contact; a long weapon the whole band (the
// same square), not the next one.
func TestMeleeReach(t *testing.T) {
	st := brawl(t, nil)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	player := engine.PlayerViewer("ana")
	eq(t, "sword at bob", fail(t, st, player, cmd(CmdStrike, "ana", "target", "bob", "weapon", "sword"), fray.EILLEGAL),
		"the Sword reaches only someone in close contact (long weapons: in the same square)")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	// Bob's spear reaches ana in the same square without contact: 3D.
	_, st = do(t, st, gm, cmd(CmdStrike, "bob", "target", "ana", "weapon", "spear"))
	events, st := answer(t, st, gm, DecDefense, "none", nil, 1, 1, 1, 1, 1)
	_, r := attackRoll(t, events)
	eq(t, "spear dice", dieCount(r), 3)
	eq(t, "bob's sword", fail(t, st, gm, cmd(CmdStrike, "bob", "target", "ana", "weapon", "sword"), fray.EILLEGAL),
		"the Sword reaches only someone in close contact (long weapons: in the same square)")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "bob"))
	eq(t, "ned's sword from the next square", fail(t, st, gm, cmd(CmdStrike, "ned", "target", "ana", "weapon", "sword"), fray.EILLEGAL),
		"the Sword reaches only someone in close contact (long weapons: in the same square)")
	eq(t, "no friendly strikes", fail(t, st, gm, cmd(CmdStrike, "ned", "target", "orc", "weapon", "sword"), fray.EILLEGAL), "Orc is on Ned's side")
}

// A shot in close contact: 3D, and the target may spend its Defense Pool.
func TestCloseContactShotDefense(t *testing.T) {
	st := duelists(t, map[string]string{OptNPCDefense: DefenseAsk}, point{0, 0}, true)
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"))
	events, _ := answer(t, st, gm, DecDefense, "spend", map[string]any{"dice": 2}, 1, 1, 1, 1, 1, 1, 1)
	_, r := attackRoll(t, events)
	eq(t, "dice", dieCount(r), 5)
}

// A dasher cannot spend its Defense Pool until its next turn; a prone
// target is easier to strike.
func TestDashedAndProneDefenders(t *testing.T) {
	st := start(t, newState(t, newSetup(nil, grid(4, 4),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
		spec{ID: "orc", Side: "foes", X: 1, Y: 1, Init: 10},
	)))
	_, st = do(t, st, gm, cmd(CmdDash, "ana", "to", "contact:orc"))
	eq(t, "in contact", inContact(st.Fighters["ana"], st.Fighters["orc"]), true)
	eq(t, "dashed", st.Fighters["ana"].Dashed, true)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	events, st := do(t, st, gm, cmd(CmdStrike, "orc", "target", "ana", "weapon", "sword"), 5, 5, 5)
	if len(st.Pending) != 0 || len(find(events, KindAttack)) != 1 {
		t.Fatalf("a dasher is not asked about the Defense Pool: %v", kinds(events))
	}

	st = start(t, newState(t, newSetup(nil, grid(4, 4),
		spec{ID: "ana", Side: "heroes", X: 1, Y: 1, Group: "g", Prone: true, PC: true, Init: 10},
		spec{ID: "orc", Side: "foes", X: 1, Y: 1, Group: "g", Init: 30},
	)))
	_, st = do(t, st, gm, cmd(CmdStrike, "orc", "target", "ana", "weapon", "sword"))
	events, _ = answer(t, st, engine.PlayerViewer("ana"), DecDefense, "none", nil, 5, 5, 5, 1, 1)
	_, r := attackRoll(t, events)
	eq(t, "skill against the prone", r.Target, 13+2)
	if !hasMod(r, "prone target", 2, "") {
		t.Errorf("no prone modifier: %+v", r.Mods)
	}
}
