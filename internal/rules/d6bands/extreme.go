package d6bands

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Extreme range (seed: "Extreme range engagements"; spec c1, c7, c12).
// Extreme range lies outside the combat's phasing: off the map, or five
// and more bands away. Only weapons whose optimal range is Far or Very Far
// reach it. A combatant with such a weapon loaded starts a duel with an
// opponent at Extreme range (it takes the rest of the turn, at least two
// actions): each side secretly picks the skill it pits against the other —
// Stealth, Tactics or Perception — and both roll it (extreme-duel-difficulty,
// 3D). The one who succeeds by more wins (a tie: no one) and, with a
// suitable weapon loaded, takes the shot: 5D with a Very Far optimal
// range, 6D with Far, plus the target's cover.

// Event kinds of the Extreme range duel.
const (
	KindDuelBegun  = "duel-begun"
	KindDuel       = "duel"
	KindDuelNoShot = "duel-no-shot"
)

// DuelBegun is the data of a duel-begun event.
type DuelBegun struct {
	Fighter string `json:"fighter"`
	Target  string `json:"target"`
	Weapon  string `json:"weapon"`
	Actions int    `json:"actions"`
}

// Dueled is the data of a duel event: who won ("" for no one).
type Dueled struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Winner string `json:"winner,omitempty"`
}

// duelCtx is a duel decision's context.
type duelCtx struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Weapon string `json:"weapon"` // A's weapon
	Side   string `json:"side"`   // whose choice this decision is
}

// duelSkills are the skills a duel may pit.
var duelSkills = []string{"stealth", "tactics", "perception"}

// extremeWeapon is f's best loaded weapon for Extreme range, or nil.
func extremeWeapon(f *Fighter) *Weapon {
	var best *Weapon
	for i := range f.Weapons {
		w := &f.Weapons[i]
		if w.Extreme() > 0 && loaded(f, w) && (best == nil || w.Extreme() < best.Extreme()) {
			best = w
		}
	}
	return best
}

// canDuel reports why f cannot duel t with w (nil: it can).
func canDuel(st *State, f, t *Fighter, w *Weapon) error {
	switch {
	case w.Extreme() == 0:
		return fray.Errorf(fray.EILLEGAL, "the %s does not reach Extreme range (a Far or Very Far optimal range does)", w.Name)
	case !st.opponents(f.ID, t.ID):
		return kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	case st.Band(f, t) != BandExtreme:
		return fray.Errorf(fray.EILLEGAL, "%s is not at Extreme range", st.NameOf(t.ID))
	}
	if err := ready(f, w); err != nil {
		return err
	}
	if err := visibleTo(st, f, t); err != nil {
		return err
	}
	return need(st, f, 2, "An Extreme range duel")
}

func decideDuel(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
		Weapon string `json:"weapon"`
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
	w := f.Weapon(args.Weapon)
	if w == nil {
		return fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), args.Weapon)
	}
	if err := canDuel(st, f, t, w); err != nil {
		return err
	}
	if !st.standing(t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is down", st.NameOf(t.ID))
	}
	text := fmt.Sprintf("%s hunts %s at Extreme range with the %s: a duel of skill decides who gets the shot.", st.NameOf(f.ID), st.PublicNameOf(t.ID), w.Name)
	if err := tx.Emit(st.secretFor(engine.NewEvent(KindDuelBegun, f.ID, text, DuelBegun{Fighter: f.ID, Target: t.ID, Weapon: w.ID, Actions: f.Actions}), t.ID)); err != nil {
		return err
	}
	choose := func(who *Fighter) engine.Decision {
		raw := contJSON(Cont{Duel: &duelCtx{A: f.ID, B: t.ID, Weapon: w.ID, Side: who.ID}})
		options := make([]engine.Choice, len(duelSkills))
		best := duelSkills[0]
		for i, s := range duelSkills {
			options[i] = engine.Choice{Value: s, Label: fmt.Sprintf("%s %d", skillName(s), who.Skill(&st.Base, s))}
			if who.Skill(&st.Base, s) > who.Skill(&st.Base, best) {
				best = s
			}
		}
		return engine.Decision{For: who.ID, Kind: DecDuel, Sealed: true, Default: best, Data: raw,
			Prompt: fmt.Sprintf("Extreme range duel between %s and %s: which skill does %s pit against the other?",
				st.PublicNameOf(f.ID), st.PublicNameOf(t.ID), st.PublicNameOf(who.ID)), Options: options}
	}
	return tx.AskAll(choose(f), choose(t))
}

