package d20tactical

import (
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Fumbles (seed "Fumbles"): an attack roll in the weapon's fumble range
// (normally a natural 1) misses, and:
//   - in melee, every opponent in reach of the fumbler gets one immediate
//     attack at its best bonus (aoo.go's reactions);
//   - at range (every range, or Long and Extreme only: ranged-fumbles),
//     a d6: 1 the shot goes 10 ft in a random direction, 2 it goes 20 ft
//     (a d8 for the direction; it hits whoever stands there, stray-shots),
//     3 the whole clip is wasted, 4–5 the weapon jams, 6 a 25% chance (d%)
//     the gun backfires — what that does is the GM's — else it jams.
// Clearing a jam is a move action (clear-jam).

// Fumble results.
const (
	FumbleMelee  = "melee"
	FumbleMiss   = "miss"
	FumbleStray  = "stray"
	FumbleClip   = "clip"
	FumbleJam    = "jam"
	FumbleBack   = "backfire"
	BackfirePerc = 25
)

// Fumbled is the data of a fumble event.
type Fumbled struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
	Roll    int    `json:"roll,omitempty"` // the d6
	Result  string `json:"result"`
	// A stray shot: how far, which way and where it lands.
	Feet      int    `json:"feet,omitempty"`
	Direction string `json:"direction,omitempty"`
	Landing   *Cell  `json:"landing,omitempty"`
	Victim    string `json:"victim,omitempty"`
	Ammo      int    `json:"ammo"`
	Jammed    bool   `json:"jammed,omitempty"`
}

// backfireCtx is the GM's question about a backfire.
type backfireCtx struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
}

