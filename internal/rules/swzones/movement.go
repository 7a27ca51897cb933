package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Movement replaces Pace: every fighter has 2 Movement points (MP) a turn.
//   - joining a melee in the same zone costs 1 (engage);
//   - leaving a melee costs 1 (disengage), and every adjacent non-Shaken
//     opponent gets a free attack first;
//   - crossing a zone border costs 1 (move), and only an unengaged fighter
//     may cross.
// Moving about inside a zone while unengaged is free ([I] of the seed), so
// there is no command for it. Moving is a free action: a Shaken fighter may
// move.

// MovementPerTurn is the seed's basic Movement.
const MovementPerTurn = 2

// Moved is the data of a moved event.
type Moved struct {
	Fighter string `json:"fighter"`
	From    string `json:"from"`
	To      string `json:"to"`
	Cost    int    `json:"cost"`
}

// Engaged is the data of an engaged event.
type Engaged struct {
	Fighter string `json:"fighter"`
	Target  string `json:"target"`
	Melee   string `json:"melee"`
	Zone    string `json:"zone"`
	New     bool   `json:"new,omitempty"` // the target was unengaged: a new melee forms
	Cost    int    `json:"cost"`
}

// Disengaged is the data of a disengaged event.
type Disengaged struct {
	Fighter string `json:"fighter"`
	Melee   string `json:"melee"`
	Cost    int    `json:"cost"`
	Defend  int    `json:"defend,omitempty"` // Parry bonus for defending while retreating
}

// needMP fails unless f has cost Movement points left.
func needMP(f *Fighter, cost int) error {
	if f.MP < cost {
		return fray.Errorf(fray.EILLEGAL, "not enough Movement: %d left, %d needed", f.MP, cost)
	}
	return nil
}

func mpLeft(n int) string {
	if n == 1 {
		return "1 MP left"
	}
	return fmt.Sprintf("%d MP left", n)
}

func decideMove(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind  string `json:"kind"`
		Actor string `json:"actor"`
		To    string `json:"to"`
	}
	f, err := actor(tx, cmd, &args)
	if err != nil {
		return err
	}
	st := state(tx)
	to := st.zone(args.To)
	if to == nil {
		return fray.Errorf(fray.ENOTFOUND, "no zone %q", args.To)
	}
	if f.Melee != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is in a melee: disengage first", st.name(f.ID))
	}
	if !st.adjacent(f.Zone, to.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s does not border %s", to.Name, st.zone(f.Zone).Name)
	}
	if err := needMP(f, 1); err != nil {
		return err
	}
	text := fmt.Sprintf("%s moves from %s to %s (%s).", st.name(f.ID), st.zone(f.Zone).Name, to.Name, mpLeft(f.MP-1))
	return tx.Emits(KindMoved, f.ID, text, Moved{Fighter: f.ID, From: f.Zone, To: to.ID, Cost: 1})
}

func applyMoved(st *State, d Moved) error {
	f, err := st.fighter(d.Fighter)
	if err != nil {
		return err
	}
	f.Zone = d.To
	f.MP -= d.Cost
	return nil
}

func decideEngage(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind   string `json:"kind"`
		Actor  string `json:"actor"`
		Target string `json:"target"`
	}
	f, err := actor(tx, cmd, &args)
	if err != nil {
		return err
	}
	st := state(tx)
	t, err := target(tx, args.Target)
	if err != nil {
		return err
	}
	if err := canEngage(st, f, t); err != nil {
		return err
	}
	if err := needMP(f, 1); err != nil {
		return err
	}
	d := Engaged{Fighter: f.ID, Target: t.ID, Melee: t.Melee, Zone: f.Zone, Cost: 1}
	text := fmt.Sprintf("%s joins the melee around %s (%s).", st.name(f.ID), st.name(t.ID), mpLeft(f.MP-1))
	if t.Melee == "" {
		d.Melee, d.New = st.newMeleeID(), true
		text = fmt.Sprintf("%s engages %s in melee (%s).", st.name(f.ID), st.name(t.ID), mpLeft(f.MP-1))
	}
	return tx.Emits(KindEngaged, f.ID, text, d)
}

