package d20under

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Damage (spec b): the weapon's damage less the armour's roll comes off
// Toughness. A player character rolls its own damage and armour; an NPC's
// are flat, ⌈max die/2⌉ per die. Damage at or above the Pain Threshold
// has a pain effect (option pain-effect); damage above it (strictly) is
// Critical Damage (seed 9), a second chance to fail every test until
// healed; creatures without a Pain Threshold (undead) have neither. At 0
// Toughness a player character is dying (death tests, turn.go) and an
// NPC dies.

// Damage is the data of a damage event.
type Damage struct {
	Attacker string `json:"attacker,omitempty"`
	Target   string `json:"target"`
	Source   string `json:"source"`
	Rolled   int    `json:"rolled"` // the damage roll
	Armour   int    `json:"armour"` // the armour roll
	Damage   int    `json:"damage"` // what got through
	Taken    int    `json:"taken"`  // off the target's Toughness (a familiar may share it)
	Pain     bool   `json:"pain,omitempty"`
	Critical bool   `json:"critical,omitempty"`
	Location string `json:"location,omitempty"`
	Set      []Change
}

// extraDie is a die of damage added by a rule: Advantage +1d4, a perfect
// hit +1d6, Short distance +1d4.
type extraDie struct {
	Label string
	Sides int
}

// blow is damage on its way to a target.
type blow struct {
	From     string // the attacker, "" for a trap or a poison
	To       string
	Source   string // the weapon's or the trap's name
	Die      int    // the damage die
	Bonus    int    // flat
	Rolled   bool   // the damage dice are rolled (a PC, a trap, poison), else flat
	Extra    []extraDie
	Plus     []dice.Mod // flat additions: a fumbled defence +3
	Trait    int        // a monstrous trait's damage value (rolled as 1d(2N))
	Clean    bool       // Clean Hit: maximum damage
	Half     bool       // Quake after a passed defence, Push Back
	NoArmour bool       // poison
	Location string     // a body part, "" when unlocated
	Effects  bool       // the body part's effects apply at ≥ PT
	Weapon   string     // the weapon's id
	Poison   int        // the poison on the weapon (its die), one hit's worth
}

// die rolls one die of damage or armour, or takes its flat value.
func die(tx *Tx, sides int, rolled, max bool, lbl string) (dice.Die, dice.Mod, bool) {
	switch {
	case max:
		return dice.Die{}, dice.Mod{Label: fmt.Sprintf("%s (1d%d, maximum)", lbl, sides), Value: sides}, false
	case rolled:
		d := tx.Dice.Die(sides)
		return d, dice.Mod{}, true
	}
	return dice.Die{}, dice.Mod{Label: fmt.Sprintf("%s (1d%d, flat)", lbl, sides), Value: flat(sides)}, false
}

// traitSides is a monstrous trait's die: a flat N rolled as 1d(2N)
// (seed 19, option trait-values), 0 to keep it flat.
func (s *State) traitSides(n int) int {
	if n <= 0 || kit.Opt(&s.Base, OptTraitValues) == TraitsFlat {
		return 0
	}
	return 2 * n
}

// rollDamage rolls (or takes flat) a blow's damage.
func rollDamage(tx *Tx, b blow) (int, dice.Roll) {
	st := tx.State
	r := dice.Roll{Label: "Damage: " + b.Source}
	if b.Rolled {
		r.Who = b.From
	}
	add := func(sides int, lbl string) {
		d, m, ok := die(tx, sides, b.Rolled, b.Clean, lbl)
		if ok {
			d.Role = lbl
			r.Dice = append(r.Dice, d)
			r.Total += d.Total()
		} else {
			r.Mods = append(r.Mods, m)
			r.Total += m.Value
		}
	}
	add(b.Die, b.Source)
	for _, e := range b.Extra {
		add(e.Sides, e.Label)
	}
	if b.Trait > 0 {
		if sides := st.traitSides(b.Trait); sides > 0 {
			add(sides, "natural weapon")
		} else {
			r.Mods = append(r.Mods, dice.Mod{Label: "natural weapon", Value: b.Trait})
			r.Total += b.Trait
		}
	}
	if b.Bonus != 0 {
		r.Mods = append(r.Mods, dice.Mod{Label: "weapon", Value: b.Bonus})
		r.Total += b.Bonus
	}
	for _, m := range b.Plus {
		r.Mods = append(r.Mods, m)
		r.Total += m.Value
	}
	for _, m := range r.Mods {
		r.Mod += m.Value
	}
	r.Total = max(0, r.Total)
	return r.Total, r
}

