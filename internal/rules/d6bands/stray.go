package d6bands

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Stray shots (seed: "A shot aimed at a horseman…"; spec c8). A shot that
// misses:
//   - a rider by 3 or less hits the mount;
//   - a target in close contact with others (fired into close contact) by
//     3 or less hits one of the others, picked by a die;
//   - a target in a wrestling match (a contact group of wrestling-size or
//     more) or in a crowd (a square marked crowd) by 6 or less hits a
//     random body there; in a crowd with no one else, a bystander.
//
// A stray hit deals the weapon's damage with no margin. With stray-ruling
// "ask" the GM confirms each one (the body the die picked, a bystander, or
// nothing); with "auto" it simply hits.

// Event kinds of stray shots: the die that picks the body, and the
// outcome.
const (
	KindStrayRoll = "stray-roll"
	KindStray     = "stray"
)

// Stray is the data of a stray event.
type Stray struct {
	Shooter   string `json:"shooter"`
	Victim    string `json:"victim,omitempty"` // the combatant hit ("" for a bystander or nothing)
	Mount     bool   `json:"mount,omitempty"`
	Bystander bool   `json:"bystander,omitempty"`
}

// strayCtx is a stray shot's decision context.
type strayCtx struct {
	Shooter string `json:"shooter"`
	Weapon  string `json:"weapon"`
	Victim  string `json:"victim,omitempty"`
	Mount   bool   `json:"mount,omitempty"`
	Crowd   bool   `json:"crowd,omitempty"`
	MissBy  int    `json:"missBy"`
}

// strayShot works out where a missed shot goes.
func strayShot(tx *Tx, a Attack, missBy int) error {
	st := tx.State
	t := st.Fighters[a.Target]
	if t == nil || missBy <= 0 {
		return nil
	}
	ctx := strayCtx{Shooter: a.Attacker, Weapon: a.Weapon, MissBy: missBy}
	switch {
	case t.Mounted && t.Mount != nil && missBy <= 3:
		ctx.Victim, ctx.Mount = t.ID, true
	default:
		var bodies []string
		window := 0
		if !a.Contact && !t.Off {
			group := st.members(t.Group)
			others := slices.DeleteFunc(slices.Clone(group), func(id string) bool { return id == t.ID || id == a.Attacker || st.Combatant(id).Out })
			if len(others) > 0 {
				window, bodies = 3, others
			}
			if len(group) >= kit.OptInt(&st.Base, OptWrestling) {
				window = 6
			}
			if st.cell(t.X, t.Y).Crowd {
				window, ctx.Crowd = 6, true
				bodies = nil
				for _, c := range st.Combatants {
					o := st.Fighters[c.ID]
					if c.ID != t.ID && c.ID != a.Attacker && !c.Out && !o.Off && o.at() == t.at() {
						bodies = append(bodies, c.ID)
					}
				}
			}
		}
		if window == 0 || missBy > window || (len(bodies) == 0 && !ctx.Crowd) {
			return nil
		}
		if len(bodies) > 0 {
			i := 0
			var rolls []dice.Roll
			if len(bodies) > 1 {
				d, face := tx.Dice.Pick(len(bodies))
				i = face - 1
				rolls = append(rolls, dice.Roll{Label: "Stray shot: which body", Who: a.Attacker, Dice: []dice.Die{d}, Total: face,
					Result: "the shot strays"})
			}
			ctx.Victim = bodies[i]
			if len(rolls) > 0 {
				// The die is public; whom it picked is for the GM when the
				// body is hidden.
				text := fmt.Sprintf("%s's shot misses %s by %d and strays.", st.PublicNameOf(a.Attacker), st.PublicNameOf(t.ID), missBy)
				if err := tx.Emit(engine.NewEvent(KindStrayRoll, a.Attacker, text, nil, rolls...)); err != nil {
					return err
				}
			}
		}
	}
	if kit.Opt(&st.Base, OptStrayRuling) == StrayAsk {
		return askStray(tx, ctx)
	}
	return strayLands(tx, ctx, "hit")
}

// askStray asks the GM what the stray shot does.
func askStray(tx *Tx, ctx strayCtx) error {
	st := tx.State
	var options []engine.Choice
	prompt := fmt.Sprintf("%s's shot misses by %d and strays.", st.PublicNameOf(ctx.Shooter), ctx.MissBy)
	switch {
	case ctx.Mount:
		m := st.Fighters[ctx.Victim].Mount.Name
		prompt += fmt.Sprintf(" It hits %s's %s?", st.PublicNameOf(ctx.Victim), m)
		options = append(options, engine.Choice{Value: "hit", Label: "It hits the " + m})
	case ctx.Victim != "":
		prompt += fmt.Sprintf(" The die picked %s.", st.PublicNameOf(ctx.Victim))
		options = append(options, engine.Choice{Value: "hit", Label: "It hits " + st.PublicNameOf(ctx.Victim)})
	}
	if ctx.Crowd {
		options = append(options, engine.Choice{Value: "bystander", Label: "It hits a bystander"})
	}
	options = append(options, engine.Choice{Value: "none", Label: "It hits nothing"})
	// A ruling that concerns a combatant the GM keeps hidden is put to that
	// combatant — the GM answers it — so that players never see it.
	who := engine.GM
	if st.hidden(ctx.Victim) {
		who = ctx.Victim
	}
	return tx.AskWith(engine.Decision{For: who, Kind: DecStray, Prompt: prompt, Options: options, Default: options[0].Value},
		Cont{Stray: &ctx})
}

// strayLands carries out a stray shot: "hit" the body picked (or, with
// none, a bystander), "bystander" or "none".
func strayLands(tx *Tx, ctx strayCtx, choice string) error {
	st := tx.State
	shooter := st.Fighters[ctx.Shooter]
	if choice == "hit" && ctx.Victim == "" {
		choice = "bystander"
	}
	switch choice {
	case "bystander":
		return tx.Emits(KindStray, ctx.Shooter, fmt.Sprintf("%s's stray shot hits a bystander in the crowd.", st.PublicNameOf(ctx.Shooter)),
			Stray{Shooter: ctx.Shooter, Bystander: true})
	case "none":
		return tx.Emits(KindStray, ctx.Shooter, fmt.Sprintf("%s's stray shot hits nothing.", st.PublicNameOf(ctx.Shooter)), Stray{Shooter: ctx.Shooter})
	}
	v := st.Fighters[ctx.Victim]
	if v == nil || st.Combatant(v.ID).Out {
		return nil
	}
	w := shooter.Weapon(ctx.Weapon)
	what := st.PublicNameOf(v.ID)
	if ctx.Mount {
		what = st.PublicNameOf(v.ID) + "'s " + v.Mount.Name
	}
	// The victim is the actor: a hidden one is hit in secret.
	ev := engine.NewEvent(KindStray, v.ID, fmt.Sprintf("%s's stray shot hits %s.", st.PublicNameOf(ctx.Shooter), what),
		Stray{Shooter: ctx.Shooter, Victim: v.ID, Mount: ctx.Mount}).With(ctx.Shooter)
	if err := tx.Emit(ev); err != nil {
		return err
	}
	return hurt(tx, v, Blow{By: ctx.Shooter, Label: w.Name, Dice: w.Damage, Armor: true, Mount: ctx.Mount})
}
