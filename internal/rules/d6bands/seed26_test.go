package d6bands

import (
	"strings"
	"testing"
)

// TestNoCoverInCloseContact: seed "Cover": "Cover grants no benefit in
// close contact." Ana (0,0) shoots the orc two bands away (2,0: the bow's
// optimal band, 4D) in medium cover (+2D): 6D when the orc stands alone;
// 4D when the orc is in close contact with the ogre — though Ana is not
// in their contact group. (Fired into close contact, not in it: no
// Defense Pool.)
func TestNoCoverInCloseContact(t *testing.T) {
	medium := cellAt{2, 0, map[string]any{"cover": "2"}}
	for _, tc := range []struct {
		name    string
		contact bool
		dice    int
	}{
		{"alone in medium cover: 4D + 2D", false, 6},
		{"in close contact with the ogre: 4D, no cover", true, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := ""
			if tc.contact {
				g = "g2"
			}
			st := start(t, newState(t, newSetup(nil, grid(6, 6, medium),
				spec{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30},
				spec{ID: "orc", Side: "foes", X: 2, Y: 0, Group: g, Init: 10},
				spec{ID: "ogre", Side: "foes", X: 2, Y: 0, Group: g, Init: 5},
			)))
			faces := append(ones(tc.dice), 1, 1) // the check, then the bow's 2D damage
			events, _ := do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", ModeAimed), faces...)
			var r = events[0].Rolls
			for _, e := range events {
				if e.Kind == KindAttack {
					r = e.Rolls
				}
			}
			eq(t, "dice", dieCount(r[0]), tc.dice)
		})
	}
}

// TestQuickLoadFailureIsNoFumble: only a failure by 7 or more is a fumble
// (a Reliability failure: it jams). Ana's crossbow (Crossbows 13): 4D of
// 16 misses by 3 — half the time wasted, said so, no "fumble", no jam; 20
// misses by 7 — a fumble, jammed.
func TestQuickLoadFailureIsNoFumble(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faces  []int
		words  string
		fumble bool
	}{
		{"missed by 3", []int{4, 4, 4, 4}, "fails to quick-load the Crossbow (missed by 3)", false},
		{"missed by 7", []int{5, 5, 5, 5}, "fouls the loading of the Crossbow (fumble, missed by 7)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events, st := do(t, loader(t, nil), gm, cmd(CmdReload, "ana", "weapon", "crossbow", "quick", true), tc.faces...)
			text := find(events, KindReload)[0].Text
			if !strings.Contains(text, tc.words) || strings.Contains(text, "fumble") != tc.fumble {
				t.Errorf("log %q, want %q and fumble said %v", text, tc.words, tc.fumble)
			}
			eq(t, "jammed", st.Fighters["ana"].Loads["crossbow"].Jammed, tc.fumble)
		})
	}
}
