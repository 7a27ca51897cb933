package d20under

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Manoeuvres (seed: Manoeuvres; spec c14). Careful Aim is part of a shot
// (attack.go), Charge a movement (movement.go), Delay part of the
// initiative (initiative.go). Here: Disarm, Full Defence, Full Offense,
// Hold, Knock Out, Poison on Weapons, Push Back and Tackle.

// robustBonus is the Robust trait's bonus to Hold and Tackle: +2, +4 or
// +8 at levels I–III for Hold; +2 per level for Tackle.
func robustBonus(level int, hold bool) int {
	if !hold {
		return 2 * level
	}
	return []int{0, 2, 4, 8}[min(level, 3)]
}

// meleeManoeuvre checks a manoeuvre's target: an engaged enemy f may
// attack, with the combat action unused.
func meleeManoeuvre(tx *Tx, cmd engine.Command) (*Fighter, *Fighter, error) {
	var args targetArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return nil, nil, err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return nil, nil, err
	}
	if err := st.canMelee(f, t); err != nil {
		return nil, nil, err
	}
	if !f.Combat {
		return nil, nil, fray.Errorf(fray.EILLEGAL, "%s has used the combat action this turn", st.NameOf(f.ID))
	}
	return f, t, nil
}

// decideDisarm attacks the enemy's weapon or shield [Accurate←Strong]: no
// damage; a success makes it drop it, a failure gives it a free attack.
func decideDisarm(tx *Tx, cmd engine.Command) error {
	f, t, err := meleeManoeuvre(tx, cmd)
	if err != nil {
		return err
	}
	st := tx.State
	if !disarmable(t) {
		return fray.Errorf(fray.EILLEGAL, "%s holds nothing to disarm", st.NameOf(t.ID))
	}
	set, _ := st.spend(f, true, 0)
	tt, aRolls := st.opposedTest("Disarm", f.ID, Accurate, testMelee, nil, nil, t.ID, Strong, testOther, nil)
	o := rollTest(tx, tt)
	won := o.Pass == aRolls
	if won {
		if t.Drawn && !t.weapon().kind().Natural {
			set = append(set, change.Drawn.To(t.ID, false))
		} else {
			set = append(set, change.ShieldUp.To(t.ID, false))
		}
		text := fmt.Sprintf("%s disarms %s: it must take a movement action to ready a weapon again.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
		return emit(tx, KindDisarmed, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: "disarmed", Value: 1, Set: set}, []string{t.ID}, o.Roll)
	}
	text := fmt.Sprintf("%s fails to disarm %s, and is open to a free attack.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
	if err := emit(tx, KindDisarmed, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: "failed", Set: set}, []string{t.ID}, o.Roll); err != nil {
		return err
	}
	return tx.Run(freeAttackStep(t.ID, f.ID, TrigMiss))
}

// disarmable reports whether t holds a weapon (not natural) or a shield.
func disarmable(t *Fighter) bool {
	w := t.weapon()
	return (t.Drawn && !w.kind().Natural && w.ID != unarmedWeapon.ID) || t.ShieldUp
}

