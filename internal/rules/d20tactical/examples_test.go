package d20tactical

import (
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	return enginetest.Examples(t, "d20-tactical-", engine.DecodeSetup)
}

// TestExamplesBuild: every example builds, and together they use every
// feature of the battlefield and the stat block.
func TestExamplesBuild(t *testing.T) {
	seen := map[string]bool{}
	for name, setup := range loadExamples(t) {
		st := newState(t, setup)
		for _, c := range st.Grid.Cells {
			switch {
			case c.Wall:
				seen["wall"] = true
			case c.Pit:
				seen["pit"] = true
			}
			if c.Obstacle != "" {
				seen["obstacle "+c.Obstacle] = true
			}
			if c.Material != 0 {
				seen["material"] = true
			}
			if c.Difficult {
				seen["difficult"] = true
			}
			if c.JumpDC != 0 {
				seen["jumpDC"] = true
			}
		}
		for _, c := range st.Combatants {
			f := st.Fighters[c.ID]
			seen["posture "+f.Posture] = true
			if f.Surprised {
				seen["surprised"] = true
			}
			if c.Hidden {
				seen["hidden"] = true
			}
			if c.PC {
				seen["pc"] = true
			} else {
				seen["npc"] = true
			}
			if f.Sheet.Dodge > 0 {
				seen["dodge"] = true
			}
			if a := f.Sheet.Armor; a != nil {
				seen["armour"] = true
				if len(a.DC) > 0 {
					seen["armour DC"] = true
				}
				if f.ArmorWorn() {
					seen["worn armour"] = true
				}
			}
			if f.Sheet.Wounds > 0 {
				seen["wounds"] = true
			}
			if _, ok := f.Sheet.Skills["treatInjury"]; ok {
				seen["treat injury"] = true
			}
			for _, w := range f.Weapons {
				switch {
				case w.Auto:
					seen["auto"] = true
				case w.Burst:
					seen["burst"] = true
				case w.Thrown:
					seen["thrown"] = true
				case w.Ranged():
					seen["ranged"] = true
				default:
					seen["melee"] = true
				}
				if w.Reach > Square {
					seen["reach"] = true
				}
				if w.Crit != 0 && w.Crit < 20 {
					seen["crit range"] = true
				}
				if w.Fumble > 1 {
					seen["fumble range"] = true
				}
			}
		}
		for k, v := range setup.Options {
			if o := optionByName(k); o != nil && v != o.Default {
				seen["option "+k] = true
			}
		}
		_ = name
	}
	for _, want := range []string{"wall", "pit", "obstacle low", "obstacle half", "obstacle high", "material", "difficult", "jumpDC",
		"posture standing", "posture crouched", "posture prone", "surprised", "hidden", "pc", "npc", "dodge", "armour", "armour DC",
		"worn armour", "wounds", "treat injury", "auto", "thrown", "ranged", "melee", "reach", "crit range", "fumble range",
		"option " + OptCoverRuling, "option " + OptEffectDuration, "option " + OptEndurance, "option " + OptCritConfirm} {
		if !seen[want] {
			t.Errorf("no example uses %s", want)
		}
	}
}

func optionByName(name string) *engine.OptionSpec {
	for i := range optionSpecs {
		if optionSpecs[i].Name == name {
			return &optionSpecs[i]
		}
	}
	return nil
}

// TestExamplesPlayThrough plays every example to its end, several times,
// as the GM with a bot that picks only among the actions offered, filling
// their fields at random, and answers every decision. Every offered action
// must be accepted or refused with a clear error (never an internal one),
// and no answer refused; every result replays.
func TestExamplesPlayThrough(t *testing.T) {
	bot := enginetest.Bot{
		// The weights favour fighting, so that fights end.
		Weights: map[string]int{
			CmdAttack: 30, CmdFullAttack: 8, CmdCharge: 8, CmdMove: 6, CmdStep: 1, CmdRun: 2, CmdPosture: 2, CmdJump: 2,
			CmdObject: 1, CmdReload: 10, CmdClearJam: 10, CmdPickUp: 10, CmdTreat: 4, CmdDelay: 1, CmdReady: 2, CmdInterrupt: 2,
			CmdEndTurn: 2, CmdSetCover: 1, CmdDamage: 1, CmdHeal: 1, CmdArmour: 1, CmdLifePoints: 1, CmdClearEffects: 1,
			engine.KindReveal: 1,
		},
		Texts:     []string{"a thing"},
		Refusable: func(c engine.Command, _ error) bool { return c.Kind != engine.KindAnswer },
	}
	seen := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				for k, n := range bot.Play(t, New(), setup, seed).Done {
					seen[k] += n
				}
			})
		}
	}
	for _, k := range []string{CmdAttack, CmdMove, CmdCharge, CmdReload, "answer:" + DecCritical, "answer:" + DecCover,
		"event:" + KindFumble, "event:" + KindDodge, "event:" + KindStabilize, "event:" + engine.KindEnded} {
		if seen[k] == 0 {
			t.Errorf("the bot never saw %s", k)
		}
	}
	t.Logf("seen: %v", seen)
}
