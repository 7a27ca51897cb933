package d20tactical

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Harm (d20 base, seed "Life Points", "Armor Points"): a hit rolls its
// weapon's damage (+ Strength in melee and for thrown weapons; at least 1),
// halved at Extreme range and for most aimed shots. Hit points at 0: disabled
// (one move or standard action a turn; a standard action costs a hit point).
// −1 to −9: dying, prone and unconscious, rolling each turn to stabilise or
// losing a hit point. −10: dead. A single hit of at least the massive
// damage threshold forces a DC 15 Fortitude save — unless the target
// spends a Life Point to avoid it. Life Points at 0: dead.

// MassiveDC is the massive-damage save's DC [B].
const MassiveDC = 15

// TreatDC is the Treat Injury DC to stabilise a dying combatant [B].
const TreatDC = 15

// hitSpec is a hit that may still be negated or dodged.
type hitSpec struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
	Weapon   string `json:"weapon"`
	Shots    int    `json:"shots,omitempty"`
	Aim      string `json:"aim,omitempty"`
	Half     bool   `json:"half,omitempty"`
	Critical bool   `json:"critical,omitempty"`
	Ranged   bool   `json:"ranged,omitempty"`
	Stray    bool   `json:"stray,omitempty"`
}

// damageSpec is damage to roll.
type damageSpec struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target,omitempty"`
	Weapon   string `json:"weapon"`
	Shots    int    `json:"shots,omitempty"`
	Aim      string `json:"aim,omitempty"`
	Half     bool   `json:"half,omitempty"`
	Crit     string `json:"crit,omitempty"` // critDouble or critLife
	Object   string `json:"object,omitempty"`
}

// harmSpec is damage to apply.
type harmSpec struct {
	Target  string `json:"target"`
	Amount  int    `json:"amount"`
	Extra   int    `json:"extra,omitempty"` // a critical's extra: cannot kill
	Massive string `json:"massive,omitempty"`
	Effect  string `json:"effect,omitempty"` // an aimed shot's location
	Why     string `json:"why,omitempty"`
}

// Massive-damage outcomes.
const (
	massiveSave  = "save"
	massiveSpent = "spent"
)

// DamageRolled is the data of a damage event.
type DamageRolled struct {
	Attacker string `json:"attacker,omitempty"`
	Target   string `json:"target,omitempty"`
	Object   string `json:"object,omitempty"`
	Amounts  []int  `json:"amounts"`
	Extra    int    `json:"extra,omitempty"`
	Total    int    `json:"total"`
	Half     bool   `json:"half,omitempty"`
}

// Harmed is the data of a harm event: the fighter's hit points after.
type Harmed struct {
	Fighter string `json:"fighter"`
	Amount  int    `json:"amount"`
	Extra   int    `json:"extra,omitempty"`
	HP      int    `json:"hp"`
}

// Status is the data of a status event.
type Status struct {
	Fighter string `json:"fighter"`
	Status  string `json:"status"` // disabled, dying, stable, dead, up
}

// Saved is the data of a save event.
type Saved struct {
	Fighter string `json:"fighter"`
	Save    string `json:"save"`
	DC      int    `json:"dc"`
	Total   int    `json:"total"`
	Pass    bool   `json:"pass"`
}

// PointsLeft is the data of armour-points and life-points events.
type PointsLeft struct {
	Fighter string `json:"fighter"`
	Left    int    `json:"left"`
}

// Stabilized is the data of a stabilize event: a dying combatant's roll.
type Stabilized struct {
	Fighter string `json:"fighter"`
	Stable  bool   `json:"stable"`
	HP      int    `json:"hp"`
}

// Treated is the data of a treat event.
type Treated struct {
	Healer  string `json:"healer"`
	Target  string `json:"target"`
	Total   int    `json:"total"`
	Success bool   `json:"success"`
}

// Healed is the data of a heal event.
type Healed struct {
	Fighter string `json:"fighter"`
	HP      int    `json:"hp"`
}

// aimedHalf reports whether an aimed shot at loc does half damage.
func aimedHalf(st *State, loc string) bool {
	switch loc {
	case "", LocFrontTorso:
		return false
	case LocHead, LocBackTorso:
		return kit.Opt(&st.Base, OptAimedDamage) == AimedHalf
	}
	return true
}

