package d20duel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
)

// Stances and the exchange (seed "Combat options", "Player versus player").
//
// Every round ends with one exchange of blows. Fighters engaged together
// — a pair, or several pairs sharing a fighter — choose their stances
// secretly and at the same time, as players would with a closed fist
// above the table: a black die for Reckless, a white die for Defensive,
// no die for a Default attack. With the stance they choose their weapon,
// their aim (Find Weakness, Disarm, Immobilize) and, engaged with several,
// whom they attack. The GM chooses for the fighters players do not run.
// Each set's choices are sealed decisions, revealed together once all are
// in, and the blows resolve at once:
//
//   - Reckless: +3 to your attack; anyone attacking you this exchange
//     gains +5.
//   - Defensive: an attack on you misses if either die is within your
//     Guard; you may attack only if the opponent rolled both dice above
//     her Strike; it counts as your action even if you do not attack.
//   - Both Defensive: no blows at all (and the pair ends at Striking).
//
// Blows in one exchange land together: a wound taken in it lowers the
// victim's numbers from the next exchange on, and a fighter it finishes
// still strikes in it. Then each pair may maneuver (maneuver.go).

// Stances.
const (
	StanceDefault   = "default"
	StanceReckless  = "reckless"
	StanceDefensive = "defensive"
)

var stanceLabels = map[string]string{StanceDefault: "Default", StanceReckless: "Reckless", StanceDefensive: "Defensive"}

// Phases of a round, as the acting set's label.
const (
	PhaseApproach = "Approach"
	PhaseExchange = "Exchange"
)

// Declaration is what a fighter chose for an exchange.
type Declaration struct {
	Stance string `json:"stance"`
	Weapon string `json:"weapon"`
	Aim    string `json:"aim"`
	Target string `json:"target"`
}

// Exchange is a round's exchange of blows as it resolves: the revealed
// declarations and the attack rolls made.
type Exchange struct {
	Round    int                    `json:"round"`
	Declared map[string]Declaration `json:"declared"`
	Attacks  []AttackRecord         `json:"attacks,omitempty"`
}

// AttackRecord is one attack roll of an exchange, as later rules read it.
type AttackRecord struct {
	Attacker     string `json:"attacker"`
	Target       string `json:"target"`
	Hit          bool   `json:"hit,omitempty"`
	CompleteMiss bool   `json:"completeMiss,omitempty"`
	// Overshot, when it differs from CompleteMiss: both dice above the
	// attacker's Strike, a miss — what opens a Defensive fighter's
	// counter-attack. Under most readings of complete-miss the two agree,
	// so it is kept only where they do not (overshot reads them).
	Overshot *bool `json:"overshot,omitempty"`
	Wounded  bool  `json:"wounded,omitempty"`
}

// overshot reports whether the roll had both dice above the attacker's
// Strike and missed.
func (r AttackRecord) overshot() bool {
	if r.Overshot != nil {
		return *r.Overshot
	}
	return r.CompleteMiss
}

// rollsAt are the exchange's attack rolls by attacker at target.
func (x *Exchange) rollsAt(attacker, target string) []AttackRecord {
	var out []AttackRecord
	for _, a := range x.Attacks {
		if a.Attacker == attacker && a.Target == target {
			out = append(out, a)
		}
	}
	return out
}

// ExchangeStarted is the data of KindExchange: the pairs about to choose.
type ExchangeStarted struct {
	Round int          `json:"round"`
	Pairs []Engagement `json:"pairs"`
}

func (s *State) applyExchangeStarted(d ExchangeStarted) error {
	s.Exchange = &Exchange{Round: d.Round, Declared: map[string]Declaration{}}
	for i := range s.Engagements {
		s.Engagements[i].Shown = nil
	}
	return nil
}

// StancesRevealed is the data of KindStances: a set's declarations, after
// the engine revealed their sealed answers.
type StancesRevealed struct {
	Round    int                    `json:"round"`
	Declared map[string]Declaration `json:"declared"`
}

func (s *State) applyStances(d StancesRevealed) error {
	if s.Exchange == nil || s.Exchange.Round != d.Round {
		return fmt.Errorf("d20-duel: stances for round %d outside its exchange", d.Round)
	}
	for id, dec := range d.Declared {
		s.Exchange.Declared[id] = dec
	}
	for i := range s.Engagements {
		e := &s.Engagements[i]
		da, okA := s.Exchange.Declared[e.A]
		db, okB := s.Exchange.Declared[e.B]
		if okA && okB {
			e.Shown = map[string]string{e.A: da.Stance, e.B: db.Stance}
		}
	}
	return nil
}

