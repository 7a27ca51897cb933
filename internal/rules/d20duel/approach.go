package d20duel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The round and the approach. A round is an approach, then an exchange
// (exchange.go). In the approach every fighter engaged with no one acts
// once, in any order: engage an opponent (the pair starts at Striking
// distance), shoot, attempt a test, pick a dropped weapon up, or wait.
// Once all of them have acted, the exchange begins; with no one apart the
// round starts with the exchange. Ranged positioning is unknown to the
// seed: anyone apart may shoot anyone.
//
// A hidden fighter lies in wait: it takes no part in the approach, so
// nothing players see (no phase, no acting set) betrays it. The GM
// reveals it (the engine's reveal, allowed at any moment) when it strikes;
// from the next approach on it acts like anyone apart.

// newRound opens the next round, unless the fight is over.
func newRound(tx *Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	st := tx.State
	var order, apart, all []string
	for _, c := range st.Combatants {
		if c.Out {
			continue
		}
		order = append(order, c.ID)
		if c.Fighting() {
			all = append(all, c.ID)
			if !st.engaged(c.ID) && !c.Hidden {
				apart = append(apart, c.ID)
			}
		}
	}
	if err := tx.StartRound(st.Round+1, order, ""); err != nil {
		return err
	}
	if len(apart) == 0 && len(st.components()) == 0 {
		apart = all // no one could act: let everyone
	}
	if len(apart) > 0 {
		return tx.StartPhase(-1, apart, PhaseApproach, "Approach: whoever is not engaged may engage, shoot, attempt a test or wait.")
	}
	return tx.Run(engine.NewStep(stepExchange, nil), engine.NewStep(stepRoundEnd, nil))
}

// actedStep takes a fighter out of the approach's acting set once its
// action is done (after any decision it asked).
type actedStep struct {
	Fighter string `json:"fighter"`
}

func runActed(tx *Tx, s actedStep) error {
	if !tx.Base().IsActing(s.Fighter) {
		return nil
	}
	return tx.Acted(s.Fighter, tx.State.NameOf(s.Fighter)+" has acted.")
}

func decideEngage(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if _, err := tx.Opponent(f.ID, args.Target); err != nil {
		return err
	}
	if f.Fallen() {
		return fray.Errorf(fray.EILLEGAL, "%s is on the ground and cannot close in", st.NameOf(f.ID))
	}
	if err := st.canPair(f.ID, args.Target); err != nil {
		return err
	}
	ev := engine.NewEvent(KindEngaged, f.ID, fmt.Sprintf("%s engages %s at Striking distance.", st.NameOf(f.ID), st.NameOf(args.Target)),
		Engaged{A: f.ID, B: args.Target, Distance: Striking})
	if err := tx.Emit(ev.With(args.Target)); err != nil {
		return err
	}
	if err := tx.Acted(f.ID, st.NameOf(f.ID)+" has acted."); err != nil {
		return err
	}
	if tx.Base().IsActing(args.Target) {
		return tx.Acted(args.Target, st.NameOf(args.Target)+" is engaged and keeps their action for the exchange.")
	}
	return nil
}

