package engine

import "fmt"

// Reveal makes hidden combatant id visible to everyone, as the GM's reveal
// command does: for a ruleset's rule that acting gives someone away (an
// ambusher who attacks stands revealed). The event names no actor, so it
// reaches every viewer.
func (tx *Tx) Reveal(id, text string) error {
	c := tx.Base().Combatant(id)
	if c == nil || !c.Hidden {
		return fmt.Errorf("reveal: %q is not a hidden combatant", id)
	}
	if text == "" {
		text = c.Name + " is revealed."
	}
	ev := NewEvent(KindRevealed, "", text, Revealed{Combatant: id})
	return tx.Emit(ev.With(id))
}
