package d20tactical

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The turn (seed "Movement and Combat" 1–5, d20 base): initiative is
// rolled once, d20 + Dexterity modifier (+ any bonus), highest first, ties
// to the higher modifier, then setup order; the order holds every round.
// When the GM marks someone surprised, everyone else first acts in a
// surprise round (one move or standard action each, in any order), and
// the surprised stay flat-footed (no Dexterity bonus to Defense, no
// attacks of opportunity) until their first turn. A turn is a move action
// and a standard action, or one full-round action; a 5-ft step is free if
// the fighter moves no other way. Delay moves a fighter later in the order
// for good; Ready spends the standard action on an action taken later, at
// a trigger, which moves the readier just before whoever triggered it.

// Budget is what a fighter may still do this turn.
type Budget struct {
	Move     bool `json:"move,omitempty"`
	Standard bool `json:"standard,omitempty"`
	// Feet is the movement left in the move action under way; taking any
	// other action forfeits it.
	Feet    int  `json:"feet,omitempty"`
	Moved   bool `json:"moved,omitempty"`
	Stepped bool `json:"stepped,omitempty"`
	// Single: only one action, a move or a standard (a surprise round, a
	// disabled fighter, a readied action).
	Single bool `json:"single,omitempty"`
}

// fresh is the budget a turn starts with.
func fresh(f *Fighter, single bool) Budget {
	b := Budget{Move: true, Standard: true, Single: single || f.Disabled()}
	if f.Groin {
		b.Standard = false // seed "Groin": only a move-equivalent action next turn
	}
	return b
}

// exhausted reports whether nothing but a 5-ft step is left.
func (b Budget) exhausted() bool { return !b.Move && !b.Standard && b.Feet == 0 }

// untouched reports whether nothing was spent this turn.
func (b Budget) untouched() bool {
	return b.Move && b.Standard && b.Feet == 0 && !b.Moved && !b.Stepped
}

// canFull reports whether a full-round action is possible.
func (b Budget) canFull(step bool) bool {
	return b.Move && b.Standard && !b.Single && b.Feet == 0 && !b.Moved && (step || !b.Stepped)
}

// feetAvailable is the most movement the fighter could still spend.
func (b Budget) feetAvailable(speed int) int {
	if b.Stepped {
		return 0
	}
	f := b.Feet
	switch {
	case b.Single:
		if b.Move || b.Standard {
			f += speed
		}
	default:
		if b.Move {
			f += speed
		}
		if b.Standard {
			f += speed
		}
	}
	return f
}

// usesStandard reports whether spending cost feet needs the standard
// action as a second move.
func (b Budget) usesStandard(speed, cost int) bool {
	f := b.Feet
	if b.Move && !b.Single {
		f += speed
	} else if b.Move || (b.Single && b.Standard) {
		return false
	}
	return cost > f
}

func (b Budget) take(move bool) Budget {
	if move {
		b.Move = false
	} else {
		b.Standard = false
	}
	if b.Single {
		b.Move, b.Standard = false, false
	}
	return b
}

// useFeet spends cost feet of movement, starting a move action (then the
// standard action as a second move) when the one under way runs short.
func (b Budget) useFeet(speed, cost int) (Budget, error) {
	if b.Stepped {
		return b, fray.Errorf(fray.EILLEGAL, "after a 5-ft step there is no other movement this turn")
	}
	for cost > b.Feet {
		switch {
		case b.Move:
			b = b.take(true)
		case b.Standard:
			b = b.take(false)
		default:
			return b, fray.Errorf(fray.EILLEGAL, "not enough movement left this turn (%d ft needed)", cost)
		}
		b.Feet += speed
	}
	b.Feet -= cost
	b.Moved = true
	return b, nil
}

// useStandard spends the standard action; movement left is forfeited.
func (b Budget) useStandard() (Budget, error) {
	if !b.Standard {
		return b, fray.Errorf(fray.EILLEGAL, "the standard action is already spent this turn")
	}
	b = b.take(false)
	b.Feet = 0
	return b, nil
}

// useMoveAction spends a move action (or the standard action in its
// place) on something that is not movement: reloading, clearing a jam.
func (b Budget) useMoveAction() (Budget, error) {
	switch {
	case b.Move:
		b = b.take(true)
	case b.Standard:
		b = b.take(false)
	default:
		return b, fray.Errorf(fray.EILLEGAL, "no move action left this turn")
	}
	b.Feet = 0
	return b, nil
}

// useFull spends the whole turn on a full-round action.
func (b Budget) useFull(what string, step bool) (Budget, error) {
	if !b.canFull(step) {
		return b, fray.Errorf(fray.EILLEGAL, "%s takes the full round: it must be the turn's only action", what)
	}
	return Budget{Moved: b.Moved, Stepped: b.Stepped}, nil
}

