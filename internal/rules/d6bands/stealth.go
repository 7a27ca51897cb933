package d6bands

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Stealth (seed: "While taking one move or staying put…"; spec c5). A
// combatant who has made at most one move this turn and has not dashed
// may roll Stealth (stealth-difficulty, 3D; bulk in medium or heavy cover)
// against every opponent's Perception (perception-difficulty, 3D, plus the
// hider's cover). It wins against an opponent when it succeeds and the
// opponent fails or succeeds by less; an opponent without a line of sight
// loses at once. Against each opponent it beats, the hider is Hidden: that
// opponent can hit it only with area fire. Two wins in a row against the
// same opponent make that opponent Unaware: the hider's attacks on it are
// easier (ambush-bonus) and it gets no Defense Pool against them, and a
// hider every opponent is unaware of may slip away (leave the fight). A
// lost check, an attack, a dash, a second move or close contact ends the
// concealment (against that opponent, or everyone).

// Event kinds of stealth.
const (
	KindStealth = "stealth"
	KindSlipped = "slipped-away"
)

// StealthCheck is the data of a stealth event: the new count of wins in a
// row against each opponent (0: spotted).
type StealthCheck struct {
	Fighter string         `json:"fighter"`
	Actions int            `json:"actions,omitempty"`
	Results map[string]int `json:"results"`
}

// Slipped is the data of a slipped-away event.
type Slipped struct {
	Fighter string `json:"fighter"`
	Actions int    `json:"actions"`
}

// canHide reports why f may not make a Stealth check now (nil: it may).
func canHide(st *State, f *Fighter) error {
	name := st.NameOf(f.ID)
	switch {
	case f.Stealthed:
		return fray.Errorf(fray.EILLEGAL, "%s has already made a Stealth check this turn", name)
	case f.Off:
		return fray.Errorf(fray.EILLEGAL, "%s is at Extreme range: that is a duel (extreme-duel)", name)
	case f.Dashed:
		return fray.Errorf(fray.EILLEGAL, "%s dashed: Stealth needs one move at most, or staying put", name)
	case f.Moves > 1:
		return fray.Errorf(fray.EILLEGAL, "%s moved more than once this turn: Stealth needs one move at most, or staying put", name)
	}
	for _, id := range st.members(f.Group) {
		if st.opponents(id, f.ID) && st.standing(id) {
			return fray.Errorf(fray.EILLEGAL, "%s is in close contact with %s: no hiding", name, st.NameOf(id))
		}
	}
	return need(st, f, kit.OptInt(&st.Base, OptStealthCost), "A Stealth check")
}

// observers are the opponents f hides from: every one standing.
func observers(st *State, f *Fighter) []*Fighter {
	var out []*Fighter
	for _, c := range st.Combatants {
		if st.opponents(c.ID, f.ID) && st.standing(c.ID) {
			out = append(out, st.Fighters[c.ID])
		}
	}
	return out
}

func decideStealth(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canHide(st, f); err != nil {
		return err
	}
	b := &st.Base
	cover, _ := st.cover(f, nil)
	hide, err := rollCheck(tx, f, Check{Label: "Hiding", Skill: "Stealth", Value: f.Skill(b, "stealth"), Dice: kit.OptInt(b, OptStealthDice),
		Mods: bulkMod(st, f, st.cell(f.X, f.Y).Cover >= 2)})
	if err != nil {
		return err
	}
	name := st.NameOf(f.ID)
	public := StealthCheck{Fighter: f.ID, Actions: kit.OptInt(b, OptStealthCost), Results: map[string]int{}}
	rolls := []dice.Roll{hide.Roll}
	var words []string
	type secret struct {
		id   string
		text string
		roll []dice.Roll
		n    int
	}
	var secrets []secret
	for _, o := range observers(st, f) {
		won, how := hide.Success, "no line of sight"
		var roll []dice.Roll
		if st.sees(o, f) {
			var mods []dice.Mod
			if cover > 0 {
				mods = append(mods, diceMod("cover", cover))
			}
			spot, err := rollCheck(tx, o, Check{Label: "Spotting " + st.PublicNameOf(f.ID), Skill: "Perception", Value: o.Skill(b, "perception"),
				Dice: kit.OptInt(b, OptPerceiveDice), Mods: mods})
			if err != nil {
				return err
			}
			roll = []dice.Roll{spot.Roll}
			won = hide.Success && (!spot.Success || hide.Margin > spot.Margin)
			how = "Perception " + spot.Words()
		}
		n := 0
		if won {
			n = f.Unseen[o.ID] + 1
		}
		word := fmt.Sprintf("%s spots %s (%s)", st.NameOf(o.ID), name, how)
		switch {
		case n >= 2:
			word = fmt.Sprintf("%s is unaware of %s (%s)", st.NameOf(o.ID), name, how)
		case n == 1:
			word = fmt.Sprintf("hidden from %s (%s)", st.NameOf(o.ID), how)
		}
		if st.hidden(o.ID) {
			secrets = append(secrets, secret{o.ID, word, roll, n})
			continue
		}
		public.Results[o.ID] = n
		rolls = append(rolls, roll...)
		words = append(words, word)
	}
	text := fmt.Sprintf("%s tries to hide: Stealth %s.", name, hide.Words())
	if len(words) > 0 {
		text += " " + capital(strings.Join(words, "; ")) + "."
	}
	var seen []string
	for id := range public.Results {
		seen = append(seen, id)
	}
	slices.Sort(seen)
	if err := tx.Emit(engine.NewEvent(KindStealth, f.ID, text, public, rolls...).With(seen...)); err != nil {
		return err
	}
	for _, s := range secrets {
		// An observer the GM keeps hidden rolls in secret.
		data := StealthCheck{Fighter: f.ID, Results: map[string]int{s.id: s.n}}
		if err := tx.Emit(engine.NewEvent(KindStealth, s.id, capital(s.text)+".", data, s.roll...).With(f.ID)); err != nil {
			return err
		}
	}
	return nil
}

// unawareOfAll reports whether every opponent standing is unaware of f.
func unawareOfAll(st *State, f *Fighter) bool {
	obs := observers(st, f)
	for _, o := range obs {
		if f.Unseen[o.ID] < 2 {
			return false
		}
	}
	return len(obs) > 0
}

func decideSlipAway(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if !unawareOfAll(st, f) {
		return fray.Errorf(fray.EILLEGAL, "%s can slip away only once every opponent is unaware of them", st.NameOf(f.ID))
	}
	if err := need(st, f, 1, "Slipping away"); err != nil {
		return err
	}
	name := st.NameOf(f.ID)
	if err := tx.Emits(KindSlipped, f.ID, name+" slips away unseen.", Slipped{Fighter: f.ID, Actions: 1}); err != nil {
		return err
	}
	return tx.TakeOut(f.ID, "slipped away", name+" has left the fight.")
}

func applyStealth(st *State, d StealthCheck) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	f.Stealthed, f.Aim = true, nil
	for id, n := range d.Results {
		if n <= 0 {
			delete(f.Unseen, id)
			continue
		}
		if f.Unseen == nil {
			f.Unseen = map[string]int{}
		}
		f.Unseen[id] = n
	}
	return nil
}

func applySlipped(st *State, d Slipped) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	return nil
}