// canEngage checks that f may join t's melee, or start one with t.
func canEngage(st *State, f, t *Fighter) error {
	switch {
	case t.ID == f.ID:
		return fray.Errorf(fray.EILLEGAL, "a fighter cannot engage themself")
	case f.Melee != "":
		return fray.Errorf(fray.EILLEGAL, "%s is already in a melee: disengage first", st.name(f.ID))
	case t.Zone != f.Zone:
		return fray.Errorf(fray.EILLEGAL, "%s is not in %s's zone", st.name(t.ID), st.name(f.ID))
	case t.Melee == "" && !st.opponents(f.ID, t.ID):
		return fray.Errorf(fray.EILLEGAL, "%s is an unengaged ally: engage an opponent or join a melee", st.name(t.ID))
	}
	return nil
}

func applyEngaged(st *State, d Engaged) error {
	f, err := st.fighter(d.Fighter)
	if err != nil {
		return err
	}
	if d.New {
		t, err := st.fighter(d.Target)
		if err != nil {
			return err
		}
		st.Melees = append(st.Melees, Melee{ID: d.Melee, Zone: d.Zone, Members: []string{d.Target}})
		t.Melee = d.Melee
	}
	m := st.melee(d.Melee)
	if m == nil {
		return fmt.Errorf("sw-zones: no melee %q", d.Melee)
	}
	m.Members = append(m.Members, f.ID)
	f.Melee = d.Melee
	f.MP -= d.Cost
	return nil
}

func decideDisengage(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind   string   `json:"kind"`
		Actor  string   `json:"actor"`
		Defend flexBool `json:"defend"`
	}
	f, err := actor(tx, cmd, &args)
	if err != nil {
		return err
	}
	st := state(tx)
	if f.Melee == "" {
		return fray.Errorf(fray.EILLEGAL, "%s is not in a melee", st.name(f.ID))
	}
	if err := needMP(f, 1); err != nil {
		return err
	}
	defend := 0
	if args.Defend {
		if err := canAct(st, f); err != nil {
			return fray.Errorf(fray.EILLEGAL, "cannot defend while retreating: %s", fray.ErrorMessage(err))
		}
		if f.Actions > 0 {
			return fray.Errorf(fray.EILLEGAL, "cannot defend while retreating after taking an action this turn")
		}
		defend = retreatDefendBonus
	}
	melee := f.Melee
	// Every adjacent non-Shaken opponent gets a free attack first. All
	// members of a melee are adjacent to each other ([I]).
	var attackers []string
	for _, id := range st.melee(melee).Members {
		if st.opponents(id, f.ID) && !st.Fighters[id].Shaken {
			attackers = append(attackers, id)
		}
	}
	for _, id := range attackers {
		if st.Combatant(f.ID).Out {
			return nil // taken out by a free attack: nothing left to disengage
		}
		if err := freeAttack(tx, st.Fighters[id], f, defend); err != nil {
			return err
		}
	}
	if st.Combatant(f.ID).Out {
		return nil
	}
	text := fmt.Sprintf("%s disengages (%s).", st.name(f.ID), mpLeft(f.MP-1))
	if defend > 0 {
		text = fmt.Sprintf("%s disengages, defending (+%d Parry until their next turn; no other action this turn; %s).", st.name(f.ID), defend, mpLeft(f.MP-1))
	}
	return tx.Emits(KindDisengaged, f.ID, text, Disengaged{Fighter: f.ID, Melee: melee, Cost: 1, Defend: defend})
}

func applyDisengaged(st *State, d Disengaged) error {
	f, err := st.fighter(d.Fighter)
	if err != nil {
		return err
	}
	st.leaveMelee(f.ID)
	f.MP -= d.Cost
	if d.Defend > 0 {
		f.Defend = d.Defend
	}
	return nil
}