// Initiative is the data of an initiative event.
type Initiative struct {
	Totals map[string]int `json:"totals"`
	Order  []string       `json:"order"`
}

// Surprise is the data of a surprise event: surprise rounds left.
type Surprise struct {
	Rounds int `json:"rounds"`
}

// TurnEnded is the data of a turn-ended event.
type TurnEnded = kit.TurnEnded

// rollInitiative rolls initiative once, then opens the
// surprise round or the first round.
func rollInitiative(tx *Tx) error {
	st := tx.State
	type entry struct {
		id           string
		total, bonus int
		index        int
	}
	var entries []entry
	var rolls []dice.Roll
	totals := map[string]int{}
	for i, c := range st.Combatants {
		f := st.Fighters[c.ID]
		d := tx.Dice.Die(20)
		mods := []dice.Mod{}
		if m := f.DexMod(); m != 0 {
			mods = append(mods, dice.Mod{Label: "Dexterity", Value: m})
		}
		if f.Sheet.Initiative != 0 {
			mods = append(mods, dice.Mod{Label: "bonus", Value: f.Sheet.Initiative})
		}
		bonus := f.DexMod() + f.Sheet.Initiative
		total := d.Total() + bonus
		rolls = append(rolls, dice.Roll{Label: "Initiative", Who: c.ID, Dice: []dice.Die{d}, Mod: bonus, Mods: mods, Total: total})
		entries = append(entries, entry{c.ID, total, bonus, i})
		totals[c.ID] = total
	}
	slices.SortStableFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(b.total, a.total), cmp.Compare(b.bonus, a.bonus), cmp.Compare(a.index, b.index))
	})
	order := make([]string, len(entries))
	for i, e := range entries {
		order[i] = e.id
	}
	// Players read the rolls of those they see; a hidden combatant's roll
	// and place go in a secret event (its actor is the hidden one).
	public := Initiative{Totals: map[string]int{}}
	secret := Initiative{Totals: map[string]int{}, Order: order}
	var publicRolls, secretRolls []dice.Roll
	var parts []string
	for _, e := range entries {
		if st.Combatant(e.id).Hidden {
			secret.Totals[e.id] = totals[e.id]
			secretRolls = append(secretRolls, rolls[e.index])
			continue
		}
		public.Totals[e.id] = totals[e.id]
		public.Order = append(public.Order, e.id)
		publicRolls = append(publicRolls, rolls[e.index])
		parts = append(parts, fmt.Sprintf("%s %d", st.NameOf(e.id), e.total))
	}
	if len(secretRolls) == 0 {
		public.Order = order
	}
	if err := tx.Emit(engine.NewEvent(KindInitiative, "", "Initiative: "+strings.Join(parts, ", ")+".", public, publicRolls...)); err != nil {
		return err
	}
	if len(secretRolls) > 0 {
		var hidden []string
		for _, e := range entries {
			if st.Combatant(e.id).Hidden {
				hidden = append(hidden, fmt.Sprintf("%s %d", st.NameOf(e.id), e.total))
			}
		}
		first := entries[slices.IndexFunc(entries, func(e entry) bool { return st.Combatant(e.id).Hidden })].id
		if err := tx.Emit(engine.NewEvent(KindInitiative, first, "Hidden initiative: "+strings.Join(hidden, ", ")+".", secret, secretRolls...)); err != nil {
			return err
		}
	}
	for _, c := range st.Combatants {
		if f := st.Fighters[c.ID]; f.Down() {
			if err := tx.PutDown(c.ID, "unconscious", c.Name+" starts the fight unconscious."); err != nil {
				return err
			}
		}
	}
	surprised, aware := 0, 0
	for _, c := range st.Combatants {
		if st.able(c.ID) {
			if st.Fighters[c.ID].Surprised {
				surprised++
			} else {
				aware++
			}
		}
	}
	if surprised > 0 && aware > 0 {
		n := kit.OptInt(&st.Base, OptSurpriseRounds)
		if err := tx.Emits(KindSurprise, "", fmt.Sprintf("Surprise! %d surprise round(s) before the fight proper.", n), Surprise{Rounds: n}); err != nil {
			return err
		}
		return surpriseRound(tx)
	}
	return newRound(tx)
}