// rollArmour rolls (or takes flat) the target's armour against a blow:
// the suit (if it covers the location), the Armoured trait and
// Resilience.
func rollArmour(tx *Tx, b blow) (int, dice.Roll) {
	st := tx.State
	f := st.Fighters[b.To]
	rolled := st.rolls(f.ID)
	r := dice.Roll{Label: "Armour"}
	if rolled {
		r.Who = f.ID
	}
	add := func(sides int, lbl string) {
		d, m, ok := die(tx, sides, rolled, false, lbl)
		if ok {
			d.Role = lbl
			r.Dice = append(r.Dice, d)
			r.Total += d.Total()
		} else {
			r.Mods = append(r.Mods, m)
			r.Total += m.Value
		}
	}
	if b.NoArmour {
		return 0, r
	}
	if st.armourCovers(f, b.Location) {
		lbl := f.Armour.Name
		if lbl == "" {
			lbl = label(f.Armour.Type) + " armour"
		}
		add(f.Armour.Die, lbl)
	} else if f.Armour.Die > 0 {
		r.Mods = append(r.Mods, dice.Mod{Label: "armour does not cover the " + partWords(b.Location), Value: 0})
	}
	if n := f.Trait(TrArmoured); n > 0 {
		if sides := st.traitSides(n); sides > 0 {
			add(sides, "Armoured")
		} else {
			r.Mods = append(r.Mods, dice.Mod{Label: "Armoured", Value: n})
			r.Total += n
		}
	}
	for range f.Resilience {
		add(4, "Resilience")
	}
	for _, m := range r.Mods {
		r.Mod += m.Value
	}
	return r.Total, r
}

// strikeHome rolls a blow's damage against the target's armour and
// applies it.
func strikeHome(tx *Tx, b blow) error {
	dmg, dr := rollDamage(tx, b)
	arm, ar := rollArmour(tx, b)
	through := max(0, dmg-arm)
	if b.Half {
		through /= 2
	}
	rolls := []dice.Roll{dr}
	if len(ar.Dice) > 0 || len(ar.Mods) > 0 {
		rolls = append(rolls, ar)
	}
	return harm(tx, b, dmg, arm, through, rolls)
}

