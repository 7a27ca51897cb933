package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Movement replaces Pace: every fighter has 2 Movement points (MP) a turn.
//   - joining a melee in the same zone costs 1 (engage);
//   - leaving a melee costs 1 (disengage), and every adjacent non-Shaken
//     opponent gets a free attack first;
//   - crossing a zone border costs 1 (move), and only an unengaged fighter
//     may cross.
// Moving about inside a zone while unengaged is free ([I] of the seed), so
// there is no command for it. Moving is a free action: a Shaken fighter may
// move; a prone one must rise first and a grappled one cannot move at all.
// Each spend is a step (mpStep) that opponents on Hold may interrupt
// (hold.go); a disengage may end with a Running roll (running.go).

// MovementPerTurn is the seed's basic Movement.
const MovementPerTurn = 2

// Moved is the data of a moved event.
type Moved struct {
	Fighter string `json:"fighter"`
	From    string `json:"from"`
	To      string `json:"to"`
	Cost    int    `json:"cost"`
}

// Engaged is the data of an engaged event.
type Engaged struct {
	Fighter string `json:"fighter"`
	Target  string `json:"target"`
	Melee   string `json:"melee"`
	Zone    string `json:"zone"`
	New     bool   `json:"new,omitempty"` // the target was unengaged: a new melee forms
	Cost    int    `json:"cost"`
}

// Disengaged is the data of a disengaged event.
type Disengaged struct {
	Fighter string `json:"fighter"`
	Melee   string `json:"melee"`
	Cost    int    `json:"cost"`
	Defend  int    `json:"defend,omitempty"` // Parry bonus for defending while retreating
}

// needMP fails unless f has cost Movement points left.
func needMP(f *Fighter, cost int) error {
	if f.MP < cost {
		return fray.Errorf(fray.EILLEGAL, "not enough Movement: %d left, %d needed", f.MP, cost)
	}
	return nil
}

func mpLeft(n int) string {
	if n == 1 {
		return "1 MP left"
	}
	return fmt.Sprintf("%d MP left", n)
}

// mpStep is one Movement spend: crossing a border, engaging, or
// disengaging. Every one is an interruptible step: before it happens, each
// opponent on Hold is asked whether to interrupt it (interrupt-windows).
type mpStep struct {
	Kind    string   `json:"kind"` // "move", "engage" or "disengage"
	Fighter string   `json:"fighter"`
	To      string   `json:"to,omitempty"`     // move
	Target  string   `json:"target,omitempty"` // engage
	Defend  int      `json:"defend,omitempty"` // disengage: Parry bonus while retreating
	Run     bool     `json:"run,omitempty"`    // disengage: a Running roll after leaving
	Trait   string   `json:"trait,omitempty"`  // the Running roll's trait
	Asked   []string `json:"asked,omitempty"`  // holders already asked about this step
	NoAsk   bool     `json:"noAsk,omitempty"`  // the step goes ahead without asking anyone
}

// Blocked is the data of a blocked event: a step that became impossible
// while a holder interrupted it.
type Blocked struct {
	Fighter string `json:"fighter"`
	Kind    string `json:"kind"`
	Reason  string `json:"reason"`
}

// movable fails unless f may spend Movement: standing and not held in a
// grapple.
func movable(st *State, f *Fighter) error {
	switch {
	case f.Prone:
		return fray.Errorf(fray.EILLEGAL, "%s is prone: rise first", st.NameOf(f.ID))
	case f.Grip != nil:
		return fray.Errorf(fray.EILLEGAL, "%s is held in a grapple (%s): break free first", st.NameOf(f.ID), f.Grip.Level)
	}
	return nil
}

// check reports whether the step is legal now.
func (s mpStep) check(st *State) error {
	f := st.Fighters[s.Fighter]
	if err := movable(st, f); err != nil {
		return err
	}
	switch s.Kind {
	case CmdMove:
		to := st.zone(s.To)
		if to == nil {
			return fray.Errorf(fray.ENOTFOUND, "no zone %q", s.To)
		}
		if f.Melee != "" {
			return fray.Errorf(fray.EILLEGAL, "%s is in a melee: disengage first", st.NameOf(f.ID))
		}
		if !st.adjacent(f.Zone, to.ID) {
			return fray.Errorf(fray.EILLEGAL, "%s does not border %s", to.Name, st.zone(f.Zone).Name)
		}
	case CmdEngage:
		t := st.Fighters[s.Target]
		if t == nil || st.Combatant(t.ID).Out {
			return fray.Errorf(fray.EILLEGAL, "%s is no longer there", st.NameOf(s.Target))
		}
		if err := canEngage(st, f, t); err != nil {
			return err
		}
	case CmdDisengage:
		if f.Melee == "" {
			return fray.Errorf(fray.EILLEGAL, "%s is not in a melee", st.NameOf(f.ID))
		}
	}
	return needMP(f, 1)
}