// surpriseRound lets everyone not surprised act together, one action each.
func surpriseRound(tx *Tx) error {
	st := tx.State
	if err := tx.StartRound(st.Round+1, st.roundOrder(), "Surprise round."); err != nil {
		return err
	}
	var aware []string
	for _, id := range st.Order {
		if st.able(id) && !st.Fighters[id].Surprised {
			aware = append(aware, id)
		}
	}
	if len(aware) == 0 {
		return endSurprise(tx, 0)
	}
	return tx.StartPhase(-1, aware, "Surprise round", "Surprise round: those not surprised act, one move or standard action each.")
}

// endSurprise closes a surprise round: another, or the first full round.
func endSurprise(tx *Tx, left int) error {
	text := "The surprise round ends."
	if left == 0 {
		text = "The surprise is over."
	}
	if err := tx.Emits(KindSurprise, "", text, Surprise{Rounds: left}); err != nil {
		return err
	}
	if left > 0 {
		return surpriseRound(tx)
	}
	return newRound(tx)
}

// roundOrder is the initiative order, less those out of the fight.
func (s *State) roundOrder() []string {
	var out []string
	for _, id := range s.Initiative {
		if c := s.Combatant(id); c != nil && !c.Out {
			out = append(out, id)
		}
	}
	return out
}

// newRound opens the next round in the same order and plays its first
// turn.
func newRound(tx *Tx) error {
	st := tx.State
	if len(st.Fighting()) < 2 {
		return nil // Settle ends the encounter
	}
	order := st.roundOrder()
	if len(order) == 0 {
		return fmt.Errorf("d20-tactical: no one left to take a turn")
	}
	if err := tx.StartRound(st.Round+1, order, ""); err != nil {
		return err
	}
	return nextTurn(tx)
}

// nextTurn plays the next slot of the order: a dying combatant's turn is
// its roll to stabilise, then the next; after the last, a new round.
func nextTurn(tx *Tx) error {
	st := tx.State
	for st.Status == engine.StatusRunning {
		i := engine.NextTurn(&st.Base, nil)
		if i < 0 {
			return newRound(tx)
		}
		id := st.Order[i]
		f := st.Fighters[id]
		text := st.NameOf(id) + "'s turn."
		if f.Down() {
			text = st.NameOf(id) + " is down."
		}
		if err := tx.StartTurn(i, text); err != nil {
			return err
		}
		if !f.Down() {
			return nil
		}
		if err := dyingTurn(tx, f); err != nil {
			return err
		}
	}
	return nil
}

// advance ends an interruption, or takes the fallen out of a phase, or
// plays the next turn.
func advance(tx *Tx) error {
	st := tx.State
	if st.Interrupted() {
		return tx.EndInterrupt(st.NameOf(st.Current()) + " is done.")
	}
	if st.Label != "" {
		for _, id := range slices.Clone(st.Acting) {
			if !st.able(id) {
				if err := tx.Acted(id, ""); err != nil {
					return err
				}
			}
		}
		if len(st.Acting) == 0 {
			return endSurprise(tx, st.Surprise-1)
		}
		return nil
	}
	return nextTurn(tx)
}

// endTurn ends id's turn (or its part of a phase, or its interruption).
func endTurn(tx *Tx, id string) error {
	st := tx.State
	if err := tx.Emits(KindTurnEnded, id, st.NameOf(id)+" ends the turn.", TurnEnded{Fighter: id}); err != nil {
		return err
	}
	switch {
	case st.Interrupted():
		return tx.EndInterrupt(st.NameOf(id) + " is done; back to " + st.NameOf(topActing(st)) + ".")
	case st.Label != "":
		if err := tx.Acted(id, st.NameOf(id)+" is done for the surprise round."); err != nil {
			return err
		}
		if len(st.Acting) > 0 {
			return nil
		}
		return endSurprise(tx, st.Surprise-1)
	}
	return nextTurn(tx)
}

// topActing is who gets the floor back when the interruption ends.
func topActing(st *State) string {
	if n := len(st.Interrupts); n > 0 && len(st.Interrupts[n-1].Acting) > 0 {
		return st.Interrupts[n-1].Acting[0]
	}
	return ""
}

func decideEndTurn(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	return endTurn(tx, f.ID)
}

// afterAction ends the turn by itself once nothing is left but a 5-ft
// step the fighter can no longer take; a disabled fighter who took a
// standard action then loses a hit point (d20: strenuous action).
type afterAction struct {
	Fighter   string `json:"fighter"`
	Strenuous bool   `json:"strenuous,omitempty"`
}

