package d6bands

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/rules/kit"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Movement (seed: ordinary movement, dashing, impassable terrain; spec
// c2–c4).
//
// move (1 action): one band — into a neighbouring square — or into close
// contact with someone in the same square, or out of it; a combatant on
// the map's edge may leave it for Extreme range, and one off the map come
// back onto an edge square. No check, except in impassable terrain: two
// actions for the band and a check (Swimming in water) at 4D, 5D or 6D;
// failure makes no progress, a fumble knocks the mover prone with the
// difficulty in damage. Moving keeps cover, but a second move action in a
// turn gives it up (and, for a hider, its concealment).
//
// dash (2 actions): two bands, or into a neighbouring square and into
// close contact there. The dasher loses cover and the Defense Pool until
// its next turn, and a Seriously or Lethally wounded dasher bleeds a wound
// at once. Difficult terrain asks an Acrobatics or Athletics check at the
// worst square's difficulty (3D, 4D, 5D): failure moves one band only, a
// fumble knocks the dasher prone with half the difficulty (rounded up) in
// damage — 2D for 3D and 4D terrain, 3D for 5D.

// Event kinds of movement.
const (
	KindMoved = "moved"
	KindProne = "prone"
)

// Moved is the data of a moved event: where a fighter now stands and what
// the movement cost.
type Moved struct {
	Fighter string `json:"fighter"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Off     bool   `json:"off,omitempty"`
	Group   string `json:"group,omitempty"`   // the contact group it is in now
	Partner string `json:"partner,omitempty"` // whom it came into contact with
	Actions int    `json:"actions"`
	Moves   int    `json:"moves,omitempty"` // move actions it counts as, for cover
	Dash    bool   `json:"dash,omitempty"`
	// Progress is false when a check failed and the mover stayed put.
	Progress bool `json:"progress"`
}

// Prone is the data of a prone event: a fall, or standing up.
type Prone struct {
	Fighter string `json:"fighter"`
	Prone   bool   `json:"prone"`
	Actions int    `json:"actions,omitempty"`
}

// destination is where a move or a dash goes.
type destination struct {
	Cell    point
	Off     bool
	Contact string // a combatant to come into close contact with
	Leave   bool   // out of close contact, staying in the square
}

// parseDestination reads a move's "to": "x,y", "contact:<id>", "leave" or
// "off".
func parseDestination(st *State, f *Fighter, to string) (destination, error) {
	switch {
	case to == "":
		return destination{}, fray.Errorf(fray.EINVALID, "choose where to go (to)")
	case to == "leave":
		return destination{Cell: f.at(), Leave: true}, nil
	case to == "off":
		return destination{Off: true}, nil
	case strings.HasPrefix(to, "contact:"):
		return destination{Contact: strings.TrimPrefix(to, "contact:")}, nil
	}
	p, ok := parsePoint(to)
	if !ok {
		return destination{}, fray.Errorf(fray.EINVALID, "%q is not a square (x,y), contact:<id>, leave or off", to)
	}
	if !st.onMap(p.X, p.Y) {
		return destination{}, fray.Errorf(fray.EINVALID, "square (%d,%d) is outside the %d×%d map", p.X, p.Y, st.Width, st.Height)
	}
	return destination{Cell: p}, nil
}

// contactTarget checks that f may come into close contact with id, who
// must be visible to the viewer, not hidden from f and standing in square
// at.
func contactTarget(tx *Tx, f *Fighter, id string, at point) (*Fighter, error) {
	st := tx.State
	t, err := tx.Target(id)
	if err != nil {
		return nil, err
	}
	switch {
	case t.ID == f.ID:
		return nil, fray.Errorf(fray.EILLEGAL, "%s cannot come into contact with themselves", st.NameOf(f.ID))
	case t.Off || t.at() != at:
		return nil, fray.Errorf(fray.EILLEGAL, "%s is not in that square", st.NameOf(t.ID))
	case inContact(f, t):
		return nil, fray.Errorf(fray.EILLEGAL, "%s is already in close contact with %s", st.NameOf(f.ID), st.NameOf(t.ID))
	case t.Unseen[f.ID] > 0:
		return nil, fray.Errorf(fray.EILLEGAL, "%s cannot see %s", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	return t, nil
}

// groupWith is the contact group f joins to touch t: t's, or a new one.
func groupWith(st *State, t *Fighter) string {
	if t.Group != "" {
		return t.Group
	}
	return fmt.Sprintf("g%d", st.Seq+1)
}

func decideMove(tx *Tx, cmd engine.Command) error {
	var args struct {
		To string `json:"to"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Prone {
		return fray.Errorf(fray.EILLEGAL, "%s is prone: stand up first", st.NameOf(f.ID))
	}
	dest, err := parseDestination(st, f, args.To)
	if err != nil {
		return err
	}
	name := st.NameOf(f.ID)
	mv := Moved{Fighter: f.ID, X: f.X, Y: f.Y, Actions: 1, Moves: 1, Progress: true}
	switch {
	case dest.Leave:
		if f.Group == "" || f.Off {
			return fray.Errorf(fray.EILLEGAL, "%s is not in close contact", name)
		}
		if err := need(st, f, 1, "A move"); err != nil {
			return err
		}
		return tx.Emits(KindMoved, f.ID, fmt.Sprintf("%s steps out of close contact.", name), mv)
	case dest.Contact != "":
		if f.Off {
			return fray.Errorf(fray.EILLEGAL, "%s is off the map", name)
		}
		t, err := contactTarget(tx, f, dest.Contact, f.at())
		if err != nil {
			return err
		}
		if err := need(st, f, 1, "A move"); err != nil {
			return err
		}
		mv.Group, mv.Partner = groupWith(st, t), t.ID
		return tx.Emit(engine.NewEvent(KindMoved, f.ID, fmt.Sprintf("%s comes into close contact with %s.", name, st.NameOf(t.ID)), mv).With(t.ID))
	case dest.Off:
		if f.Off || !st.onEdge(f.X, f.Y) {
			return fray.Errorf(fray.EILLEGAL, "only a combatant on the map's edge can leave it")
		}
		if err := need(st, f, 1, "A move"); err != nil {
			return err
		}
		mv.Off = true
		return tx.Emits(KindMoved, f.ID, fmt.Sprintf("%s leaves the map for Extreme range.", name), mv)
	}
	to := dest.Cell
	if f.Off {
		if !st.onEdge(to.X, to.Y) {
			return fray.Errorf(fray.EILLEGAL, "from Extreme range a combatant comes back onto an edge square")
		}
	} else if st.distance(f.at(), to) != 1 {
		return fray.Errorf(fray.EILLEGAL, "a move goes one band: (%d,%d) is %s away", to.X, to.Y, bandWord(st.distance(f.at(), to)))
	}
	if !f.Off && !st.step(f.at(), to) {
		return fray.Errorf(fray.EILLEGAL, "a wall stands between %s and %s", f.at().Name(), to.Name())
	}
	mv.X, mv.Y = to.X, to.Y
	if diff, water := impassable(st, f, to); diff > 0 {
		return moveImpassable(tx, f, mv, diff, water)
	}
	if err := need(st, f, 1, "A move"); err != nil {
		return err
	}
	return tx.Emits(KindMoved, f.ID, fmt.Sprintf("%s moves to %s%s.", name, to.Name(), coverNote(st, to)), mv)
}

