package d6bands

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Area fire (seed: "Area fire is an attack used to rake an entire range
// band"; spec c9). Only burst, explosive and other area weapons (a weapon
// marked area) may rake a whole band — a square in sight, up to Very Far.
// The difficulty is the shot's (4D, +1D per band off optimal, the square's
// cover, +1D for a snapshot) with +2D for area fire. On a hit everyone in
// the square but the shooter — hidden ones too — is affected as if hit by
// 3: the weapon's damage plus 3. Everyone there takes the weapon's Terror
// check (Willpower against its terror dice; terror-on-miss: even when the
// fire misses). A failed Terror check costs terror-actions actions of the
// victim's next turn, a fumbled one the whole turn.

// Event kinds of area fire.
const (
	KindAreaFire = "area-fire"
	KindTerror   = "terror"
)

// AreaFired is the data of an area-fire event.
type AreaFired struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Actions int    `json:"actions"`
	Hit     bool   `json:"hit"`
	Margin  int    `json:"margin"`
}

// Terrified is the data of a terror event: actions lost from the next
// turn (0: the check passed).
type Terrified struct {
	Fighter string `json:"fighter"`
	Lost    int    `json:"lost"`
}

// areaHitMargin is the margin area fire hits everyone by.
const areaHitMargin = 3

// planArea works out area fire's difficulty at square p.
func planArea(st *State, f *Fighter, w *Weapon, p point, aimed bool) (Check, int, error) {
	c := Check{Label: "Area fire at " + p.Name(), Skill: skillName(w.Skill), Value: f.Skill(&st.Base, w.Skill), Dice: 4}
	switch {
	case !w.Area:
		return c, 0, fray.Errorf(fray.EILLEGAL, "the %s cannot fire at an area", w.Name)
	case f.Off:
		return c, 0, fray.Errorf(fray.EILLEGAL, "%s is at Extreme range", st.NameOf(f.ID))
	case !st.onMap(p.X, p.Y):
		return c, 0, fray.Errorf(fray.EINVALID, "square (%d,%d) is outside the map", p.X, p.Y)
	}
	if err := ready(f, w); err != nil {
		return c, 0, err
	}
	band := st.distance(f.at(), p)
	if band > BandVeryFar {
		return c, 0, fray.Errorf(fray.EILLEGAL, "(%d,%d) is beyond Very Far", p.X, p.Y)
	}
	if !st.sight(f.at(), p) {
		return c, 0, fray.Errorf(fray.EILLEGAL, "%s has no line of sight to (%d,%d)", st.NameOf(f.ID), p.X, p.Y)
	}
	if off := bandsOff(w, band); off > 0 {
		c.Mods = append(c.Mods, diceMod(fmt.Sprintf("%s, %s off optimal", BandName(band), bandWord(off)), off))
	}
	if cv := st.cell(p.X, p.Y).Cover; cv > 0 {
		c.Mods = append(c.Mods, diceMod(strings.ToLower(coverNames[cv]), cv))
	}
	c.Mods = append(c.Mods, diceMod("area fire", 2))
	cost := 2
	if !aimed {
		c.Mods = append(c.Mods, diceMod("snapshot", 1))
		cost = 1
	}
	return c, cost, nil
}

func decideAreaFire(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"`
		Cell   string `json:"cell"`
		Mode   string `json:"mode"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	aimed, err := mode(args.Mode)
	if err != nil {
		return err
	}
	w := f.Weapon(args.Weapon)
	if w == nil {
		return fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), args.Weapon)
	}
	p, ok := parsePoint(args.Cell)
	if !ok {
		return fray.Errorf(fray.EINVALID, "cell must be a square \"x,y\", not %q", args.Cell)
	}
	c, cost, err := planArea(st, f, w, p, aimed)
	if err != nil {
		return err
	}
	if err := need(st, f, cost, "Area fire"); err != nil {
		return err
	}
	res, err := rollCheck(tx, f, c)
	if err != nil {
		return err
	}
	name := st.NameOf(f.ID)
	text := fmt.Sprintf("%s rakes %s with the %s: %s.", name, p.Name(), w.Name, res.Words())
	if res.Success {
		text += " Everyone there is hit as if by 3."
	}
	data := AreaFired{Fighter: f.ID, Weapon: w.ID, X: p.X, Y: p.Y, Actions: cost, Hit: res.Success, Margin: res.Margin}
	var victims []*Fighter
	var ids []string
	for _, cb := range st.Combatants {
		if v := st.Fighters[cb.ID]; cb.ID != f.ID && !cb.Out && !v.Off && v.at() == p {
			victims = append(victims, v)
			ids = append(ids, v.ID)
		}
	}
	// Involves lists everyone there; players only ever see those they may.
	if err := tx.Emit(engine.NewEvent(KindAreaFire, f.ID, text, data, res.Roll).With(ids...)); err != nil {
		return err
	}
	for _, v := range victims {
		if res.Success {
			if err := hurt(tx, v, Blow{By: f.ID, Label: w.Name, Dice: w.Damage, Margin: areaHitMargin, Armor: true}); err != nil {
				return err
			}
		}
		if w.Terror > 0 && (res.Success || kit.Opt(&st.Base, OptTerrorOnMiss) == On) && st.standing(v.ID) {
			if err := terror(tx, v, w); err != nil {
				return err
			}
		}
	}
	return nil
}

// terror is a Terror check against weapon w's area fire.
func terror(tx *Tx, v *Fighter, w *Weapon) error {
	st := tx.State
	b := &st.Base
	res, err := rollCheck(tx, v, Check{Label: "Terror (" + w.Name + ")", Skill: "Willpower", Value: v.Skill(b, "willpower"), Dice: w.Terror})
	if err != nil {
		return err
	}
	lost := 0
	text := fmt.Sprintf("%s keeps their nerve: %s.", st.PublicNameOf(v.ID), res.Words())
	switch {
	case res.Fumble:
		lost = kit.OptInt(b, OptActions)
		text = fmt.Sprintf("%s panics: %s; they lose their next turn.", st.PublicNameOf(v.ID), res.Words())
	case !res.Success:
		lost = kit.OptInt(b, OptTerrorLoss)
		text = fmt.Sprintf("%s is terrified: %s; %s fewer next turn.", st.PublicNameOf(v.ID), res.Words(), actionCount(lost))
	}
	return tx.Emits(KindTerror, v.ID, text, Terrified{Fighter: v.ID, Lost: lost}, res.Roll)
}

func applyAreaFire(st *State, d AreaFired) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	f.Aim = nil
	f.Unseen = nil
	if l := f.Loads[d.Weapon]; l != nil {
		l.Loaded = false
	}
	return nil
}

func applyTerror(st *State, d Terrified) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.LostActions += d.Lost
	return nil
}
