package d20under

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Movement actions (seed: Movement Action; spec c2): reach an enemy and
// engage it, take up a flanking position, move past an enemy (each enemy
// passed gets a free attack), withdraw from melee (each engaged enemy gets
// one), create a line of sight; or instead switch weapons, stand up, drink
// an elixir. On the grid a movement action is 5 squares and the route
// chosen passes the fewest enemies; on the distance categories it is one
// move toward or away from a side, or engaging an enemy one move away.

// movable checks that f can move at all.
func (s *State) movable(f *Fighter) error {
	switch {
	case f.Prone:
		return fray.Errorf(fray.EILLEGAL, "%s is prone: stand up first", s.NameOf(f.ID))
	case f.HeldBy != "":
		return fray.Errorf(fray.EILLEGAL, "%s is held by %s and cannot move", s.NameOf(f.ID), s.PublicNameOf(f.HeldBy))
	case f.Caught != "":
		return fray.Errorf(fray.EILLEGAL, "%s is caught in a trap: break free first", s.NameOf(f.ID))
	case f.Holding != "":
		return fray.Errorf(fray.EILLEGAL, "%s is holding %s and can do nothing else", s.NameOf(f.ID), s.PublicNameOf(f.Holding))
	}
	return nil
}

// Moved is the data of a moved event.
type Moved struct {
	Fighter string   `json:"fighter"`
	X       int      `json:"x,omitempty"`
	Y       int      `json:"y,omitempty"`
	Toward  string   `json:"toward,omitempty"` // ladder: the side moved toward or away from
	Steps   int      `json:"steps,omitempty"`  // ladder: +1 toward, −1 away
	Set     []Change `json:"set,omitempty"`
}

