package d20duel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Maneuvering (seed "Two distances"; spec c8): after each exchange a
// fighter may roll Agility to toggle the pair's distance if
//
//   - the opponent missed completely (option complete-miss),
//   - the opponent was hurt or distracted (the GM rules, option
//     hurt-or-distracted),
//   - either fighter was Reckless at Striking distance, or
//   - either fighter was Defensive at Grappling distance;
//
// but if both missed, were hurt or distracted, the distance does not
// change; if both were Reckless it is now Grappling, and if both were
// Defensive it is now Striking, with no roll.
//
// [I] Each fighter who may roll chooses to change the distance or keep it
// (sealed when both may). A passed Agility test changes it; a fighter who
// keeps it rolls to resist only when the other tries to change it, and
// when both pass the higher degree wins (option maneuver-tie). A fighter on
// the ground (Immobilize) cannot maneuver.

// pairStep names an engaged pair.
type pairStep struct {
	A string `json:"a"`
	B string `json:"b"`
}

// maneuverCtx is a maneuver decision's data: the pair, and whose it is.
type maneuverCtx struct {
	A       string `json:"a"`
	B       string `json:"b"`
	Fighter string `json:"fighter"`
}

// Maneuver choices.
const (
	ManeuverChange = "change"
	ManeuverStay   = "stay"
)

// The answers to "who was hurt or distracted?".
const (
	HurtNone = "none"
	HurtBoth = "both"
)

// hurtCtx is the GM's "hurt or distracted" decision's data.
type hurtCtx = pairStep

// offerStep offers a pair its maneuvers, knowing who was hurt or
// distracted.
type offerStep struct {
	A    string   `json:"a"`
	B    string   `json:"b"`
	Hurt []string `json:"hurt,omitempty"`
}

// runManeuver settles a pair's distance after its exchange: the forced
// outcomes first, then the GM's ruling, then the offers.
func runManeuver(tx *Tx, p pairStep) error {
	st := tx.State
	x := st.Exchange
	e := st.engagement(p.A, p.B)
	if x == nil || e == nil || !st.fighting(p.A) || !st.fighting(p.B) {
		return nil
	}
	da, okA := x.Declared[p.A]
	db, okB := x.Declared[p.B]
	if !okA || !okB {
		return nil
	}
	switch {
	case da.Stance == StanceReckless && db.Stance == StanceReckless:
		if e.Distance == Grappling {
			return nil
		}
		return changeDistance(tx, p.A, p.B, Grappling, "both-reckless", "both fought Reckless")
	case da.Stance == StanceDefensive && db.Stance == StanceDefensive:
		if e.Distance == Striking {
			return nil
		}
		return changeDistance(tx, p.A, p.B, Striking, "both-defensive", "both fought Defensive")
	}
	if st.Fighters[p.A].Fallen() && st.Fighters[p.B].Fallen() {
		return nil // neither can step anywhere
	}
	var wounded []string
	for _, id := range []string{p.A, p.B} {
		if slices.ContainsFunc(x.Attacks, func(r AttackRecord) bool { return r.Target == id && r.Wounded }) {
			wounded = append(wounded, id)
		}
	}
	if kit.Opt(tx.Base(), OptHurtOrDistracted) != HurtAsk {
		return offerManeuver(tx, offerStep{A: p.A, B: p.B, Hurt: wounded})
	}
	// The dice's reading is the answer offered: whoever took a wound was
	// hurt. The GM confirms it with one click, or changes it when someone
	// was (very) distracted by what no die shows.
	def, reading := HurtNone, "neither took a wound"
	switch len(wounded) {
	case 1:
		def, reading = wounded[0], st.NameOf(wounded[0])+" took a wound"
	case 2:
		def, reading = HurtBoth, "both took a wound"
	}
	// The answers keep their plain names (a spoken answer says them); the
	// page marks the default, and the question says whose reading it is.
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecHurt, Default: def,
		Prompt: fmt.Sprintf("After the exchange between %s and %s: who was hurt or (very) distracted? By the dice %s — confirm, or change it if someone was distracted.",
			st.NameOf(p.A), st.NameOf(p.B), reading),
		Options: []engine.Choice{{Value: HurtNone, Label: "Neither"}, {Value: p.A, Label: st.NameOf(p.A)},
			{Value: p.B, Label: st.NameOf(p.B)}, {Value: HurtBoth, Label: "Both"}}}, hurtCtx(p))
}

func answerHurt(tx *Tx, c hurtCtx, ans engine.Answered) error {
	var hurt []string
	switch ans.Choice {
	case HurtNone:
	case HurtBoth:
		hurt = []string{c.A, c.B}
	default:
		hurt = []string{ans.Choice}
	}
	return tx.Run(engine.NewStep(stepOffer, offerStep{A: c.A, B: c.B, Hurt: hurt}))
}

// DistanceStays is the data of KindDistanceStays: both fighters were at a
// disadvantage, so neither may maneuver.
type DistanceStays struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Reason string `json:"reason"`
}

