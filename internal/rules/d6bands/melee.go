package d6bands

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Melee (seed: "Melee attacks"; spec c11) and the Defense Pool (spec b).
// Most melee weapons reach only an opponent in close contact; long weapons
// reach anyone in the same band (the same square). A strike takes
// melee-actions (1) and rolls the weapon's skill against melee-difficulty
// (3D). The defender may spend dice of its Defense Pool, each adding +1D
// to the attacker's difficulty; the pool refills every round. A shot in
// close contact is defended the same way. A dasher cannot use its pool
// until its next turn, nor can a combatant against an attacker it is
// unaware of. Prone targets are easier to strike (prone-melee-bonus).

// Event kinds of the Defense Pool.
const KindDefense = "defense"

// Defended is the data of a defense event: dice of the Defense Pool spent
// against the attack under way.
type Defended struct {
	Fighter string `json:"fighter"`
	Dice    int    `json:"dice"`
}

// reach reports why f cannot strike t with w (nil: it can).
func reach(st *State, f, t *Fighter, w *Weapon) error {
	switch {
	case w.Ranged():
		return fray.Errorf(fray.EILLEGAL, "the %s is not a melee weapon", w.Name)
	case t.ID == f.ID:
		return fray.Errorf(fray.EILLEGAL, "%s cannot strike themselves", st.NameOf(f.ID))
	case !st.opponents(f.ID, t.ID):
		return kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	case inContact(f, t):
		return visibleTo(st, f, t)
	case w.Long && !f.Off && !t.Off && f.at() == t.at():
		return visibleTo(st, f, t)
	case w.Long:
		return fray.Errorf(fray.EILLEGAL, "the %s reaches only someone in the same band (square)", w.Name)
	}
	return fray.Errorf(fray.EILLEGAL, "the %s reaches only someone in close contact (long weapons: in the same square)", w.Name)
}

func decideStrike(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
		Weapon string `json:"weapon"`
		Called bool   `json:"called"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	a, err := strikeRefusal(st, f, t, args.Weapon, args.Called)
	if err != nil {
		return err
	}
	// The sentence says what happens; the skill, the dice and their
	// modifiers are the roll's.
	return beginAttack(tx, a, fmt.Sprintf("%s strikes at %s with the %s.", st.NameOf(f.ID), st.NameOf(t.ID), f.Weapon(a.Weapon).Name))
}

// strikeRefusal is what the rules refuse of f's strike at t with weapon
// (none: unarmed): the handler's check, and the one the strike forms are
// narrowed with, so no form offers a weapon that cannot reach a target it
// offers. It returns the strike.
func strikeRefusal(st *State, f, t *Fighter, weapon string, called bool) (Attack, error) {
	if weapon == "" {
		weapon = Unarmed.ID
	}
	w := f.Weapon(weapon)
	if w == nil {
		return Attack{}, fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), weapon)
	}
	if err := reach(st, f, t, w); err != nil {
		return Attack{}, err
	}
	b := &st.Base
	a := Attack{Kind: AttackMelee, Attacker: f.ID, Target: t.ID, Weapon: w.ID, Called: called, Skill: skillName(w.Skill),
		Value: f.Skill(b, w.Skill), Dice: kit.OptInt(b, OptMeleeDice), Actions: kit.OptInt(b, OptMeleeActions), Band: st.Band(f, t), Contact: true}
	if called {
		a.Mods = append(a.Mods, diceMod("called shot", 2))
	}
	a.Mods = append(a.Mods, ambush(st, f, t)...)
	return a, need(st, f, a.Actions, "A melee attack")
}

// mayDefend reports whether t may spend its Defense Pool against the
// attack under way.
func mayDefend(st *State, a *Attack) bool {
	t, f := st.Fighters[a.Target], st.Fighters[a.Attacker]
	return a.Contact && a.Kind != AttackDuel && t != nil && f != nil && st.standing(t.ID) && t.Pool > 0 && !t.Dashed &&
		f.Unseen[t.ID] < 2
}

// askDefense asks the defender how many Defense Pool dice to spend, or
// spends them at once for the GM's combatants when npc-defense says so.
func askDefense(tx *Tx) error {
	st := tx.State
	a := st.Attack
	if a == nil || !mayDefend(st, a) {
		return nil
	}
	t := st.Fighters[a.Target]
	if c := st.Combatant(t.ID); !c.PC {
		switch kit.Opt(&st.Base, OptNPCDefense) {
		case DefenseAll:
			return defend(tx, t, t.Pool)
		case DefenseNone:
			return nil
		}
	}
	w := st.Fighters[a.Attacker].Weapon(a.Weapon)
	prompt := fmt.Sprintf("%s attacks %s with the %s (%s %d against %s). Spend Defense Pool dice? Each adds +1D to the attack (%d left this round).",
		st.PublicNameOf(a.Attacker), st.PublicNameOf(t.ID), w.Name, a.Skill, a.Value, difficultyWords(*a), t.Pool)
	return tx.AskWith(engine.Decision{For: t.ID, Kind: DecDefense, Prompt: prompt, Default: "spend",
		Options: []engine.Choice{{Value: "spend", Label: "Spend the dice"}, {Value: "none", Label: "No defense"}},
		Fields:  []engine.Field{{Name: "dice", Label: "Defense Pool dice", Type: engine.FieldNumber, Min: 0, Max: t.Pool, Default: "1"}}},
		Cont{Defense: &defenseCtx{Fighter: t.ID}})
}

// defenseCtx is a Defense Pool decision's context.
type defenseCtx struct {
	Fighter string `json:"fighter"`
}

// answerDefense spends the dice the defender chose.
func answerDefense(tx *Tx, c Cont, a engine.Answered) error {
	st := tx.State
	if c.Defense == nil || st.Attack == nil {
		return nil
	}
	t := st.Fighters[c.Defense.Fighter]
	if t == nil || a.Choice != "spend" {
		return nil
	}
	n := min(a.Values.Int("dice"), t.Pool)
	if n <= 0 {
		return nil
	}
	return defend(tx, t, n)
}

// defend spends n dice of t's Defense Pool against the attack under way.
func defend(tx *Tx, t *Fighter, n int) error {
	if n <= 0 {
		return nil
	}
	st := tx.State
	text := fmt.Sprintf("%s spends %d Defense Pool %s: +%dD to the attack.", st.PublicNameOf(t.ID), n, plural(n, "die", "dice"), n)
	ev := engine.NewEvent(KindDefense, t.ID, text, Defended{Fighter: t.ID, Dice: n})
	if st.Attack != nil {
		ev = ev.With(st.Attack.Attacker)
	}
	return tx.Emit(ev)
}

// plural picks a word's form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func applyDefense(st *State, d Defended) error {
	t, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	if d.Dice > t.Pool {
		return fmt.Errorf("d6-bands: %s has %d Defense Pool dice, not %d", d.Fighter, t.Pool, d.Dice)
	}
	t.Pool -= d.Dice
	if st.Attack != nil {
		st.Attack.Defense += d.Dice
	}
	return nil
}