// moveToCtx is the next stretch of a move on the grid.
type moveToCtx struct {
	Fighter string `json:"fighter"`
	Token   int    `json:"token"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Final   bool   `json:"final,omitempty"`
	Past    string `json:"past,omitempty"` // the enemies passed on this stretch, for the log
}

// afterCtx is what follows a move: long weapons on new engagements, a
// charge's attack, a push.
type afterCtx struct {
	Mover  string   `json:"mover"`
	Token  int      `json:"token,omitempty"`
	New    []string `json:"new,omitempty"`    // enemies newly engaged
	Target string   `json:"target,omitempty"` // whom the move was for
	Charge bool     `json:"charge,omitempty"`
	Push   string   `json:"push,omitempty"` // Push Back: the target to push
}

type moveArgs struct {
	To      string `json:"to"`
	Actions int    `json:"actions"`
}

// decideMove moves on the grid with one movement action, or two (the
// combat action traded).
func decideMove(tx *Tx, cmd engine.Command) error {
	var args moveArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if st.Model != board.Grid {
		return fray.Errorf(fray.EILLEGAL, "on the distance categories, advance, retreat, engage or withdraw")
	}
	n := max(1, args.Actions)
	if n > 2 {
		return fray.Errorf(fray.EINVALID, "a move takes 1 or 2 movement actions")
	}
	if err := st.movable(f); err != nil {
		return err
	}
	if f.movesLeft() < n {
		return fray.Errorf(fray.EILLEGAL, "%s has %d movement action(s) left this turn", st.NameOf(f.ID), f.movesLeft())
	}
	to, ok := parseCell(args.To)
	if !ok {
		return fray.Errorf(fray.EINVALID, "to %q must be a square \"x,y\"", args.To)
	}
	r, ok := st.reachable(f, n*st.gridSquares(f))[to]
	if !ok {
		return fray.Errorf(fray.EILLEGAL, "%s cannot reach %s with %d movement action(s)", st.NameOf(f.ID), cellWords(to), n)
	}
	return gridMove(tx, f, r, n, afterCtx{Mover: f.ID}, "moves")
}

// gridMove starts a move along a route: free attacks for withdrawing and
// moving past, traps in the way, then what follows on arrival.
func gridMove(tx *Tx, f *Fighter, r route, moves int, after afterCtx, verb string) error {
	st := tx.State
	set, err := st.spend(f, after.Charge, moves)
	if err != nil {
		return err
	}
	token := int(tx.Base().Seq) + 1
	set = append(set, change.Moving.To(f.ID, token))
	dest := r.Path[len(r.Path)-1]
	text := fmt.Sprintf("%s %s toward %s.", st.NameOf(f.ID), verb, cellWords(dest))
	if err := note(tx, KindAction, f.ID, text, Note{Fighter: f.ID, What: verb, Value: moves, Set: set}); err != nil {
		return err
	}
	return tx.Run(st.gridSteps(f, r, token, after)...)
}

// gridSteps lays a move out as steps.
func (s *State) gridSteps(f *Fighter, r route, token int, after afterCtx) []engine.Step {
	start := Cell{f.X, f.Y}
	dest := r.Path[len(r.Path)-1]
	near := func(e string, c Cell) bool {
		g := s.Fighters[e]
		return s.touching(Cell{g.X, g.Y}, c)
	}
	foes := s.enemiesOf(f.ID)
	var steps []engine.Step
	for _, e := range foes {
		if near(e, start) && !near(e, dest) {
			steps = append(steps, freeAttackStep(e, f.ID, TrigWithdraw))
		}
	}
	passed := map[string]bool{}
	var here []string // enemies passed, met on the square reached next
	for i, c := range r.Path {
		trapped := s.trapAt(c) != nil
		if trapped {
			from := start
			if i > 0 {
				from = r.Path[i-1]
				steps = append(steps, engine.NewStep(stepMoveTo, moveToCtx{Fighter: f.ID, Token: token, X: from.X, Y: from.Y}))
			}
			tc := trapCtx{Trap: s.trapAt(c).ID, Mover: f.ID, Token: token, Start: &start, Dest: &dest}
			if i+1 < len(r.Path) {
				tc.Next = &r.Path[i+1]
			}
			steps = append(steps, engine.NewStep(stepTrap, tc))
		}
		if i == len(r.Path)-1 {
			break
		}
		for _, e := range foes {
			if !passed[e] && near(e, c) && !near(e, start) && !near(e, dest) {
				passed[e] = true
				here = append(here, e)
			}
		}
		// Whoever gets past a trap — over it or around it — never stands
		// on it: the enemies passed there are met on the next square (on
		// arrival, they are not passed).
		if len(here) > 0 && !trapped {
			steps = append(steps, engine.NewStep(stepMoveTo, moveToCtx{Fighter: f.ID, Token: token, X: c.X, Y: c.Y, Past: strings.Join(here, ",")}))
			for _, e := range here {
				steps = append(steps, freeAttackStep(e, f.ID, TrigPast))
			}
			here = nil
		}
	}
	steps = append(steps, engine.NewStep(stepMoveTo, moveToCtx{Fighter: f.ID, Token: token, X: dest.X, Y: dest.Y, Final: true}))
	for _, e := range foes {
		if near(e, dest) && !near(e, start) {
			after.New = append(after.New, e)
		}
	}
	after.Token = token
	return append(steps, engine.NewStep(stepAfter, after))
}

// runMoveTo moves to the next square of a move, unless the move was cut
// short (the mover fell, was caught, or stopped before a trap).
func runMoveTo(tx *Tx, m moveToCtx) error {
	st := tx.State
	f := st.Fighters[m.Fighter]
	if f == nil || f.Moving != m.Token {
		return nil
	}
	if !st.fighting(f.ID) || f.Prone || f.Caught != "" || f.HeldBy != "" {
		text := fmt.Sprintf("%s's move ends at %s.", st.NameOf(f.ID), cellWords(Cell{f.X, f.Y}))
		return note(tx, KindStopped, f.ID, text, Note{Fighter: f.ID, Set: []Change{change.Moving.To(f.ID, 0)}})
	}
	if id := st.at(m.X, m.Y); id != "" && id != f.ID {
		// Someone stepped in meanwhile: stop short.
		return note(tx, KindStopped, f.ID, st.NameOf(f.ID)+" finds the way blocked and stops.", Note{Fighter: f.ID, Set: []Change{change.Moving.To(f.ID, 0)}})
	}
	set := []Change{change.X.To(f.ID, m.X), change.Y.To(f.ID, m.Y)}
	if m.Final {
		set = append(set, change.Moving.To(f.ID, 0))
	}
	text := fmt.Sprintf("%s moves to %s.", st.NameOf(f.ID), cellWords(Cell{m.X, m.Y}))
	if m.Past != "" {
		text = fmt.Sprintf("%s moves past %s to %s.", st.NameOf(f.ID), st.names(strings.Split(m.Past, ",")), cellWords(Cell{m.X, m.Y}))
	}
	return emit(tx, KindMoved, f.ID, text, Moved{Fighter: f.ID, X: m.X, Y: m.Y, Set: set}, nil)
}

// runAfterMove carries out what follows a move: long weapons get their
// free attacks on the first turn of melee (seed: Combat With Weapons
// Ready; Polearm Mastery), a charge strikes, a push moves its target.
func runAfterMove(tx *Tx, a afterCtx) error {
	st := tx.State
	if a.Push != "" {
		return push(tx, a.Mover, a.Push)
	}
	f := st.Fighters[a.Mover]
	if f == nil || !st.fighting(a.Mover) {
		return nil
	}
	var steps []engine.Step
	mine := ""
	for _, e := range a.New {
		if !st.inMelee(a.Mover, e) {
			continue
		}
		g := st.Fighters[e]
		// The enemy approached: its long weapon strikes first, unless the
		// mover's is long too (Polearm Mastery, Adept, strikes anyway).
		if g.reach() && (!f.reach() || g.Level(AbPolearmMastery) >= 2) {
			steps = append(steps, freeAttackStep(e, a.Mover, TrigLong))
		}
		if mine == "" && f.reach() && !g.reach() && (a.Target == "" || a.Target == e) {
			mine = e
		}
	}
	if mine != "" {
		steps = append(steps, freeAttackStep(a.Mover, mine, TrigLong))
	}
	if a.Charge && a.Target != "" {
		w := f.meleeWeapons()[0]
		steps = append(steps, strikeStep(strikeCtx{By: a.Mover, At: a.Target, Weapon: w.ID, Mode: ModeCharge}))
	}
	return tx.Run(steps...)
}

type targetArgs struct {
	Target string `json:"target"`
}

// decideEngage moves to engage an enemy: on the grid, to the nearest free
// square next to it (one movement action); on the ladder, an enemy one
// move away or closer.
func decideEngage(tx *Tx, cmd engine.Command) error { return engageOrFlank(tx, cmd, false) }

// decideFlank takes up a flanking position next to an enemy already
// fighting an ally.
func decideFlank(tx *Tx, cmd engine.Command) error { return engageOrFlank(tx, cmd, true) }

func engageOrFlank(tx *Tx, cmd engine.Command, flank bool) error {
	var args struct {
		Target string `json:"target"`
		Past   string `json:"past"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	if err := st.movable(f); err != nil {
		return err
	}
	if st.inMelee(f.ID, t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is already engaged with %s", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	if flank && len(st.allyFighting(f.ID, t.ID)) == 0 {
		return fray.Errorf(fray.EILLEGAL, "no ally of %s is fighting %s: engage instead", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	if st.Model == board.Grid {
		if args.Past != "" {
			return fray.Errorf(fray.EINVALID, "on the grid, the route decides whom you pass")
		}
		r, ok := st.engageRoute(f, t, flank)
		if !ok {
			if flank {
				return fray.Errorf(fray.EILLEGAL, "%s cannot reach a flanking square next to %s with a movement action", st.NameOf(f.ID), st.NameOf(t.ID))
			}
			return fray.Errorf(fray.EILLEGAL, "%s cannot reach %s with a movement action", st.NameOf(f.ID), st.NameOf(t.ID))
		}
		verb := "moves to engage"
		if flank {
			verb = "moves to flank"
		}
		return gridMove(tx, f, r, 1, afterCtx{Mover: f.ID, Target: t.ID}, verb)
	}
	return ladderEngage(tx, f, t, args.Past, false)
}

// allyFighting lists f's allies engaged with t.
func (s *State) allyFighting(f, t string) []string {
	return s.ids(func(x string) bool { return x != f && !s.enemies(f, x) && s.fighting(x) && s.inMelee(x, t) })
}

// engageRoute is the best route (fewest enemies passed, then shortest) to
// a square next to t within one movement action; with flank, a square
// that flanks it with an ally.
func (s *State) engageRoute(f, t *Fighter, flank bool) (route, bool) {
	return s.engageRouteIn(s.reachable(f, s.gridSquares(f)), f, t, flank)
}

// engageRouteIn is engageRoute among routes already worked out.
func (s *State) engageRouteIn(routes map[Cell]route, f, t *Fighter, flank bool) (route, bool) {
	var best route
	var bestCell Cell
	found := false
	for c, r := range routes {
		if !s.touching(c, Cell{t.X, t.Y}) {
			continue
		}
		if flank && !s.flanksFrom(f.ID, t.ID, c) {
			continue
		}
		if !found || closer(r, c, best, bestCell, f) {
			best, bestCell, found = r, c, true
		}
	}
	return best, found
}

// closer reports whether route r to c beats route b to bc: fewer enemies
// passed, then fewer squares, then the straighter way from f, then the
// upper-left square (so the choice is always the same).
func closer(r route, c Cell, b route, bc Cell, f *Fighter) bool {
	if r.passes != b.passes {
		return r.passes < b.passes
	}
	if r.Cost != b.Cost {
		return r.Cost < b.Cost
	}
	d := func(x Cell) int { return (x.X-f.X)*(x.X-f.X) + (x.Y-f.Y)*(x.Y-f.Y) }
	if d(c) != d(bc) {
		return d(c) < d(bc)
	}
	if c.Y != bc.Y {
		return c.Y < bc.Y
	}
	return c.X < bc.X
}

// flanksFrom reports whether f standing on c would flank t.
func (s *State) flanksFrom(f, t string, c Cell) bool {
	ft := s.Fighters[t]
	for _, b := range s.allyFighting(f, t) {
		if kit.Opt(&s.Base, OptGridFlanking) == FlankAny {
			return true
		}
		fb := s.Fighters[b]
		sx, sy := (c.X-ft.X)+(fb.X-ft.X), (c.Y-ft.Y)+(fb.Y-ft.Y)
		if abs(sx)+abs(sy) <= 1 {
			return true
		}
	}
	return false
}

// --- the distance categories ---

// ladderCtx is a move on the distance categories.
type ladderCtx struct {
	Fighter   string         `json:"fighter"`
	Token     int            `json:"token"`
	Ahead     map[string]int `json:"ahead,omitempty"` // new moves ahead, by side
	Engage    string         `json:"engage,omitempty"`
	Disengage []string       `json:"disengage,omitempty"`
	Text      string         `json:"text"`
}

// ladderCost is the movement actions one move takes: two with a leg
// wound (half movement).
func ladderCost(f *Fighter) int {
	if f.Lame {
		return 2
	}
	return 1
}

type sideArgs struct {
	Side string `json:"side"`
}

func decideAdvance(tx *Tx, cmd engine.Command) error { return ladderStep(tx, cmd, 1) }
func decideRetreat(tx *Tx, cmd engine.Command) error { return ladderStep(tx, cmd, -1) }

// ladderStep moves one step toward (+1) or away from (−1) a side.
func ladderStep(tx *Tx, cmd engine.Command, dir int) error {
	var args sideArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if st.Model != board.Ladder {
		return fray.Errorf(fray.EILLEGAL, "on the grid, move to a square")
	}
	if err := st.movable(f); err != nil {
		return err
	}
	if st.Side(args.Side) == nil || args.Side == st.side(f.ID) {
		return fray.Errorf(fray.EINVALID, "choose another side, not %q", args.Side)
	}
	if st.engaged(f.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is engaged in melee: withdraw first", st.NameOf(f.ID))
	}
	if err := st.canStep(f, args.Side, dir); err != nil {
		return err
	}
	set, err := st.spend(f, false, ladderCost(f))
	if err != nil {
		return err
	}
	token := int(tx.Base().Seq) + 1
	set = append(set, change.Moving.To(f.ID, token))
	n := f.Ahead[args.Side] + dir
	verb := "advances toward"
	if dir < 0 {
		verb = "falls back from"
	}
	if err := note(tx, KindAction, f.ID, fmt.Sprintf("%s %s %s.", st.NameOf(f.ID), verb, st.sideName(args.Side)), Note{Fighter: f.ID, What: verb, Set: set}); err != nil {
		return err
	}
	var steps []engine.Step
	if dir > 0 {
		steps = append(steps, st.ladderTraps(f, args.Side, token)...)
	}
	steps = append(steps, engine.NewStep(stepLadder, ladderCtx{Fighter: f.ID, Token: token, Ahead: map[string]int{args.Side: n},
		Text: fmt.Sprintf("%s %s %s.", st.NameOf(f.ID), verb, st.sideName(args.Side))}))
	return tx.Run(steps...)
}

// canStep checks a step toward or away from a side.
func (s *State) canStep(f *Fighter, side string, dir int) error {
	if dir > 0 {
		closest := -1
		for _, id := range s.enemiesOf(f.ID) {
			if s.side(id) == side {
				if m := s.moves(f.ID, id); closest < 0 || m < closest {
					closest = m
				}
			}
		}
		if closest == 0 {
			return fray.Errorf(fray.EILLEGAL, "%s is already Close to %s: engage instead", s.NameOf(f.ID), s.sideName(side))
		}
		return nil
	}
	if f.Ahead[side] <= -MaxRetreat {
		return fray.Errorf(fray.EILLEGAL, "%s cannot fall back further", s.NameOf(f.ID))
	}
	return nil
}

// MaxRetreat is how many moves behind its side's line a combatant may
// fall back.
const MaxRetreat = 10

// ladderEngage engages t on the ladder: from one move away or closer
// (two with a charge), after the free attacks of leaving other melees and
// of an enemy moved past.
func ladderEngage(tx *Tx, f, t *Fighter, past string, charge bool) error {
	st := tx.State
	m := st.moves(f.ID, t.ID)
	reach, cost := 1, 1
	if charge {
		reach = 2 / ladderCost(f)
	} else if m == 1 {
		cost = ladderCost(f)
	}
	if m > reach {
		return fray.Errorf(fray.EILLEGAL, "%s is %s away: too far to engage now", st.NameOf(t.ID), movesWords(m))
	}
	if len(st.attackersAround(t.ID)) >= 4 {
		return fray.Errorf(fray.EILLEGAL, "%s is already surrounded by four: there is no room", st.NameOf(t.ID))
	}
	if past != "" {
		p := st.Fighters[past]
		if p == nil || !engine.Visible(st, tx.Viewer(), past) || !slices.Contains(st.pastChoices(f), past) {
			return fray.Errorf(fray.EILLEGAL, "%s is not in the way", st.PublicNameOf(past))
		}
	}
	var set []Change
	var err error
	if charge {
		set, err = st.spend(f, true, 1)
	} else {
		set, err = st.spend(f, false, cost)
	}
	if err != nil {
		return err
	}
	token := int(tx.Base().Seq) + 1
	set = append(set, change.Moving.To(f.ID, token))
	verb := "moves to engage"
	if charge {
		verb = "charges"
	}
	if err := note(tx, KindAction, f.ID, fmt.Sprintf("%s %s %s.", st.NameOf(f.ID), verb, st.PublicNameOf(t.ID)), Note{Fighter: f.ID, Target: t.ID, What: verb, Set: set}); err != nil {
		return err
	}
	var steps []engine.Step
	leaving := removeID(st.engagedEnemies(f.ID), t.ID)
	for _, e := range leaving {
		steps = append(steps, freeAttackStep(e, f.ID, TrigWithdraw))
	}
	if past != "" {
		steps = append(steps, freeAttackStep(past, f.ID, TrigPast))
	}
	lc := ladderCtx{Fighter: f.ID, Token: token, Engage: t.ID, Disengage: leaving,
		Text: fmt.Sprintf("%s engages %s.", st.NameOf(f.ID), st.PublicNameOf(t.ID))}
	if m > 0 {
		ts := st.side(t.ID)
		lc.Ahead = map[string]int{ts: f.Ahead[ts] + m}
		steps = append(steps, st.ladderTraps(f, ts, token)...)
	}
	steps = append(steps, engine.NewStep(stepLadder, lc))
	steps = append(steps, engine.NewStep(stepAfter, afterCtx{Mover: f.ID, Token: token, New: []string{t.ID}, Target: t.ID, Charge: charge}))
	return tx.Run(steps...)
}

// pastChoices are the enemies f may move past to reach another on the
// ladder: those Close to it and not engaged with it.
func (s *State) pastChoices(f *Fighter) []string {
	return s.ids(func(x string) bool {
		return s.enemies(f.ID, x) && s.fighting(x) && !s.inMelee(f.ID, x) && s.moves(f.ID, x) == 0
	})
}

// runLadderMove completes a move on the ladder, unless it was cut short.
func runLadderMove(tx *Tx, m ladderCtx) error {
	st := tx.State
	f := st.Fighters[m.Fighter]
	if f == nil || f.Moving != m.Token {
		return nil
	}
	if !st.fighting(f.ID) || f.Prone || f.Caught != "" || f.HeldBy != "" {
		return note(tx, KindStopped, f.ID, st.NameOf(f.ID)+"'s move is cut short.", Note{Fighter: f.ID, Set: []Change{change.Moving.To(f.ID, 0)}})
	}
	set := []Change{change.Moving.To(f.ID, 0)}
	sides := make([]string, 0, len(m.Ahead))
	for side := range m.Ahead {
		sides = append(sides, side)
	}
	slices.Sort(sides)
	for _, side := range sides {
		set = append(set, change.Ahead.To(f.ID, side, m.Ahead[side]))
	}
	for _, e := range m.Disengage {
		set = append(set, change.Engage.To(f.ID, e, boolInt(false)))
	}
	kind := KindMoved
	if m.Engage != "" {
		if st.Combatant(m.Engage).Out || len(st.attackersAround(m.Engage)) >= 4 {
			m.Text = st.NameOf(f.ID) + " cannot reach the enemy."
		} else {
			set = append(set, change.Engage.To(f.ID, m.Engage, boolInt(true)))
			kind = KindEngaged
		}
	}
	return emit(tx, kind, f.ID, m.Text, Moved{Fighter: f.ID, Set: set}, []string{m.Engage})
}

// decideWithdraw leaves every melee on the ladder: each engaged enemy
// gets a free attack; with back, the combatant also falls back a move.
func decideWithdraw(tx *Tx, cmd engine.Command) error {
	var args struct {
		Back bool `json:"back"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if st.Model != board.Ladder {
		return fray.Errorf(fray.EILLEGAL, "on the grid, move away: the free attacks follow")
	}
	if err := st.movable(f); err != nil {
		return err
	}
	engaged := st.ids(func(x string) bool { return st.inMelee(f.ID, x) })
	if len(engaged) == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s is not engaged in melee", st.NameOf(f.ID))
	}
	set, err := st.spend(f, false, 1)
	if err != nil {
		return err
	}
	token := int(tx.Base().Seq) + 1
	set = append(set, change.Moving.To(f.ID, token))
	if err := note(tx, KindAction, f.ID, st.NameOf(f.ID)+" withdraws from the melee.", Note{Fighter: f.ID, What: CmdWithdraw, Set: set}); err != nil {
		return err
	}
	var steps []engine.Step
	for _, e := range engaged {
		if st.fighting(e) {
			steps = append(steps, freeAttackStep(e, f.ID, TrigWithdraw))
		}
	}
	lc := ladderCtx{Fighter: f.ID, Token: token, Disengage: engaged, Text: st.NameOf(f.ID) + " is out of the melee."}
	if args.Back {
		lc.Ahead = map[string]int{}
		for _, e := range engaged {
			side := st.side(e)
			lc.Ahead[side] = max(-MaxRetreat, f.Ahead[side]-1)
		}
		lc.Text = st.NameOf(f.ID) + " is out of the melee and falls back."
	}
	steps = append(steps, engine.NewStep(stepLadder, lc))
	return tx.Run(steps...)
}

// decideCharge is the Charge manoeuvre (seed 14): a double move in a
// straight line and a melee attack, the whole turn; a miss gives the
// target a free attack.
func decideCharge(tx *Tx, cmd engine.Command) error {
	var args targetArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	if err := st.canCharge(f, t); err != nil {
		return err
	}
	if st.Model == board.Ladder {
		return ladderEngage(tx, f, t, "", true)
	}
	r, _ := st.chargeRoute(f, t)
	return gridMove(tx, f, r, 1, afterCtx{Mover: f.ID, Target: t.ID, Charge: true}, "charges")
}

// canCharge checks a charge: the whole turn unused, not engaged, the
// target within two moves in a straight line.
func (s *State) canCharge(f, t *Fighter) error { return s.canChargeIn(nil, f, t) }

// canChargeIn is canCharge with the two-move routes already worked out
// (nil: work them out).
func (s *State) canChargeIn(routes map[Cell]route, f, t *Fighter) error {
	if err := s.movable(f); err != nil {
		return err
	}
	if !f.Combat || f.Moves < 1 {
		return fray.Errorf(fray.EILLEGAL, "a charge takes the whole turn: both actions")
	}
	if f.FullDefence || f.cowedBy(t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s may not attack %s", s.NameOf(f.ID), s.NameOf(t.ID))
	}
	if s.inMelee(f.ID, t.ID) || s.engaged(f.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is engaged already: no room to charge", s.NameOf(f.ID))
	}
	if s.Model == board.Ladder {
		if m := s.moves(f.ID, t.ID); m > 2/ladderCost(f) {
			return fray.Errorf(fray.EILLEGAL, "%s is %s away: a charge covers two", s.NameOf(t.ID), movesWords(m))
		}
		return nil
	}
	if routes == nil {
		routes = s.reachable(f, 2*s.gridSquares(f))
	}
	if _, ok := s.chargeRouteIn(routes, f, t); !ok {
		return fray.Errorf(fray.EILLEGAL, "no straight line to %s within two movement actions", s.NameOf(t.ID))
	}
	return nil
}

// chargeRoute is a route to a square next to t within two movement
// actions, with a clear line to t (seed: the charge is in a straight
// line; corners may connect unless the target is behind cover).
func (s *State) chargeRoute(f, t *Fighter) (route, bool) {
	return s.chargeRouteIn(s.reachable(f, 2*s.gridSquares(f)), f, t)
}

// chargeRouteIn is chargeRoute among routes already worked out.
func (s *State) chargeRouteIn(routes map[Cell]route, f, t *Fighter) (route, bool) {
	if !s.lineOfSight(f.ID, t.ID) {
		return route{}, false
	}
	var best route
	var bestCell Cell
	found := false
	for c, r := range routes {
		if !s.touching(c, Cell{t.X, t.Y}) {
			continue
		}
		if len(r.Path) > chebyshev(f.X, f.Y, t.X, t.Y) {
			continue // a detour is no straight line
		}
		if !found || closer(r, c, best, bestCell, f) {
			best, bestCell, found = r, c, true
		}
	}
	return best, found
}

// decideStand stands up (seed: Stand Up): a movement action and a passed
// Quick test, or the whole turn without a test. A failed test still gets
// the character up, at the cost of its combat action too; without it
// left, it stays down.
func decideStand(tx *Tx, cmd engine.Command) error {
	var args struct {
		Whole bool `json:"whole"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if !f.Prone {
		return fray.Errorf(fray.EILLEGAL, "%s is not prone", st.NameOf(f.ID))
	}
	if f.HeldBy != "" || f.Holding != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is wrestling and cannot stand", st.NameOf(f.ID))
	}
	if args.Whole {
		if !f.Combat || f.Moves < 1 {
			return fray.Errorf(fray.EILLEGAL, "standing up without a test takes the whole turn: both actions")
		}
		set, _ := st.spend(f, true, 1)
		set = append(set, change.Prone.To(f.ID, false))
		return note(tx, KindStood, f.ID, st.NameOf(f.ID)+" takes the whole turn to stand up.", Note{Fighter: f.ID, What: "whole turn", Set: set})
	}
	set, err := st.spend(f, false, 1)
	if err != nil {
		return err
	}
	o := rollTest(tx, st.plainTest(f.ID, Quick, "Stand up", testOther))
	switch {
	case o.Pass:
		set = append(set, change.Prone.To(f.ID, false))
		return note(tx, KindStood, f.ID, st.NameOf(f.ID)+" springs to their feet.", Note{Fighter: f.ID, What: "quick", Value: 1, Set: set}, o.Roll)
	case f.Combat && f.Moves >= 1:
		set = append(set, change.Combat.To(f.ID, false), change.Prone.To(f.ID, false))
		return note(tx, KindStood, f.ID, st.NameOf(f.ID)+" struggles up, and the whole turn goes by.", Note{Fighter: f.ID, What: "slow", Set: set}, o.Roll)
	}
	return note(tx, KindStood, f.ID, st.NameOf(f.ID)+" fails to get up.", Note{Fighter: f.ID, What: "failed", Set: set}, o.Roll)
}

// decideSwitch draws or switches weapons: a movement action, free for a
// Short weapon or with Quick Draw. A shield is slung to free the hands
// for a ranged or heavy weapon and taken up again for one-handed ones.
func decideSwitch(tx *Tx, cmd engine.Command) error {
	var args struct {
		Weapon string `json:"weapon"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	w, ok := f.Sheet.Weapon(args.Weapon)
	if !ok {
		return fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), args.Weapon)
	}
	if w.ID == f.Wielded && (f.Drawn || w.kind().Natural) {
		return fray.Errorf(fray.EILLEGAL, "%s already has %s in hand", st.NameOf(f.ID), w.Name)
	}
	if f.Holding != "" || f.HeldBy != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is wrestling", st.NameOf(f.ID))
	}
	free := w.kind().Short || f.Level(AbQuickDraw) > 0
	var set []Change
	if !free {
		if set, err = st.spend(f, false, 1); err != nil {
			return err
		}
	} else {
		set = append(set, change.Acted.To(f.ID, true))
	}
	k := w.kind()
	shield := f.Shield != "" && !(f.Shield == "shield" && (k.Ranged || k.Heavy))
	set = append(set, change.Wielded.To(f.ID, w.ID), change.Drawn.To(f.ID, true), change.ShieldUp.To(f.ID, shield))
	text := fmt.Sprintf("%s takes %s in hand", st.NameOf(f.ID), w.Name)
	if free {
		text += " (a free action)"
	}
	return note(tx, KindReadied, f.ID, text+".", Note{Fighter: f.ID, What: w.ID, Set: set})
}

// decideUseItem drinks or applies an elixir: on oneself a movement
// action, on someone else (next to one) a combat action (seed: Use/Apply
// Elixir). A herbal cure heals 1 Toughness; an antidote ends a poison.
func decideUseItem(tx *Tx, cmd engine.Command) error {
	var args struct {
		Item   string `json:"item"`
		Target string `json:"target"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if args.Item != ItemHerbalCure && args.Item != ItemAntidote {
		return fray.Errorf(fray.EINVALID, "item %q must be %s or %s", args.Item, ItemHerbalCure, ItemAntidote)
	}
	if f.Items[args.Item] <= 0 {
		return fray.Errorf(fray.EILLEGAL, "%s has no %s left", st.NameOf(f.ID), label(args.Item))
	}
	to := f
	if args.Target != "" && args.Target != f.ID {
		if to, err = tx.Target(args.Target); err != nil {
			return err
		}
		if st.enemies(f.ID, to.ID) || !st.nextTo(f.ID, to.ID) {
			return fray.Errorf(fray.EILLEGAL, "%s is not an ally within reach", st.NameOf(to.ID))
		}
	}
	if f.Holding != "" || f.HeldBy != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is wrestling", st.NameOf(f.ID))
	}
	self := to.ID == f.ID
	set, err := st.spend(f, !self, boolInt(self))
	if err != nil {
		return err
	}
	set = append(set, change.Item.To(f.ID, args.Item, f.Items[args.Item]-1))
	if err := note(tx, KindItem, f.ID, fmt.Sprintf("%s uses %s on %s.", st.NameOf(f.ID), aOrAn(strings.ReplaceAll(args.Item, "-", " ")), st.PublicNameOf(to.ID)),
		Note{Fighter: f.ID, Target: to.ID, What: args.Item, Set: set}); err != nil {
		return err
	}
	if args.Item == ItemAntidote {
		if to.PoisonTurns == 0 {
			return nil
		}
		return note(tx, KindPoison, to.ID, st.PublicNameOf(to.ID)+" is no longer poisoned.", Note{Fighter: to.ID, What: "cured", Set: []Change{change.PoisonDie.To(to.ID, 0), change.PoisonTurns.To(to.ID, 0)}})
	}
	return heal(tx, to, HerbalCure, f.ID, "herbal cure")
}

// HerbalCure is what an alchemical herbal cure heals (seed 19).
const HerbalCure = 1

// nextTo reports whether a and b are within arm's reach: neighbouring
// squares on the grid, on the same side's line (or engaged) on the ladder.
func (s *State) nextTo(a, b string) bool {
	if a == b {
		return true
	}
	if s.Model == board.Grid {
		return s.adjacent(a, b)
	}
	if s.inMelee(a, b) {
		return true
	}
	if s.side(a) != s.side(b) {
		return false
	}
	fa, fb := s.Fighters[a], s.Fighters[b]
	for _, sd := range s.Sides {
		if fa.Ahead[sd.ID] != fb.Ahead[sd.ID] {
			return false
		}
	}
	return true
}

// dieRoll is a one-die roll.
func dieRoll(lbl, who string, d dice.Die) dice.Roll {
	return dice.Roll{Label: lbl, Who: who, Dice: []dice.Die{d}, Total: d.Total()}
}