// harm applies damage that got through: Toughness, pain, Critical Damage,
// Koj, a familiar's share, a body part's effects, dying.
func harm(tx *Tx, b blow, rolled, armour, through int, rolls []dice.Roll) error {
	st := tx.State
	f := st.Fighters[b.To]
	id := f.ID
	pt := f.PainThreshold
	d := Damage{Attacker: b.From, Target: id, Source: b.Source, Rolled: rolled, Armour: armour, Damage: through, Location: b.Location}
	d.Pain = pt > 0 && through >= pt
	d.Critical = pt > 0 && through > pt && kit.Opt(&st.Base, OptCriticalDamage) == On && !f.Critical
	taken, share := through, 0
	fam := st.Fighters[f.Familiar]
	if through > 1 && fam != nil && !st.Combatant(fam.ID).Out && kit.Opt(&st.Base, OptFamiliarSplit) == SplitHalf {
		share = through / 2 // the pain above was judged on the whole (seed 19)
		taken -= share
	}
	// A head wound at the Pain Threshold adds 1d6 (seed 17).
	var extra []dice.Roll
	if d.Pain && b.Location == PartHead && b.Effects {
		dd, m, ok := die(tx, 6, b.From == "" || st.rolls(b.From), false, "head wound")
		hr := dice.Roll{Label: "Head wound", Who: ""}
		if ok {
			hr.Who = b.From
			hr.Dice, hr.Total = []dice.Die{dd}, dd.Total()
		} else {
			hr.Mods, hr.Total, hr.Mod = []dice.Mod{m}, m.Value, m.Value
		}
		taken += hr.Total
		extra = append(extra, hr)
	}
	d.Taken = taken
	dying := st.Combatant(id).Down && f.Dying
	left := max(0, f.Toughness-taken)
	d.Set = append(d.Set, change.Toughness.To(id, left))
	if d.Critical {
		d.Set = append(d.Set, change.Critical.To(id, true))
	}
	hit := through > 0 || kit.Opt(&st.Base, OptKojTrigger) == KojHit
	if f.Koj && !f.Roused && hit {
		d.Set = append(d.Set, change.Roused.To(id, true))
	}
	if d.Pain {
		for _, a := range st.alliesOf(id) {
			if g := st.Fighters[a]; g.Koj && !g.Roused {
				d.Set = append(d.Set, change.Roused.To(a, true))
			}
		}
	}
	if share > 0 {
		d.Set = append(d.Set, change.Toughness.To(fam.ID, max(0, fam.Toughness-share)))
	}
	text := damageText(st, d, share, fam)
	rolls = append(rolls, extra...)
	if err := emit(tx, KindDamage, b.From, text, d, []string{id}, rolls...); err != nil {
		return err
	}
	if b.Poison > 0 && through > 0 && !st.Combatant(id).Out {
		if err := poisonVictim(tx, b.From, id, b.Poison); err != nil {
			return err
		}
	}
	if share > 0 && fam.Toughness <= 0 {
		if err := fallen(tx, fam, false); err != nil {
			return err
		}
	}
	if dying {
		if taken <= 0 {
			return nil
		}
		if kit.Opt(&st.Base, OptDyingDamage) == DyingDies {
			if err := note(tx, KindDeathTest, id, st.NameOf(id)+" is struck while dying, and dies.", Note{Fighter: id, What: "died", Set: []Change{change.Dying.To(id, false)}}); err != nil {
				return err
			}
			return tx.TakeOut(id, "dead", "")
		}
		return failDeathTest(tx, f)
	}
	if f.Toughness <= 0 {
		return fallen(tx, f, true)
	}
	if d.Pain {
		if b.Location != "" && b.Effects {
			return bodyPartEffect(tx, b)
		}
		return painEffect(tx, b)
	}
	return nil
}

func damageText(st *State, d Damage, share int, fam *Fighter) string {
	var b strings.Builder
	who := st.PublicNameOf(d.Target)
	switch {
	case d.Damage == 0:
		fmt.Fprintf(&b, "%s's armour stops the %s.", who, strings.ToLower(d.Source))
	default:
		fmt.Fprintf(&b, "%s takes %d damage from the %s", who, d.Taken, strings.ToLower(d.Source))
		if share > 0 {
			fmt.Fprintf(&b, ", %s taking %d of it", st.PublicNameOf(fam.ID), share)
		}
		b.WriteString(".")
	}
	if d.Pain {
		b.WriteString(" Pain!")
	}
	if d.Critical {
		b.WriteString(" Critical Damage: a second chance to fail every test until healed.")
	}
	return b.String()
}