func decideMove(tx *Tx, cmd engine.Command) error {
	var args struct {
		To string `json:"to"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	s := mpStep{Kind: CmdMove, Fighter: f.ID, To: args.To}
	if err := s.check(tx.State); err != nil {
		return err
	}
	return runMPStep(tx, s)
}

func decideEngage(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if _, err := tx.Target(args.Target); err != nil {
		return err
	}
	s := mpStep{Kind: CmdEngage, Fighter: f.ID, Target: args.Target}
	if err := s.check(tx.State); err != nil {
		return err
	}
	return runMPStep(tx, s)
}

// canEngage checks that f may join t's melee, or start one with t.
func canEngage(st *State, f, t *Fighter) error {
	switch {
	case t.ID == f.ID:
		return fray.Errorf(fray.EILLEGAL, "a fighter cannot engage themself")
	case f.Melee != "":
		return fray.Errorf(fray.EILLEGAL, "%s is already in a melee: disengage first", st.NameOf(f.ID))
	case t.Zone != f.Zone:
		return fray.Errorf(fray.EILLEGAL, "%s is not in %s's zone", st.NameOf(t.ID), st.NameOf(f.ID))
	case t.Melee == "" && !st.opponents(f.ID, t.ID):
		return fray.Errorf(fray.EILLEGAL, "%s is an unengaged ally: engage an opponent or join a melee", st.NameOf(t.ID))
	}
	return nil
}

func decideDisengage(tx *Tx, cmd engine.Command) error {
	var args struct {
		Defend flexBool `json:"defend"`
		Run    flexBool `json:"run"`
		Trait  string   `json:"trait"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	s := mpStep{Kind: CmdDisengage, Fighter: f.ID, Run: bool(args.Run)}
	if err := s.check(st); err != nil {
		return err
	}
	if args.Defend {
		if err := canAct(st, f, false); err != nil {
			return fray.Errorf(fray.EILLEGAL, "cannot defend while retreating: %s", fray.ErrorMessage(err))
		}
		if f.Actions > 0 {
			return fray.Errorf(fray.EILLEGAL, "cannot defend while retreating after taking an action this turn")
		}
		s.Defend = retreatDefendBonus
	}
	switch {
	case bool(args.Run):
		if f.Ran {
			return fray.Errorf(fray.EILLEGAL, "%s has already made a Running roll this turn", st.NameOf(f.ID))
		}
		if s.Trait, err = runTrait(f, args.Trait); err != nil {
			return err
		}
	case args.Trait != "":
		return fray.Errorf(fray.EINVALID, "trait is the Running roll's: set run too")
	}
	return runMPStep(tx, s)
}

// runMPStep carries out a Movement step: it checks the step is still
// legal (a holder may have blocked it meanwhile), asks each opponent on Hold
// whether to interrupt, then performs it.
func runMPStep(tx *Tx, s mpStep) error {
	st := tx.State
	f := st.Fighters[s.Fighter]
	if f == nil || st.Combatant(f.ID).Out {
		return nil
	}
	if err := s.check(st); err != nil {
		text := fmt.Sprintf("%s cannot %s: %s.", st.NameOf(f.ID), s.Kind, fray.ErrorMessage(err))
		return tx.Emits(KindBlocked, f.ID, text, Blocked{Fighter: f.ID, Kind: s.Kind, Reason: fray.ErrorMessage(err)})
	}
	if !s.NoAsk {
		if h := nextHolder(st, s); h != "" {
			s.Asked = append(append([]string(nil), s.Asked...), h)
			return openWindow(tx, h, s)
		}
	}
	switch s.Kind {
	case CmdMove:
		text := fmt.Sprintf("%s moves from %s to %s (%s).", st.NameOf(f.ID), st.zone(f.Zone).Name, st.zone(s.To).Name, mpLeft(f.MP-1))
		return tx.Emits(KindMoved, f.ID, text, Moved{Fighter: f.ID, From: f.Zone, To: s.To, Cost: 1})
	case CmdEngage:
		return engage(tx, f, st.Fighters[s.Target])
	}
	// Disengage: every adjacent non-Shaken opponent gets a free attack
	// first. All members of a melee are adjacent to each other ([I]).
	var attackers []string
	for _, id := range st.melee(f.Melee).Members {
		if st.opponents(id, f.ID) && !st.Fighters[id].Shaken {
			attackers = append(attackers, id)
		}
	}
	steps := freeAttacks(f.ID, attackers, s.Defend, "disengages")
	steps = append(steps, engine.NewStep(stepDisengage, disengageStep{Fighter: f.ID, Melee: f.Melee, Defend: s.Defend, Run: s.Run, Trait: s.Trait}))
	return tx.Run(steps...)
}

func engage(tx *Tx, f, t *Fighter) error {
	st := tx.State
	d := Engaged{Fighter: f.ID, Target: t.ID, Melee: t.Melee, Zone: f.Zone, Cost: 1}
	text := fmt.Sprintf("%s joins the melee around %s (%s).", st.NameOf(f.ID), st.NameOf(t.ID), mpLeft(f.MP-1))
	if t.Melee == "" {
		d.Melee, d.New = st.newMeleeID(), true
		text = fmt.Sprintf("%s engages %s in melee (%s).", st.NameOf(f.ID), st.NameOf(t.ID), mpLeft(f.MP-1))
	}
	if err := tx.Emit(engine.NewEvent(KindEngaged, f.ID, text, d).With(t.ID)); err != nil {
		return err
	}
	if kit.Opt(&st.Base, OptEngageFreeAttacks) != EngageAll {
		return nil
	}
	var attackers []string
	for _, id := range st.melee(f.Melee).Members {
		if st.opponents(id, f.ID) && !st.Fighters[id].Shaken {
			attackers = append(attackers, id)
		}
	}
	return tx.Run(freeAttacks(f.ID, attackers, 0, "joins the melee")...)
}

// freeAttackStep is one free attack on Target.
type freeAttackStep struct {
	Target   string `json:"target"`
	Attacker string `json:"attacker"`
	Retreat  int    `json:"retreat,omitempty"` // Parry bonus for defending while retreating
	Why      string `json:"why,omitempty"`     // "disengages", "joins the melee", "is pushed out"
}

// freeAttacks is one step per attacker: they come one by one, each after
// the last one's Soak is settled, and stop when the target is out.
func freeAttacks(target string, attackers []string, retreat int, why string) []engine.Step {
	steps := make([]engine.Step, len(attackers))
	for i, id := range attackers {
		steps[i] = engine.NewStep(stepFreeAttack, freeAttackStep{Target: target, Attacker: id, Retreat: retreat, Why: why})
	}
	return steps
}

func runFreeAttack(tx *Tx, s freeAttackStep) error {
	st := tx.State
	t, a := st.Fighters[s.Target], st.Fighters[s.Attacker]
	if st.Combatant(t.ID).Out || st.Combatant(a.ID).Out || a.Shaken {
		return nil // taken out by an earlier free attack, or no longer able
	}
	return meleeStrike(st, a, t, a.MeleeWeapons()[0], Attack{Kind: "free attack", Why: s.Why}, nil, s.Retreat).roll(tx)
}

// disengageStep leaves the melee once the free attacks are over, then makes
// the Running roll the seed allows in the same action.
type disengageStep struct {
	Fighter string `json:"fighter"`
	Melee   string `json:"melee"`
	Defend  int    `json:"defend,omitempty"`
	Run     bool   `json:"run,omitempty"`
	Trait   string `json:"trait,omitempty"`
}

func runDisengage(tx *Tx, s disengageStep) error {
	st := tx.State
	f := st.Fighters[s.Fighter]
	if st.Combatant(f.ID).Out || f.Melee != s.Melee {
		return nil
	}
	text := fmt.Sprintf("%s disengages (%s).", st.NameOf(f.ID), mpLeft(f.MP-1))
	if s.Defend > 0 {
		text = fmt.Sprintf("%s disengages, defending (+%d Parry until their next turn; no other action this turn; %s).", st.NameOf(f.ID), s.Defend, mpLeft(f.MP-1))
	}
	if err := tx.Emits(KindDisengaged, f.ID, text, Disengaged{Fighter: f.ID, Melee: s.Melee, Cost: 1, Defend: s.Defend}); err != nil {
		return err
	}
	if !s.Run {
		return nil
	}
	return runRoll(tx, runStep{Fighter: f.ID, Trait: s.Trait, Mid: true})
}

func applyMoved(st *State, d Moved) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Zone = d.To
	f.MP -= d.Cost
	f.Spent += d.Cost
	return nil
}

func applyEngaged(st *State, d Engaged) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	if d.New {
		t, err := kit.Found(st.Fighter(d.Target), d.Target)
		if err != nil {
			return err
		}
		st.Melees = append(st.Melees, Melee{ID: d.Melee, Zone: d.Zone, Members: []string{d.Target}})
		t.Melee = d.Melee
	}
	m := st.melee(d.Melee)
	if m == nil {
		return fmt.Errorf("sw-zones: no melee %q", d.Melee)
	}
	m.Members = append(m.Members, f.ID)
	f.Melee = d.Melee
	f.MP -= d.Cost
	f.Spent += d.Cost
	return nil
}

func applyDisengaged(st *State, d Disengaged) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	st.leaveMelee(f.ID)
	f.MP -= d.Cost
	f.Spent += d.Cost
	if d.Defend > 0 {
		f.Defend = d.Defend
	}
	return nil
}
