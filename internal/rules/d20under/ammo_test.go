package d20under

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Ammunition (spec c7) and Koj (c10).

// archer is ana with a bow (quality projectiles, 1 special arrow) far
// from an orc (Defense 11; Toughness 1 left with damage).
func archer(t *testing.T, opts map[string]string, orcDamage int) *State {
	t.Helper()
	return begin(t, newState(t, gridSetup(opts, 12, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow", "projectiles": "quality", "special": 1}}},
		spec{ID: "orc", Side: "foes", X: 10, Y: 1, Attr: map[string]int{Quick: 11}, Stats: map[string]any{"damage": orcDamage}},
	)))
}

func TestAmmunitionCounter(t *testing.T) {
	t.Run("3 → 2 on a failed shot", func(t *testing.T) {
		st := archer(t, nil, 0)
		_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 13)
		eq(t, "ammo", st.Fighters["ana"].Ammo["bow"], 2)
		eq(t, "lost", st.Fighters["ana"].Spent["bow"], 1)
	})
	t.Run("3 → 1 on a 20", func(t *testing.T) {
		st := archer(t, noCrit, 0)
		_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 20)
		eq(t, "ammo", st.Fighters["ana"].Ammo["bow"], 1)
	})
	t.Run("a hit costs nothing", func(t *testing.T) {
		st := archer(t, nil, 0)
		_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 12, 3)
		eq(t, "ammo", st.Fighters["ana"].Ammo["bow"], 3)
	})
	t.Run("special projectiles are counted one by one", func(t *testing.T) {
		st := archer(t, nil, 0)
		_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "special", true), 12, 3)
		eq(t, "special", st.Fighters["ana"].Special["bow"], 0)
		eq(t, "counter untouched", st.Fighters["ana"].Ammo["bow"], 3)
	})
	t.Run("at 0, out", func(t *testing.T) {
		st := archer(t, noCrit, 0)
		_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 20)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		st = endTurns(t, st, "ana")
		_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 19)
		eq(t, "ammo", st.Fighters["ana"].Ammo["bow"], 0)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
		st = endTurns(t, st, "ana")
		msg := fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL)
		if !strings.Contains(msg, "out of ammunition") {
			t.Errorf("message %q", msg)
		}
		for _, a := range New().Actions(st, gm) {
			if a.Kind == CmdShoot {
				t.Error("shooting is not offered with an empty quiver")
			}
		}
	})
}

func TestReclaimingAfterTheFight(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   map[string]string
		choice string
		faces  []int
		ammo   int
	}{
		// Two lost, quality projectiles: damaged over 15 — 16 is, 15 is not.
		{"search: 16 damaged, 15 found", noCrit, "search", []int{16, 15}, 2},
		{"no time", noCrit, "no", nil, 1},
		{"option: counters reset", map[string]string{OptCriticals: Off, OptReclaim: ReclaimReset}, "search", nil, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := archer(t, tc.opts, 9)
			_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 20) // 3 → 1
			_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
			st = endTurns(t, st, "ana")
			_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc"), 1, 5)
			eq(t, "orc dead", st.Combatant("orc").Out, true)
			d := pendingKind(t, st, DecReclaim)
			eq(t, "the GM decides", d.For, engine.GM)
			eq(t, "not over yet", st.Status, engine.StatusRunning)
			events, st := answer(t, st, gm, DecReclaim, tc.choice, nil, tc.faces...)
			eq(t, "ammo", st.Fighters["ana"].Ammo["bow"], tc.ammo)
			eq(t, "over", st.Status, engine.StatusFinished)
			if tc.faces != nil {
				r := rollOf(t, events, "Reclaim")
				eq(t, "quality: over 15", r.Target, 15)
				eq(t, "who", r.Who, "ana")
			}
		})
	}
	for q, over := range map[string]int{ProjPlain: 10, ProjQuality: 15, ProjMystical: 17} {
		eq(t, q, reclaimOver(q), over)
	}
}

func TestKoj(t *testing.T) {
	mk := func(opts map[string]string) *State {
		return begin(t, newState(t, gridSetup(opts, 12, 3, nil,
			spec{ID: "ana", Side: "heroes", PC: true, X: 0, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
				Armour:  map[string]any{"type": "heavy"},
				Weapons: []map[string]any{{"id": "bow", "name": "Bow", "type": "bow"}},
				Stats:   map[string]any{"koj": true, "abilities": map[string]string{"rapid-fire": "adept"}}},
			spec{ID: "bo", Side: "heroes", PC: true, X: 0, Y: 2, Attr: map[string]int{Quick: 11}},
			spec{ID: "orc", Side: "foes", X: 10, Y: 1, Attr: map[string]int{Quick: 10, Accurate: 15},
				Weapons: []map[string]any{{"id": "xbow", "name": "Crossbow", "type": "crossbow"}}},
		)))
	}
	t.Run("before: Novice Rapid Fire only", func(t *testing.T) {
		st := mk(noCrit)
		msg := fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", Adept), fray.EILLEGAL)
		if !strings.Contains(msg, "Koj") {
			t.Errorf("message %q", msg)
		}
		events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", Novice), 20, 20)
		eq(t, "two shots", len(find(events, KindAttack)), 2)
	})
	t.Run("once hit: roused, and a Quick test unlocks Adept", func(t *testing.T) {
		st := mk(noCrit)
		st = endTurns(t, st, "orc")
		// Flat 5 against ana's heavy armour, 1d8: 3 → 2 damage.
		_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), 20, 3)
		eq(t, "roused", st.Fighters["ana"].Roused, true)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
		// Quick 12: a 12 passes — three shots.
		events, st := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", Adept), 12, 19, 19, 19)
		eq(t, "three shots", len(find(events, KindAttack)), 3)
		eq(t, "the test is once a turn", st.Fighters["ana"].KojTest, 1)
	})
	t.Run("a failed Quick test: a Novice volley", func(t *testing.T) {
		st := mk(noCrit)
		st = endTurns(t, st, "orc")
		_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), 20, 3)
		_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"))
		events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "volley", Adept), 13, 20, 20)
		eq(t, "two shots", len(find(events, KindAttack)), 2)
	})
	t.Run("armour stopped it: not roused, unless the option says a hit is enough", func(t *testing.T) {
		for _, tc := range []struct {
			opt    string
			roused bool
		}{{KojDamage, false}, {KojHit, true}} {
			st := mk(map[string]string{OptCriticals: Off, OptKojTrigger: tc.opt})
			st = endTurns(t, st, "orc")
			_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana"), 20, 8) // flat 5 against 8
			eq(t, tc.opt, st.Fighters["ana"].Roused, tc.roused)
		}
	})
	t.Run("an ally hurt at the Pain Threshold rouses", func(t *testing.T) {
		st := mk(noCrit)
		st = endTurns(t, st, "orc")
		// Bo, unarmoured, Strong 10 (PT 5): the crossbow's flat 5.
		_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "bo"), 20)
		eq(t, "bo in pain", st.Fighters["bo"].Prone, true)
		eq(t, "ana roused", st.Fighters["ana"].Roused, true)
	})
}