// decideTackle tries to knock the enemy down [Strong←Strong] (Robust +2 a
// level); the tackler falls too unless a Quick test passes.
func decideTackle(tx *Tx, cmd engine.Command) error {
	f, t, err := meleeManoeuvre(tx, cmd)
	if err != nil {
		return err
	}
	st := tx.State
	set, _ := st.spend(f, true, 0)
	var mods []dice.Mod
	if r := f.Trait(TrRobust); r > 0 {
		mods = append(mods, dice.Mod{Label: fmt.Sprintf("Robust %d", r), Value: robustBonus(r, false)})
	}
	tt, aRolls := st.opposedTest("Tackle", f.ID, Strong, testMelee, mods, nil, t.ID, Strong, testOther, nil)
	o := rollTest(tx, tt)
	won := o.Pass == aRolls
	text := fmt.Sprintf("%s tackles %s, who stays up.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
	if won {
		set = append(set, change.Prone.To(t.ID, true))
		text = fmt.Sprintf("%s tackles %s to the ground.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
	}
	if err := emit(tx, KindCondition, f.ID, text, Note{Fighter: t.ID, Target: t.ID, What: "tackle", Value: boolInt(won), Set: set}, []string{t.ID}, o.Roll); err != nil {
		return err
	}
	q := rollTest(tx, st.plainTest(f.ID, Quick, "Keep one's feet", testOther))
	if q.Pass {
		return note(tx, KindCondition, f.ID, st.NameOf(f.ID)+" keeps their feet.", Note{Fighter: f.ID, What: "steady"}, q.Roll)
	}
	return note(tx, KindCondition, f.ID, st.NameOf(f.ID)+" goes down too.", Note{Fighter: f.ID, What: "prone", Value: 1, Set: []Change{change.Prone.To(f.ID, true)}}, q.Roll)
}

// holdTest is the wrestling test [Strong←Strong], Robust +2/+4/+8 on
// either side.
func (s *State) holdTest(holder, target string) (test, bool) {
	var hm, tm []dice.Mod
	if r := s.Fighters[holder].Trait(TrRobust); r > 0 {
		hm = append(hm, dice.Mod{Label: fmt.Sprintf("Robust %d", r), Value: robustBonus(r, true)})
	}
	if r := s.Fighters[target].Trait(TrRobust); r > 0 {
		tm = append(tm, dice.Mod{Label: fmt.Sprintf("Robust %d", r), Value: robustBonus(r, true)})
	}
	return s.opposedTest("Hold", holder, Strong, testMelee, hm, nil, target, Strong, testOther, tm)
}

// decideHold wrestles an enemy to stop it moving.
func decideHold(tx *Tx, cmd engine.Command) error {
	f, t, err := meleeManoeuvre(tx, cmd)
	if err != nil {
		return err
	}
	st := tx.State
	if t.HeldBy != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is held already", st.NameOf(t.ID))
	}
	set, _ := st.spend(f, true, 0)
	tt, aRolls := st.holdTest(f.ID, t.ID)
	o := rollTest(tx, tt)
	if o.Pass == aRolls {
		set = append(set, change.Holding.To(f.ID, t.ID), change.HeldBy.To(t.ID, f.ID))
		text := fmt.Sprintf("%s gets a hold on %s: it cannot move.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
		return emit(tx, KindHold, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: "held", Value: 1, Set: set}, []string{t.ID}, o.Roll)
	}
	text := fmt.Sprintf("%s fails to get a hold on %s.", st.NameOf(f.ID), st.PublicNameOf(t.ID))
	return emit(tx, KindHold, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: "failed", Set: set}, []string{t.ID}, o.Roll)
}

// keepHold is the test at the start of the holder's turn; a failure
// frees the target, which gets a free attack.
func keepHold(tx *Tx, f *Fighter) error {
	st := tx.State
	t := f.Holding
	tt, aRolls := st.holdTest(f.ID, t)
	o := rollTest(tx, tt)
	if o.Pass == aRolls {
		text := fmt.Sprintf("%s keeps the hold on %s (the whole turn).", st.NameOf(f.ID), st.PublicNameOf(t))
		return emit(tx, KindHold, f.ID, text, Note{Fighter: f.ID, Target: t, What: "kept", Value: 1,
			Set: []Change{change.Combat.To(f.ID, false), change.Moves.To(f.ID, 0)}}, []string{t}, o.Roll)
	}
	text := fmt.Sprintf("%s breaks free of %s's hold.", st.PublicNameOf(t), st.NameOf(f.ID))
	if err := emit(tx, KindHold, f.ID, text, Note{Fighter: f.ID, Target: t, What: "broken",
		Set: []Change{change.Holding.To(f.ID, ""), change.HeldBy.To(t, "")}}, []string{t}, o.Roll); err != nil {
		return err
	}
	return tx.Run(freeAttackStep(t, f.ID, TrigHold))
}

// decideRelease lets go of a hold (free).
func decideRelease(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Holding == "" {
		return fray.Errorf(fray.EILLEGAL, "%s holds no one", st.NameOf(f.ID))
	}
	t := f.Holding
	return note(tx, KindHold, f.ID, st.NameOf(f.ID)+" lets go of "+st.PublicNameOf(t)+".", Note{Fighter: f.ID, Target: t, What: "released",
		Set: []Change{change.Holding.To(f.ID, ""), change.HeldBy.To(t, "")}})
}