func fumble(tx *Tx, s attackSpec, a, t *Fighter, w *Weapon, band int) error {
	st := tx.State
	ammo := w.Ammo // the attack already spent its rounds
	if w.Clip == 0 {
		ammo = -1
	}
	f := Fumbled{Fighter: a.ID, Weapon: w.ID, Ammo: ammo}
	name := st.NameOf(a.ID)
	if !w.Ranged() {
		id := "" // every fumble its own trigger, or one per fumbler and turn
		if kit.Opt(&st.Base, OptFumbleChains) == ChainAgain {
			id = strconv.FormatInt(tx.Base().Seq+1, 10)
		}
		steps := fumbleSteps(st, a, cell(a), reactFumble, id)
		f.Result = FumbleMelee
		text := fmt.Sprintf("%s fumbles: every opponent in reach gets a free attack (%d).", name, len(steps))
		if err := tx.Emits(KindFumble, a.ID, text, f); err != nil {
			return err
		}
		return tx.Run(steps...)
	}
	if kit.Opt(&st.Base, OptRangedFumbles) == LongRanges && band < BandLong {
		f.Result = FumbleMiss
		return tx.Emits(KindFumble, a.ID, name+" fumbles the shot; at this range it simply misses.", f)
	}
	d6 := tx.Dice.Die(6)
	f.Roll = d6.Total()
	rolls := []dice.Roll{{Label: "Fumble (d6)", Who: a.ID, Dice: []dice.Die{d6}, Total: f.Roll}}
	var text string
	switch f.Roll {
	case 1, 2:
		f.Result, f.Feet = FumbleStray, 10*f.Roll
		dd := tx.Dice.Die(8)
		rolls = append(rolls, dice.Roll{Label: "Direction (d8)", Who: a.ID, Dice: []dice.Die{dd}, Total: dd.Total()})
		dir := neighbours[dd.Total()-1]
		f.Direction = directionNames[dd.Total()-1]
		text = fmt.Sprintf("%s fumbles: the shot goes %d ft astray to the %s", name, f.Feet, f.Direction)
		if t != nil {
			n := f.Feet / Square
			land := Cell{t.X + dir.X*n, t.Y + dir.Y*n}
			for kit.Opt(&st.Base, OptStrayOffBoard) == StrayEdge && n > 0 && !st.Grid.inside(land.X, land.Y) {
				n-- // it stops at the edge
				land = Cell{t.X + dir.X*n, t.Y + dir.Y*n}
			}
			if !st.Grid.inside(land.X, land.Y) {
				// Off the board: lost (stray-off-board).
				ev := engine.NewEvent(KindFumble, a.ID, text+" and off the battlefield.", f, rolls...)
				return tx.Emit(ev)
			}
			f.Landing = &land
			if o := st.occupant(land, a.ID); o != nil && kit.Opt(&st.Base, OptStrayShots) == StrayHit {
				f.Victim = o.ID
				if st.Combatant(o.ID).Hidden {
					// Hit, a hidden combatant gives itself away.
					if err := tx.Reveal(o.ID, st.NameOf(o.ID)+" is caught by a stray shot and revealed."); err != nil {
						return err
					}
				}
				text += " and hits " + st.NameOf(o.ID)
			}
			text += " (" + land.Name() + ")"
		}
		text += "."
	case 3:
		f.Result = FumbleClip
		text = name + " fumbles: the whole clip is wasted."
		if w.Clip > 0 {
			f.Ammo = 0
		}
	case 4, 5:
		f.Result, f.Jammed = FumbleJam, true
		text = fmt.Sprintf("%s fumbles: the %s jams (clearing it is a move action).", name, w.Name)
	case 6:
		pct := tx.Dice.Die(100)
		rolls = append(rolls, dice.Roll{Label: "Backfire (d%)", Who: a.ID, Dice: []dice.Die{pct}, Total: pct.Total(), Target: BackfirePerc, Compare: dice.AtMost})
		if pct.Total() <= BackfirePerc {
			f.Result = FumbleBack
			text = fmt.Sprintf("%s fumbles and the %s backfires (%s): the GM says what happens.", name, w.Name, dice.Percent(pct.Total(), BackfirePerc))
		} else {
			f.Result, f.Jammed = FumbleJam, true
			text = fmt.Sprintf("%s fumbles: no backfire (%s), but the %s jams.", name, dice.Percent(pct.Total(), BackfirePerc), w.Name)
		}
	}
	ev := engine.NewEvent(KindFumble, a.ID, text, f, rolls...)
	if err := tx.Emit(ev.With(f.Victim)); err != nil {
		return err
	}
	switch {
	case f.Victim != "":
		return tx.Run(engine.NewStep(stepHit, hitSpec{Attacker: a.ID, Target: f.Victim, Weapon: w.ID, Ranged: true, Stray: true}))
	case f.Result == FumbleBack:
		return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecBackfire,
			Prompt:  fmt.Sprintf("%s's %s backfires. What happens?", st.PublicNameOf(a.ID), w.Name),
			Options: []engine.Choice{{Value: "ruined", Label: "The weapon is ruined"}, {Value: "jammed", Label: "It only jams"}}, Default: "ruined",
			Fields: []engine.Field{{Name: "damage", Label: "Damage to the shooter", Type: engine.FieldNumber, Min: 0, Max: 100, Default: "0"}}},
			Cont{Backfire: &backfireCtx{Fighter: a.ID, Weapon: w.ID}})
	}
	return nil
}

// WeaponState is the data of a weapon event: a weapon's new state.
type WeaponState struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
	Ammo    int    `json:"ammo"`
	Jammed  bool   `json:"jammed,omitempty"`
	Ruined  bool   `json:"ruined,omitempty"`
}

func answerBackfire(tx *Tx, cont Cont, a engine.Answered) error {
	c := cont.Backfire
	if c == nil {
		return nil
	}
	st := tx.State
	f := st.Fighters[c.Fighter]
	w := f.Weapon(c.Weapon)
	ws := WeaponState{Fighter: f.ID, Weapon: w.ID, Ammo: w.Ammo, Jammed: true}
	text := fmt.Sprintf("The GM rules the %s only jams.", w.Name)
	if a.Choice == "ruined" {
		ws.Jammed, ws.Ruined = false, true
		text = fmt.Sprintf("The %s is ruined by the backfire.", w.Name)
	}
	if err := tx.Emits(KindWeapon, f.ID, text, ws); err != nil {
		return err
	}
	if n := a.Values.Int("damage"); n > 0 {
		return tx.Run(engine.NewStep(stepHarm, harmSpec{Target: f.ID, Amount: n,
			Why: fmt.Sprintf("The backfire hurts %s for %d", st.NameOf(f.ID), n)}))
	}
	return nil
}