// offerManeuver asks the fighters who may maneuver whether they try.
func offerManeuver(tx *Tx, o offerStep) error {
	st := tx.State
	x := st.Exchange
	e := st.engagement(o.A, o.B)
	if x == nil || e == nil || !st.fighting(o.A) || !st.fighting(o.B) {
		return nil
	}
	missed := func(id string) bool {
		rolls := x.rollsAt(id, e.other(id))
		return len(rolls) > 0 && !slices.ContainsFunc(rolls, func(r AttackRecord) bool { return !r.CompleteMiss })
	}
	down := func(id string) bool { return missed(id) || slices.Contains(o.Hurt, id) }
	if down(o.A) && down(o.B) {
		ev := engine.NewEvent(KindDistanceStays, "", fmt.Sprintf("Both %s and %s missed, were hurt or distracted: the distance stays %s.",
			st.NameOf(o.A), st.NameOf(o.B), distanceLabels[e.Distance]), DistanceStays{A: o.A, B: o.B, Reason: "both-at-a-disadvantage"})
		return tx.Emit(ev.With(o.A, o.B))
	}
	stances := []string{x.Declared[o.A].Stance, x.Declared[o.B].Stance}
	opening := (slices.Contains(stances, StanceReckless) && e.Distance == Striking) ||
		(slices.Contains(stances, StanceDefensive) && e.Distance == Grappling)
	to := Grappling
	if e.Distance == Grappling {
		to = Striking
	}
	var ds []engine.Decision
	for _, id := range []string{e.A, e.B} {
		if st.Fighters[id].Fallen() || !(opening || down(e.other(id))) {
			continue
		}
		raw, _ := json.Marshal(maneuverCtx{A: e.A, B: e.B, Fighter: id})
		ds = append(ds, engine.Decision{For: id, Kind: DecManeuver, Default: ManeuverStay, Data: raw,
			Prompt: fmt.Sprintf("You may maneuver against %s (an Agility test): change the distance?", st.NameOf(e.other(id))),
			Options: []engine.Choice{{Value: ManeuverChange, Label: "Move to " + distanceLabels[to]},
				{Value: ManeuverStay, Label: "Keep " + distanceLabels[e.Distance]}}})
	}
	if len(ds) == 2 {
		ds[0].Sealed, ds[1].Sealed = true, true
	}
	return tx.AskAll(ds...)
}

// Maneuver is the data of KindManeuver: what each fighter who could
// maneuver wanted, their Agility tests, and whether the distance changed.
type Maneuver struct {
	A       string            `json:"a"`
	B       string            `json:"b"`
	Wants   map[string]string `json:"wants"`
	Tests   map[string]Test   `json:"tests,omitempty"`
	Changed bool              `json:"changed"`
}

// answerManeuver rolls the Agility tests of a pair's maneuvering and
// changes the distance when the rules say so.
func answerManeuver(tx *Tx, answers []engine.Answered) error {
	st := tx.State
	var p maneuverCtx
	if err := answers[0].Decision.Decode(&p); err != nil {
		return err
	}
	e := st.engagement(p.A, p.B)
	if e == nil || !st.fighting(p.A) || !st.fighting(p.B) {
		return nil
	}
	m := Maneuver{A: p.A, B: p.B, Wants: map[string]string{}, Tests: map[string]Test{}}
	var changers, keepers []string
	for _, a := range answers {
		var c maneuverCtx
		if err := a.Decision.Decode(&c); err != nil {
			return err
		}
		id := c.Fighter
		m.Wants[id] = a.Choice
		if a.Choice == ManeuverChange {
			changers = append(changers, id)
		} else {
			keepers = append(keepers, id)
		}
	}
	if len(changers) == 0 {
		return nil
	}
	to := Grappling
	if e.Distance == Grappling {
		to = Striking
	}
	var rolls []dice.Roll
	var words []string
	best := map[bool]int{true: -1, false: -1} // by "wants a change"
	for _, id := range append(slices.Clone(changers), keepers...) {
		f := st.Fighters[id]
		label := fmt.Sprintf("%s: Agility to %s", st.NameOf(id), map[bool]string{true: "move to " + distanceLabels[to], false: "resist"}[slices.Contains(changers, id)])
		t, r := rollTest(tx, id, label, f.Attributes["agility"], woundMods(tx.Base(), f, 0))
		m.Tests[id] = t
		rolls = append(rolls, r)
		words = append(words, fmt.Sprintf("%s %s", st.NameOf(id), t.result()))
		if t.Passed {
			k := slices.Contains(changers, id)
			best[k] = max(best[k], t.Degree)
		}
	}
	switch {
	case best[true] < 0:
	case best[false] < 0:
		m.Changed = true
	case kit.Opt(tx.Base(), OptManeuverTie) == TieDegree:
		m.Changed = best[true] > best[false]
	}
	outcome := "the distance stays " + distanceLabels[e.Distance]
	if m.Changed {
		outcome = "the distance changes to " + distanceLabels[to]
	}
	ev := engine.NewEvent(KindManeuver, "", fmt.Sprintf("Maneuvering: %s — %s.", strings.Join(words, "; "), outcome), m, rolls...)
	if err := tx.Emit(ev.With(p.A, p.B)); err != nil {
		return err
	}
	if !m.Changed {
		return nil
	}
	return changeDistance(tx, p.A, p.B, to, "maneuver", "a maneuver")
}