// decideKnockOut attacks from an Advantage to knock the target out.
func decideKnockOut(tx *Tx, cmd engine.Command) error {
	f, t, err := meleeManoeuvre(tx, cmd)
	if err != nil {
		return err
	}
	st := tx.State
	if st.advantage(f.ID, t.ID) == "" {
		return fray.Errorf(fray.EILLEGAL, "a knock-out needs an Advantage over %s", st.NameOf(t.ID))
	}
	set, _ := st.spend(f, true, 0)
	w := f.meleeWeapons()[0]
	if err := note(tx, KindAction, f.ID, fmt.Sprintf("%s tries to knock %s out.", st.NameOf(f.ID), st.PublicNameOf(t.ID)), Note{Fighter: f.ID, Target: t.ID, What: CmdKnockOut, Set: set}); err != nil {
		return err
	}
	return tx.Run(strikeStep(strikeCtx{By: f.ID, At: t.ID, Weapon: w.ID, Mode: ModeKnockOut}))
}

// knockOut rolls 1d12 against the damage the hit would deal: lower knocks
// the target out, for as long as the GM says.
func knockOut(tx *Tx, h hitCtx, b blow) error {
	st := tx.State
	dmg, dr := rollDamage(tx, b)
	arm, ar := rollArmour(tx, b)
	value := max(0, dmg-arm)
	who := ""
	switch {
	case st.rolls(h.By):
		who = h.By
	case st.rolls(h.At):
		who = h.At
	}
	d := tx.Dice.Die(12)
	r := dice.Roll{Label: "Knock out", Who: who, Dice: []dice.Die{d}, Total: d.Total(), Target: value - 1, Compare: dice.AtMost}
	out := d.Total() < value
	r.Result = map[bool]string{true: "knocked out", false: "stays up"}[out]
	r.Outcome = dice.OutcomeOf(out != (who == h.At)) // whoever rolled: the blow's or its victim's side
	text := fmt.Sprintf("%s's blow would deal %d: the d12 shows %d.", st.NameOf(h.By), value, d.Total())
	if err := emit(tx, KindKnockOut, h.By, text, Note{Fighter: h.By, Target: h.At, Value: boolInt(out)}, []string{h.At}, dr, ar, r); err != nil {
		return err
	}
	if !out {
		return nil
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecKnockOut,
		Prompt:  fmt.Sprintf("%s is knocked out. For how many rounds?", st.NameOf(h.At)),
		Options: []engine.Choice{{Value: "out", Label: "Unconscious"}}, Default: "out",
		Fields: []engine.Field{{Name: "rounds", Label: "Rounds unconscious", Type: engine.FieldNumber, Default: "3", Min: 1, Max: 50}}},
		Cont{KnockOut: &koCtx{Attacker: h.By, Target: h.At}})
}

type koCtx struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
}

func answerKnockOut(tx *Tx, c koCtx, ans engine.Answered) error {
	st := tx.State
	if st.Combatant(c.Target).Out {
		return nil
	}
	return knockedOut(tx, c.Target, max(1, ans.Values.Int("rounds")), "knocked out")
}

// knockedOut makes a fighter unconscious for n of its turns.
func knockedOut(tx *Tx, id string, n int, why string) error {
	st := tx.State
	f := st.Fighters[id]
	text := fmt.Sprintf("%s is unconscious (%s) for %d turn(s).", st.NameOf(id), why, n)
	set := []Change{change.Unconscious.To(id, max(n, f.Unconscious)), change.Prone.To(id, true)}
	if f.Holding != "" {
		set = append(set, change.Holding.To(id, ""), change.HeldBy.To(f.Holding, ""))
	}
	if err := note(tx, KindCondition, id, text, Note{Fighter: id, What: "unconscious", Value: n, Set: set}); err != nil {
		return err
	}
	if st.Combatant(id).Down {
		return nil
	}
	return tx.PutDown(id, "unconscious", "")
}

// decidePushBack lunges to push the target back: it must start the turn
// and takes both actions; a hit deals half damage and pushes the target
// (option push-back-squares on the grid, out of the melee on the
// ladder); a miss gives it a free attack. The GM rules on what the push
// drives it into.
func decidePushBack(tx *Tx, cmd engine.Command) error {
	f, t, err := meleeManoeuvre(tx, cmd)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Acted || f.Moves < 1 {
		return fray.Errorf(fray.EILLEGAL, "Push Back must start the turn and takes both actions")
	}
	set, _ := st.spend(f, true, 1)
	w := f.meleeWeapons()[0]
	if err := note(tx, KindAction, f.ID, fmt.Sprintf("%s lunges to push %s back.", st.NameOf(f.ID), st.PublicNameOf(t.ID)), Note{Fighter: f.ID, Target: t.ID, What: CmdPushBack, Set: set}); err != nil {
		return err
	}
	return tx.Run(strikeStep(strikeCtx{By: f.ID, At: t.ID, Weapon: w.ID, Mode: ModePushBack}))
}