// answerDuel rolls the duel once both sides chose, and gives the winner
// the shot.
func answerDuel(tx *Tx, answers []engine.Answered) error {
	st := tx.State
	var ctx *duelCtx
	skills := map[string]string{}
	for _, a := range answers {
		var c Cont
		if err := a.Decision.Decode(&c); err != nil || c.Duel == nil {
			return fmt.Errorf("d6-bands: duel decision %s has no context", a.Decision.ID)
		}
		ctx = c.Duel
		skills[c.Duel.Side] = a.Choice
	}
	if ctx == nil {
		return nil
	}
	a, b := st.Fighters[ctx.A], st.Fighters[ctx.B]
	if !st.standing(a.ID) || !st.standing(b.ID) {
		return nil
	}
	dd := kit.OptInt(&st.Base, OptDuelDice)
	ra, err := rollCheck(tx, a, Check{Label: "Extreme range duel", Skill: skillName(skills[a.ID]), Value: a.Skill(&st.Base, skills[a.ID]), Dice: dd})
	if err != nil {
		return err
	}
	rb, err := rollCheck(tx, b, Check{Label: "Extreme range duel", Skill: skillName(skills[b.ID]), Value: b.Skill(&st.Base, skills[b.ID]), Dice: dd})
	if err != nil {
		return err
	}
	winner, loser := "", ""
	switch {
	case ra.Success && (!rb.Success || ra.Margin > rb.Margin):
		winner, loser = a.ID, b.ID
	case rb.Success && (!ra.Success || rb.Margin > ra.Margin):
		winner, loser = b.ID, a.ID
	}
	text := fmt.Sprintf("Extreme range duel: %s (%s %s) against %s (%s %s): ", st.PublicNameOf(a.ID), skillName(skills[a.ID]), ra.Words(),
		st.PublicNameOf(b.ID), skillName(skills[b.ID]), rb.Words())
	if winner == "" {
		text += "neither gets a shot."
	} else {
		text += st.PublicNameOf(winner) + " wins the shot."
	}
	ev := engine.NewEvent(KindDuel, a.ID, text, Dueled{A: a.ID, B: b.ID, Winner: winner}, []dice.Roll{ra.Roll, rb.Roll}...)
	if err := tx.Emit(st.secretFor(ev, b.ID)); err != nil {
		return err
	}
	if winner == "" {
		return nil
	}
	wf, lf := st.Fighters[winner], st.Fighters[loser]
	w := wf.Weapon(ctx.Weapon)
	if winner != ctx.A || w == nil || !loaded(wf, w) {
		w = extremeWeapon(wf)
	}
	if w == nil {
		return tx.Emits(KindDuelNoShot, winner, st.PublicNameOf(winner)+" has no loaded weapon that reaches Extreme range.", nil)
	}
	at := Attack{Kind: AttackDuel, Attacker: winner, Target: loser, Weapon: w.ID, Aimed: true, Skill: skillName(w.Skill),
		Value: wf.Skill(&st.Base, w.Skill), Dice: w.Extreme(), Band: BandExtreme}
	if c, why := st.cover(lf, wf); c > 0 {
		at.Mods = append(at.Mods, diceMod(why, c))
	}
	return beginAttack(tx, at, fmt.Sprintf("%s takes the Extreme range shot at %s with the %s.", st.PublicNameOf(winner), st.PublicNameOf(loser), w.Name))
}

func applyDuelBegun(st *State, d DuelBegun) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	f.Aim = nil
	return nil
}
