package d20under

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Ammunition (seed: Ranged Weapons; spec c7). Bows and crossbows count
// arrows and bolts on a counter of 3: each failed attack takes 1 off, a
// critical failure (a 20) takes 2, and at 0 the quiver is empty. Special
// projectiles are counted one by one, like thrown and alchemical
// weapons. After the fight, if the GM says there is time to search, each
// lost projectile is rolled for (seed: Reclaiming Bolts and Arrows): a
// plain one is damaged on more than 10 on a d20, one with a quality on
// more than 15, a mystical one on more than 17; the rest come back.

// AmmoCounter is a full quiver.
const AmmoCounter = 3

// ammoReady checks that w can be fired or thrown.
func (s *State) ammoReady(f *Fighter, w Weapon, special bool) error {
	k := w.kind()
	switch {
	case k.Ammo && special:
		if f.Special[w.ID] <= 0 {
			return fray.Errorf(fray.EILLEGAL, "%s has no special projectiles left for %s", s.NameOf(f.ID), w.Name)
		}
	case k.Ammo:
		if f.Ammo[w.ID] <= 0 {
			return fray.Errorf(fray.EILLEGAL, "%s is out of ammunition for %s", s.NameOf(f.ID), w.Name)
		}
	case special:
		return fray.Errorf(fray.EINVALID, "%s takes no special projectiles", w.Name)
	case k.Units:
		if f.Units[w.ID] <= 0 {
			return fray.Errorf(fray.EILLEGAL, "%s has no %s left", s.NameOf(f.ID), w.Name)
		}
	}
	return nil
}

// ammoUsed is what a shot uses up. An NPC's miss is the player's passed
// defence: it counts as a failed attack (−1); only a rolled 20 takes 2.
func (s *State) ammoUsed(f *Fighter, w Weapon, special, hit, twenty bool) []Change {
	k := w.kind()
	id := f.ID
	switch {
	case k.Units:
		return []Change{change.Units.To(id, w.ID, f.Units[w.ID]-1)}
	case !k.Ammo:
		return nil
	case special:
		return []Change{change.Special.To(id, w.ID, f.Special[w.ID]-1), change.SpentSpecial.To(id, w.ID, f.SpentSpecial[w.ID]+1)}
	case hit:
		return nil
	}
	lose := 1
	if twenty {
		lose = 2
	}
	have := f.Ammo[w.ID]
	lose = min(lose, have)
	return []Change{change.Ammo.To(id, w.ID, have-lose), change.Spent.To(id, w.ID, f.Spent[w.ID]+lose)}
}

// projectilesLost reports whether a player character lost projectiles
// worth searching for.
func (s *State) projectilesLost() bool {
	for _, c := range s.Combatants {
		f := s.Fighters[c.ID]
		if !c.PC {
			continue
		}
		for _, n := range f.Spent {
			if n > 0 {
				return true
			}
		}
		for _, n := range f.SpentSpecial {
			if n > 0 {
				return true
			}
		}
	}
	return false
}

// askReclaim asks the GM, once the fight is won, whether there is time to
// search for arrows and bolts.
func askReclaim(tx *Tx) error {
	if err := note(tx, KindAmmo, "", "The fight is won; the GM decides whether there is time to search for arrows and bolts.", Note{What: "asked", Set: []Change{change.ReclaimAsked.To(true)}}); err != nil {
		return err
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecReclaim,
		Prompt:  "The fight is over. Is there time to search for arrows and bolts?",
		Options: []engine.Choice{{Value: "search", Label: "Yes: search"}, {Value: "no", Label: "No time"}}, Default: "no"}, Cont{})
}

// reclaimOver is the d20 roll above which a projectile is damaged.
func reclaimOver(quality string) int {
	switch quality {
	case ProjQuality:
		return 15
	case ProjMystical:
		return 17
	}
	return 10
}

func answerReclaim(tx *Tx, _ Cont, ans engine.Answered) error {
	choice := ans.Choice
	st := tx.State
	if choice != "search" {
		return note(tx, KindAmmo, "", "There is no time to search: the quivers stay as they are.", Note{What: "no time"})
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if !c.PC {
			continue
		}
		for _, w := range f.Weapons {
			lost, lostSpecial := f.Spent[w.ID], f.SpentSpecial[w.ID]
			if lost == 0 && lostSpecial == 0 {
				continue
			}
			var rolls []dice.Roll
			var words []string
			set := []Change{change.Spent.To(c.ID, w.ID, 0), change.SpentSpecial.To(c.ID, w.ID, 0)}
			back := 0
			if kit.Opt(&st.Base, OptReclaim) == ReclaimReset {
				back = AmmoCounter - f.Ammo[w.ID]
			} else {
				over := reclaimOver(w.Projectiles)
				for i := 0; i < lost; i++ {
					d := tx.Dice.Die(20)
					ok := d.Total() <= over
					rolls = append(rolls, dice.Roll{Label: "Reclaim " + w.Projectiles + " projectile", Who: c.ID, Dice: []dice.Die{d},
						Total: d.Total(), Target: over, Compare: dice.AtMost, Result: map[bool]string{true: "found", false: "damaged"}[ok], Outcome: dice.OutcomeOf(ok)})
					back += boolInt(ok)
				}
			}
			counter := min(AmmoCounter, f.Ammo[w.ID]+back)
			set = append(set, change.Ammo.To(c.ID, w.ID, counter))
			words = append(words, fmt.Sprintf("%s's counter back to %d", w.Name, counter))
			if lostSpecial > 0 {
				over, found := reclaimOver(ProjQuality), 0
				if w.Projectiles == ProjMystical {
					over = reclaimOver(ProjMystical)
				}
				for i := 0; i < lostSpecial; i++ {
					d := tx.Dice.Die(20)
					ok := d.Total() <= over
					rolls = append(rolls, dice.Roll{Label: "Reclaim special projectile", Who: c.ID, Dice: []dice.Die{d},
						Total: d.Total(), Target: over, Compare: dice.AtMost, Result: map[bool]string{true: "found", false: "damaged"}[ok], Outcome: dice.OutcomeOf(ok)})
					found += boolInt(ok)
				}
				set = append(set, change.Special.To(c.ID, w.ID, f.Special[w.ID]+found))
				words = append(words, fmt.Sprintf("%d of %d special projectiles found", found, lostSpecial))
			}
			text := fmt.Sprintf("%s searches: %s.", c.Name, strings.Join(words, "; "))
			if err := note(tx, KindAmmo, c.ID, text, Note{Fighter: c.ID, What: w.ID, Set: set}, rolls...); err != nil {
				return err
			}
		}
	}
	return nil
}