// push moves a pushed target, then asks the GM about hazards.
func push(tx *Tx, by, id string) error {
	st := tx.State
	t := st.Fighters[id]
	if t == nil || st.Combatant(id).Out {
		return nil
	}
	var set []Change
	where := ""
	if st.Model == board.Grid {
		a := st.Fighters[by]
		dx, dy := sign(t.X-a.X), sign(t.Y-a.Y)
		x, y := t.X, t.Y
		for i := 0; i < kit.OptInt(&st.Base, OptPushBackSquares); i++ {
			nx, ny := x+dx, y+dy
			if !st.Grid.inside(nx, ny) || st.Grid.wall(nx, ny) || !st.step(Cell{x, y}, Cell{nx, ny}) || st.at(nx, ny) != "" {
				break
			}
			x, y = nx, ny
		}
		set = append(set, change.X.To(id, x), change.Y.To(id, y))
		where = " to " + cellWords(Cell{x, y})
	} else {
		side := st.side(by)
		set = append(set, change.Engage.To(by, id, boolInt(false)), change.Ahead.To(id, side, max(-MaxRetreat, t.Ahead[side]-1)))
		where = " out of the melee"
	}
	text := fmt.Sprintf("%s is pushed back%s.", st.PublicNameOf(id), where)
	if err := emit(tx, KindPushed, by, text, Note{Fighter: id, Target: id, Set: set}, []string{id}); err != nil {
		return err
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecPushHazard,
		Prompt:  fmt.Sprintf("%s is pushed back%s. Does the push drive it into anything?", st.NameOf(id), where),
		Options: []engine.Choice{{Value: "none", Label: "Nothing"}, {Value: "hazard", Label: "A hazard"}}, Default: "none",
		Fields: []engine.Field{{Name: "damage", Label: "Hazard damage (armour does not help)", Type: engine.FieldNumber, Default: "0", Min: 0, Max: 30},
			{Name: "prone", Label: "Knocked prone", Type: engine.FieldCheckbox}}},
		Cont{Push: &pushCtx{By: by, Target: id}})
}

type pushCtx struct {
	By     string `json:"by"`
	Target string `json:"target"`
}

