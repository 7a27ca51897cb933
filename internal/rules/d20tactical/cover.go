package d20tactical

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/rules/kit"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Cover (seed "Cover", spec 6 and d): against ranged attacks only, a
// deflection bonus to Defense of +1 per 10% of the target covered, at most
// +10, adjusted by the material (thin drywall −1, steel +1 or +2). The
// board works it out from the obstacle next to the target on the line of
// fire: its height (low ¼, half ½, high ¾ of a standing body) against the
// target's (standing 1, crouched ½, prone ¼) — a crouch behind a low wall
// is full cover, +10. The GM's rulings win: set-cover fixes a combatant's
// cover until it moves or changes posture, and with cover-ruling "ask"
// the GM confirms the percentage of every shot at a covered target.
//
// Object attack (seed "Object Attack"): the GM gives the object's Defense
// (and how far it is); objects cannot dodge.

// Cover is a cover ruling: percent of the body covered and the
// material's modifier.
type Cover struct {
	Percent  int `json:"percent"`
	Material int `json:"material,omitempty"`
}

// Bonus is the deflection bonus the cover gives.
func (c Cover) Bonus() int {
	if c.Percent <= 0 {
		return 0
	}
	return min(max(min(c.Percent/10, 10)+c.Material, 0), 10)
}

// coverFor is t's cover against a shot from a: the GM's ruling for the
// shot, the GM's standing ruling on t, or the board's obstacles.
func coverFor(st *State, a, t *Fighter, ruled *Cover) (Cover, string) {
	switch {
	case ruled != nil:
		return *ruled, "the GM's ruling"
	case t.Cover != nil:
		return *t.Cover, "the GM's ruling"
	}
	o, pct := st.Grid.obstacleCover(cell(a), cell(t), height(t.Posture))
	if pct == 0 {
		return Cover{}, ""
	}
	what := o.Label
	if what == "" {
		what = o.Obstacle + " obstacle"
	}
	return Cover{Percent: pct, Material: o.Material}, what + " at " + board.SquareName(o.X, o.Y)
}

// askCover puts the cover of shot s to the GM, offering the board's.
func askCover(tx *Tx, s attackSpec, a, t *Fighter, c Cover) error {
	st := tx.State
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecCover,
		Prompt:  fmt.Sprintf("%s shoots at %s: how much cover does %s have?", st.PublicNameOf(a.ID), st.PublicNameOf(t.ID), st.PublicNameOf(t.ID)),
		Options: []engine.Choice{{Value: "set", Label: "Use this cover"}}, Default: "set",
		Fields: []engine.Field{
			{Name: "percent", Label: "Covered (%)", Type: engine.FieldNumber, Min: 0, Max: 100, Default: fmt.Sprint(c.Percent)},
			{Name: "material", Label: "Material (−2 … +2)", Type: engine.FieldNumber, Min: -2, Max: 2, Default: fmt.Sprint(c.Material)},
		}}, Cont{Cover: &s})
}

// CoverSet is the data of a cover event: the GM's ruling on a
// combatant's cover (nil: back to the board's).
type CoverSet struct {
	Fighter string `json:"fighter"`
	Cover   *Cover `json:"cover,omitempty"`
}

func decideSetCover(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string  `json:"combatant"`
		Percent   flexInt `json:"percent"`
		Material  flexInt `json:"material"`
		Clear     bool    `json:"clear"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Target(args.Combatant)
	if err != nil {
		return err
	}
	if args.Percent < 0 || args.Percent > 100 || args.Material < -2 || args.Material > 2 {
		return fray.Errorf(fray.EINVALID, "cover is 0–100%% with a material of −2 to +2")
	}
	data := CoverSet{Fighter: f.ID}
	text := fmt.Sprintf("The GM: %s's cover comes from the board again.", st.NameOf(f.ID))
	if !args.Clear {
		c := Cover{Percent: int(args.Percent), Material: int(args.Material)}
		data.Cover = &c
		text = fmt.Sprintf("The GM: %s is %d%% covered (%+d material): %+d Defense against shots, until it moves.", st.NameOf(f.ID), c.Percent, c.Material, c.Bonus())
	} else if f.Cover == nil {
		// Nothing to clear: the form's "back to the board" is still a
		// legal ruling, and says so.
		text = fmt.Sprintf("The GM: %s's cover comes from the board, as it did.", st.NameOf(f.ID))
	}
	ev := engine.NewEvent(KindCover, "", text, data)
	if st.Combatant(f.ID).Hidden {
		ev.Actor = f.ID // a ruling on a hidden combatant stays the GM's
	}
	return tx.Emit(ev.With(f.ID))
}

// objectCtx is the GM's ruling on an object attacked.
type objectCtx struct {
	Defense int    `json:"defense"`
	Band    string `json:"band,omitempty"`
	Label   string `json:"label,omitempty"`
}

func (o *objectCtx) label() string {
	if o.Label != "" {
		return o.Label
	}
	return "the object"
}

func decideObject(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string  `json:"weapon"`
		Shots  flexInt `json:"shots"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	w := f.Weapon(args.Weapon)
	spec := attackSpec{Attacker: f.ID, Weapon: args.Weapon, Shots: int(args.Shots)}
	if args.Shots < 0 || args.Shots > MaxAuto {
		return fray.Errorf(fray.EINVALID, "shots run from 1 to %d", MaxAuto)
	}
	if err := checkAttack(st, f, nil, w, spec); err != nil {
		return err
	}
	b, err := f.Budget.useStandard()
	if err != nil {
		return err
	}
	if err := declare(tx, f, "attack-object", b, fmt.Sprintf("%s attacks an object with the %s.", st.NameOf(f.ID), w.Name)); err != nil {
		return err
	}
	var steps []engine.Step
	if w.Ranged() {
		steps = reactionSteps(st, f, cell(f), reactAoO)
	}
	steps = append(steps, engine.NewStep(stepObject, spec), engine.NewStep(stepAfter, afterAction{Fighter: f.ID, Strenuous: true}))
	return tx.Run(steps...)
}

// askObject asks the GM for the object's Defense and distance.
func askObject(tx *Tx, s attackSpec) error {
	st := tx.State
	if !st.able(s.Attacker) {
		return nil
	}
	w := st.Fighters[s.Attacker].Weapon(s.Weapon)
	fields := []engine.Field{
		{Name: "what", Label: "What is attacked", Type: engine.FieldString, Default: "the object"},
		{Name: "defense", Label: "The object's Defense", Type: engine.FieldNumber, Min: 0, Max: 40, Default: fmt.Sprint(kit.OptInt(&st.Base, OptObjectDefense))},
	}
	if w.Ranged() {
		var bands []engine.Choice
		for i, n := range bandNames {
			if i == BandExtreme && w.MaxRange() <= w.Range*kit.OptInt(&st.Base, OptBandLong) {
				break
			}
			bands = append(bands, engine.Choice{Value: n, Label: n})
		}
		fields = append(fields, engine.Field{Name: "range", Label: "Range", Type: engine.FieldSelect, Options: bands, Default: bandNames[0]})
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecObject,
		Prompt:  fmt.Sprintf("%s attacks an object with the %s: its Defense?", st.PublicNameOf(s.Attacker), w.Name),
		Options: yesNo("attack", "Attack it", "cancel", "It cannot be attacked"), Default: "attack", Fields: fields},
		Cont{Object: &s})
}
