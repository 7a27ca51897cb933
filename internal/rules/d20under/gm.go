package d20under

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// GM commands: rulings that name no combatant (spec e). The starting
// distance and any change of it, conditions the GM sees (blindness,
// darkness, a fall), an Advantage the terrain or an opening gives,
// overrides of Toughness, Experience, Corruption, ammunition and items (a
// herbal cure a Prepared hero turns out to carry), hidden
// traps (traps.go), surprise and the start of the first round
// (surprise.go, initiative.go).

func decideSetDistance(tx *Tx, cmd engine.Command) error {
	var args struct {
		Sides string `json:"sides"` // "a+b", as offered
		A     string `json:"a"`     // or the two sides apart
		B     string `json:"b"`
		Rung  string `json:"rung"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if args.Sides != "" {
		args.A, args.B, _ = strings.Cut(args.Sides, "+")
	}
	st := tx.State
	if st.Model != board.Ladder {
		return fray.Errorf(fray.EILLEGAL, "distance categories are not in use: this fight is on a grid")
	}
	if st.Side(args.A) == nil || st.Side(args.B) == nil || args.A == args.B {
		return fray.Errorf(fray.EINVALID, "choose two different sides")
	}
	r, ok := rungByName(args.Rung)
	if !ok {
		return fray.Errorf(fray.EINVALID, "%q must be Close, Short, Medium, Long or Extreme", args.Rung)
	}
	var set []Change
	set = append(set, change.Gap.To(args.A, args.B, rungs[r].Moves))
	// Everyone starts again from the lines.
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		other := args.B
		if c.Side == args.B {
			other = args.A
		} else if c.Side != args.A {
			continue
		}
		if f.Ahead[other] != 0 {
			set = append(set, change.Ahead.To(c.ID, other, 0))
		}
	}
	text := fmt.Sprintf("The GM sets %s and %s at %s distance (%s to engage).", st.sideName(args.A), st.sideName(args.B), rungs[r].Name, movesWords(rungs[r].Moves))
	return note(tx, KindDistance, "", text, Note{What: rungs[r].Name, Set: set})
}

// GM-set conditions.
var gmConditions = []flag{change.Prone, change.Blinded, change.Critical, change.Roused, change.Lame, change.Terrified}

// gmConditionChoices are gmConditions as the GM's select offers them, made
// once: every view's action shares them (nothing changes a view's choices
// in place).
var gmConditionChoices = func() []engine.Choice {
	out := make([]engine.Choice, 0, len(gmConditions))
	for _, c := range gmConditions {
		out = append(out, engine.Choice{Value: c.k, Label: label(c.k)})
	}
	return out
}()

func decideSetCondition(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string `json:"combatant"`
		Condition string `json:"condition"`
		On        bool   `json:"on"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(gmConditions, func(c flag) bool { return c.k == args.Condition })
	if i < 0 {
		var names []string
		for _, c := range gmConditions {
			names = append(names, c.k)
		}
		return fray.Errorf(fray.EINVALID, "condition %q must be one of %s", args.Condition, strings.Join(names, ", "))
	}
	word := "no longer " + args.Condition
	if args.On {
		word = args.Condition
	}
	text := fmt.Sprintf("The GM rules %s %s.", st.NameOf(f.ID), word)
	return emit(tx, KindCondition, "", text, Note{Fighter: f.ID, What: args.Condition, Value: boolInt(args.On),
		Set: []Change{gmConditions[i].To(f.ID, args.On)}}, []string{f.ID})
}

// adjustable are the values the GM may override on any combatant
// (ammunition is per weapon: ammunition below).
func (s *State) adjustable() []engine.Choice { return adjustableChoices }

// adjustableChoices are made once: every view's action shares them.
var adjustableChoices = func() []engine.Choice {
	out := []engine.Choice{{Value: "toughness", Label: "Toughness"}, {Value: "xp", Label: "Experience"},
		{Value: "permanent", Label: "Permanent Corruption"}, {Value: "temporary", Label: "Temporary Corruption"}}
	for _, it := range itemNames {
		out = append(out, engine.Choice{Value: "item:" + it, Label: label(it)})
	}
	return slices.Clip(out)
}()

// ammunition are the weapons whose ammunition the GM may set, as
// "combatant:weapon": one select, so a combatant is never offered with a
// weapon it does not carry.
func (s *State) ammunition() []engine.Choice {
	var out []engine.Choice
	for _, c := range s.Combatants {
		if c.Out {
			continue
		}
		for _, w := range s.Fighters[c.ID].Weapons {
			if k := w.kind(); k.Ammo || k.Units {
				out = append(out, engine.Choice{Value: c.ID + ":" + w.ID, Label: c.Name + "'s " + w.Name})
			}
		}
	}
	return out
}

// decideSetAmmo is the GM setting what is left of one combatant's
// ammunition (a quiver's counter, or thrown weapons in hand).
func decideSetAmmo(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"` // "combatant:weapon"
		Value  int    `json:"value"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	id, weapon, _ := strings.Cut(args.Weapon, ":")
	f, err := tx.Named(id)
	if err != nil {
		return err
	}
	if args.Value < 0 || args.Value > 99 {
		return fray.Errorf(fray.EINVALID, "value must be 0–99")
	}
	return setAmmo(tx, f, weapon, args.Value)
}

// setAmmo sets f's ammunition for weapon.
func setAmmo(tx *Tx, f *Fighter, weapon string, v int) error {
	st := tx.State
	name := st.NameOf(f.ID)
	w, ok := f.Sheet.Weapon(weapon)
	k := w.kind()
	if !ok || !k.Ammo && !k.Units {
		return fray.Errorf(fray.EILLEGAL, "%s has no %s with ammunition", name, weapon)
	}
	what, counter := "units:"+weapon, change.Units
	if k.Ammo {
		what, counter, v = "ammo:"+weapon, change.Ammo, min(v, AmmoCounter)
	}
	return emit(tx, KindAdjusted, "", fmt.Sprintf("The GM sets %s's %s ammunition to %d.", name, w.Name, v), Note{Fighter: f.ID, What: what, Value: v,
		Set: []Change{counter.To(f.ID, weapon, v)}}, []string{f.ID})
}

func decideAdjust(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string `json:"combatant"`
		What      string `json:"what"`
		Value     int    `json:"value"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	key, sub, _ := strings.Cut(args.What, ":")
	if key != "ammo" && key != "units" && !slices.ContainsFunc(st.adjustable(), func(c engine.Choice) bool { return c.Value == args.What }) {
		return fray.Errorf(fray.EINVALID, "%q cannot be adjusted", args.What)
	}
	if args.Value < 0 || args.Value > 999 {
		return fray.Errorf(fray.EINVALID, "value must be 0–999")
	}
	name := st.NameOf(f.ID)
	switch key {
	case "toughness":
		v := min(args.Value, f.MaxToughness)
		switch {
		case v > f.Toughness:
			return heal(tx, f, v-f.Toughness, "", "the GM's ruling")
		case v == f.Toughness:
			// The GM's ruling that it stays, logged: a form sent as it is
			// (any value at or above the maximum, for a hale fighter).
			return emit(tx, KindAdjusted, "", fmt.Sprintf("The GM keeps %s's Toughness at %d.", name, v), Note{Fighter: f.ID, What: key, Value: v}, []string{f.ID})
		}
		if err := emit(tx, KindAdjusted, "", fmt.Sprintf("The GM sets %s's Toughness to %d.", name, v), Note{Fighter: f.ID, What: key, Value: v,
			Set: []Change{change.Toughness.To(f.ID, v)}}, []string{f.ID}); err != nil {
			return err
		}
		if v == 0 {
			return fallen(tx, f, false)
		}
		return nil
	case "ammo", "units": // set-ammunition's, still read here
		return setAmmo(tx, f, sub, args.Value)
	}
	if key == "item" {
		v := min(args.Value, 99)
		return emit(tx, KindAdjusted, "", fmt.Sprintf("The GM gives %s %d %s.", name, v, label(sub)), Note{Fighter: f.ID, What: args.What, Value: v,
			Set: []Change{change.Item.To(f.ID, sub, v)}}, []string{f.ID})
	}
	adjusted := map[string]struct {
		label string
		value number
	}{"xp": {"Experience", change.XP}, "permanent": {"permanent Corruption", change.Permanent}, "temporary": {"temporary Corruption", change.Temporary}}
	v := adjusted[key]
	return emit(tx, KindAdjusted, "", fmt.Sprintf("The GM sets %s's %s to %d.", name, v.label, args.Value), Note{Fighter: f.ID, What: key, Value: args.Value,
		Set: []Change{v.value.To(f.ID, args.Value)}}, []string{f.ID})
}

// decideGrantAdvantage is the GM's ruling that one combatant has an
// Advantage over another until the round ends (high ground, an opening,
// attacking from hiding), as a Knock Out needs.
func decideGrantAdvantage(tx *Tx, cmd engine.Command) error {
	var args struct {
		Attacker string `json:"attacker"`
		Target   string `json:"target"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	a, t := st.Fighters[args.Attacker], st.Fighters[args.Target]
	if a == nil || t == nil || !st.fighting(args.Attacker) || st.Combatant(args.Target).Out {
		return fray.Errorf(fray.ENOTFOUND, "choose two combatants in the fight")
	}
	if !st.enemies(a.ID, t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s and %s are on the same side", st.NameOf(a.ID), st.NameOf(t.ID))
	}
	if a.Edge[t.ID] > 0 {
		return fray.Errorf(fray.EILLEGAL, "%s has that Advantage already", st.NameOf(a.ID))
	}
	text := fmt.Sprintf("The GM gives %s an Advantage over %s this round.", st.NameOf(a.ID), st.NameOf(t.ID))
	return emit(tx, KindAdvantage, "", text, Note{Fighter: a.ID, Target: t.ID, What: "granted", Value: 1,
		Set: []Change{change.Edge.To(a.ID, t.ID, 1)}}, []string{a.ID, t.ID})
}