// Handling weapons: reload, clear a jam, pick up what was dropped — move
// actions that provoke attacks of opportunity (d20 Modern).

type handleSpec struct {
	Fighter string `json:"fighter"`
	What    string `json:"what"`
	Weapon  string `json:"weapon,omitempty"`
}

func decideHandle(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"`
	}
	var err error
	var f *Fighter
	if cmd.Kind == CmdPickUp {
		f, err = tx.Actor(cmd, nil)
	} else {
		f, err = tx.Actor(cmd, &args)
	}
	if err != nil {
		return err
	}
	st := tx.State
	if err := canHandle(st, f, cmd.Kind, args.Weapon); err != nil {
		return err
	}
	b, err := f.Budget.useMoveAction()
	if err != nil {
		return err
	}
	var text string
	switch cmd.Kind {
	case CmdReload:
		text = fmt.Sprintf("%s reloads the %s (move action).", st.NameOf(f.ID), f.Weapon(args.Weapon).Name)
	case CmdClearJam:
		text = fmt.Sprintf("%s clears the jammed %s (move action).", st.NameOf(f.ID), f.Weapon(args.Weapon).Name)
	default:
		text = fmt.Sprintf("%s picks up what they dropped (move action).", st.NameOf(f.ID))
	}
	if err := declare(tx, f, cmd.Kind, b, text); err != nil {
		return err
	}
	steps := reactionSteps(st, f, cell(f), reactAoO)
	steps = append(steps, engine.NewStep(stepHandle, handleSpec{Fighter: f.ID, What: cmd.Kind, Weapon: args.Weapon}),
		engine.NewStep(stepAfter, afterAction{Fighter: f.ID}))
	return tx.Run(steps...)
}

// canHandle says whether f may reload, clear or pick up now.
func canHandle(st *State, f *Fighter, what, weapon string) error {
	if !f.Budget.Move && !f.Budget.Standard {
		return errNoMoveAction(st, f)
	}
	switch what {
	case CmdPickUp:
		if !f.Dropped {
			return errf("%s has dropped nothing", st.NameOf(f.ID))
		}
		return nil
	}
	w := f.Weapon(weapon)
	switch {
	case w == nil || w.ID == unarmed.ID:
		return errInvalid("%s has no weapon %q", st.NameOf(f.ID), weapon)
	case w.Ruined:
		return errf("the %s is ruined", w.Name)
	case what == CmdClearJam && !w.Jammed:
		return errf("the %s is not jammed", w.Name)
	case what == CmdReload && (w.Clip == 0 || w.Ammo >= w.Clip):
		return errf("the %s needs no reloading", w.Name)
	case what == CmdReload && w.Jammed:
		return errf("the %s is jammed: clear it first", w.Name)
	}
	return nil
}

func runHandle(tx *Tx, h handleSpec) error {
	st := tx.State
	if !st.able(h.Fighter) {
		return nil
	}
	f := st.Fighters[h.Fighter]
	if h.What == CmdPickUp {
		return tx.Emits(KindPickedUp, f.ID, st.NameOf(f.ID)+" is armed again.", PointsLeft{Fighter: f.ID})
	}
	w := f.Weapon(h.Weapon)
	ws := WeaponState{Fighter: f.ID, Weapon: w.ID, Ammo: w.Ammo, Jammed: w.Jammed}
	text := fmt.Sprintf("%s clears the %s.", st.NameOf(f.ID), w.Name)
	if h.What == CmdReload {
		ws.Ammo = w.Clip
		text = fmt.Sprintf("%s reloads the %s: %d rounds.", st.NameOf(f.ID), w.Name, w.Clip)
	} else {
		ws.Jammed = false
	}
	return tx.Emits(KindWeapon, f.ID, text, ws)
}