func answerPushHazard(tx *Tx, c pushCtx, ans engine.Answered) error {
	st := tx.State
	t := st.Fighters[c.Target]
	if ans.Choice != "hazard" || st.Combatant(c.Target).Out {
		return nil
	}
	if ans.Values.Bool("prone") && !t.Prone {
		if err := note(tx, KindCondition, c.Target, st.PublicNameOf(c.Target)+" goes down.", Note{Fighter: c.Target, What: "prone", Value: 1, Set: []Change{change.Prone.To(c.Target, true)}}); err != nil {
			return err
		}
	}
	if n := ans.Values.Int("damage"); n > 0 {
		return harm(tx, blow{From: "", To: c.Target, Source: "Hazard", NoArmour: true}, n, 0, n, nil)
	}
	return nil
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// decideFullDefence stakes the turn on defence: a second chance on every
// defence test, no attacks (option stance-duration).
func decideFullDefence(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if f.FullDefence {
		return fray.Errorf(fray.EILLEGAL, "%s is in Full Defence already", st.NameOf(f.ID))
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	set = append(set, change.FullDefence.To(f.ID, true), change.FullOffense.To(f.ID, false))
	return note(tx, KindStance, f.ID, st.NameOf(f.ID)+" goes into Full Defence: a second chance on every defence, no attacks.", Note{Fighter: f.ID, What: "full-defence", Value: 1, Set: set})
}

// decideFullOffense stakes the turn on melee attacks (free, before the
// combat action): a second chance on them, a second chance to fail every
// defence.
func decideFullOffense(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if f.FullOffense || f.FullDefence {
		return fray.Errorf(fray.EILLEGAL, "%s has taken a stance already", st.NameOf(f.ID))
	}
	if !f.Combat {
		return fray.Errorf(fray.EILLEGAL, "Full Offense is declared before the combat action")
	}
	set := []Change{change.FullOffense.To(f.ID, true), change.Acted.To(f.ID, true)}
	return note(tx, KindStance, f.ID, st.NameOf(f.ID)+" goes all out: a second chance on melee attacks, a second chance to fail defences.", Note{Fighter: f.ID, What: "full-offense", Value: 1, Set: set})
}

// Poison strengths: damage die per turn, for that die's turns [B].
var poisons = map[string]int{ItemWeakPoison: 4, ItemModeratePoison: 6, ItemStrongPoison: 8}

// decidePoison applies a dose of poison to a weapon: a combat action and
// a Cunning test; a 20 poisons the user.
func decidePoison(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"`
		Poison string `json:"poison"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	w, ok := f.Sheet.Weapon(args.Weapon)
	if !ok || w.kind().Natural {
		return fray.Errorf(fray.EINVALID, "%s has no weapon %q to poison", st.NameOf(f.ID), args.Weapon)
	}
	die := poisons[args.Poison]
	if die == 0 {
		return fray.Errorf(fray.EINVALID, "poison %q must be weak-poison, moderate-poison or strong-poison", args.Poison)
	}
	if f.Items[args.Poison] <= 0 {
		return fray.Errorf(fray.EILLEGAL, "%s has no %s left", st.NameOf(f.ID), label(args.Poison))
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	set = append(set, change.Item.To(f.ID, args.Poison, f.Items[args.Poison]-1))
	o := rollTest(tx, st.plainTest(f.ID, Cunning, "Poison the weapon", testCraft))
	switch {
	case o.twenty():
		if err := note(tx, KindPoison, f.ID, st.NameOf(f.ID)+" fumbles the poison and is poisoned.", Note{Fighter: f.ID, What: "fumbled", Set: set}, o.Roll); err != nil {
			return err
		}
		return poisonVictim(tx, "", f.ID, die)
	case o.Pass:
		set = append(set, change.WeaponPoison.To(f.ID, w.ID, die))
		return note(tx, KindPoison, f.ID, fmt.Sprintf("%s coats %s with poison: enough for one hit.", st.NameOf(f.ID), w.Name), Note{Fighter: f.ID, What: w.ID, Value: die, Set: set}, o.Roll)
	}
	return note(tx, KindPoison, f.ID, st.NameOf(f.ID)+" spills the poison.", Note{Fighter: f.ID, What: "spilt", Set: set}, o.Roll)
}

// poisonVictim poisons a fighter: 1dN damage a turn for 1dN turns.
func poisonVictim(tx *Tx, by, id string, die int) error {
	st := tx.State
	who := id
	if !st.rolls(id) {
		who = ""
	}
	d := tx.Dice.Die(die)
	turns := d.Total()
	text := fmt.Sprintf("%s is poisoned: 1d%d damage at the start of each of its next %d turn(s).", st.PublicNameOf(id), die, turns)
	return emit(tx, KindPoison, by, text, Note{Fighter: id, Target: id, What: "poisoned", Value: turns,
		Set: []Change{change.PoisonDie.To(id, die), change.PoisonTurns.To(id, turns)}}, []string{id}, dieRoll("Poison duration", who, d))
}

// poisonTick is the poison's damage at the start of the victim's turn.
func poisonTick(tx *Tx, f *Fighter) error {
	if f.PoisonTurns <= 0 || f.PoisonDie == 0 {
		return nil
	}
	st := tx.State
	who := f.ID
	if !st.rolls(f.ID) {
		who = ""
	}
	d := tx.Dice.Die(f.PoisonDie)
	left := f.PoisonTurns - 1
	set := []Change{change.PoisonTurns.To(f.ID, left)}
	if left == 0 {
		set = append(set, change.PoisonDie.To(f.ID, 0))
	}
	if err := note(tx, KindPoison, f.ID, fmt.Sprintf("The poison works in %s.", st.NameOf(f.ID)), Note{Fighter: f.ID, What: "tick", Value: left, Set: set}); err != nil {
		return err
	}
	n := d.Total()
	return harm(tx, blow{To: f.ID, Source: "Poison", NoArmour: true}, n, 0, n, []dice.Roll{dieRoll("Poison", who, d)})
}