func runAfterAction(tx *Tx, a afterAction) error {
	st := tx.State
	f := st.Fighters[a.Fighter]
	if !st.able(a.Fighter) {
		return nil
	}
	if a.Strenuous && f.Disabled() {
		text := st.NameOf(f.ID) + " strains while disabled and loses 1 hit point."
		if err := emitHarm(tx, f, 1, 0, text); err != nil {
			return err
		}
		if err := settleHealth(tx, f.ID); err != nil || !st.able(f.ID) {
			return err
		}
	}
	if !st.IsActing(f.ID) || !f.Budget.exhausted() {
		return nil
	}
	if f.Budget.Moved || f.Budget.Stepped || f.Budget.Single || st.Interrupted() {
		return endTurn(tx, f.ID)
	}
	return nil
}

// settle (engine.Settler) ends the encounter when one side is
// left; when nothing waits and whoever has the floor has fallen, move on.
func settle(tx *Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	st := tx.State
	if st.Waiting() || st.Status != engine.StatusRunning {
		return nil
	}
	if st.Label != "" && !st.Interrupted() {
		if slices.ContainsFunc(st.Acting, func(id string) bool { return !st.able(id) }) || len(st.Acting) == 0 {
			return advance(tx)
		}
		return nil
	}
	if cur := st.Current(); cur == "" || !st.able(cur) {
		return advance(tx)
	}
	return nil
}

// Delay and Ready (d20 base).

// Delay is the data of a delay event.
type Delay struct {
	Fighter string `json:"fighter"`
	After   string `json:"after"`
}

// Ready is a readied action: what it is and what sets it off.
type Ready struct {
	Action  string `json:"action"`  // "standard" or "move"
	Trigger string `json:"trigger"` // TriggerMove, TriggerAttack or TriggerAny
}

// Ready triggers.
const (
	TriggerMove   = "move"
	TriggerAttack = "attack"
	TriggerAny    = "any"
)

// Readied is the data of a ready event.
type Readied struct {
	Fighter string `json:"fighter"`
	Ready   Ready  `json:"ready"`
	Budget  Budget `json:"budget"`
}

func triggerText(t string) string {
	switch t {
	case TriggerMove:
		return "when an opponent in sight moves"
	case TriggerAttack:
		return "when an opponent in sight attacks"
	}
	return "at any moment"
}

// delayChoices are the combatants f may delay until after: those still to
// act this round, or the end of the round.
func delayChoices(st *State, v engine.Viewer, f *Fighter) []engine.Choice {
	var out []engine.Choice
	for i := st.Turn + 1; i < len(st.Order); i++ {
		id := st.Order[i]
		if c := st.Combatant(id); c != nil && !c.Out && engine.Visible(st, v, id) {
			out = append(out, engine.Choice{Value: id, Label: "After " + c.Name})
		}
	}
	if len(out) > 0 {
		out = append(out, engine.Choice{Value: "end", Label: "To the end of the round"})
	}
	return out
}

func canDelayOrReady(st *State, f *Fighter) error {
	switch {
	case st.Interrupted():
		return fray.Errorf(fray.EILLEGAL, "not while taking a readied action")
	case st.Label != "":
		return fray.Errorf(fray.EILLEGAL, "not in a surprise round")
	}
	return nil
}

