package d20tactical

import (
	"cmp"
	"fmt"
	"github.com/fray-vtt/fray/internal/board"
	"slices"
	"strconv"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Movement (seed "Movement"):
//   - Move: up to the speed, a move action. Double move: both actions, twice
//     the speed (the standard action taken as a second move).
//   - Run: the full round, 3 × speed in a straight line; running a second
//     round in a row and on needs an Endurance check (options).
//   - Crouch / stand: 5 ft of movement. Prone: 5 ft from a crouch, 10 ft
//     from standing (and back). Standing up from prone provokes attacks of
//     opportunity (d20).
//   - Charge: reaching a target with exactly your speed (give or take the
//     tolerance), standing, in a straight line; the full round: +2 to hit
//     and −2 Defense until your next turn (attack.go's charge).
//   - Jump: 10 ft of movement and a Jump check to clear a pit, an obstacle
//     or a foe, landing beyond it; failing, you fall prone where you stand.
//   - 5-ft step (d20): one square, free, provoking nothing, if the fighter
//     moves no other way this turn.
// Leaving a square an opponent threatens provokes an attack of
// opportunity (aoo.go), except by a 5-ft step. Prone fighters crawl one
// square per move action; crouched ones move at half speed (option); each
// leg hit takes 10 ft off the speed, down to 5 ft per full round (aimed.go).

// Run and charge numbers of the seed.
const (
	RunMultiplier = 3
	JumpFeet      = 10
)

// Move modes.
const (
	ModeMove   = "move"
	ModeStep   = "step"
	ModeRun    = "run"
	ModeCharge = "charge"
	ModeJump   = "jump"
)

// ActionTaken is the data of an action event: a fighter commits to an
// action and its budget becomes Budget.
type ActionTaken struct {
	Fighter string `json:"fighter"`
	What    string `json:"what"`
	Budget  Budget `json:"budget"`
}

// Moved is the data of a moved event.
type Moved struct {
	Fighter string `json:"fighter"`
	From    Cell   `json:"from"`
	To      Cell   `json:"to"`
	Path    []Cell `json:"path"`
	Mode    string `json:"mode"`
}

// PostureChanged is the data of a posture event.
type PostureChanged struct {
	Fighter string `json:"fighter"`
	From    string `json:"from"`
	To      string `json:"to"`
}

// Endurance is the data of an endurance event.
type Endurance struct {
	Fighter    string `json:"fighter"`
	DC         int    `json:"dc"`
	Total      int    `json:"total,omitempty"`
	Pass       bool   `json:"pass"`
	WindedTill int    `json:"windedTill,omitempty"`
}

// Jumped is the data of a jump event.
type Jumped struct {
	Fighter string `json:"fighter"`
	Over    Cell   `json:"over"`
	To      Cell   `json:"to"`
	DC      int    `json:"dc"`
	Total   int    `json:"total"`
	Success bool   `json:"success"`
}

// declare emits the action event that commits a fighter to an action.
func declare(tx *Tx, f *Fighter, what string, b Budget, text string) error {
	return tx.Emits(KindAction, f.ID, text, ActionTaken{Fighter: f.ID, What: what, Budget: b})
}

// moveRoutes are the squares f can reach with a move or a double move now.
func moveRoutes(st *State, f *Fighter) map[Cell]Route { return moveReach(st, f, true) }

// moveReach is moveRoutes, with their paths when paths is set (the offered
// action needs only where they lead and what they cost).
func moveReach(st *State, f *Fighter, paths bool) map[Cell]Route {
	if f.Speed() == 0 {
		if !f.Budget.canFull(false) {
			return nil
		}
		return adjacent(st, f, false)
	}
	return reach(st, f, f.Budget.feetAvailable(f.Speed()), paths)
}

// adjacent are the squares next to f it could step into.
func adjacent(st *State, f *Fighter, smooth bool) map[Cell]Route {
	out := map[Cell]Route{}
	from := cell(f)
	for _, d := range neighbours {
		c := Cell{from.X + d.X, from.Y + d.Y}
		t := st.Grid.at(c.X, c.Y)
		if !st.Grid.inside(c.X, c.Y) || !t.walkable() || (smooth && t.rough()) || st.barred(from, c) || st.occupant(c, f.ID) != nil {
			continue
		}
		out[c] = Route{To: c, Path: []Cell{c}, Feet: Square}
	}
	return out
}

func moveLabel(st *State, f *Fighter, r Route) string {
	s := r.To.Name() + " — " + strconv.Itoa(r.Feet) + " ft"
	if f.Speed() > 0 && f.Budget.usesStandard(f.Speed(), r.Feet) {
		s += ", double move"
	}
	if r.Risky > 0 {
		s += ", provokes"
	}
	return s
}

// routeChoices lists routes as select options, nearest first.
func routeChoices(st *State, f *Fighter, rs map[Cell]Route, label func(Route) string) []engine.Choice {
	list := make([]Route, 0, len(rs))
	for _, r := range rs {
		list = append(list, r)
	}
	slices.SortFunc(list, func(a, b Route) int {
		return cmp.Or(cmp.Compare(a.Feet, b.Feet), cmp.Compare(a.To.Y, b.To.Y), cmp.Compare(a.To.X, b.To.X))
	})
	out := make([]engine.Choice, len(list))
	for i, r := range list {
		out[i] = engine.Choice{Value: r.To.String(), Label: label(r)}
	}
	return out
}

func canMove(st *State, f *Fighter) error {
	if f.Budget.Stepped {
		return fray.Errorf(fray.EILLEGAL, "after a 5-ft step there is no other movement this turn")
	}
	return nil
}

// pickRoute reads a destination "x,y" among routes.
func pickRoute(rs map[Cell]Route, to string, what string) (Route, error) {
	c, ok := parseCell(to)
	if !ok {
		return Route{}, fray.Errorf(fray.EINVALID, "%s: give a square as \"x,y\"", what)
	}
	r, ok := rs[c]
	if !ok {
		return Route{}, fray.Errorf(fray.EILLEGAL, "%s: out of reach — %s is beyond what this movement allows now, or no open path leads there", what, board.SquareName(c.X, c.Y))
	}
	return r, nil
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
	if err := canMove(st, f); err != nil {
		return err
	}
	r, err := pickRoute(moveRoutes(st, f), args.To, "move")
	if err != nil {
		return err
	}
	var b Budget
	if f.Speed() == 0 {
		b, err = f.Budget.useFull("crawling on hurt legs", false)
		b.Moved = true
	} else {
		b, err = f.Budget.useFeet(f.Speed(), r.Feet)
	}
	if err != nil {
		return err
	}
	what := "moves"
	if f.Speed() > 0 && f.Budget.usesStandard(f.Speed(), r.Feet) {
		what = "double moves"
	}
	if err := declare(tx, f, ModeMove, b, fmt.Sprintf("%s %s to %s (%d ft).", st.NameOf(f.ID), what, r.To.Name(), r.Feet)); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepMoveLeg, moveLeg{Fighter: f.ID, From: cell(f), Path: r.Path, Mode: ModeMove}),
		engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerMove}),
		engine.NewStep(stepAfter, afterAction{Fighter: f.ID}))
}

