package d20duel

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
)

// A blow, start to end: the attack roll (attack.go), and what may follow
// it — the target dropping a weapon of the attacker's choice after a −3
// Disarm, or a target the cinematic option drives back choosing whether to
// retreat.

// attackStep is one attack roll to make: in an exchange at the pair's
// distance as it then is, or a shot.
type attackStep struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
	Weapon   string `json:"weapon"`
	Aim      string `json:"aim"`
	Ranged   bool   `json:"ranged,omitempty"`
	Roll     int    `json:"roll"`
	Counter  bool   `json:"counter,omitempty"`
}

// runAttack rolls one attack and carries out what it did.
func runAttack(tx *Tx, s attackStep) error {
	st := tx.State
	if c := st.Combatant(s.Attacker); c == nil || c.Out || !st.fighting(s.Target) {
		return nil
	}
	mode := Ranged
	if !s.Ranged {
		e := st.engagement(s.Attacker, s.Target)
		if e == nil {
			return nil // separated meanwhile: a retreat, the GM
		}
		mode = e.Distance
	}
	plan, err := planAttack(st, s.Attacker, s.Target, s.Weapon, mode, s.Aim, s.Roll, s.Counter)
	if err != nil {
		return err
	}
	held := st.Fighters[s.Target].held() // before the blow lames an arm
	black, white := pairOfD20(tx)
	a := judgeAttack(&st.Base, plan, black.Total(), white.Total())
	ev := engine.NewEvent(KindAttack, s.Attacker, attackText(st, plan, a), a, attackRoll(st, plan, a, black, white))
	if err := tx.Emit(ev.With(s.Target)); err != nil {
		return err
	}
	switch {
	case a.DrivenBack:
		return askRetreat(tx, s.Target, s.Attacker)
	case a.Wound != nil && a.Wound.Location == LocArm && a.Wound.Penalty >= 3:
		return disarm(tx, s.Attacker, s.Target, held)
	}
	return nil
}

// dropCtx is a "which weapon drops" decision's data.
type dropCtx struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
}

// disarm makes target drop one of the weapons it held, the attacker's
// choice when there are several.
func disarm(tx *Tx, attacker, target string, held []Weapon) error {
	st := tx.State
	switch len(held) {
	case 0:
		return nil
	case 1:
		return emitDisarmed(tx, target, held[0].ID, attacker)
	}
	var opts []engine.Choice
	for _, w := range held {
		opts = append(opts, engine.Choice{Value: w.ID, Label: w.Name})
	}
	def := opts[0].Value
	if x := st.Exchange; x != nil {
		if d, ok := x.Declared[target]; ok && slices.ContainsFunc(held, func(w Weapon) bool { return w.ID == d.Weapon }) {
			def = d.Weapon
		}
	}
	return tx.AskWith(engine.Decision{For: attacker, Kind: DecDrop, Options: opts, Default: def,
		Prompt: fmt.Sprintf("Disarm: %s drops what one hand holds — which?", st.PublicNameOf(target))}, dropCtx{Attacker: attacker, Target: target})
}

func emitDisarmed(tx *Tx, target, weapon, by string) error {
	st := tx.State
	f := st.Fighters[target]
	w := f.weapon(weapon)
	if w == nil || slices.Contains(f.Dropped, weapon) {
		return nil
	}
	ev := engine.NewEvent(KindDisarmed, by, fmt.Sprintf("%s drops the %s.", st.NameOf(target), w.Name), Disarmed{Fighter: target, Weapon: weapon, By: by})
	return tx.Emit(ev.With(target))
}

func answerDrop(tx *Tx, c dropCtx, ans engine.Answered) error {
	return emitDisarmed(tx, c.Target, ans.Choice, c.Attacker)
}

// Retreat choices when a blow only drove a fighter back.
const (
	KeepFighting = "keep"
	Retreat      = "retreat"
)

// retreatCtx is a driven-back fighter's decision's data.
type retreatCtx struct {
	Fighter  string `json:"fighter"`
	Attacker string `json:"attacker"`
}

// askRetreat asks a fighter a blow drove back whether to retreat.
func askRetreat(tx *Tx, victim, attacker string) error {
	st := tx.State
	return tx.AskWith(engine.Decision{For: victim, Kind: DecRetreat, Default: KeepFighting,
		Prompt: fmt.Sprintf("%s's blow drives you back: retreat, or keep trying?", st.PublicNameOf(attacker)),
		Options: []engine.Choice{{Value: KeepFighting, Label: "Keep fighting"},
			{Value: Retreat, Label: fmt.Sprintf("Retreat: no longer engaged with %s", st.PublicNameOf(attacker))}}},
		retreatCtx{Fighter: victim, Attacker: attacker})
}

func answerRetreat(tx *Tx, c retreatCtx, ans engine.Answered) error {
	st := tx.State
	if ans.Choice != Retreat || st.engagement(c.Fighter, c.Attacker) == nil {
		return nil
	}
	return changeDistance(tx, c.Fighter, c.Attacker, Apart, "retreat", st.NameOf(c.Fighter)+" retreats")
}