// stanceCtx is a stance decision's data.
type stanceCtx struct {
	Round int `json:"round"`
}

// startExchange opens the round's exchange: every set of engaged fighters
// chooses its stances, sealed, one group per set.
func startExchange(tx *Tx) error {
	st := tx.State
	groups := st.components()
	if len(groups) == 0 {
		return nil
	}
	var pairs []Engagement
	var acting, words []string
	for _, g := range groups {
		acting = append(acting, g...)
		for _, e := range st.pairsOf(g) {
			pairs = append(pairs, Engagement{A: e.A, B: e.B, Distance: e.Distance})
			words = append(words, fmt.Sprintf("%s and %s at %s", st.NameOf(e.A), st.NameOf(e.B), distanceLabels[e.Distance]))
		}
	}
	ev := engine.NewEvent(KindExchange, "", "The exchange: "+strings.Join(words, "; ")+". Choose your stances.",
		ExchangeStarted{Round: st.Round, Pairs: pairs})
	if err := tx.Emit(ev.With(acting...)); err != nil {
		return err
	}
	if err := tx.StartPhase(-1, acting, PhaseExchange, ""); err != nil {
		return err
	}
	for _, g := range groups {
		var ds []engine.Decision
		for _, id := range g {
			ds = append(ds, stanceDecision(st, id))
		}
		if err := tx.AskAll(ds...); err != nil {
			return err
		}
	}
	return nil
}

// stanceDecision asks fighter id for its stance, weapon, aim and target.
func stanceDecision(st *State, id string) engine.Decision {
	f := st.Fighters[id]
	var against []string
	var targets []engine.Choice
	for _, o := range st.opponents(id) {
		if !st.fighting(o) {
			continue
		}
		e := st.engagement(id, o)
		against = append(against, fmt.Sprintf("%s (%s)", st.NameOf(o), distanceLabels[e.Distance]))
		targets = append(targets, engine.Choice{Value: o, Label: st.NameOf(o)})
	}
	var weapons []engine.Choice
	for _, w := range f.meleeWeapons() {
		weapons = append(weapons, engine.Choice{Value: w.ID, Label: w.Name})
	}
	fields := []engine.Field{
		{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons, Default: weapons[0].Value},
		{Name: "aim", Label: "Aim", Type: engine.FieldSelect, Options: aimChoices(), Default: AimNormal},
	}
	if len(targets) > 1 {
		fields = append(fields, engine.Field{Name: "target", Label: "Attack", Type: engine.FieldSelect, Options: targets, Target: true, Default: targets[0].Value})
	}
	raw, _ := json.Marshal(stanceCtx{Round: st.Round})
	return engine.Decision{
		For: id, Kind: DecStance, Sealed: true, Default: StanceDefault, Data: raw,
		Prompt: "Exchange with " + strings.Join(against, " and ") + ": choose your stance",
		Options: []engine.Choice{
			{Value: StanceDefault, Label: "Default attack (no die)"},
			{Value: StanceReckless, Label: "Reckless (black die): +3 to your attack, +5 to attacks on you"},
			{Value: StanceDefensive, Label: "Defensive (white die): a die within your Guard misses; attack only after a complete miss"},
		},
		Fields: fields,
	}
}