// stepRoutes are the squares a 5-ft step reaches.
func stepRoutes(st *State, f *Fighter) map[Cell]Route {
	b := f.Budget
	if b.Moved || b.Stepped || b.Feet > 0 || f.Posture == Prone || f.Speed() == 0 {
		return nil
	}
	return adjacent(st, f, true)
}

func decideStep(tx *Tx, cmd engine.Command) error {
	var args struct {
		To string `json:"to"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	rs := stepRoutes(st, f)
	if rs == nil {
		return fray.Errorf(fray.EILLEGAL, "a 5-ft step is only for a fighter on its feet who moves no other way this turn")
	}
	r, err := pickRoute(rs, args.To, "5-ft step")
	if err != nil {
		return err
	}
	b := f.Budget
	b.Stepped = true
	if err := declare(tx, f, ModeStep, b, fmt.Sprintf("%s takes a 5-ft step to %s.", st.NameOf(f.ID), r.To.Name())); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepMoveLeg, moveLeg{Fighter: f.ID, From: cell(f), Path: r.Path, Mode: ModeStep}),
		engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerMove}),
		engine.NewStep(stepAfter, afterAction{Fighter: f.ID}))
}

// moveLeg walks a fighter along Path from From, stopping for attacks of
// opportunity when it leaves a threatened square (not on a 5-ft step),
// and goes on after them if the fighter is still up.
type moveLeg struct {
	Fighter string `json:"fighter"`
	From    Cell   `json:"from"`
	Path    []Cell `json:"path"`
	Mode    string `json:"mode"`
	// Provoked: the attacks for leaving From were already made.
	Provoked bool `json:"provoked,omitempty"`
}

func runMoveLeg(tx *Tx, m moveLeg) error {
	st := tx.State
	f := st.Fighters[m.Fighter]
	if !st.able(m.Fighter) || len(m.Path) == 0 {
		return nil
	}
	cur := m.From
	for i, next := range m.Path {
		if m.Mode != ModeStep && !(i == 0 && m.Provoked) {
			if steps := reactionSteps(st, f, cur, reactAoO); len(steps) > 0 {
				if i > 0 {
					if err := emitMoved(tx, f, m.From, m.Path[:i], m.Mode); err != nil {
						return err
					}
				}
				rest := moveLeg{Fighter: m.Fighter, From: cur, Path: m.Path[i:], Mode: m.Mode, Provoked: true}
				return tx.Run(append(steps, engine.NewStep(stepMoveLeg, rest))...)
			}
		}
		cur = next
	}
	return emitMoved(tx, f, m.From, m.Path, m.Mode)
}

func emitMoved(tx *Tx, f *Fighter, from Cell, path []Cell, mode string) error {
	st := tx.State
	to := path[len(path)-1]
	text := fmt.Sprintf("%s reaches %s.", st.NameOf(f.ID), to.Name())
	if len(path) < 1 || from == to {
		return nil
	}
	return tx.Emits(KindMoved, f.ID, text, Moved{Fighter: f.ID, From: from, To: to, Path: path, Mode: mode})
}

// Posture changes and their cost in feet (seed "Crouch / Stand", "Prone /
// Stand").
func postureCost(from, to string) int {
	switch {
	case from == to:
		return 0
	case from == Prone && to == Standing, from == Standing && to == Prone:
		return 10
	}
	return 5
}

func postureChoices(st *State, f *Fighter) []engine.Choice {
	if f.Budget.Stepped {
		return nil
	}
	avail := f.Budget.feetAvailable(max(f.Speed(), Square))
	var out []engine.Choice
	for _, p := range []string{Standing, Crouched, Prone} {
		if c := postureCost(f.Posture, p); c > 0 && c <= avail {
			label := fmt.Sprintf("%s (%d ft)", postureVerb(f.Posture, p), c)
			if f.Posture == Prone && reactionsThreaten(st, f) {
				label += ", provokes"
			}
			out = append(out, engine.Choice{Value: p, Label: label})
		}
	}
	return out
}

func postureVerb(from, to string) string {
	switch to {
	case Standing:
		return "Stand up"
	case Crouched:
		if from == Prone {
			return "Rise to a crouch"
		}
		return "Crouch"
	}
	return "Drop prone"
}

func decidePosture(tx *Tx, cmd engine.Command) error {
	var args struct {
		To string `json:"to"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if args.To != Standing && args.To != Crouched && args.To != Prone {
		return fray.Errorf(fray.EINVALID, "a posture is standing, crouched or prone")
	}
	cost := postureCost(f.Posture, args.To)
	if cost == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s is already %s", st.NameOf(f.ID), args.To)
	}
	b, err := f.Budget.useFeet(max(f.Speed(), Square), cost)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("%s: %s (%d ft of movement).", st.NameOf(f.ID), postureVerb(f.Posture, args.To), cost)
	if err := declare(tx, f, "posture", b, text); err != nil {
		return err
	}
	var steps []engine.Step
	if f.Posture == Prone {
		steps = reactionSteps(st, f, cell(f), reactAoO)
	}
	steps = append(steps, engine.NewStep(stepPosture, PostureChanged{Fighter: f.ID, From: f.Posture, To: args.To}),
		engine.NewStep(stepAfter, afterAction{Fighter: f.ID}))
	return tx.Run(steps...)
}