func decideDelay(tx *Tx, cmd engine.Command) error {
	var args struct {
		After string `json:"after"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canDelayOrReady(st, f); err != nil {
		return err
	}
	if !f.Budget.untouched() {
		return fray.Errorf(fray.EILLEGAL, "delay at the start of the turn, before doing anything")
	}
	to := len(st.Order) - 1
	label := "the end of the round"
	if args.After != "end" {
		i := slices.Index(st.Order, args.After)
		if i <= st.Turn || !engine.Visible(st, tx.Viewer(), args.After) || st.Combatant(args.After).Out {
			return fray.Errorf(fray.EILLEGAL, "delay until after someone still to act this round")
		}
		to, label = i, st.NameOf(args.After)
	}
	if to <= st.Turn {
		return fray.Errorf(fray.EILLEGAL, "no one is left to act after %s this round", st.NameOf(f.ID))
	}
	text := fmt.Sprintf("%s delays until after %s (for good: the order changes).", st.NameOf(f.ID), label)
	if args.After == "end" {
		text = fmt.Sprintf("%s delays to the end of the round (for good: the order changes).", st.NameOf(f.ID))
	}
	if err := tx.Emits(KindDelay, f.ID, text, Delay{Fighter: f.ID, After: args.After}); err != nil {
		return err
	}
	if err := tx.Reorder(f.ID, to, "delay", ""); err != nil {
		return err
	}
	return nextTurn(tx)
}

func decideReady(tx *Tx, cmd engine.Command) error {
	var args Ready
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canDelayOrReady(st, f); err != nil {
		return err
	}
	if args.Action != "standard" && args.Action != "move" {
		return fray.Errorf(fray.EINVALID, "ready a standard or a move action")
	}
	if args.Trigger != TriggerMove && args.Trigger != TriggerAttack && args.Trigger != TriggerAny {
		return fray.Errorf(fray.EINVALID, "the trigger is move, attack or any")
	}
	b, err := f.Budget.useStandard()
	if err != nil {
		return fray.Errorf(fray.EILLEGAL, "readying takes the standard action, already spent this turn")
	}
	b.Move, b.Feet = false, 0
	text := fmt.Sprintf("%s readies a %s action, to take %s.", st.NameOf(f.ID), args.Action, triggerText(args.Trigger))
	if err := tx.Emits(KindReady, f.ID, text, Readied{Fighter: f.ID, Ready: args, Budget: b}); err != nil {
		return err
	}
	return endTurn(tx, f.ID)
}

// canInterrupt says whether f may take its readied action now, between
// two commands of someone else's turn.
func canInterrupt(st *State, f *Fighter) error {
	switch {
	case f.Ready == nil || f.Ready.Trigger != TriggerAny:
		return fray.Errorf(fray.EILLEGAL, "%s has no action readied to take at any moment", st.NameOf(f.ID))
	case !st.able(f.ID):
		return fray.Errorf(fray.EILLEGAL, "%s cannot act", st.NameOf(f.ID))
	case st.Interrupted():
		return fray.Errorf(fray.EILLEGAL, "someone is already taking a readied action")
	case st.Current() == "" || st.IsActing(f.ID):
		return fray.Errorf(fray.EILLEGAL, "a readied action interrupts someone else's turn")
	}
	return nil
}

func decideInterrupt(tx *Tx, cmd engine.Command) error {
	f, err := tx.Reactor(cmd, nil)
	if err != nil {
		return err
	}
	if err := canInterrupt(tx.State, f); err != nil {
		return err
	}
	return actReady(tx, f.ID)
}

// actReady lets a readier act now: it moves just before whoever's slot
// is being played, and interrupts.
func actReady(tx *Tx, id string, then ...engine.Step) error {
	st := tx.State
	if st.Turn >= 0 && st.Turn < len(st.Order) {
		cur := st.Order[st.Turn]
		from, at := slices.Index(st.Order, id), st.Turn
		if from >= 0 && cur != id {
			to := at
			if from < at {
				to = at - 1
			}
			if to != from {
				if err := tx.Reorder(id, to, "ready", st.NameOf(id)+" now acts just before "+st.NameOf(cur)+"."); err != nil {
					return err
				}
			}
		}
	}
	interrupted := st.Current()
	return tx.Interrupt(id, fmt.Sprintf("%s takes the readied action, interrupting %s.", st.NameOf(id), st.PublicNameOf(interrupted)), then...)
}

// readyCheck offers the readied action to each readier whose trigger the
// fighter By just set off (its movement, or its attack about to be made).
type readyCheck struct {
	By      string   `json:"by"`
	Trigger string   `json:"trigger"`
	Asked   []string `json:"asked,omitempty"`
}

func runReadyCheck(tx *Tx, rc readyCheck) error {
	st := tx.State
	by := st.Fighters[rc.By]
	if by == nil || st.Combatant(rc.By).Out {
		return nil
	}
	for _, c := range st.Combatants {
		r := st.Fighters[c.ID]
		if r.Ready == nil || r.Ready.Trigger != rc.Trigger || !st.able(c.ID) || slices.Contains(rc.Asked, c.ID) ||
			!st.opponents(c.ID, rc.By) || st.IsActing(c.ID) || st.Interrupted() {
			continue
		}
		if st.Combatant(rc.By).Hidden && !st.Combatant(c.ID).Hidden {
			continue // no one reacts to what they cannot see
		}
		if !st.sight(cell(r), cell(by)) {
			continue
		}
		what := "moves"
		if rc.Trigger == TriggerAttack {
			what = "is about to attack"
		}
		d := engine.Decision{For: c.ID, Kind: DecReady,
			Prompt:  fmt.Sprintf("%s %s: take %s's readied %s action now?", st.PublicNameOf(rc.By), what, st.PublicNameOf(c.ID), r.Ready.Action),
			Options: []engine.Choice{{Value: "act", Label: "Act now"}, {Value: "wait", Label: "Keep waiting"}}, Default: "wait"}
		next := rc
		next.Asked = append(slices.Clone(rc.Asked), c.ID)
		return tx.Run(engine.NewStep(stepAsk, askStep{Decision: d, Cont: Cont{Ready: &readyCtx{Readier: c.ID}}}),
			engine.NewStep(stepReadyCheck, next))
	}
	return nil
}