// fallen handles a fighter at 0 Toughness: a player character starts
// dying (it stays in the order for its death tests), anyone else dies.
func fallen(tx *Tx, f *Fighter, ownTurnCheck bool) error {
	st := tx.State
	id := f.ID
	if st.Combatant(id).Out || (st.Combatant(id).Down && f.Dying) {
		return nil
	}
	if st.pc(id) && f.PainThreshold > 0 {
		text := st.NameOf(id) + " falls, dying: a death test each turn."
		if err := note(tx, KindCondition, id, text, Note{Fighter: id, What: "dying", Set: []Change{change.Dying.To(id, true), change.DeathFails.To(id, 0), change.Unconscious.To(id, 0)}}); err != nil {
			return err
		}
		if st.Combatant(id).Down {
			return nil
		}
		return tx.PutDown(id, "dying", "")
	}
	reason, text := "dead", st.NameOf(id)+" dies."
	if f.PainThreshold == 0 && !st.pc(id) {
		reason, text = "destroyed", st.NameOf(id)+" is destroyed."
	}
	if err := note(tx, KindCondition, id, text, Note{Fighter: id, What: reason}); err != nil {
		return err
	}
	return tx.TakeOut(id, reason, "")
}

// painEffect is what damage at the Pain Threshold does (option
// pain-effect).
func painEffect(tx *Tx, b blow) error {
	st := tx.State
	id := b.To
	switch kit.Opt(&st.Base, OptPainEffect) {
	case PainNone:
		return nil
	case PainChoose:
		if b.From != "" && st.fighting(b.From) && st.inMelee(b.From, id) {
			return tx.AskWith(engine.Decision{For: b.From, Kind: DecPain,
				Prompt:  fmt.Sprintf("%s is in pain: knock them down, or take a free attack?", st.PublicNameOf(id)),
				Options: []engine.Choice{{Value: "prone", Label: "Knock them prone"}, {Value: "free", Label: "A free attack"}}, Default: "prone"},
				Cont{Pain: &painCtx{Attacker: b.From, Target: id}})
		}
	}
	if st.Fighters[id].Prone {
		return nil
	}
	return note(tx, KindCondition, id, st.PublicNameOf(id)+" falls prone in pain.", Note{Fighter: id, What: "prone", Value: 1, Set: []Change{change.Prone.To(id, true)}})
}

type painCtx struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
}

func answerPain(tx *Tx, c painCtx, ans engine.Answered) error {
	st := tx.State
	if !st.fighting(c.Target) && !st.Combatant(c.Target).Down {
		return nil
	}
	if ans.Choice == "free" {
		return tx.Run(freeAttackStep(c.Attacker, c.Target, TrigPain))
	}
	if st.Fighters[c.Target].Prone {
		return nil
	}
	return note(tx, KindCondition, c.Target, st.PublicNameOf(c.Target)+" falls prone in pain.", Note{Fighter: c.Target, What: "prone", Value: 1, Set: []Change{change.Prone.To(c.Target, true)}})
}

// healedChanges are the changes of healing f to Toughness t: at least one
// point of Toughness healed ends Critical Damage (seed 9).
func (s *State) healedChanges(f *Fighter, t int) []Change {
	out := []Change{change.Toughness.To(f.ID, t)}
	if f.Critical && t > f.Toughness {
		out = append(out, change.Critical.To(f.ID, false))
	}
	return out
}

// heal restores Toughness (up to the maximum); a dying character healed
// above 0 gets up.
func heal(tx *Tx, f *Fighter, n int, by, what string, rolls ...dice.Roll) error {
	st := tx.State
	t := min(f.MaxToughness, f.Toughness+n)
	set := st.healedChanges(f, t)
	dying := f.Dying && t > 0
	if dying {
		set = append(set, change.Dying.To(f.ID, false), change.DeathFails.To(f.ID, 0))
	}
	text := fmt.Sprintf("%s heals %d Toughness (%s), now %d.", st.PublicNameOf(f.ID), t-f.Toughness, what, t)
	if err := emit(tx, KindHealed, by, text, Note{Fighter: f.ID, What: what, Value: t - f.Toughness, Set: set}, []string{f.ID}, rolls...); err != nil {
		return err
	}
	if dying && st.Combatant(f.ID).Down && f.Unconscious == 0 {
		return tx.GetUp(f.ID, "healed", st.NameOf(f.ID)+" is back on their feet.")
	}
	return nil
}