func runPosture(tx *Tx, p PostureChanged) error {
	st := tx.State
	if !st.able(p.Fighter) {
		return nil
	}
	return tx.Emits(KindPosture, p.Fighter, fmt.Sprintf("%s is %s.", st.NameOf(p.Fighter), p.To), p)
}

// Run.

// runSpec is a run: where to, and its budget.
type runSpec struct {
	Fighter string `json:"fighter"`
	Route   Route  `json:"route"`
	Budget  Budget `json:"budget"`
}

func winded(st *State, f *Fighter) bool { return f.WindedTill >= st.Round && f.WindedTill > 0 }

// runRoutes are the squares a run reaches: straight lines in the eight
// directions, up to 3 × speed.
func runRoutes(st *State, f *Fighter) map[Cell]Route {
	if !f.Budget.canFull(false) || f.Posture != Standing || f.Speed() == 0 || winded(st, f) {
		return nil
	}
	out := map[Cell]Route{}
	for _, d := range neighbours {
		for _, r := range straight(st, f, d, RunMultiplier*f.Speed()) {
			out[r.To] = r
		}
	}
	return out
}

func runLabel(f *Fighter, r Route) string {
	d := Cell{sign(r.To.X - f.X), sign(r.To.Y - f.Y)}
	return directionNames[slices.Index(neighbours, d)] + " " + strconv.Itoa(r.Feet) + " ft to " + r.To.Name()
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

func decideRun(tx *Tx, cmd engine.Command) error {
	var args struct {
		To string `json:"to"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if winded(st, f) {
		return fray.Errorf(fray.EILLEGAL, "%s is winded and cannot run until round %d", st.NameOf(f.ID), f.WindedTill+1)
	}
	if f.Posture != Standing {
		return fray.Errorf(fray.EILLEGAL, "stand up before running")
	}
	b, err := f.Budget.useFull("running", false)
	if err != nil {
		return err
	}
	b.Moved = true
	r, err := pickRoute(runRoutes(st, f), args.To, "run")
	if err != nil {
		return err
	}
	spec := runSpec{Fighter: f.ID, Route: r, Budget: b}
	if f.RunStreak == 0 {
		return runRun(tx, spec)
	}
	dc := kit.OptInt(&st.Base, OptEnduranceDC) + kit.OptInt(&st.Base, OptEnduranceStep)*(f.RunStreak-1)
	if kit.Opt(&st.Base, OptEndurance) == AskGM {
		return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecEndurance,
			Prompt:  fmt.Sprintf("%s runs a round more (%d in a row): Endurance, DC %d?", st.PublicNameOf(f.ID), f.RunStreak+1, dc),
			Options: yesNo("pass", "Keeps running", "fail", "Winded: cannot run"), Default: "pass"},
			Cont{Endurance: &spec})
	}
	d := tx.Dice.Die(20)
	total := d.Total() + f.ConMod()
	pass := total >= dc
	roll := dice.Roll{Label: "Endurance (Constitution)", Who: f.ID, Dice: []dice.Die{d}, Mod: f.ConMod(),
		Mods: diceMods([]Mod{{Source: "Constitution", Value: f.ConMod()}}), Total: total, Target: dc, Compare: dice.AtLeast, Result: passFail(pass), Outcome: dice.OutcomeOf(pass)}
	e := Endurance{Fighter: f.ID, DC: dc, Total: total, Pass: pass}
	text := fmt.Sprintf("%s passes the Endurance check and keeps running.", st.NameOf(f.ID))
	if !pass {
		e.WindedTill = st.Round + kit.OptInt(&st.Base, OptWindedRounds)
		text = fmt.Sprintf("%s fails the Endurance check: winded, and cannot run until round %d.", st.NameOf(f.ID), e.WindedTill+1)
	}
	if err := tx.Emits(KindEndurance, f.ID, text, e, roll); err != nil {
		return err
	}
	if !pass {
		return nil
	}
	return runRun(tx, spec)
}

func answerEndurance(tx *Tx, spec runSpec, pass bool) error {
	st := tx.State
	f := st.Fighters[spec.Fighter]
	e := Endurance{Fighter: f.ID, Pass: pass}
	text := fmt.Sprintf("%s keeps running.", st.NameOf(f.ID))
	if !pass {
		e.WindedTill = st.Round + kit.OptInt(&st.Base, OptWindedRounds)
		text = fmt.Sprintf("%s is winded and cannot run until round %d.", st.NameOf(f.ID), e.WindedTill+1)
	}
	if err := tx.Emits(KindEndurance, f.ID, text, e); err != nil {
		return err
	}
	if !pass {
		return nil
	}
	return tx.Run(engine.NewStep(stepRun, spec))
}

func runRun(tx *Tx, spec runSpec) error {
	st := tx.State
	f := st.Fighters[spec.Fighter]
	if !st.able(f.ID) {
		return nil
	}
	text := fmt.Sprintf("%s runs %d ft to %s (full round).", st.NameOf(f.ID), spec.Route.Feet, spec.Route.To.Name())
	if err := declare(tx, f, ModeRun, spec.Budget, text); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepMoveLeg, moveLeg{Fighter: f.ID, From: cell(f), Path: spec.Route.Path, Mode: ModeRun}),
		engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerMove}),
		engine.NewStep(stepAfter, afterAction{Fighter: f.ID}))
}

// Jump.

// jumpSpec is a jump over one square to the one beyond.
type jumpSpec struct {
	Fighter string `json:"fighter"`
	Over    Cell   `json:"over"`
	Land    Cell   `json:"land"`
	DC      int    `json:"dc"`
}

// jumpChoices are the jumps f can make now, by the square jumped over.
func jumpChoices(st *State, f *Fighter) map[Cell]jumpSpec {
	if f.Posture != Standing || f.Budget.Stepped || f.Budget.feetAvailable(max(f.Speed(), Square)) < JumpFeet || f.Speed() == 0 {
		return nil
	}
	out := map[Cell]jumpSpec{}
	from := cell(f)
	for _, d := range neighbours {
		over := Cell{from.X + d.X, from.Y + d.Y}
		land := Cell{over.X + d.X, over.Y + d.Y}
		if !st.Grid.inside(land.X, land.Y) || !st.Grid.at(land.X, land.Y).walkable() || st.occupant(land, f.ID) != nil ||
			st.barred(from, over) || st.barred(over, land) {
			continue
		}
		t := st.Grid.at(over.X, over.Y)
		dc := t.JumpDC
		if dc == 0 {
			dc = kit.OptInt(&st.Base, OptJumpDC)
		}
		switch {
		case t.Wall || t.Obstacle == ObstacleHigh:
			continue
		case t.Pit || t.Obstacle != "":
		default:
			o := st.occupant(over, f.ID)
			if o == nil || o.Posture == Prone || o.Down() {
				continue
			}
			dc = kit.OptInt(&st.Base, OptJumpFoeDC)
		}
		out[over] = jumpSpec{Fighter: f.ID, Over: over, Land: land, DC: dc}
	}
	return out
}

func jumpLabel(st *State, j jumpSpec) string {
	t := st.Grid.at(j.Over.X, j.Over.Y)
	what := "the pit"
	switch {
	case t.Obstacle != "":
		what = "the " + t.Obstacle + " obstacle"
		if t.Label != "" {
			what = t.Label
		}
	case !t.Pit:
		what = st.PublicNameOf(st.occupant(j.Over, j.Fighter).ID)
	case t.Label != "":
		what = t.Label
	}
	return fmt.Sprintf("Over %s at %s to %s (Jump DC %d)", what, j.Over.Name(), j.Land.Name(), j.DC)
}

// jumpBonus is the fighter's Jump skill, or its Strength modifier.
func jumpBonus(f *Fighter) int {
	if v, ok := f.Sheet.Skills["jump"]; ok {
		return v
	}
	return f.StrMod()
}

func decideJump(tx *Tx, cmd engine.Command) error {
	var args struct {
		Over string `json:"over"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	c, ok := parseCell(args.Over)
	if !ok {
		return fray.Errorf(fray.EINVALID, "jump: give the square to jump over as \"x,y\"")
	}
	j, ok := jumpChoices(st, f)[c]
	if !ok {
		return fray.Errorf(fray.EILLEGAL, "%s cannot jump over %s now (standing, 10 ft of movement, something to clear and a free square beyond)", st.NameOf(f.ID), c)
	}
	b, err := f.Budget.useFeet(max(f.Speed(), Square), JumpFeet)
	if err != nil {
		return err
	}
	if err := declare(tx, f, ModeJump, b, fmt.Sprintf("%s jumps (%s).", st.NameOf(f.ID), jumpLabel(st, j))); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepJump, j), engine.NewStep(stepAfter, afterAction{Fighter: f.ID}))
}

