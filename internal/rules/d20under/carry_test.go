package d20under

import (
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Carry-over: XP and permanent Corruption spent on feats, damage, death,
// ammunition and items outlive the fight.

func TestCarryFieldsAreValid(t *testing.T) {
	if err := sheet.CheckCarryFields(New().(sheet.Carrier).CarryFields()); err != nil {
		t.Fatal(err)
	}
}

func TestCarryOutAndBackIn(t *testing.T) {
	setup := gridSetup(map[string]string{OptCriticals: Off, OptCriticalEnds: EndsHealed}, 12, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow", "special": 2}, {"id": "knives", "name": "Knives", "type": "thrown", "count": 3}},
			Stats:   map[string]any{"xp": 3, "corruption": map[string]int{"permanent": 1, "temporary": 2}, "items": map[string]int{ItemHerbalCure: 2}}},
		spec{ID: "orc", Side: "foes", X: 9, Y: 1, Attr: map[string]int{Quick: 11, Accurate: 15},
			Weapons: []map[string]any{{"id": "xbow", "name": "Crossbow", "type": "crossbow", "bonus": 3}}, Stats: map[string]any{"damage": 4}},
	)
	st := begin(t, newState(t, setup))
	// A Clean Hit paid in XP, a miss with the bow (3 → 2), a special
	// arrow, a herbal cure; the orc shoots back: 5 + 3 = 8 > PT 5.
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 19)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), 20)
	eq(t, "critical", st.Fighters["ana"].Critical, true)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
	_, st = do(t, st, gm, cmd(CmdFeat, "ana", "feat", FeatResilience, "pay", PayCorruption))
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "special", true, "clean", PayXP), 2, 3)
	values, err := New().(sheet.Carrier).CarryOut(st, "ana", setup.Combatants[0].Stats)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{
		carryXP: 2, carryPermanent: 2, carryTemporary: 0, carryDamage: 8, carryDead: false, carryCritical: true,
		carryAmmunition: "bow=2, bow.special=1, knives=3", "items." + ItemHerbalCure: 2, "items." + ItemAntidote: 0,
	} {
		if values[k] != want {
			t.Errorf("%s = %v, want %v", k, values[k], want)
		}
	}
	// Written back into the sheet, the next fight starts from them.
	fields := New().(sheet.Carrier).CarryFields()
	stats, err := sheet.WriteCarried(fields, setup.Combatants[0].Stats, values)
	if err != nil {
		t.Fatal(err)
	}
	next := setup
	next.Combatants = append([]engine.CombatantSetup(nil), setup.Combatants...)
	next.Combatants[0].Stats = stats
	st2 := newState(t, next)
	f := st2.Fighters["ana"]
	eq(t, "xp", f.XP, 2)
	eq(t, "permanent", f.Permanent, 2)
	eq(t, "temporary", f.Temporary, 0)
	eq(t, "toughness", f.Toughness, 2)
	eq(t, "critical", f.Critical, true)
	eq(t, "counter", f.Ammo["bow"], 2)
	eq(t, "special", f.Special["bow"], 1)
	eq(t, "knives", f.Units["knives"], 3)
	got, err := sheet.ReadCarried(fields, stats)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range values {
		if got[k] != v {
			t.Errorf("read back %s = %v, want %v", k, got[k], v)
		}
	}
}

func TestTheDeadStayOut(t *testing.T) {
	for _, key := range []string{carryDead, carryAbomination} {
		setup := gridSetup(nil, 6, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 0, Stats: map[string]any{key: true}},
			spec{ID: "orc", Side: "foes", X: 5, Y: 0})
		if _, err := engine.NewEncounter(New(), "x", setup); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s: %v", key, err)
		}
	}
	// A death in the fight carries.
	st := begin(t, newState(t, gridSetup(noCrit, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 12}, Stats: map[string]any{"damage": 9}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 5, Y: 2, Attr: map[string]int{Quick: 11}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 10}},
	)))
	st = endTurns(t, st, "orc")
	_, st = do(t, st, gm, cmd(CmdAttack, "orc", "target", "ana"), 20)
	for i := 0; i < 3; i++ {
		_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
		st = endTurns(t, st, "ana")
		_, st = do(t, st, gm, cmd(CmdDeathTest, "ana"), 15)
	}
	values, _ := New().(sheet.Carrier).CarryOut(st, "ana", nil)
	eq(t, "dead", values[carryDead], any(true))
	raw, _ := json.Marshal(values)
	if len(raw) == 0 {
		t.Fatal("values encode")
	}
}