// runHit carries a hit through the target's armour (aimed shots) and
// Dodge to its damage, asking the attacker first on a critical.
func runHit(tx *Tx, h hitSpec) error {
	st := tx.State
	t := st.Fighters[h.Target]
	if t == nil || st.Combatant(t.ID).Out {
		return nil
	}
	aimed := h.Aim != "" && h.Aim != LocFrontTorso
	if aimed {
		if negated, err := negate(tx, t, h.Aim); err != nil || negated {
			return err
		}
	}
	if dodged, err := dodge(tx, t, h.Ranged); err != nil || dodged {
		return err
	}
	d := damageSpec{Attacker: h.Attacker, Target: h.Target, Weapon: h.Weapon, Shots: h.Shots, Aim: h.Aim, Half: h.Half || aimedHalf(st, h.Aim)}
	if h.Critical {
		return askCritical(tx, d)
	}
	return tx.Run(engine.NewStep(stepDamage, d))
}

// runDamage rolls a hit's damage — each hit of a burst its own — and the
// extra of a critical, then applies it, asking about a Life Point first
// when it is massive.
func runDamage(tx *Tx, d damageSpec) error {
	st := tx.State
	a := st.Fighters[d.Attacker]
	w := a.Weapon(d.Weapon)
	var t *Fighter
	if d.Target != "" {
		t = st.Fighters[d.Target]
		if t == nil || st.Combatant(t.ID).Out {
			return nil
		}
	}
	dmg, err := ParseDice(w.Damage)
	if err != nil {
		return err
	}
	var rolls []dice.Roll
	hits := 1
	if d.Shots > 1 {
		hd := tx.Dice.Die(d.Shots)
		hits = hd.Total()
		rolls = append(rolls, dice.Roll{Label: fmt.Sprintf("Shots that hit (1d%d)", d.Shots), Who: a.ID, Dice: []dice.Die{hd}, Total: hits})
	}
	mods := []Mod{}
	if dmg.Bonus != 0 {
		mods = append(mods, Mod{Source: w.Name, Value: dmg.Bonus})
	}
	if !w.Ranged() || w.Thrown {
		mods = append(mods, Mod{Source: "Strength", Value: a.StrMod()})
	}
	if !w.Ranged() && a.hurtCount("arm") >= 2 {
		mods = append(mods, Mod{Source: "both arms hit", Value: -1})
	}
	bonus := sumMods(mods)
	var amounts []int
	for i := 0; i < hits; i++ {
		var ds []dice.Die
		sum := 0
		for j := 0; j < dmg.N; j++ {
			die := tx.Dice.Die(dmg.Sides)
			ds = append(ds, die)
			sum += die.Total()
		}
		v := max(sum+bonus, 1)
		rmods, mod := diceMods(mods), bonus
		if d.Half {
			// The halving is itemised so the card adds up: d4 4, Strength
			// +3, halved −4 = 3.
			rmods = append(rmods, dice.Mod{Label: "halved", Value: v/2 - v})
			mod += v/2 - v
			v /= 2
		}
		label := "Damage (" + w.Name + ")"
		if hits > 1 {
			label = fmt.Sprintf("Damage, shot %d", i+1)
		}
		rolls = append(rolls, dice.Roll{Label: label, Who: a.ID, Dice: ds, Mod: mod, Mods: rmods, Total: v})
		amounts = append(amounts, v)
	}
	extra := 0
	if d.Crit == critDouble && dmg.N > 0 {
		var ds []dice.Die
		for j := 0; j < dmg.N; j++ {
			die := tx.Dice.Die(dmg.Sides)
			ds = append(ds, die)
			extra += die.Total()
		}
		var rmods []dice.Mod
		if d.Half {
			rmods = []dice.Mod{{Label: "halved", Value: extra/2 - extra}}
			extra /= 2
		}
		rolls = append(rolls, dice.Roll{Label: "Critical: the damage dice again", Who: a.ID, Dice: ds, Mod: sumDiceMods(rmods), Mods: rmods, Total: extra})
	}
	total := extra
	parts := make([]string, len(amounts))
	for i, v := range amounts {
		total += v
		parts[i] = fmt.Sprint(v)
	}
	var text string
	if t != nil {
		text = fmt.Sprintf("%s takes %d damage", st.NameOf(t.ID), total)
	} else {
		text = fmt.Sprintf("%s deals %s %d damage", st.NameOf(a.ID), d.Object, total)
	}
	if len(amounts) > 1 {
		text += fmt.Sprintf(" (%d of %d shots hit: %s)", hits, d.Shots, strings.Join(parts, " + "))
	} else if d.Shots > 1 {
		text += fmt.Sprintf(" (1 of %d shots hits)", d.Shots)
	}
	if extra > 0 {
		text += fmt.Sprintf(", %d of it the critical's extra, which cannot kill", extra)
	}
	if d.Half {
		text += ", halved"
	}
	ev := engine.NewEvent(KindDamage, a.ID, text+".", DamageRolled{Attacker: a.ID, Target: d.Target, Object: d.Object, Amounts: amounts, Extra: extra, Total: total, Half: d.Half}, rolls...)
	if err := tx.Emit(ev.With(d.Target)); err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if d.Crit == critLife {
		if err := critLifePoint(tx, t); err != nil || st.Combatant(t.ID).Out {
			return err
		}
	}
	h := harmSpec{Target: t.ID, Amount: total - extra, Extra: extra}
	if d.Aim != "" && d.Aim != LocFrontTorso {
		h.Effect = d.Aim
	}
	if massive(st, t, total) {
		h.Massive = massiveSave
		if t.LifePoints > 1 {
			what := "the damage"
			if kit.Opt(&st.Base, OptLifePointSpend) == SpendSave {
				what = "the massive-damage save"
			}
			return tx.AskWith(engine.Decision{For: t.ID, Kind: DecMassive,
				Prompt:  fmt.Sprintf("Massive damage: %d to %s. Spend one of %d Life Points to avoid %s?", total, st.PublicNameOf(t.ID), t.LifePoints, what),
				Options: yesNo("spend", "Spend a Life Point", "take", fmt.Sprintf("Take it (Fortitude DC %d or %s)", MassiveDC, massiveFailText(st))),
				Default: "take"}, Cont{Massive: &h})
		}
	}
	return tx.Run(engine.NewStep(stepHarm, h))
}

