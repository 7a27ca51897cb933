package d20under

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Initiative (seed: Turn Order; spec c1). The order is Quick, then
// Vigilant, then a d20 (the highest first), fixed for the whole fight;
// before acting in the first round a combatant may take a later slot for
// good (wait). Each round, Delay lets a combatant act after someone later
// in the order for that round only. Take the Initiative (a Resolute test:
// +5 to Quick when placing the combatant; pass or fail, a second chance
// to fail every test that round) and the Quick Strike feat (acting first;
// several strikers keep their usual order among themselves) are declared
// before a round: before the first in the declarations phase, before the
// others when ending one's turn.

// Plans a combatant may declare for a round.
const (
	PlanTakeInit    = "take-initiative"
	PlanQuickStrike = "quick-strike" // "quick-strike:xp" or "quick-strike:corruption"
)

// TakeInitBonus is Take the Initiative's bonus to Quick on a pass.
const TakeInitBonus = 5

// Phases before the first round.
const (
	PhaseDeclare  = "declare"
	PhaseSurprise = "surprise"
)

// initKey orders combatants: Quick (plus Take the Initiative's bonus),
// Vigilant, then the tie-break d20.
func (s *State) initKey(id string) [3]int {
	f := s.Fighters[id]
	return [3]int{f.Attributes[Quick] + f.InitBonus, f.Attributes[Vigilant], s.Tiebreak[id]}
}

