package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

// loader is ana with an empty crossbow (Crossbows 13, reload 4, Vigor 9)
// and an arquebus (Firearms 14, reload 5), orc far off. Her first turn
// shoots the crossbow so that it needs reloading.
func loader(t *testing.T, opts map[string]string) *State {
	t.Helper()
	crossbow := map[string]any{"id": "crossbow", "name": "Crossbow", "skill": "crossbows", "damage": "3D", "optimal": "close/distant", "class": "crossbow", "reload": 4}
	arquebus := map[string]any{"id": "arquebus", "name": "Arquebus", "skill": "firearms", "damage": "3D+2", "optimal": "distant", "class": "firearm", "reload": 5}
	st := start(t, newState(t, newSetup(opts, grid(6, 6),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30, Weapons: []map[string]any{crossbow, arquebus}, Attrs: map[string]int{"vigor": 9, "agility": 11}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10},
	)))
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "crossbow", "mode", "snapshot"), 5, 5, 5, 5, 5)
	_, st = do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "arquebus", "mode", "snapshot"), 5, 5, 5, 5, 5)
	eq(t, "actions", st.Fighters["ana"].Actions, 1)
	return st
}

// Quick loading: a 4D check. Critical success: loaded at once, no action;
// success: half the time, rounded up; failure: half the time wasted; a
// fumble: a Reliability failure.
func TestQuickLoading(t *testing.T) {
	tests := []struct {
		name    string
		opts    map[string]string
		weapon  string
		faces   []int
		skill   int
		actions int // actions spent now
		need    int // actions still to go after this turn
		loaded  bool
		jammed  bool
		broken  bool
	}{
		{"critical success: at once", nil, "crossbow", []int{1, 1, 1, 1}, 13, 0, 0, true, false, false},
		{"success: half, rounded up (5 → 3)", nil, "arquebus", []int{3, 3, 3, 3}, 14, 1, 2, false, false, false},
		{"failure: half wasted (4 → 6)", nil, "crossbow", []int{4, 4, 4, 3}, 13, 1, 5, false, false, false},
		{"fumble: the weapon jams", nil, "crossbow", []int{5, 5, 5, 5}, 13, 1, 0, false, true, false},
		{"fumble: broken", map[string]string{OptReliability: ReliabilityBroken}, "crossbow", []int{5, 5, 5, 5}, 13, 1, 0, false, false, true},
		{"Vigor for a crossbow", map[string]string{OptQuickBase: QuickAttribute}, "crossbow", []int{2, 2, 2, 2}, 9, 1, 1, false, false, false},
		{"Agility for a firearm", map[string]string{OptQuickBase: QuickAttribute}, "arquebus", []int{2, 2, 2, 2}, 11, 1, 2, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := loader(t, tc.opts)
			events, st := do(t, st, gm, cmd(CmdReload, "ana", "weapon", tc.weapon, "quick", true), tc.faces...)
			r := rollOf(t, events, "Quick loading")
			eq(t, "dice", dieCount(r), 4)
			eq(t, "skill", r.Target, tc.skill)
			var rl Reloaded
			decodeOne(t, events, KindReload, &rl)
			eq(t, "actions spent", rl.Actions, tc.actions)
			l := st.Fighters["ana"].Loads[tc.weapon]
			eq(t, "still to go", l.Need, tc.need)
			eq(t, "loaded", l.Loaded, tc.loaded)
			eq(t, "jammed", l.Jammed, tc.jammed)
			eq(t, "broken", l.Broken, tc.broken)
		})
	}
}

// An ordinary reload takes its full time, spread over turns; a jam is
// cleared by a full reload, never a quick one.
func TestReload(t *testing.T) {
	st := loader(t, nil)
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow"))
	eq(t, "need", st.Fighters["ana"].Loads["crossbow"].Need, 3)
	eq(t, "the turn passed", st.Current(), "orc")
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	eq(t, "quick in the middle", fail(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow", "quick", true), fray.EILLEGAL),
		"quick loading is tried when a reload starts; the Crossbow's reload is under way")
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow"))
	l := st.Fighters["ana"].Loads["crossbow"]
	eq(t, "loaded", l.Loaded, true)
	eq(t, "a loaded bow", fail(t, duelists(t, nil, point{2, 0}, false), gm, cmd(CmdReload, "ana", "weapon", "bow"), fray.EILLEGAL), "the Bow is loaded")

	st = loader(t, nil)
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow", "quick", true), 5, 5, 5, 5)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	eq(t, "jammed: no shot", fail(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "crossbow"), fray.EILLEGAL), "the Crossbow is jammed: reload it to clear it")
	eq(t, "jammed: no quick loading", fail(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow", "quick", true), fray.EILLEGAL),
		"a jammed Crossbow is cleared by a full reload: no quick loading")
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow"))
	eq(t, "clearing", st.Fighters["ana"].Loads["crossbow"].Need, 1)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "orc"), 1, 1)
	_, st = do(t, st, gm, cmd(CmdReload, "ana", "weapon", "crossbow"))
	l = st.Fighters["ana"].Loads["crossbow"]
	eq(t, "cleared and loaded", l.Loaded && !l.Jammed, true)
	eq(t, "no reload for a sword", fail(t, st, gm, cmd(CmdReload, "ana", "weapon", "unarmed"), fray.EILLEGAL), "the Unarmed needs no reloading")
}