func runJump(tx *Tx, j jumpSpec) error {
	st := tx.State
	f := st.Fighters[j.Fighter]
	if !st.able(f.ID) {
		return nil
	}
	d := tx.Dice.Die(20)
	bonus := jumpBonus(f)
	total := d.Total() + bonus
	ok := total >= j.DC
	roll := dice.Roll{Label: "Jump", Who: f.ID, Dice: []dice.Die{d}, Mod: bonus, Mods: diceMods([]Mod{{Source: "Jump", Value: bonus}}),
		Total: total, Target: j.DC, Compare: dice.AtLeast, Result: passFail(ok), Outcome: dice.OutcomeOf(ok)}
	data := Jumped{Fighter: f.ID, Over: j.Over, To: j.Land, DC: j.DC, Total: total, Success: ok}
	if !ok {
		return tx.Emits(KindJump, f.ID, st.NameOf(f.ID)+" fails the jump and falls prone.", data, roll)
	}
	if err := tx.Emits(KindJump, f.ID, st.NameOf(f.ID)+" clears it.", data, roll); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepMoveLeg, moveLeg{Fighter: f.ID, From: cell(f), Path: []Cell{j.Land}, Mode: ModeJump}),
		engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerMove}))
}

func passFail(ok bool) string {
	if ok {
		return "success"
	}
	return "failure"
}

func diceMods(ms []Mod) []dice.Mod {
	out := make([]dice.Mod, 0, len(ms))
	for _, m := range ms {
		if m.Value != 0 {
			out = append(out, dice.Mod{Label: m.Source, Value: m.Value})
		}
	}
	return out
}