func before(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// startFight rolls the tie-breaks, fixes the order, opens the first round
// and the declarations before it.
func startFight(tx *Tx) error {
	st := tx.State
	ids := st.ids(func(id string) bool { return !st.Combatant(id).Out })
	var set []Change
	var rolls []dice.Roll
	for _, id := range ids {
		f := st.Fighters[id]
		tied := slices.ContainsFunc(ids, func(o string) bool {
			g := st.Fighters[o]
			return o != id && g.Attributes[Quick] == f.Attributes[Quick] && g.Attributes[Vigilant] == f.Attributes[Vigilant]
		})
		if !tied {
			continue
		}
		d := tx.Dice.Die(20)
		rolls = append(rolls, dice.Roll{Label: "Initiative tie-break", Who: id, Dice: []dice.Die{d}, Total: d.Total()})
		set = append(set, change.Tiebreak.To(id, d.Total()))
	}
	keys := map[string][3]int{}
	for _, id := range ids {
		f := st.Fighters[id]
		keys[id] = [3]int{f.Attributes[Quick], f.Attributes[Vigilant], 0}
	}
	for _, c := range set {
		_, id, _ := strings.Cut(c.K, ":")
		k := keys[id]
		k[2] = c.V
		keys[id] = k
	}
	order := slices.Clone(ids)
	slices.SortStableFunc(order, func(a, b string) int {
		switch {
		case before(keys[a], keys[b]):
			return -1
		case before(keys[b], keys[a]):
			return 1
		}
		return 0
	})
	set = append(set, change.Order.To(order), change.Phase.To(PhaseDeclare))
	words := make([]string, len(order))
	for i, id := range order {
		words[i] = st.PublicNameOf(id)
	}
	if err := emit(tx, KindInitiative, "", "Initiative: "+strings.Join(words, ", ")+".", Note{Set: set}, nil, rolls...); err != nil {
		return err
	}
	if err := tx.StartRound(1, order, ""); err != nil {
		return err
	}
	// Whoever starts the fight at 0 Toughness (carried over) is dying, or
	// dead.
	for _, id := range ids {
		if f := st.Fighters[id]; f.Toughness <= 0 {
			if err := fallen(tx, f, false); err != nil {
				return err
			}
		}
	}
	if done, err := finished(tx); done || err != nil {
		return err
	}
	acting := st.ids(func(id string) bool { return st.fighting(id) })
	return tx.StartPhase(-1, acting, "Before the first round",
		"Before the first round: take the initiative, strike quickly, or ready yourself. The GM may declare a surprise.")
}

func (s *State) phaseWords() string {
	switch s.Phase {
	case PhaseDeclare:
		return "declarations come first (take the initiative, Quick Strike, or ready)"
	case PhaseSurprise:
		return "the ambushers are making their surprise attacks"
	}
	return ""
}

// declarer checks a declaration before the first round or at the end of
// a turn.
func declarer(tx *Tx, cmd engine.Command, args any) (*Fighter, error) {
	if err := cmd.Decode(args); err != nil {
		return nil, err
	}
	st := tx.State
	if st.Phase != PhaseDeclare {
		return nil, fray.Errorf(fray.EILLEGAL, "declarations are made before the first round; later, with your end of turn")
	}
	if !st.IsActing(cmd.Actor) {
		return nil, fray.Errorf(fray.EILLEGAL, "%s is ready already", st.NameOf(cmd.Actor))
	}
	return st.Fighters[cmd.Actor], nil
}

func decideTakeInit(tx *Tx, cmd engine.Command) error {
	f, err := declarer(tx, cmd, &struct{}{})
	if err != nil {
		return err
	}
	st := tx.State
	return note(tx, KindDeclared, f.ID, st.NameOf(f.ID)+" will take the initiative.",
		Note{Fighter: f.ID, What: PlanTakeInit, Set: []Change{change.Plan.To(f.ID, PlanTakeInit)}})
}

func decideQuickStrike(tx *Tx, cmd engine.Command) error {
	var args struct {
		Pay string `json:"pay"`
	}
	f, err := declarer(tx, cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if err := st.canPay(f.ID, args.Pay); err != nil {
		return err
	}
	return note(tx, KindDeclared, f.ID, st.NameOf(f.ID)+" will strike quickly.",
		Note{Fighter: f.ID, What: PlanQuickStrike, Set: []Change{change.Plan.To(f.ID, PlanQuickStrike+":"+args.Pay)}})
}

func decideDeclared(tx *Tx, cmd engine.Command) error {
	f, err := declarer(tx, cmd, &struct{}{})
	if err != nil {
		return err
	}
	return endDeclaring(tx, f.ID, "")
}

// endDeclaring makes id ready for the first round — with a plan, when
// given as end-turn's "next" — and begins it once everyone is.
func endDeclaring(tx *Tx, id, next string) error {
	st := tx.State
	f := st.Fighters[id]
	set := []Change{change.Ready.To(id, true)}
	switch {
	case next == "" || next == "normal":
	case next == PlanTakeInit:
		set = append(set, change.Plan.To(id, PlanTakeInit))
	case strings.HasPrefix(next, PlanQuickStrike+":"):
		if err := st.canPay(id, strings.TrimPrefix(next, PlanQuickStrike+":")); err != nil {
			return err
		}
		set = append(set, change.Plan.To(id, next))
	default:
		return fray.Errorf(fray.EINVALID, "next round: %q is not a plan (normal, %s, %s:xp, %s:corruption)", next, PlanTakeInit, PlanQuickStrike, PlanQuickStrike)
	}
	if err := note(tx, KindDeclared, id, st.NameOf(id)+" is ready.", Note{Fighter: id, What: "ready", Set: set}); err != nil {
		return err
	}
	if err := tx.Acted(f.ID, ""); err != nil {
		return err
	}
	if len(tx.Base().Acting) == 0 {
		return beginFirstRound(tx)
	}
	return nil
}

// decideBegin is the GM ending the declarations: everyone not yet ready
// declares nothing.
func decideBegin(tx *Tx, cmd engine.Command) error {
	if err := cmd.NoArgs(); err != nil {
		return err
	}
	if tx.State.Phase != PhaseDeclare {
		return fray.Errorf(fray.EILLEGAL, "the fight has begun already")
	}
	return beginFirstRound(tx)
}

// beginFirstRound closes the declarations: plans are carried out, then
// the ambushers strike or the first turn starts.
func beginFirstRound(tx *Tx) error {
	st := tx.State
	if err := note(tx, KindDeclared, "", "The first round begins.", Note{What: "begin", Set: []Change{change.Phase.To("")}}); err != nil {
		return err
	}
	if err := carryOutPlans(tx); err != nil {
		return err
	}
	if st.Ambush != "" {
		if ambushers := st.ids(func(id string) bool { return st.side(id) == st.Ambush && st.fighting(id) }); len(ambushers) > 0 {
			if err := note(tx, KindSurprise, "", "The ambushers strike first.", Note{What: "phase", Set: []Change{change.Phase.To(PhaseSurprise)}}); err != nil {
				return err
			}
			return tx.StartPhase(-1, ambushers, "Surprise!", "Surprise! "+st.sideName(st.Ambush)+" strike first: one free attack each.")
		}
	}
	return advance(tx)
}

// newRound opens the next round: plans declared last round are carried
// out, then the first turn starts.
func newRound(tx *Tx) error {
	st := tx.State
	var order []string
	for _, id := range st.Initiative {
		if c := st.Combatant(id); c != nil && !c.Out {
			order = append(order, id)
		}
	}
	if len(order) == 0 {
		return tx.End(engine.Outcome{Summary: "No one is left."})
	}
	if err := tx.StartRound(st.Round+1, order, ""); err != nil {
		return err
	}
	if err := carryOutPlans(tx); err != nil {
		return err
	}
	return advance(tx)
}

// carryOutPlans rolls Take the Initiative, pays for Quick Strikes and
// orders the round.
func carryOutPlans(tx *Tx) error {
	st := tx.State
	for _, id := range st.ids(func(id string) bool { return st.Fighters[id].Plan != "" }) {
		f := st.Fighters[id]
		plan, pay, _ := strings.Cut(f.Plan, ":")
		if !st.fighting(id) {
			if err := note(tx, KindDeclared, id, st.NameOf(id)+"'s plan for the round lapses.", Note{Fighter: id, What: "dropped", Set: []Change{change.Plan.To(id, "")}}); err != nil {
				return err
			}
			continue
		}
		switch plan {
		case PlanTakeInit:
			t := st.plainTest(id, Resolute, "Take the Initiative", testOther)
			o := rollTest(tx, t)
			set := []Change{change.Plan.To(id, ""), change.Hasty.To(id, true)}
			text := fmt.Sprintf("%s tries to take the initiative and fails; a second chance to fail every test this round.", st.NameOf(id))
			if o.Pass {
				set = append(set, change.InitBonus.To(id, TakeInitBonus))
				text = fmt.Sprintf("%s takes the initiative (+%d); a second chance to fail every test this round.", st.NameOf(id), TakeInitBonus)
			}
			if err := note(tx, KindTookInit, id, text, Note{Fighter: id, Value: boolInt(o.Pass), Set: set}, o.Roll); err != nil {
				return err
			}
		case PlanQuickStrike:
			if err := st.canPay(id, pay); err != nil {
				if err := note(tx, KindDeclared, id, st.NameOf(id)+" cannot pay for Quick Strike.", Note{Fighter: id, What: "dropped", Set: []Change{change.Plan.To(id, "")}}); err != nil {
					return err
				}
				continue
			}
			if err := spendFeat(tx, id, FeatQuickStrike, pay, st.NameOf(id)+" strikes quickly: first in the round.",
				change.Plan.To(id, ""), change.QuickStrike.To(id, true)); err != nil {
				return err
			}
		}
	}
	// Quick Strikers and those who took the initiative move up, one by
	// one, with the core's Reorder.
	order := st.roundOrder()
	for i, id := range order {
		if tx.Base().Order[i] == id {
			continue
		}
		reason, why := "take-initiative", "takes the initiative"
		if st.Fighters[id].QuickStrike {
			reason, why = "quick-strike", "strikes first"
		}
		if err := tx.Reorder(id, i, reason, st.NameOf(id)+" "+why+"."); err != nil {
			return err
		}
	}
	return nil
}

// roundOrder is this round's order: Quick Strikers first, in their usual
// order; those who took the initiative moved up by their bonus; everyone
// else in the fixed order.
func (s *State) roundOrder() []string {
	var strikers, movers, rest []string
	for _, id := range s.Order {
		f := s.Fighters[id]
		switch {
		case f.QuickStrike:
			strikers = append(strikers, id)
		case f.InitBonus > 0:
			movers = append(movers, id)
		default:
			rest = append(rest, id)
		}
	}
	slices.SortStableFunc(movers, func(a, b string) int {
		if before(s.initKey(a), s.initKey(b)) {
			return -1
		}
		if before(s.initKey(b), s.initKey(a)) {
			return 1
		}
		return 0
	})
	for _, m := range movers {
		i := slices.IndexFunc(rest, func(x string) bool { return before(s.initKey(m), s.initKey(x)) })
		if i < 0 {
			i = len(rest)
		}
		rest = slices.Insert(rest, i, m)
	}
	return append(strikers, rest...)
}

type afterArgs struct {
	After string `json:"after"`
}

// laterChoices are the combatants after f in this round's order, for
// Delay and Wait.
func (s *State) laterChoices(f *Fighter, v engine.Viewer) []engine.Choice {
	var out []engine.Choice
	i := slices.Index(s.Order, f.ID)
	for _, id := range s.Order[i+1:] {
		if c := s.Combatant(id); c != nil && !c.Out && engine.Visible(s, v, id) {
			out = append(out, engine.Choice{Value: id, Label: "After " + c.Name})
		}
	}
	return out
}

// checkLater validates the combatant to act after.
func (s *State) checkLater(tx *Tx, f *Fighter, after string) (int, error) {
	if f.Acted {
		return 0, fray.Errorf(fray.EILLEGAL, "%s has acted this turn already", s.NameOf(f.ID))
	}
	if after == "" || !engine.Visible(s, tx.Viewer(), after) {
		return 0, fray.Errorf(fray.ENOTFOUND, "no combatant %q", after)
	}
	i, me := slices.Index(s.Order, after), slices.Index(s.Order, f.ID)
	if i < 0 || s.Combatant(after).Out {
		return 0, fray.Errorf(fray.EILLEGAL, "%s is not in this round's order", s.NameOf(after))
	}
	if i <= me {
		return 0, fray.Errorf(fray.EILLEGAL, "%s acts before you this round", s.NameOf(after))
	}
	return i, nil
}

func decideDelay(tx *Tx, cmd engine.Command) error {
	var args afterArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	to, err := st.checkLater(tx, f, args.After)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("%s delays, to act after %s this round.", st.NameOf(f.ID), st.NameOf(args.After))
	if err := note(tx, KindDelayed, f.ID, text, Note{Fighter: f.ID, Target: args.After}); err != nil {
		return err
	}
	if err := tx.Reorder(f.ID, to, "delay", ""); err != nil {
		return err
	}
	return advance(tx)
}

// decideWait takes a later slot for the whole fight: only in the first
// round, before acting (seed: once the order is established it cannot be
// changed).
func decideWait(tx *Tx, cmd engine.Command) error {
	var args afterArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if st.Round != 1 {
		return fray.Errorf(fray.EILLEGAL, "the order is fixed after the first round: delay instead")
	}
	to, err := st.checkLater(tx, f, args.After)
	if err != nil {
		return err
	}
	fixed := removeID(st.Initiative, f.ID)
	j := slices.Index(fixed, args.After) + 1
	fixed = slices.Insert(fixed, j, f.ID)
	text := fmt.Sprintf("%s waits: from now on after %s.", st.NameOf(f.ID), st.NameOf(args.After))
	if err := note(tx, KindWaited, f.ID, text, Note{Fighter: f.ID, Target: args.After, Set: []Change{change.Order.To(fixed)}}); err != nil {
		return err
	}
	if err := tx.Reorder(f.ID, to, "wait", ""); err != nil {
		return err
	}
	return advance(tx)
}

// applyRoundStarted clears what lasts a round.
func applyRoundStarted(st *State) {
	round := kit.Opt(&st.Base, OptStanceDuration) == StanceRound
	for _, f := range st.Fighters {
		f.Hasty, f.InitBonus, f.QuickStrike, f.IgnoreCorruption, f.Resilience, f.PerfectDefence = false, 0, false, false, 0, false
		f.Edge = nil
		if round {
			f.FullDefence, f.FullOffense = false, false
		}
		for hero, n := range f.Cowed {
			if n <= 1 {
				delete(f.Cowed, hero)
			} else {
				f.Cowed[hero] = n - 1
			}
		}
		if len(f.Cowed) == 0 {
			f.Cowed = nil
		}
	}
}