// bandWord words a number of bands.
func bandWord(n int) string {
	if n == 1 {
		return "1 band"
	}
	return fmt.Sprintf("%d bands", n)
}

// coverNote words the cover of the square moved into.
func coverNote(st *State, p point) string {
	if c := st.cell(p.X, p.Y); c.Cover > 0 {
		return " (" + strings.ToLower(coverNames[c.Cover]) + ")"
	}
	return ""
}

// impassable is the difficulty of moving f into square to, 0 when the way
// is passable, and whether it is water: the square entered, and (with
// impassable-exit on) the square left.
func impassable(st *State, f *Fighter, to point) (int, bool) {
	in := st.cell(to.X, to.Y)
	diff, water := in.Impassable, in.Water && in.Impassable > 0
	if !f.Off && kit.Opt(&st.Base, OptImpassableOut) == On {
		if out := st.cell(f.X, f.Y); out.Impassable > diff {
			diff, water = out.Impassable, out.Water
		}
	}
	return diff, water
}

// terrainSkill is the skill of f's terrain checks (terrain-skill).
func terrainSkill(st *State, f *Fighter) (string, int) {
	b := &st.Base
	switch kit.Opt(b, OptTerrainSkill) {
	case SkillAthletics:
		return "athletics", f.Skill(b, "athletics")
	case SkillAcrobatics:
		return "acrobatics", f.Skill(b, "acrobatics")
	}
	if a, c := f.Skill(b, "athletics"), f.Skill(b, "acrobatics"); c > a {
		return "acrobatics", c
	}
	return "athletics", f.Skill(b, "athletics")
}

