package d6bands

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Reloading and quick loading (seed: "Quick loading requires a 4D check…";
// spec c10). A weapon with a reload time is empty after each shot and
// takes that many actions to reload, spread over turns if need be. Who
// starts a reload may try quick loading: a 4D check with the weapon's
// skill (quick-load-base: or Agility, Vigor for crossbows):
//   - critical success: reloaded at once, no action taken;
//   - success: the reload takes half the time, rounded up;
//   - failure: half the time is wasted — the reload takes half again as
//     long;
//   - fumble: a foiled loading, an automatic Reliability failure: the
//     weapon jams (reliability-failure: or breaks for the fight).
//
// A jammed weapon is cleared by a full, normal reload.

// KindReload is a reload (or part of one).
const KindReload = "reload"

// Reloaded is the data of a reload event: actions spent, actions still
// needed, and what became of the weapon.
type Reloaded struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
	Actions int    `json:"actions"`
	Need    int    `json:"need"`
	Loaded  bool   `json:"loaded,omitempty"`
	Jammed  bool   `json:"jammed,omitempty"`
	Broken  bool   `json:"broken,omitempty"`
}

// quickValue is the value quick loading with w checks.
func quickValue(st *State, f *Fighter, w *Weapon) (string, int) {
	if kit.Opt(&st.Base, OptQuickBase) == QuickAttribute {
		if w.Class == ClassCrossbow {
			return "Vigor", f.Attributes["vigor"]
		}
		return "Agility", f.Attributes["agility"]
	}
	return skillName(w.Skill), f.Skill(&st.Base, w.Skill)
}

// canReload reports why f cannot reload w now (nil: it can).
func canReload(st *State, f *Fighter, w *Weapon) error {
	l := f.Loads[w.ID]
	switch {
	case l == nil:
		return fray.Errorf(fray.EILLEGAL, "the %s needs no reloading", w.Name)
	case l.Broken:
		return fray.Errorf(fray.EILLEGAL, "the %s is broken", w.Name)
	case l.Loaded && !l.Jammed:
		return fray.Errorf(fray.EILLEGAL, "the %s is loaded", w.Name)
	}
	return need(st, f, 1, "Reloading")
}

// canQuickLoad reports whether f could quick-load w: only when starting
// an ordinary reload.
func canQuickLoad(f *Fighter, w *Weapon) bool {
	l := f.Loads[w.ID]
	return l != nil && !l.Broken && !l.Jammed && !l.Loaded && l.Need == 0
}

func decideReload(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"`
		Quick  bool   `json:"quick"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	w := f.Weapon(args.Weapon)
	if w == nil {
		return fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), args.Weapon)
	}
	if err := canReload(st, f, w); err != nil {
		return err
	}
	l := f.Loads[w.ID]
	if args.Quick && !canQuickLoad(f, w) {
		if l.Jammed {
			return fray.Errorf(fray.EILLEGAL, "a jammed %s is cleared by a full reload: no quick loading", w.Name)
		}
		return fray.Errorf(fray.EILLEGAL, "quick loading is tried when a reload starts; the %s's reload is under way", w.Name)
	}
	name := st.NameOf(f.ID)
	r := Reloaded{Fighter: f.ID, Weapon: w.ID, Need: l.Need}
	var roll []dice.Roll
	lead := ""
	if l.Need == 0 {
		r.Need = w.Reload
		if args.Quick {
			skill, value := quickValue(st, f, w)
			res, err := rollCheck(tx, f, Check{Label: "Quick loading the " + w.Name, Skill: skill, Value: value, Dice: 4})
			if err != nil {
				return err
			}
			roll = append(roll, res.Roll)
			half := (w.Reload + 1) / 2
			switch {
			case res.Crit:
				r.Need, r.Loaded = 0, true
				return tx.Emits(KindReload, f.ID, fmt.Sprintf("%s quick-loads the %s in no time: %s.", name, w.Name, res.Words()), r, roll...)
			case res.Success:
				r.Need = half
				lead = fmt.Sprintf("%s quick-loads the %s (%s): half the time, %s. ", name, w.Name, res.Words(), actionCount(half))
			case res.Fumble:
				r.Actions, r.Need = 1, 0
				text := fmt.Sprintf("%s fouls the loading of the %s (%s): a Reliability failure, the weapon jams.", name, w.Name, res.Words())
				if kit.Opt(&st.Base, OptReliability) == ReliabilityBroken {
					r.Broken = true
					text = fmt.Sprintf("%s fouls the loading of the %s (%s): a Reliability failure, the weapon is ruined for the fight.", name, w.Name, res.Words())
				} else {
					r.Jammed = true
				}
				return tx.Emits(KindReload, f.ID, text, r, roll...)
			default:
				r.Need = w.Reload + half
				lead = fmt.Sprintf("%s fails to quick-load the %s (%s): half the reload time is wasted, %s in all. ", name, w.Name, res.Words(), actionCount(r.Need))
			}
		}
	}
	r.Actions = min(r.Need, f.Actions)
	r.Need -= r.Actions
	r.Loaded = r.Need == 0
	what := "reloads"
	if l.Jammed {
		what = "clears and reloads"
	}
	text := lead + fmt.Sprintf("%s %s the %s (%s)", name, what, w.Name, actionCount(r.Actions))
	if r.Loaded {
		text += ": loaded."
	} else {
		text += fmt.Sprintf(": %s still to go.", actionCount(r.Need))
	}
	return tx.Emits(KindReload, f.ID, text, r, roll...)
}

func applyReload(st *State, d Reloaded) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	l := f.Loads[d.Weapon]
	if l == nil {
		return fmt.Errorf("d6-bands: %s's %s does not reload", d.Fighter, d.Weapon)
	}
	f.Actions -= d.Actions
	f.Aim = nil
	l.Need = d.Need
	switch {
	case d.Broken:
		l.Broken, l.Loaded, l.Need = true, false, 0
	case d.Jammed:
		l.Jammed, l.Loaded, l.Need = true, false, 0
	case d.Loaded:
		l.Loaded, l.Jammed, l.Need = true, false, 0
	}
	return nil
}