func decideShoot(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
		Weapon string `json:"weapon"`
		Aim    string `json:"aim"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if _, err := tx.Opponent(f.ID, args.Target); err != nil {
		return err
	}
	i := slices.IndexFunc(f.rangedWeapons(), func(w Weapon) bool { return w.ID == args.Weapon })
	if i < 0 {
		return fray.Errorf(fray.EILLEGAL, "%s has no ranged weapon %q at hand", tx.State.NameOf(f.ID), args.Weapon)
	}
	w := f.rangedWeapons()[i]
	if args.Aim == "" {
		args.Aim = AimNormal
	}
	if _, ok := aimLabels[args.Aim]; !ok {
		return fray.Errorf(fray.EINVALID, "aim must be normal, find-weakness, disarm or immobilize, not %q", args.Aim)
	}
	var steps []engine.Step
	for n := 1; n <= w.attacks(); n++ {
		steps = append(steps, engine.NewStep(stepAttack, attackStep{Attacker: f.ID, Target: args.Target, Weapon: w.ID, Aim: args.Aim, Ranged: true, Roll: n}))
	}
	steps = append(steps, engine.NewStep(stepFallout, falloutStep{Fighters: []string{args.Target}}), engine.NewStep(stepActed, actedStep{Fighter: f.ID}))
	return tx.Run(steps...)
}

func decideRecover(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if !slices.Contains(f.Dropped, args.Weapon) {
		return fray.Errorf(fray.EILLEGAL, "%s has not dropped a weapon %q", tx.State.NameOf(f.ID), args.Weapon)
	}
	w := f.weapon(args.Weapon)
	ev := engine.NewEvent(KindRecovered, f.ID, fmt.Sprintf("%s picks up the %s.", tx.State.NameOf(f.ID), w.Name), Recovered{Fighter: f.ID, Weapon: w.ID})
	if err := tx.Emit(ev); err != nil {
		return err
	}
	return tx.Acted(f.ID, tx.State.NameOf(f.ID)+" has acted.")
}

func decideWait(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	if err := tx.Emits(KindWaited, f.ID, tx.State.NameOf(f.ID)+" waits.", map[string]string{"fighter": f.ID}); err != nil {
		return err
	}
	return tx.Acted(f.ID, tx.State.NameOf(f.ID)+" has acted.")
}

// testArgs are a test's: which Attribute, a modifier for the
// circumstances, and what is attempted.
type testArgs struct {
	Fighter   string `json:"fighter,omitempty"`
	Attribute string `json:"attribute"`
	Modifier  int    `json:"modifier"`
	What      string `json:"what"`
}

func (a *testArgs) check() error {
	if !slices.Contains(attributes, a.Attribute) {
		return fray.Errorf(fray.EINVALID, "attribute must be one of %s, not %q", strings.Join(attributes, ", "), a.Attribute)
	}
	if a.Modifier < -10 || a.Modifier > 10 {
		return fray.Errorf(fray.EINVALID, "the modifier must be between -10 and 10")
	}
	a.What = strings.TrimSpace(a.What)
	if len([]rune(a.What)) > 100 {
		return fray.Errorf(fray.EINVALID, "say what is attempted in at most 100 characters")
	}
	return nil
}

// TestDone is the data of KindTest: a fighter's test and its outcome.
type TestDone struct {
	Fighter   string `json:"fighter"`
	Attribute string `json:"attribute"`
	Modifier  int    `json:"modifier,omitempty"`
	What      string `json:"what,omitempty"`
	Test      Test   `json:"test"`
}

// Vetoed is the data of KindVetoed: the GM ruled an attempt fails without
// a roll.
type Vetoed struct {
	Fighter string `json:"fighter"`
	What    string `json:"what,omitempty"`
}

// decideTest is a fighter's test, its action in the approach. A player's
// waits for the GM to allow or veto it (option veto).
func decideTest(tx *Tx, cmd engine.Command) error {
	var args testArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	args.Fighter = f.ID
	if err := args.check(); err != nil {
		return err
	}
	first := engine.NewStep(stepTest, args)
	if !tx.Viewer().GM && kit.Opt(tx.Base(), OptVeto) == VetoAsk {
		first = engine.NewStep(stepVeto, args)
	}
	return tx.Run(first, engine.NewStep(stepActed, actedStep{Fighter: f.ID}))
}

// askVeto puts a player's attempt to the GM.
func askVeto(tx *Tx, a testArgs) error {
	st := tx.State
	what := a.What
	if what == "" {
		what = "a test"
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecVeto, Default: VetoRoll,
		Prompt:  fmt.Sprintf("%s attempts %q: %s %s. Allow the roll?", st.NameOf(a.Fighter), what, attrLabel(a.Attribute), signed(a.Modifier)),
		Options: []engine.Choice{{Value: VetoRoll, Label: "Allow the roll"}, {Value: VetoFail, Label: "Veto: it fails without a roll"}}}, a)
}

// Veto answers.
const (
	VetoRoll = "roll"
	VetoFail = "veto"
)

func answerVeto(tx *Tx, a testArgs, ans engine.Answered) error {
	if ans.Choice == VetoRoll {
		return rollAttempt(tx, a)
	}
	st := tx.State
	ev := engine.NewEvent(KindVetoed, a.Fighter, fmt.Sprintf("The GM vetoes %s's attempt: it fails without a roll.", st.NameOf(a.Fighter)),
		Vetoed{Fighter: a.Fighter, What: a.What})
	return tx.Emit(ev)
}

// rollAttempt rolls a test: the Attribute, the modifier, the wounds.
func rollAttempt(tx *Tx, a testArgs) error {
	st := tx.State
	f := st.Fighters[a.Fighter]
	if f == nil || st.Combatant(a.Fighter).Out {
		return nil
	}
	var mods []dice.Mod
	if a.Modifier != 0 {
		mods = append(mods, dice.Mod{Label: "circumstances", Value: a.Modifier})
	}
	mods = append(mods, woundMods(tx.Base(), f, 0)...)
	label := attrLabel(a.Attribute) + " test"
	if a.What != "" {
		label += ": " + a.What
	}
	t, r := rollTest(tx, f.ID, label, f.Attributes[a.Attribute], mods)
	text := fmt.Sprintf("%s tests %s (%d)", st.NameOf(f.ID), attrLabel(a.Attribute), t.Target)
	if a.What != "" {
		text += fmt.Sprintf(" to %s", a.What)
	}
	text += fmt.Sprintf(": black %d, white %d — %s.", t.Black, t.White, t.result())
	return tx.Emit(engine.NewEvent(KindTest, f.ID, text, TestDone{Fighter: f.ID, Attribute: a.Attribute, Modifier: a.Modifier, What: a.What, Test: t}, r))
}

func signed(n int) string {
	if n < 0 {
		return fmt.Sprintf("−%d", -n)
	}
	return fmt.Sprintf("+%d", n)
}