// bulkMod is f's bulk penalty when the terrain calls for it.
func bulkMod(st *State, f *Fighter, applies bool) []dice.Mod {
	if !applies || f.Bulk == 0 || kit.Opt(&st.Base, OptBulk) != On {
		return nil
	}
	return []dice.Mod{tnMod("bulk", -f.Bulk)}
}

// moveImpassable is a move through impassable terrain: two actions and a
// check; failure wastes them, a fumble knocks the mover prone with the
// difficulty in damage.
func moveImpassable(tx *Tx, f *Fighter, mv Moved, diff int, water bool) error {
	st := tx.State
	if err := need(st, f, 2, "Crossing impassable terrain"); err != nil {
		return err
	}
	skill, value := terrainSkill(st, f)
	if water {
		skill, value = "swimming", f.Skill(&st.Base, "swimming")
	}
	res, err := rollCheck(tx, f, Check{Label: "Impassable terrain", Skill: skillName(skill), Value: value, Dice: diff,
		Mods: bulkMod(st, f, true)})
	if err != nil {
		return err
	}
	mv.Actions = 2
	name := st.NameOf(f.ID)
	text := fmt.Sprintf("%s crosses impassable terrain into %s: %s.", name, board.SquareName(mv.X, mv.Y), res.Words())
	if !res.Success {
		mv.X, mv.Y, mv.Progress = f.X, f.Y, false
		mv.Off = f.Off
		text = fmt.Sprintf("%s struggles with impassable terrain and makes no progress: %s.", name, res.Words())
	}
	if err := tx.Emits(KindMoved, f.ID, text, mv, res.Roll); err != nil {
		return err
	}
	if res.Fumble {
		return fall(tx, f, diff)
	}
	return nil
}

// fall knocks f prone with n dice of damage (armour does not help).
func fall(tx *Tx, f *Fighter, n int) error {
	st := tx.State
	if !f.Prone {
		if err := tx.Emits(KindProne, f.ID, st.NameOf(f.ID)+" falls prone.", Prone{Fighter: f.ID, Prone: true}); err != nil {
			return err
		}
	}
	return hurt(tx, f, Blow{Label: "Fall", Dice: Dice{N: n}})
}