func massiveFailText(st *State) string {
	if kit.Opt(&st.Base, OptMassiveFailure) == FailDead {
		return "die"
	}
	return "drop to −1"
}

// massive reports whether total is massive damage for t.
func massive(st *State, t *Fighter, total int) bool {
	threshold := 50
	if kit.Opt(&st.Base, OptMassiveThreshold) == ThresholdCon {
		threshold = t.Sheet.Abilities.Con
	}
	return total >= threshold
}

// runHarm applies damage: a Life Point spent first, the hit points, the
// massive-damage save, the state that follows, an aimed shot's effect.
func runHarm(tx *Tx, h harmSpec) error {
	st := tx.State
	t := st.Fighters[h.Target]
	if t == nil || st.Combatant(t.ID).Out {
		return nil
	}
	amount, extra := h.Amount, h.Extra
	if h.Massive == massiveSpent {
		text := fmt.Sprintf("%s spends a Life Point to avoid the massive damage.", st.NameOf(t.ID))
		if kit.Opt(&st.Base, OptLifePointSpend) == SpendDamage {
			amount, extra = 0, 0
		}
		if err := tx.Emits(KindLifePoints, t.ID, text, PointsLeft{Fighter: t.ID, Left: t.LifePoints - 1}); err != nil {
			return err
		}
	}
	if amount+extra > 0 {
		why := h.Why
		if why == "" {
			why = fmt.Sprintf("%s loses %d hit points", st.NameOf(t.ID), amount+extra)
		}
		if err := emitHarm(tx, t, amount, extra, why); err != nil {
			return err
		}
	}
	if h.Massive == massiveSave && !t.Dead && t.HP > -10 {
		ok, err := save(tx, t, "Fortitude against massive damage", t.Fort(), MassiveDC)
		if err != nil {
			return err
		}
		if !ok {
			if kit.Opt(&st.Base, OptMassiveFailure) == FailDead {
				if err := tx.Emits(KindStatus, t.ID, st.NameOf(t.ID)+" dies of massive damage.", Status{Fighter: t.ID, Status: "dead"}); err != nil {
					return err
				}
			} else if t.HP > -1 {
				if err := tx.Emits(KindHarm, t.ID, st.NameOf(t.ID)+" drops to −1 hit points from massive damage.", Harmed{Fighter: t.ID, HP: -1}); err != nil {
					return err
				}
			}
		}
	}
	if err := settleHealth(tx, t.ID); err != nil {
		return err
	}
	if h.Effect != "" && !st.Combatant(t.ID).Out {
		return tx.Run(engine.NewStep(stepEffect, effectSpec{Target: t.ID, Location: h.Effect}))
	}
	return nil
}

