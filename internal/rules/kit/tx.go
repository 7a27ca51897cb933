package kit

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Tx is one command being decided, as a ruleset sees it: the engine's Tx
// (Emit, Ask, Run, StartTurn and the rest) and State, the encounter as it
// stands after the events emitted so far, typed. State is the same value
// as the engine's Tx.State(): events change it in place.
type Tx[S State[F], F comparable] struct {
	*engine.Tx
	State S
	rules *Ruleset[S, F]
}

// Actor decodes cmd's arguments into args (nil: the command takes none)
// and returns the fighter acting, whose turn it must be and who must pass
// the ruleset's CanAct. The engine has already checked that the viewer
// sees and commands it and that it is not out.
func (tx *Tx[S, F]) Actor(cmd engine.Command, args any) (F, error) {
	var zero F
	f, err := tx.Reactor(cmd, args)
	if err != nil {
		return zero, err
	}
	if err := engine.RequireTurn(tx.State, cmd.Actor); err != nil {
		return zero, err
	}
	if can := tx.rules.rules.CanAct; can != nil {
		if err := can(tx.State, f); err != nil {
			return zero, err
		}
	}
	return f, nil
}

// Reactor decodes cmd's arguments into args (nil: none) and returns the
// fighter issuing a command allowed at any moment, not only on its turn
// (a reaction, a Benny). The engine has already checked that the viewer
// sees and commands it and that it is not out.
func (tx *Tx[S, F]) Reactor(cmd engine.Command, args any) (F, error) {
	var zero F
	if args == nil {
		args = &struct{}{}
	}
	if err := cmd.Decode(args); err != nil {
		return zero, err
	}
	f := tx.State.Fighter(cmd.Actor)
	if f == zero {
		return zero, fray.Errorf(fray.ENOTFOUND, "no combatant %q", cmd.Actor)
	}
	return f, nil
}

// Target returns the fighter id names, which the viewer must see and
// which must still be in the fight. A combatant the viewer cannot see
// answers exactly like one that does not exist.
func (tx *Tx[S, F]) Target(id string) (F, error) {
	var zero F
	if id == "" {
		return zero, fray.Errorf(fray.EINVALID, "choose a target")
	}
	f := tx.State.Fighter(id)
	if f == zero || !engine.Visible(tx.State, tx.Viewer(), id) {
		return zero, fray.Errorf(fray.ENOTFOUND, "no combatant %q", id)
	}
	if c := tx.Base().Combatant(id); c.Out {
		return zero, fray.Errorf(fray.EILLEGAL, "%s is out of the fight", c.Name)
	}
	return f, nil
}

// Named returns the fighter a GM command names: any combatant still in
// the fight (the GM sees the hidden too); an unknown or out one is not
// found.
func (tx *Tx[S, F]) Named(id string) (F, error) {
	var zero F
	f := tx.State.Fighter(id)
	c := tx.Base().Combatant(id)
	if f == zero || c == nil || !engine.Visible(tx.State, tx.Viewer(), id) {
		return zero, fray.Errorf(fray.ENOTFOUND, "no combatant %q in the fight", id)
	}
	if c.Out {
		return zero, fray.Errorf(fray.EILLEGAL, "%s is out of the fight", c.Name)
	}
	return f, nil
}

// Opponent is Target for an attack by actor: someone else, on another
// side.
func (tx *Tx[S, F]) Opponent(actor, id string) (F, error) {
	f, err := tx.Target(id)
	if err != nil {
		return f, err
	}
	b := tx.Base()
	switch c := b.Combatant(id); {
	case id == actor:
		return f, fray.Errorf(fray.EILLEGAL, "choose someone else")
	case c.Side == b.Combatant(actor).Side:
		return f, fray.Errorf(fray.EILLEGAL, "%s is on your side", c.Name)
	}
	return f, nil
}

// OwnSide is the refusal of a target on the actor's own side, in the
// player's words: the actor itself ("Ana cannot target themselves"), or
// an ally ("Bo is on Ana's side").
func OwnSide(target, actor string, self bool) error {
	if self {
		return fray.Errorf(fray.EILLEGAL, "%s cannot target themselves", actor)
	}
	return fray.Errorf(fray.EILLEGAL, "%s is on %s's side", target, actor)
}