func decideDash(tx *Tx, cmd engine.Command) error {
	var args struct {
		To string `json:"to"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	name := st.NameOf(f.ID)
	switch {
	case f.Prone:
		return fray.Errorf(fray.EILLEGAL, "%s is prone: stand up first", name)
	case f.Off:
		return fray.Errorf(fray.EILLEGAL, "%s is off the map: move back onto it first", name)
	}
	dest, err := parseDestination(st, f, args.To)
	if err != nil {
		return err
	}
	var partner *Fighter
	switch {
	case dest.Leave || dest.Off:
		return fray.Errorf(fray.EILLEGAL, "a dash goes two bands, or one band and into close contact")
	case dest.Contact != "":
		t := st.Fighters[dest.Contact]
		if t == nil || !engine.Visible(st, tx.Viewer(), t.ID) {
			return fray.Errorf(fray.ENOTFOUND, "no combatant %q", dest.Contact)
		}
		if t.Off || st.distance(f.at(), t.at()) != 1 {
			return fray.Errorf(fray.EILLEGAL, "a dash into close contact goes one band first: %s is not in a neighbouring square", st.NameOf(t.ID))
		}
		if partner, err = contactTarget(tx, f, t.ID, t.at()); err != nil {
			return err
		}
		dest.Cell = t.at()
	default:
		if st.distance(f.at(), dest.Cell) != 2 {
			return fray.Errorf(fray.EILLEGAL, "a dash goes two bands: (%d,%d) is %s away", dest.Cell.X, dest.Cell.Y, bandWord(st.distance(f.at(), dest.Cell)))
		}
	}
	path := dashPath(st, f.at(), dest.Cell)
	if path == nil {
		return fray.Errorf(fray.EILLEGAL, "no way to (%d,%d) without crossing impassable terrain or a wall", dest.Cell.X, dest.Cell.Y)
	}
	if err := need(st, f, 2, "A dash"); err != nil {
		return err
	}
	diff, bulky := 0, false
	for i, p := range path {
		c := st.cell(p.X, p.Y)
		if kit.Opt(&st.Base, OptDashTerrain) == TerrainWorst || i == len(path)-1 {
			diff = max(diff, c.Dash)
		}
		bulky = bulky || c.Cover >= 2
	}
	mv := Moved{Fighter: f.ID, X: dest.Cell.X, Y: dest.Cell.Y, Actions: 2, Dash: true, Progress: true}
	if partner != nil {
		mv.Group, mv.Partner = groupWith(st, partner), partner.ID
	}
	var rolls []dice.Roll
	text := fmt.Sprintf("%s dashes to %s.", name, dest.Cell.Name())
	if partner != nil {
		text = fmt.Sprintf("%s dashes into close contact with %s.", name, st.NameOf(partner.ID))
	}
	var res Result
	if diff > 0 {
		skill, value := terrainSkill(st, f)
		if res, err = rollCheck(tx, f, Check{Label: dashNames[diff] + " terrain", Skill: skillName(skill), Value: value, Dice: diff,
			Mods: bulkMod(st, f, bulky)}); err != nil {
			return err
		}
		rolls = append(rolls, res.Roll)
		if res.Success {
			text = strings.TrimSuffix(text, ".") + fmt.Sprintf(" over %s terrain: %s.", strings.ToLower(dashNames[diff]), res.Words())
		} else {
			first := path[0]
			mv.X, mv.Y, mv.Group, mv.Partner = first.X, first.Y, "", ""
			text = fmt.Sprintf("%s dashes over %s terrain but only makes one band, to %s: %s.", name, strings.ToLower(dashNames[diff]), first.Name(), res.Words())
		}
	}
	text += " No cover and no Defense Pool until the next turn."
	ev := engine.NewEvent(KindMoved, f.ID, text, mv, rolls...)
	if mv.Partner != "" {
		ev = ev.With(mv.Partner)
	}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if loss := dashBleed(&st.Base, f); loss > 0 {
		if err := bleed(tx, f, loss, "dashes with "+woundWords(f.WoundLevel())+" and bleeds"); err != nil {
			return err
		}
	}
	if res.Fumble && st.standing(f.ID) {
		return fall(tx, f, (diff+1)/2)
	}
	return nil
}

// dashPath is the squares a dash from a to b enters, b last: directly
// when b is next to a, else through the neighbour of both whose terrain
// is easiest. Impassable squares and walls between squares are avoided;
// nil when there is no way.
func dashPath(st *State, a, b point) []point {
	if st.cell(b.X, b.Y).Impassable > 0 {
		return nil
	}
	if st.distance(a, b) == 1 {
		if !st.step(a, b) {
			return nil
		}
		return []point{b}
	}
	var best []point
	bestDiff := 99
	for _, p := range st.ways(a) {
		c := st.cell(p.X, p.Y)
		if st.distance(p, b) != 1 || c.Impassable > 0 || !st.step(p, b) {
			continue
		}
		if d := max(c.Dash, st.cell(b.X, b.Y).Dash); d < bestDiff {
			best, bestDiff = []point{p, b}, d
		}
	}
	return best
}

func decideStand(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if !f.Prone {
		return fray.Errorf(fray.EILLEGAL, "%s is not prone", st.NameOf(f.ID))
	}
	cost := kit.OptInt(&st.Base, OptRiseActions)
	if err := need(st, f, cost, "Standing up"); err != nil {
		return err
	}
	return tx.Emits(KindProne, f.ID, st.NameOf(f.ID)+" stands up.", Prone{Fighter: f.ID, Actions: cost})
}

func applyMoved(st *State, d Moved) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	f.Moves += d.Moves
	f.Aim = nil
	if d.Dash {
		f.Dashed = true
	}
	if d.Progress {
		f.X, f.Y, f.Off, f.Group = d.X, d.Y, d.Off, d.Group
		if d.Partner != "" {
			p, err := kit.Found(st.Fighter(d.Partner), d.Partner)
			if err != nil {
				return err
			}
			p.Group = d.Group
		}
		if f.Group != "" {
			// In close contact there is no hiding from the others.
			for _, id := range st.members(f.Group) {
				if o := st.Fighters[id]; o != nil && o.ID != f.ID {
					delete(f.Unseen, o.ID)
					delete(o.Unseen, f.ID)
				}
			}
		}
	}
	if d.Dash || f.Moves > 1 {
		f.Unseen = nil // only one move (or none) keeps a hider hidden
	}
	st.tidyGroups()
	return nil
}

// tidyGroups dissolves contact groups left with one member.
func (s *State) tidyGroups() {
	count := map[string]int{}
	for _, f := range s.Fighters {
		if f.Group != "" && !f.Off {
			count[f.Group]++
		}
	}
	for _, f := range s.Fighters {
		if f.Group != "" && (f.Off || count[f.Group] < 2) {
			f.Group = ""
		}
	}
}

func applyProne(st *State, d Prone) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Prone = d.Prone
	f.Actions -= d.Actions
	f.Aim = nil
	return nil
}