// emitHarm takes amount and a critical's extra off f's hit points; the
// extra cannot bring f below the crit-floor option.
func emitHarm(tx *Tx, f *Fighter, amount, extra int, why string) error {
	st := tx.State
	hp := f.HP - amount
	if extra > 0 {
		floor := min(hp, kit.OptInt(&st.Base, OptCritFloor))
		if hp > -10 {
			hp = max(hp-extra, floor)
		} else {
			hp -= extra
		}
	}
	text := fmt.Sprintf("%s (%d hit points left).", strings.TrimSuffix(why, "."), hp)
	return tx.Emits(KindHarm, f.ID, text, Harmed{Fighter: f.ID, Amount: amount, Extra: extra, HP: hp})
}

// save rolls a saving throw: d20 + bonus ≥ dc.
func save(tx *Tx, f *Fighter, what string, bonus, dc int) (bool, error) {
	st := tx.State
	d := tx.Dice.Die(20)
	total := d.Total() + bonus
	ok := d.Total() != 1 && (d.Total() == 20 || total >= dc)
	roll := dice.Roll{Label: what, Who: f.ID, Dice: []dice.Die{d}, Mod: bonus, Mods: diceMods([]Mod{{Source: "save", Value: bonus}}),
		Total: total, Target: dc, Compare: dice.AtLeast, Result: passFail(ok), Outcome: dice.OutcomeOf(ok)}
	verb := "fails"
	if ok {
		verb = "makes"
	}
	text := fmt.Sprintf("%s %s the %s save.", st.NameOf(f.ID), verb, what)
	return ok, tx.Emits(KindSave, f.ID, text, Saved{Fighter: f.ID, Save: what, DC: dc, Total: total, Pass: ok}, roll)
}

// settleHealth turns f's hit points and Life Points into its state:
// disabled, dying (down), dead (out), or up again.
func settleHealth(tx *Tx, id string) error {
	st := tx.State
	f, c := st.Fighters[id], st.Combatant(id)
	if c.Out {
		return nil
	}
	switch {
	case f.Dead || f.HP <= -10 || f.LifePoints <= 0:
		if !f.Dead {
			why := "dies"
			if f.LifePoints <= 0 {
				why = "has no Life Points left and dies"
			}
			if err := tx.Emits(KindStatus, id, st.NameOf(id)+" "+why+".", Status{Fighter: id, Status: "dead"}); err != nil {
				return err
			}
		}
		return tx.TakeOut(id, "dead", st.NameOf(id)+" is dead.")
	case f.HP < 0:
		if c.Down {
			return nil
		}
		if err := tx.Emits(KindStatus, id, st.NameOf(id)+" falls, dying.", Status{Fighter: id, Status: "dying"}); err != nil {
			return err
		}
		return tx.PutDown(id, "dying", st.NameOf(id)+" is down and dying.")
	case c.Down:
		if err := tx.Emits(KindStatus, id, st.NameOf(id)+" comes round.", Status{Fighter: id, Status: "up"}); err != nil {
			return err
		}
		return tx.GetUp(id, "healed", st.NameOf(id)+" is back in the fight.")
	}
	return nil
}