// answerStances resolves a set's revealed stances: the declarations are
// shown, then the blows (non-Defensive attacks, then Defensive
// counter-attacks), who falls, and each pair's maneuvering.
func answerStances(tx *Tx, answers []engine.Answered) error {
	st := tx.State
	if st.Exchange == nil {
		return fmt.Errorf("d20-duel: stances answered outside an exchange")
	}
	declared := map[string]Declaration{}
	var members []string
	for _, a := range answers {
		id := a.Decision.For
		f := st.Fighters[id]
		if f == nil || !st.fighting(id) {
			continue
		}
		d := Declaration{Stance: a.Choice, Weapon: a.Values.String("weapon"), Aim: a.Values.String("aim"), Target: a.Values.String("target")}
		if w := f.weapon(d.Weapon); w == nil || w.Ranged || !f.usable(*w) {
			d.Weapon = f.guardWeapon().ID
		}
		opps := slices.DeleteFunc(st.opponents(id), func(o string) bool { return !st.fighting(o) })
		if len(opps) == 0 {
			continue // the GM separated them meanwhile
		}
		if !slices.Contains(opps, d.Target) {
			d.Target = opps[0]
		}
		declared[id] = d
		members = append(members, id)
	}
	if len(members) == 0 {
		return nil
	}
	slices.SortFunc(members, func(a, b string) int { return st.index(a) - st.index(b) })
	var words []string
	for _, id := range members {
		d := declared[id]
		w := st.Fighters[id].weapon(d.Weapon)
		s := fmt.Sprintf("%s — %s, %s", st.NameOf(id), stanceLabels[d.Stance], w.Name)
		if d.Aim != AimNormal {
			s += ", " + aimLabels[d.Aim]
		}
		if len(st.opponents(id)) > 1 {
			s += ", at " + st.NameOf(d.Target)
		}
		words = append(words, s)
	}
	ev := engine.NewEvent(KindStances, "", "Stances: "+strings.Join(words, "; ")+".",
		StancesRevealed{Round: st.Exchange.Round, Declared: declared})
	if err := tx.Emit(ev.With(members...)); err != nil {
		return err
	}
	var steps []engine.Step
	for _, id := range members {
		d := declared[id]
		if d.Stance == StanceDefensive {
			continue
		}
		w := st.Fighters[id].weapon(d.Weapon)
		for n := 1; n <= w.attacks(); n++ {
			steps = append(steps, engine.NewStep(stepAttack, attackStep{Attacker: id, Target: d.Target, Weapon: d.Weapon, Aim: d.Aim, Roll: n}))
		}
	}
	for _, id := range members {
		if declared[id].Stance == StanceDefensive {
			steps = append(steps, engine.NewStep(stepCounter, counterStep{Fighter: id}))
		}
	}
	steps = append(steps, engine.NewStep(stepFallout, falloutStep{Fighters: members}))
	for _, e := range st.pairsOf(members) {
		steps = append(steps, engine.NewStep(stepManeuver, pairStep{A: e.A, B: e.B}))
	}
	return tx.Run(steps...)
}

// index is id's place in the setup order.
func (s *State) index(id string) int {
	return slices.IndexFunc(s.Combatants, func(c engine.Combatant) bool { return c.ID == id })
}

// counterStep is a Defensive fighter's chance to strike back.
type counterStep struct {
	Fighter string `json:"fighter"`
}

// HeldBack is the data of KindHeldBack: a Defensive fighter who does not
// attack this exchange, and why.
type HeldBack struct {
	Fighter string `json:"fighter"`
	Target  string `json:"target"`
	Reason  string `json:"reason"`
}

// runCounter lets a Defensive fighter attack when its target rolled a
// complete miss (every roll of an Auto burst) against it.
func runCounter(tx *Tx, c counterStep) error {
	st := tx.State
	x := st.Exchange
	d, ok := x.Declared[c.Fighter]
	if !ok || st.engagement(c.Fighter, d.Target) == nil || !st.fighting(d.Target) {
		return nil
	}
	reason, text := "", ""
	theirs := x.Declared[d.Target]
	rolls := x.rollsAt(d.Target, c.Fighter)
	switch {
	case theirs.Stance == StanceDefensive && theirs.Target == c.Fighter:
		if st.index(d.Target) < st.index(c.Fighter) {
			return nil // said once per pair
		}
		reason, text = "both-defensive", fmt.Sprintf("%s and %s both fight Defensive: no blows are struck.", st.NameOf(c.Fighter), st.NameOf(d.Target))
	case len(rolls) == 0:
		reason, text = "no-attack", fmt.Sprintf("%s fights Defensive; %s did not attack them, so they find no opening.", st.NameOf(c.Fighter), st.NameOf(d.Target))
	case !slices.ContainsFunc(rolls, func(r AttackRecord) bool { return !r.overshot() }):
		w := st.Fighters[c.Fighter].weapon(d.Weapon)
		var steps []engine.Step
		for n := 1; n <= w.attacks(); n++ {
			steps = append(steps, engine.NewStep(stepAttack, attackStep{Attacker: c.Fighter, Target: d.Target, Weapon: d.Weapon, Aim: d.Aim, Roll: n, Counter: true}))
		}
		return tx.Run(steps...)
	default:
		reason, text = "no-opening", fmt.Sprintf("%s fights Defensive and finds no opening: %s did not roll both dice over their Strike.", st.NameOf(c.Fighter), st.NameOf(d.Target))
	}
	ev := engine.NewEvent(KindHeldBack, c.Fighter, text, HeldBack{Fighter: c.Fighter, Target: d.Target, Reason: reason})
	return tx.Emit(ev.With(d.Target))
}
