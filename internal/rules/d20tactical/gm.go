package d20tactical

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// The GM's rulings (spec e), commands that name no actor:
//   - set-cover: a combatant's cover against shots (cover.go);
//   - damage: harm from outside the fight's attacks — a fall, a car, fire —
//     with the massive-damage rules (and the Life Point offer) when marked
//     massive or when it reaches the threshold;
//   - heal: hit points back (a dying combatant at 0 or more gets up);
//   - armour-points: Armour Points lost to fire or acid (or repaired);
//   - life-points: set a combatant's Life Points (the seed gives no
//     starting value; 0 kills);
//   - clear-effects: heal the arms, legs and groin an aimed shot hurt.

func errf(format string, args ...any) error { return fray.Errorf(fray.EILLEGAL, format, args...) }

func errInvalid(format string, args ...any) error { return fray.Errorf(fray.EINVALID, format, args...) }

func errNoMoveAction(st *State, f *Fighter) error {
	return fray.Errorf(fray.EILLEGAL, "%s has no move action left this turn", st.NameOf(f.ID))
}

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic("d20-tactical: " + err.Error())
	}
	return raw
}

// gmEvent is an event about f by the GM: secret while f is hidden.
func gmEvent(st *State, f *Fighter, kind, text string, data any) engine.Event {
	ev := engine.NewEvent(kind, "", text, data)
	if st.Combatant(f.ID).Hidden {
		ev.Actor = f.ID
	}
	return ev.With(f.ID)
}

func decideGMDamage(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string  `json:"combatant"`
		Amount    flexInt `json:"amount"`
		Massive   bool    `json:"massive"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	if args.Amount < 1 || args.Amount > 500 {
		return fray.Errorf(fray.EINVALID, "damage runs from 1 to 500")
	}
	n := int(args.Amount)
	text := fmt.Sprintf("The GM deals %d damage to %s", n, st.NameOf(f.ID))
	if args.Massive {
		text += " (a massive-damage event)"
	}
	if err := tx.Emit(gmEvent(st, f, KindDamage, text+".", DamageRolled{Target: f.ID, Amounts: []int{n}, Total: n})); err != nil {
		return err
	}
	h := harmSpec{Target: f.ID, Amount: n, Why: fmt.Sprintf("%s takes %d damage", st.NameOf(f.ID), n)}
	if args.Massive || massive(st, f, n) {
		h.Massive = massiveSave
		if f.LifePoints > 1 {
			return tx.AskWith(engine.Decision{For: f.ID, Kind: DecMassive,
				Prompt:  fmt.Sprintf("Massive damage: %d to %s. Spend one of %d Life Points to avoid it?", n, st.PublicNameOf(f.ID), f.LifePoints),
				Options: yesNo("spend", "Spend a Life Point", "take", fmt.Sprintf("Take it (Fortitude DC %d)", MassiveDC)), Default: "take"},
				Cont{Massive: &h})
		}
	}
	return tx.Run(engine.NewStep(stepHarm, h))
}

func decideHeal(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string  `json:"combatant"`
		HP        flexInt `json:"hp"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	if args.HP < 1 || args.HP > 999 {
		return fray.Errorf(fray.EINVALID, "heal 1 to 999 hit points")
	}
	if f.HP >= f.Sheet.HP {
		return fray.Errorf(fray.EILLEGAL, "%s is unhurt", st.NameOf(f.ID))
	}
	hp := min(f.HP+int(args.HP), f.Sheet.HP)
	text := fmt.Sprintf("The GM heals %s: %d hit points.", st.NameOf(f.ID), hp)
	if err := tx.Emit(gmEvent(st, f, KindHeal, text, Healed{Fighter: f.ID, HP: hp})); err != nil {
		return err
	}
	return settleHealth(tx, f.ID)
}

func decideArmour(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string  `json:"combatant"`
		Lost      flexInt `json:"lost"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	a := f.Sheet.Armor
	if a == nil {
		return fray.Errorf(fray.EILLEGAL, "%s wears no armour", st.NameOf(f.ID))
	}
	if args.Lost < -999 || args.Lost > 999 {
		return fray.Errorf(fray.EINVALID, "Armour Points lost: a whole number, negative to repair")
	}
	// The armour keeps between 0 and its full Armour Points. A loss of 0,
	// or one the armour cannot take (nothing left to lose, nothing to
	// repair), is the GM's ruling that it stays as it is: the form's
	// every number is a legal command.
	left := min(max(f.ArmorLeft-int(args.Lost), 0), a.Points)
	name := a.Name
	if name == "" {
		name = "armour"
	}
	var text string
	switch {
	case left == f.ArmorLeft:
		text = fmt.Sprintf("The GM rules %s's %s unchanged: %d of %d Armour Points.", st.NameOf(f.ID), name, left, a.Points)
	case left > f.ArmorLeft:
		text = fmt.Sprintf("The GM repairs %s's %s: %d of %d Armour Points.", st.NameOf(f.ID), name, left, a.Points)
	default:
		text = fmt.Sprintf("Fire or acid costs %s's %s %s: %d of %d left", st.NameOf(f.ID), name, points(f.ArmorLeft-left), left, a.Points)
		switch {
		case left == 0:
			text += "; it is useless until repaired"
		case left < a.Points/2:
			text += "; below half, Defense −1"
		}
		text += "."
	}
	return tx.Emit(gmEvent(st, f, KindArmourPoints, text, PointsLeft{Fighter: f.ID, Left: left}))
}

func decideLifePoints(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string  `json:"combatant"`
		Value     flexInt `json:"value"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	if args.Value < 0 || args.Value > 99 {
		return fray.Errorf(fray.EINVALID, "Life Points run from 0 to 99")
	}
	text := fmt.Sprintf("The GM sets %s's Life Points to %d.", st.NameOf(f.ID), args.Value)
	if int(args.Value) == f.LifePoints {
		// The form's number as it stands: the GM's ruling that they stay.
		text = fmt.Sprintf("The GM rules %s keeps %d Life Points.", st.NameOf(f.ID), args.Value)
	}
	if err := tx.Emit(gmEvent(st, f, KindLifePoints, text, PointsLeft{Fighter: f.ID, Left: int(args.Value)})); err != nil {
		return err
	}
	return settleHealth(tx, f.ID)
}

func decideClearEffects(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string `json:"combatant"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	if len(f.Hurt) == 0 && !f.Groin {
		return fray.Errorf(fray.EILLEGAL, "%s has no aimed-shot effects to clear", st.NameOf(f.ID))
	}
	return tx.Emit(gmEvent(st, f, KindEffectsCleared, fmt.Sprintf("The GM: %s's hurt limbs are healed.", st.NameOf(f.ID)), PointsLeft{Fighter: f.ID}))
}

// points says n Armour Points in words.
func points(n int) string {
	if n == 1 {
		return "1 Armour Point"
	}
	return fmt.Sprintf("%d Armour Points", n)
}
