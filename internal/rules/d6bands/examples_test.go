package d6bands

import (
	"fmt"
	"sort"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	return enginetest.Examples(t, "d6-bands-", engine.DecodeSetup) // the import format, strictly
}

// The examples together use every feature of the battlefield and the
// sheets: every terrain and cover level, line-of-sight blockers, water,
// crowds, contact groups (one a wrestling match), a combatant off the map,
// a prone one, a hidden one, a rider, long, area, reloading weapons of
// every class that matters, and weapons reaching Extreme range.
func TestExamplesUseEveryFeature(t *testing.T) {
	have := map[string]bool{}
	for name, setup := range loadExamples(t) {
		st := newState(t, setup)
		var pcs, npcs int
		for _, c := range st.Combatants {
			if c.PC {
				pcs++
			} else {
				npcs++
			}
			if c.Hidden {
				have["hidden combatant"] = true
			}
		}
		if pcs == 0 || npcs == 0 {
			t.Errorf("%s: want PCs and NPCs", name)
		}
		for _, c := range st.Cells {
			have[fmt.Sprintf("dash %d", c.Dash)] = true
			have[fmt.Sprintf("impassable %d", c.Impassable)] = true
			have[fmt.Sprintf("cover %d", c.Cover)] = true
			have["water"] = have["water"] || c.Water && c.Impassable > 0
			have["blocks"] = have["blocks"] || c.Blocks
			have["crowd"] = have["crowd"] || c.Crowd
		}
		groups := map[string]int{}
		for _, f := range st.Fighters {
			have["off the map"] = have["off the map"] || f.Off
			have["prone"] = have["prone"] || f.Prone
			have["mounted"] = have["mounted"] || f.Mounted
			have["bulk"] = have["bulk"] || f.Bulk > 0
			have["medicine"] = have["medicine"] || f.Skills["medicine"] > 0
			if f.Group != "" {
				groups[f.Group]++
			}
			for _, w := range f.Weapons {
				have["long weapon"] = have["long weapon"] || w.Long
				have["area weapon"] = have["area weapon"] || (w.Area && w.Terror > 0)
				have["reload"] = have["reload"] || w.Reload > 0
				have["firearm"] = have["firearm"] || w.Class == ClassFirearm
				have["crossbow"] = have["crossbow"] || w.Class == ClassCrossbow
				have["bow"] = have["bow"] || w.Class == ClassBow
				have[fmt.Sprintf("extreme %dD", w.Extreme())] = true
			}
		}
		for _, n := range groups {
			have["contact group"] = true
			have["wrestling match"] = have["wrestling match"] || n >= 3
		}
	}
	for _, want := range []string{"dash 3", "dash 4", "dash 5", "impassable 4", "impassable 5", "impassable 6", "cover 1", "cover 2",
		"cover 3", "water", "blocks", "crowd", "hidden combatant", "off the map", "prone", "mounted", "bulk", "medicine",
		"contact group", "wrestling match", "long weapon", "area weapon", "reload", "firearm", "crossbow", "bow", "extreme 5D", "extreme 6D"} {
		if !have[want] {
			t.Errorf("no example has %s", want)
		}
	}
}

// bot plays the examples as the GM, who may act for everyone, picking
// attacks more than anything else. A refusal must be clear, and only the
// GM's own set-cell and adjust (which offer every square and every value)
// may call a command invalid.
var bot = enginetest.Bot{
	Weights: map[string]int{
		CmdShoot: 12, CmdStrike: 12, CmdAreaFire: 4, CmdMove: 6, CmdDash: 3, CmdAim: 2, CmdReload: 5, CmdStealth: 2, CmdSlipAway: 1,
		CmdFirstAid: 2, CmdDuel: 4, CmdStand: 6, CmdEndTurn: 2, CmdSetCell: 1, CmdPlace: 1, CmdAdjust: 1,
	},
	Texts: []string{"", "a ruling", "Smoke"},
	Refusable: func(c engine.Command, err error) bool {
		return fray.ErrorCode(err) != fray.EINVALID || c.Kind == CmdSetCell || c.Kind == CmdAdjust
	},
	ViewsEachStep: true,
}

// TestExamplesPlayThrough plays every example to its end, several times,
// picking only among the advertised actions.
func TestExamplesPlayThrough(t *testing.T) {
	kinds := map[string]int{}
	refusals := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				played := bot.Play(t, New(), setup, seed)
				for _, ev := range played.Log {
					kinds[ev.Kind]++
				}
				for k, n := range played.Refusals {
					refusals[k] += n
				}
			})
		}
	}
	for _, k := range []string{KindMoved, KindStealth, KindAttack, KindHarm, KindBled, KindReload, KindDefense, KindAreaFire, KindTerror,
		KindDuel, KindFirstAid, KindAim, KindStray, engine.KindCombatantDown, engine.KindCombatantOut, engine.KindEnded, engine.KindDecisionsRevealed} {
		if kinds[k] == 0 {
			t.Errorf("no %s in any play-through", k)
		}
	}
	var lines []string
	for k, n := range refusals {
		lines = append(lines, fmt.Sprintf("%4d %s", n, k))
	}
	sort.Strings(lines)
	for _, l := range lines {
		t.Log("refused:", l)
	}
}
