package d20under

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Clarifications (seed: Clarifications; spec c19) and the healing of
// First Aid. Medicus heals 1d4 (a passed Cunning test; a herbal cure with
// it adds option medicus-cure-bonus), a herbal cure alone heals 1
// (movement.go). Quake: standard weapon damage, and a passed defence
// still takes half. Curse: concentration does not apply, so taking damage
// never breaks it, and defending is no action (in Fray it never is).
// Regeneration heals only during the creature's own turn, never while it
// is unconscious or dying. Monstrous-trait values are rolled (option
// trait-values). A familiar or companion shares its master's damage, after
// the Pain Threshold counted the whole (damage.go).

// decideFirstAid is Medicus: a combat action on oneself or an ally within
// reach, a Cunning test, 1d4 Toughness.
func decideFirstAid(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
		Cure   bool   `json:"cure"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Level(AbMedicus) == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s does not know Medicus (a herbal cure heals 1 without it)", st.NameOf(f.ID))
	}
	to := f
	if args.Target != "" && args.Target != f.ID {
		if to, err = tx.Target(args.Target); err != nil {
			return err
		}
	}
	if st.enemies(f.ID, to.ID) || !st.nextTo(f.ID, to.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is not an ally within reach", st.NameOf(to.ID))
	}
	if to.Toughness >= to.MaxToughness && to.PoisonTurns == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s is not wounded", st.NameOf(to.ID))
	}
	if args.Cure && f.Items[ItemHerbalCure] <= 0 {
		return fray.Errorf(fray.EILLEGAL, "%s has no herbal cure left", st.NameOf(f.ID))
	}
	if f.Holding != "" || f.HeldBy != "" || st.engaged(f.ID) && f.ID != to.ID && !st.nextTo(f.ID, to.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is too busy to tend wounds", st.NameOf(f.ID))
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	o := rollTest(tx, st.plainTest(f.ID, Cunning, "Medicus", testCraft))
	if !o.Pass {
		return note(tx, KindAction, f.ID, fmt.Sprintf("%s's care does not help %s.", st.NameOf(f.ID), st.PublicNameOf(to.ID)), Note{Fighter: f.ID, Target: to.ID, What: "first aid", Set: set}, o.Roll)
	}
	if err := note(tx, KindAction, f.ID, fmt.Sprintf("%s tends %s's wounds.", st.NameOf(f.ID), st.PublicNameOf(to.ID)), Note{Fighter: f.ID, Target: to.ID, What: "first aid", Value: 1, Set: set}, o.Roll); err != nil {
		return err
	}
	d := tx.Dice.Die(4)
	n := d.Total()
	what := "Medicus"
	if args.Cure {
		n += kit.OptInt(&st.Base, OptMedicusCure)
		what = "Medicus and a herbal cure"
		if err := note(tx, KindItem, f.ID, st.NameOf(f.ID)+" adds a herbal cure.", Note{Fighter: f.ID, What: ItemHerbalCure, Set: []Change{change.Item.To(f.ID, ItemHerbalCure, f.Items[ItemHerbalCure]-1)}}); err != nil {
			return err
		}
	}
	if to.PoisonTurns > 0 {
		if err := note(tx, KindPoison, to.ID, st.PublicNameOf(to.ID)+"'s poison is drawn out.", Note{Fighter: to.ID, What: "cured", Set: []Change{change.PoisonDie.To(to.ID, 0), change.PoisonTurns.To(to.ID, 0)}}); err != nil {
			return err
		}
	}
	return heal(tx, to, n, f.ID, what, dieRoll("Medicus", f.ID, d))
}

// regenerate heals a creature with Regeneration at the start of its turn.
func regenerate(tx *Tx, f *Fighter) error {
	n := f.Trait(TrRegeneration)
	if n == 0 || f.Toughness >= f.MaxToughness || f.Dying || f.Unconscious > 0 {
		return nil
	}
	st := tx.State
	var rolls []dice.Roll
	if sides := st.traitSides(n); sides > 0 {
		who := ""
		if st.rolls(f.ID) {
			who = f.ID
		}
		d := tx.Dice.Die(sides)
		rolls = append(rolls, dieRoll("Regeneration", who, d))
		n = d.Total()
	}
	return heal(tx, f, n, f.ID, "Regeneration", rolls...)
}

// spellTarget checks a mystical power's target: an enemy in sight (the
// distance categories do not affect mystical powers).
func spellTarget(tx *Tx, f *Fighter, id, power string) (*Fighter, error) {
	st := tx.State
	if !slices.Contains(f.Powers, power) {
		return nil, fray.Errorf(fray.EILLEGAL, "%s does not know %s", st.NameOf(f.ID), label(power))
	}
	t, err := tx.Opponent(f.ID, id)
	if err != nil {
		return nil, err
	}
	if f.FullDefence || f.cowedBy(t.ID) || f.Holding != "" {
		return nil, fray.Errorf(fray.EILLEGAL, "%s may not attack %s now", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	if st.Model == board.Grid && !st.lineOfSight(f.ID, t.ID) && !st.adjacent(f.ID, t.ID) {
		return nil, fray.Errorf(fray.EILLEGAL, "%s cannot see %s", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	return t, nil
}

// corrupt is the temporary Corruption a mystical power costs: 1d4, or 1
// for a mystic of a tradition.
func corrupt(tx *Tx, f *Fighter, power string) error {
	st := tx.State
	n := 1
	var rolls []dice.Roll
	if !f.Tradition {
		who := ""
		if st.rolls(f.ID) {
			who = f.ID
		}
		d := tx.Dice.Die(4)
		n = d.Total()
		rolls = append(rolls, dieRoll("Corruption", who, d))
	}
	text := fmt.Sprintf("%s gains %d temporary Corruption from %s.", st.NameOf(f.ID), n, label(power))
	return note(tx, KindCorruption, f.ID, text, Note{Fighter: f.ID, What: power, Value: n, Set: []Change{change.Temporary.To(f.ID, f.Temporary+n)}}, rolls...)
}

// decideCurse casts Curse [Resolute←Resolute]: the victim has a second
// chance to fail every test while the mystic keeps it up with its combat
// action each turn.
func decideCurse(tx *Tx, cmd engine.Command) error {
	var args targetArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := spellTarget(tx, f, args.Target, PowerCurse)
	if err != nil {
		return err
	}
	if t.CursedBy != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is cursed already", st.NameOf(t.ID))
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	if f.Cursing != "" {
		set = append(set, change.CursedBy.To(f.Cursing, ""), change.Cursing.To(f.ID, ""))
	}
	tt, aRolls := st.opposedTest("Curse", f.ID, Resolute, testOther, nil, nil, t.ID, Resolute, testOther, nil)
	o := rollTest(tx, tt)
	text := fmt.Sprintf("%s's curse fails to take hold of %s.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
	if o.Pass == aRolls {
		set = append(set, change.CursedBy.To(t.ID, f.ID), change.Cursing.To(f.ID, t.ID))
		text = fmt.Sprintf("%s curses %s: a second chance to fail every test while the curse lasts.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
	}
	if err := emit(tx, KindCurse, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: "cast", Value: boolInt(o.Pass == aRolls), Set: set}, []string{t.ID}, o.Roll); err != nil {
		return err
	}
	return corrupt(tx, f, PowerCurse)
}

// decideEndCurse lets a curse go (free).
func decideEndCurse(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Cursing == "" {
		return fray.Errorf(fray.EILLEGAL, "%s keeps no curse", st.NameOf(f.ID))
	}
	t := f.Cursing
	return note(tx, KindCurse, f.ID, st.NameOf(f.ID)+" lifts the curse from "+st.PublicNameOf(t)+".", Note{Fighter: f.ID, Target: t, What: "lifted",
		Set: []Change{change.CursedBy.To(t, ""), change.Cursing.To(f.ID, "")}})
}

// decideQuake casts Quake on a creature: [Resolute←Defense], standard
// weapon damage, half on a passed defence.
func decideQuake(tx *Tx, cmd engine.Command) error {
	var args targetArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := spellTarget(tx, f, args.Target, PowerQuake)
	if err != nil {
		return err
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	if err := note(tx, KindAction, f.ID, fmt.Sprintf("%s makes the ground heave under %s.", st.NameOf(f.ID), st.PublicNameOf(t.ID)), Note{Fighter: f.ID, Target: t.ID, What: CmdQuake, Set: set}); err != nil {
		return err
	}
	if err := corrupt(tx, f, PowerQuake); err != nil {
		return err
	}
	return tx.Run(strikeStep(strikeCtx{By: f.ID, At: t.ID, Weapon: f.weapon().ID, Mode: ModeQuake}))
}

type terrifyCtx struct {
	By     string `json:"by"`
	Target string `json:"target"`
}

// decideTerrify is the Terrify trait [Resolute←Resolute]: a terrified
// victim loses its next combat action. The Fearless feat ignores it.
func decideTerrify(tx *Tx, cmd engine.Command) error {
	var args targetArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Trait(TrTerrify) == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s cannot terrify", st.NameOf(f.ID))
	}
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	if t.Fearless || t.Terrified {
		return fray.Errorf(fray.EILLEGAL, "%s is not to be frightened now", st.NameOf(t.ID))
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	if err := note(tx, KindTerrify, f.ID, fmt.Sprintf("%s turns its horrifying presence on %s.", st.NameOf(f.ID), st.PublicNameOf(t.ID)), Note{Fighter: f.ID, Target: t.ID, What: "terrify", Set: set}); err != nil {
		return err
	}
	c := terrifyCtx{By: f.ID, Target: t.ID}
	if st.featOffered(t.ID) {
		opts := []engine.Choice{{Value: "face", Label: "Face it (Resolute)"}}
		for _, p := range st.budget(t.ID) {
			opts = append(opts, engine.Choice{Value: FeatFearless + ":" + p, Label: "Fearless: ignore horror this scene (" + payLabel(p) + ")"})
		}
		return tx.AskWith(engine.Decision{For: t.ID, Kind: DecFearless, Prompt: fmt.Sprintf("%s tries to terrify %s.", st.PublicNameOf(f.ID), st.PublicNameOf(t.ID)),
			Options: opts, Default: "face"}, Cont{Terrify: &c})
	}
	return terrify(tx, c)
}

func answerFearless(tx *Tx, c terrifyCtx, ans engine.Answered) error {
	st := tx.State
	if feat, pay, ok := cut(ans.Choice); ok && feat == FeatFearless && st.canPay(c.Target, pay) == nil {
		return spendFeat(tx, c.Target, FeatFearless, pay, st.PublicNameOf(c.Target)+" is fearless: horror has no hold for the rest of the scene",
			change.Fearless.To(c.Target, true))
	}
	return terrify(tx, c)
}

func terrify(tx *Tx, c terrifyCtx) error {
	st := tx.State
	if !st.fighting(c.By) || st.Combatant(c.Target).Out {
		return nil
	}
	tt, aRolls := st.opposedTest("Terrify", c.By, Resolute, testOther, nil, nil, c.Target, Resolute, testOther, nil)
	o := rollTest(tx, tt)
	if o.Pass == aRolls {
		return emit(tx, KindTerrify, c.By, st.PublicNameOf(c.Target)+" is terrified: no combat action next turn.",
			Note{Fighter: c.By, Target: c.Target, What: "terrified", Value: 1, Set: []Change{change.Terrified.To(c.Target, true)}}, []string{c.Target}, o.Roll)
	}
	return emit(tx, KindTerrify, c.By, st.PublicNameOf(c.Target)+" stands firm.", Note{Fighter: c.By, Target: c.Target, What: "resisted"}, []string{c.Target}, o.Roll)
}

// cut splits "feat:pay".
func cut(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
