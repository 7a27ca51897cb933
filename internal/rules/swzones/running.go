package swzones

import (
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Running (seed 3) is a trait roll, Agility or Athletics, declared at the
// start of a turn (before any Movement is spent or any action taken): a
// success gives 1 more Movement point and each raise 1 more. Every other
// action that turn is at −2; each unspent Movement point given up cancels 1
// point of it, at most 2, committed with the first other action roll
// (run-refund). Rising from prone is free (rise-cost) but gives −2 to
// Running rolls that turn. A fighter who disengages may run in the same
// action (movement.go). Running is movement, not an action: a Shaken fighter
// may run, and it takes no multi-action penalty.

// Run is the data of a run event.
type Run struct {
	Fighter string `json:"fighter"`
	Trait   string `json:"trait"`
	Mods    []Mod  `json:"mods"`
	Total   int    `json:"total"`
	Result  string `json:"result"`
	Gained  int    `json:"gained"`           // extra Movement points
	Mid     bool   `json:"mid,omitempty"`    // made in the middle of a disengage
	Reroll  bool   `json:"reroll,omitempty"` // a Benny reroll of the roll before it
}

// runStep is a Running roll to make.
type runStep struct {
	Fighter string `json:"fighter"`
	Trait   string `json:"trait"`
	Mid     bool   `json:"mid,omitempty"`
	Reroll  bool   `json:"reroll,omitempty"`
}

// runTrait picks the Running roll's trait: the one named, or the better of
// Agility and Athletics.
func runTrait(f *Fighter, named string) (string, error) {
	switch named {
	case "agility", skillAthletics:
		return named, nil
	case "":
		a, b := f.Trait("agility"), f.Trait(skillAthletics)
		if b.Sides+2*b.Bonus > a.Sides+2*a.Bonus {
			return skillAthletics, nil
		}
		return "agility", nil
	}
	return "", fray.Errorf(fray.EINVALID, "the Running roll uses agility or athletics, not %q", named)
}

func decideRun(tx *Tx, cmd engine.Command) error {
	var args struct {
		Trait string `json:"trait"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canRun(st, f); err != nil {
		return err
	}
	trait, err := runTrait(f, args.Trait)
	if err != nil {
		return err
	}
	return runRoll(tx, runStep{Fighter: f.ID, Trait: trait})
}

// canRun checks that f may declare Running now: at the start of the turn.
func canRun(st *State, f *Fighter) error {
	switch {
	case f.Ran:
		return fray.Errorf(fray.EILLEGAL, "%s has already made a Running roll this turn", st.NameOf(f.ID))
	case f.Spent > 0 || f.Actions > 0 || f.Defend > 0:
		return fray.Errorf(fray.EILLEGAL, "Running is declared at the start of the turn, before moving or acting")
	}
	return movable(st, f)
}

// runRoll makes a Running roll. A failed roll may be rerolled with a Benny.
func runRoll(tx *Tx, s runStep) error {
	st := tx.State
	f := st.Fighters[s.Fighter]
	if st.Combatant(f.ID).Out {
		return nil
	}
	var extra []Mod
	if f.Rose {
		extra = append(extra, Mod{Source: "rose from prone", Value: -2})
	}
	c := check(f, s.Trait, TargetNumber, extra...)
	c.Label = "Running (" + traitLabel(s.Trait) + ")"
	o := rollTrait(tx.Dice, c)
	gained := 0
	if o.Success {
		gained = 1 + o.Raises
	}
	text := fmt.Sprintf("%s runs: %s %d (%s) — +%d Movement (%s); −2 to every other action this turn.",
		st.NameOf(f.ID), traitLabel(s.Trait), o.Total, o.Roll.Result, gained, mpLeft(f.MP+gained))
	if s.Reroll {
		text = "Reroll: " + text
	}
	d := Run{Fighter: f.ID, Trait: s.Trait, Mods: nonNil(o.Mods), Total: o.Total, Result: o.Roll.Result, Gained: gained, Mid: s.Mid, Reroll: s.Reroll}
	if err := tx.Emits(KindRun, f.ID, text, d, o.Roll); err != nil {
		return err
	}
	if !o.Success && !o.CritFail && st.offers(OptRerollOffers, f.ID) {
		s.Reroll = true
		return offerReroll(tx, fmt.Sprintf("failed the Running roll (%d)", o.Total), rerollCtx{Run: &s})
	}
	return nil
}

func applyRun(st *State, d Run) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Ran, f.RunPenalty = true, -2
	f.MP += d.Gained
	return nil
}

// Prone is the data of a prone event: going prone or rising.
type Prone struct {
	Fighter string `json:"fighter"`
	Prone   bool   `json:"prone"`
	Cost    int    `json:"cost,omitempty"` // Movement spent rising
}

// decideProne drops prone (a free action) or rises (free, or 1 MP with
// rise-cost; −2 to Running rolls this turn).
func decideProne(tx *Tx, cmd engine.Command, down bool) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if down {
		if f.Prone {
			return fray.Errorf(fray.EILLEGAL, "%s is already prone", st.NameOf(f.ID))
		}
		text := fmt.Sprintf("%s drops prone (−2 Fighting and Parry; Medium cover against shots from other zones).", st.NameOf(f.ID))
		return tx.Emits(KindProne, f.ID, text, Prone{Fighter: f.ID, Prone: true})
	}
	if !f.Prone {
		return fray.Errorf(fray.EILLEGAL, "%s is not prone", st.NameOf(f.ID))
	}
	cost := riseCost(st)
	if err := needMP(f, cost); err != nil {
		return err
	}
	text := fmt.Sprintf("%s rises (−2 to Running rolls this turn; %s).", st.NameOf(f.ID), mpLeft(f.MP-cost))
	return tx.Emits(KindProne, f.ID, text, Prone{Fighter: f.ID, Cost: cost})
}

func riseCost(st *State) int {
	n, _ := strconv.Atoi(kit.Opt(&st.Base, OptRiseCost))
	return n
}

func applyProne(st *State, d Prone) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Prone = d.Prone
	if !d.Prone {
		f.Rose = true
		f.MP -= d.Cost
	}
	return nil
}