// dyingTurn is a dying combatant's turn: d% to stabilise, else a hit
// point lost.
func dyingTurn(tx *Tx, f *Fighter) error {
	st := tx.State
	if f.Stable || f.Dead {
		return nil
	}
	chance := kit.OptInt(&st.Base, OptStabilize)
	d := tx.Dice.Die(100)
	ok := d.Total() <= chance
	roll := dice.Roll{Label: "Stabilise (d%)", Who: f.ID, Dice: []dice.Die{d}, Total: d.Total(), Target: chance, Compare: dice.AtMost, Result: passFail(ok), Outcome: dice.OutcomeOf(ok)}
	data := Stabilized{Fighter: f.ID, Stable: ok, HP: f.HP}
	text := fmt.Sprintf("%s stabilises (%s).", st.NameOf(f.ID), dice.Percent(d.Total(), chance))
	if !ok {
		data.HP--
		text = fmt.Sprintf("%s is bleeding out: %d hit points (%s).", st.NameOf(f.ID), data.HP, dice.Percent(d.Total(), chance))
	}
	if err := tx.Emits(KindStabilize, f.ID, text, data, roll); err != nil {
		return err
	}
	return settleHealth(tx, f.ID)
}

// Treat Injury: a standard action next to a dying combatant, DC 15 to
// stabilise it.

func treatBonus(f *Fighter) int {
	if v, ok := f.Sheet.Skills["treatInjury"]; ok {
		return v
	}
	return mod(f.Sheet.Abilities.Wis)
}

func treatTargets(st *State, v engine.Viewer, f *Fighter) []engine.Choice {
	if !f.Budget.Standard {
		return nil
	}
	var out []engine.Choice
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if c.ID == f.ID || c.Out || !engine.Visible(st, v, c.ID) || t.HP >= 0 || t.Stable || t.Dead {
			continue
		}
		if distance(&st.Base, cell(f), cell(t)) <= Square && !st.barred(cell(f), cell(t)) {
			out = append(out, engine.Choice{Value: c.ID, Label: fmt.Sprintf("%s (%d hit points)", c.Name, t.HP)})
		}
	}
	return out
}

func decideTreat(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
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
	switch {
	case t.HP >= 0 || t.Stable || t.Dead:
		return fray.Errorf(fray.EILLEGAL, "%s is not dying", st.NameOf(t.ID))
	case distance(&st.Base, cell(f), cell(t)) > Square:
		return fray.Errorf(fray.EILLEGAL, "%s must be next to %s to treat it", st.NameOf(f.ID), st.NameOf(t.ID))
	case st.barred(cell(f), cell(t)):
		return fray.Errorf(fray.EILLEGAL, "a wall stands between %s and %s", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	b, err := f.Budget.useStandard()
	if err != nil {
		return err
	}
	if err := declare(tx, f, "treat", b, fmt.Sprintf("%s tends %s's wounds.", st.NameOf(f.ID), st.NameOf(t.ID))); err != nil {
		return err
	}
	d := tx.Dice.Die(20)
	bonus := treatBonus(f)
	total := d.Total() + bonus
	ok := total >= TreatDC
	roll := dice.Roll{Label: "Treat Injury", Who: f.ID, Dice: []dice.Die{d}, Mod: bonus, Mods: diceMods([]Mod{{Source: "Treat Injury", Value: bonus}}),
		Total: total, Target: TreatDC, Compare: dice.AtLeast, Result: passFail(ok), Outcome: dice.OutcomeOf(ok)}
	text := fmt.Sprintf("%s stabilises %s with Treat Injury.", st.NameOf(f.ID), st.NameOf(t.ID))
	if !ok {
		text = fmt.Sprintf("%s fails to stabilise %s with Treat Injury.", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	ev := engine.NewEvent(KindTreat, f.ID, text, Treated{Healer: f.ID, Target: t.ID, Total: total, Success: ok}, roll)
	if err := tx.Emit(ev.With(t.ID)); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepAfter, afterAction{Fighter: f.ID, Strenuous: true}))
}

// sumDiceMods adds up a roll's itemised modifiers.
func sumDiceMods(ms []dice.Mod) int {
	n := 0
	for _, m := range ms {
		n += m.Value
	}
	return n
}
