package d20under

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Traps (seed: Traps; spec c15). Setting a ready-made trap takes a
// passed Cunning test; an untrained setter (no Trapper) sets only
// mechanical traps, and a 20 springs it in their face; a trapper also
// sets alchemical mines (so does Pyrotechnics), with a combat action.
// Anyone at risk of a trap discovers it with [Vigilant←Discreet]; a
// discovered trap can be jumped over as part of the move [Quick←Cunning]
// (a failure springs it and stops the move) or, where the terrain allows,
// gone around (an extra movement action, more for a longer way round:
// wayAround); it can also be disarmed — untrained with a Long
// weapon or by shooting [Accurate←Cunning], a trapper [Cunning←Cunning].
// A mechanical trap holds its victim until a Strong test frees it.
//
// On the grid a trap lies on a square; on the distance categories it lies
// before its side's line, and whoever moves toward that side risks it.

// Trap kinds and their ready-made values [B].
const (
	TrapMechanical = "mechanical"
	TrapMine       = "mine"
	TrapImprovised = "improvised"
)

var trapKinds = map[string]struct {
	Die   int
	Holds bool
	Label string
}{
	TrapMechanical: {10, true, "mechanical trap"},
	TrapMine:       {12, false, "alchemical mine"},
	TrapImprovised: {6, true, "improvised trap"},
}

// Trap is a trap on the battlefield.
type Trap struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	Setter   string   `json:"setter,omitempty"` // "" when the GM placed it
	Side     string   `json:"side,omitempty"`   // the setter's side, who know it
	X        int      `json:"x"`
	Y        int      `json:"y"`
	Die      int      `json:"die"`
	Holds    bool     `json:"holds,omitempty"`
	Discreet int      `json:"discreet"` // what finding it is tested against
	Cunning  int      `json:"cunning"`  // what jumping and disarming it are tested against
	KnownBy  []string `json:"knownBy,omitempty"`
	Victim   string   `json:"victim,omitempty"` // held in it, once sprung
}

// trapID names the encounter's nth trap.
func trapID(n int) string { return "trap-" + strconv.Itoa(n) }

func (t *Trap) name() string { return trapKinds[t.Kind].Label }

func (s *State) trap(id string) *Trap {
	for i := range s.Traps {
		if s.Traps[i].ID == id {
			return &s.Traps[i]
		}
	}
	return nil
}

// armed reports whether a trap can still be sprung.
func (t *Trap) armed() bool { return t.Victim == "" }

// known reports whether side knows where the trap is.
func (t *Trap) known(side string) bool { return t.Side == side || slices.Contains(t.KnownBy, side) }

// trapAt returns the armed trap on a square (grid).
func (s *State) trapAt(c Cell) *Trap {
	if s.Model != board.Grid {
		return nil
	}
	for i := range s.Traps {
		t := &s.Traps[i]
		if t.armed() && t.X == c.X && t.Y == c.Y {
			return t
		}
	}
	return nil
}

// ladderTraps are the trap steps of moving toward a side on the ladder:
// its armed traps the mover's side did not set.
func (s *State) ladderTraps(f *Fighter, side string, token int) []engine.Step {
	var out []engine.Step
	for _, t := range s.Traps {
		if t.armed() && t.Side == side && t.Side != s.side(f.ID) {
			out = append(out, engine.NewStep(stepTrap, trapCtx{Trap: t.ID, Mover: f.ID, Token: token}))
		}
	}
	return out
}

// trapCtx is a mover reaching a trap. On the grid it says where the move
// began and ends, and the square past the trap on its route (none when the
// trap lies on the square the move ends on): a way around the trap must
// come back to it.
type trapCtx struct {
	Trap  string `json:"trap"`
	Mover string `json:"mover"`
	Token int    `json:"token"`
	Start *Cell  `json:"start,omitempty"`
	Dest  *Cell  `json:"dest,omitempty"`
	Next  *Cell  `json:"next,omitempty"`
}

// around is a way around a trap on the grid: the squares from the one
// before it to the one past it, and the movement actions it costs.
type around struct {
	Path  []Cell
	Moves int
}

// wayAround is the way around trap t for f, standing before it, back to
// the square past it on the route (seed: "If the terrain allows, a trap
// can always be ignored by going around it. This costs an extra movement
// action, or more depending on the terrain"): the cheapest route over open
// and difficult ground that avoids the trap's square, walls, enemies and
// the traps f's side knows, costing one movement action more than
// crossing the trap would have — more when its squares take more (a
// movement action per gridSquares, rounded up) — which f must have left.
// On the distance categories there is no terrain: one movement action.
// ok is false when the terrain leaves no way round at that cost: in a
// corridor walled on both sides, with the trap on the only square through.
func (s *State) wayAround(f *Fighter, t *Trap, c trapCtx) (around, bool) {
	if s.Model != board.Grid || c.Start == nil {
		// (A question asked before routes were kept: one movement action,
		// as it was then.)
		return around{Moves: 1}, f.movesLeft() >= 1
	}
	if c.Next == nil {
		return around{}, false // the move ends on the trap: nothing to get round to
	}
	g := s.Grid
	from, to, trap := Cell{f.X, f.Y}, *c.Next, Cell{t.X, t.Y}
	direct := g.cost(trap.X, trap.Y) + g.cost(to.X, to.Y)
	per := s.gridSquares(f)
	budget := direct + f.movesLeft()*per
	side := s.side(f.ID)
	closed := func(x Cell) bool {
		if !g.inside(x.X, x.Y) || g.wall(x.X, x.Y) || x == trap {
			return true
		}
		if id := s.at(x.X, x.Y); id != "" && s.enemies(f.ID, id) {
			return true
		}
		return slices.ContainsFunc(s.Traps, func(o Trap) bool { return o.armed() && o.X == x.X && o.Y == x.Y && o.known(side) })
	}
	// The cheapest route, cost by cost (a square costs 1 or 2): the first
	// square reached at a cost keeps the route that reached it.
	type reached struct {
		cost int
		prev Cell
	}
	seen := map[Cell]reached{from: {}}
	frontier := [][]Cell{{from}}
	for cost := 0; cost < len(frontier) && cost <= budget; cost++ {
		for _, x := range frontier[cost] {
			if seen[x].cost != cost {
				continue
			}
			if x == to {
				var path []Cell
				for y := to; y != from; y = seen[y].prev {
					path = append(path, y)
				}
				slices.Reverse(path)
				moves := max(1, (cost-direct+per-1)/per)
				return around{Path: path, Moves: moves}, moves <= f.movesLeft()
			}
			for _, d := range neighbours {
				y := Cell{x.X + d.X, x.Y + d.Y}
				if closed(y) || !s.step(x, y) {
					continue
				}
				n := cost + g.cost(y.X, y.Y)
				if r, ok := seen[y]; (ok && r.cost <= n) || n > budget {
					continue
				}
				seen[y] = reached{n, x}
				for len(frontier) <= n {
					frontier = append(frontier, nil)
				}
				frontier[n] = append(frontier[n], y)
			}
		}
	}
	return around{}, false
}

// aroundSteps are the steps of going around a trap along way: each
// square entered in turn, with the free attacks of the enemies passed (as
// on the route: not those next to where the move began or ends) and any
// trap hidden on the way; the move then goes on past the trap.
func (s *State) aroundSteps(f *Fighter, c trapCtx, way around) []engine.Step {
	var steps []engine.Step
	near := func(e string, x Cell) bool {
		g := s.Fighters[e]
		return chebyshev(g.X, g.Y, x.X, x.Y) == 1
	}
	prev := Cell{f.X, f.Y}
	for i, x := range way.Path {
		if t := s.trapAt(x); t != nil {
			next := way.Path[min(i+1, len(way.Path)-1)]
			tc := trapCtx{Trap: t.ID, Mover: f.ID, Token: c.Token, Start: c.Start, Dest: c.Dest, Next: &next}
			steps = append(steps, engine.NewStep(stepMoveTo, moveToCtx{Fighter: f.ID, Token: c.Token, X: prev.X, Y: prev.Y}),
				engine.NewStep(stepTrap, tc))
		}
		var here []string
		for _, e := range s.enemiesOf(f.ID) {
			if near(e, x) && (c.Start == nil || !near(e, *c.Start)) && (c.Dest == nil || !near(e, *c.Dest)) {
				here = append(here, e)
			}
		}
		steps = append(steps, engine.NewStep(stepMoveTo, moveToCtx{Fighter: f.ID, Token: c.Token, X: x.X, Y: x.Y, Past: strings.Join(here, ",")}))
		for _, e := range here {
			steps = append(steps, freeAttackStep(e, f.ID, TrigPast))
		}
		prev = x
	}
	return steps
}

// trapTest is a test of a mover against a trap: [moverAttr←trapAttr],
// rolled by the mover when a player character or the setter is not;
// otherwise turned around and rolled by the setter. It reports whether
// the mover succeeded.
func trapTest(tx *Tx, what string, mover string, moverAttr string, t *Trap, trapAttr string, value int) (outcome, bool) {
	st := tx.State
	pm := st.party(mover, moverAttr, st.value(mover, moverAttr), testCraft, "")
	pt := party{ID: t.Setter, Attr: trapAttr, Base: value}
	if t.Setter != "" && st.Fighters[t.Setter] != nil {
		pt = st.party(t.Setter, trapAttr, value, testCraft, "")
	}
	if st.pc(mover) || t.Setter == "" || !st.pc(t.Setter) {
		tt := test{Roller: pm, Foe: &pt}
		tt.Label = testLabel(what, tt)
		o := rollTest(tx, tt)
		return o, o.Pass
	}
	tt := test{Roller: pt, Foe: &pm}
	tt.Label = testLabel(what, tt)
	o := rollTest(tx, tt)
	return o, !o.Pass
}

// runTrap is a mover reaching a trap: it spots it (or knows it) and
// chooses, or springs it.
func runTrap(tx *Tx, c trapCtx) error {
	st := tx.State
	f := st.Fighters[c.Mover]
	t := st.trap(c.Trap)
	if f == nil || t == nil || !t.armed() || f.Moving != c.Token || !st.fighting(f.ID) {
		return nil
	}
	side := st.side(f.ID)
	if !t.known(side) {
		o, found := trapTest(tx, "Discover a trap", f.ID, Vigilant, t, Discreet, t.Discreet)
		if !found {
			if err := note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" does not see the trap.", Note{Fighter: f.ID, What: "unseen"}, o.Roll); err != nil {
				return err
			}
			return spring(tx, t, f)
		}
		text := fmt.Sprintf("%s spots %s in the way.", st.NameOf(f.ID), aOrAn(t.name()))
		if err := note(tx, KindTrap, f.ID, text, Note{Fighter: f.ID, What: "discovered", Set: []Change{change.TrapKnown.To(t.ID, side)}}, o.Roll); err != nil {
			return err
		}
	}
	opts := []engine.Choice{{Value: "jump", Label: "Jump over it (Quick against its Cunning)"}}
	if way, ok := st.wayAround(f, t, c); ok {
		opts = append(opts, engine.Choice{Value: "around", Label: "Go around it (" + moreMoves(way.Moves) + ")"})
	}
	opts = append(opts, engine.Choice{Value: "stop", Label: "Stop before it"})
	return tx.AskWith(engine.Decision{For: f.ID, Kind: DecTrap, Prompt: fmt.Sprintf("%s: %s lies in the way.", st.NameOf(f.ID), aOrAn(t.name())),
		Options: opts, Default: "stop"}, Cont{Trap: &c})
}

func answerTrap(tx *Tx, c trapCtx, ans engine.Answered) error {
	st := tx.State
	f := st.Fighters[c.Mover]
	t := st.trap(c.Trap)
	if f == nil || t == nil || !t.armed() || f.Moving != c.Token {
		return nil
	}
	switch ans.Choice {
	case "jump":
		o, ok := trapTest(tx, "Jump the trap", f.ID, Quick, t, Cunning, t.Cunning)
		if ok {
			return note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" jumps over the trap.", Note{Fighter: f.ID, What: "jumped"}, o.Roll)
		}
		if err := note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" fails to clear the trap.", Note{Fighter: f.ID, What: "failed jump"}, o.Roll); err != nil {
			return err
		}
		return spring(tx, t, f)
	case "around":
		way, ok := st.wayAround(f, t, c)
		if !ok {
			return fray.Errorf(fray.EILLEGAL, "the terrain leaves %s no way around the trap", st.NameOf(f.ID))
		}
		set, err := st.spend(f, false, way.Moves)
		if err != nil {
			return err
		}
		if err := note(tx, KindTrap, f.ID, fmt.Sprintf("%s goes around the trap (%s).", st.NameOf(f.ID), moreMoves(way.Moves)), Note{Fighter: f.ID, What: "around", Value: way.Moves, Set: set}); err != nil {
			return err
		}
		return tx.Run(st.aroundSteps(f, c, way)...)
	}
	return note(tx, KindStopped, f.ID, st.NameOf(f.ID)+" stops before the trap.", Note{Fighter: f.ID, What: "trap", Set: []Change{change.Moving.To(f.ID, 0)}})
}

// moreMoves words the movement actions going around a trap costs.
func moreMoves(n int) string {
	if n == 1 {
		return "one more movement action"
	}
	return strconv.Itoa(n) + " more movement actions"
}

// spring springs a trap on its victim: its damage against armour, and it
// holds those it catches; the move stops.
func spring(tx *Tx, t *Trap, f *Fighter) error {
	st := tx.State
	set := []Change{change.Moving.To(f.ID, 0)}
	if t.Holds {
		set = append(set, change.Caught.To(f.ID, t.ID), change.TrapKnown.To(t.ID, st.side(f.ID)), change.TrapVictim.To(t.ID, f.ID))
	} else {
		set = append(set, change.TrapGone.To(t.ID, ""))
	}
	text := fmt.Sprintf("The %s springs on %s!", t.name(), st.PublicNameOf(f.ID))
	if t.Holds {
		text = fmt.Sprintf("The %s springs on %s and holds them fast.", t.name(), st.PublicNameOf(f.ID))
	}
	b := blow{To: f.ID, Source: label(t.name()), Die: t.Die, Rolled: true}
	if err := emit(tx, KindTrap, t.Setter, text, Note{Fighter: f.ID, Target: f.ID, What: "sprung", Set: set}, []string{f.ID}); err != nil {
		return err
	}
	return strikeHome(tx, b)
}

// decideBreakFree is a Strong test to get out of a trap (a combat action).
func decideBreakFree(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if f.Caught == "" {
		return fray.Errorf(fray.EILLEGAL, "%s is not caught", st.NameOf(f.ID))
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	o := rollTest(tx, st.plainTest(f.ID, Strong, "Break free", testOther))
	if !o.Pass {
		return note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" struggles in the trap.", Note{Fighter: f.ID, What: "stuck", Set: set}, o.Roll)
	}
	set = append(set, change.Caught.To(f.ID, ""), change.TrapGone.To(f.Caught, ""))
	return note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" breaks free of the trap.", Note{Fighter: f.ID, What: "free", Set: set}, o.Roll)
}

// decideSetTrap sets a ready-made trap from the character's kit.
func decideSetTrap(tx *Tx, cmd engine.Command) error {
	var args struct {
		Item string `json:"item"`
		At   string `json:"at"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	kind, err := st.canSetTrap(f, args.Item)
	if err != nil {
		return err
	}
	x, y := 0, 0
	if st.Model == board.Grid {
		c, ok := parseCell(args.At)
		if !ok || !slices.Contains(st.trapCells(f), c) {
			return fray.Errorf(fray.EILLEGAL, "a trap is set on %s's own square or a free one next to it", st.NameOf(f.ID))
		}
		x, y = c.X, c.Y
	} else if args.At != "" && args.At != "front" {
		return fray.Errorf(fray.EINVALID, "on the distance categories, a trap is set before your side's line (at: \"front\")")
	}
	whole := f.Level(AbTrapper) == 0 && kit.Opt(&st.Base, OptUntrainedTraps) == TrapsTurn
	set, err := st.spend(f, true, boolInt(whole))
	if err != nil {
		return err
	}
	o := rollTest(tx, st.plainTest(f.ID, Cunning, "Set a trap", testCraft))
	if !o.Pass {
		if o.twenty() && f.Level(AbTrapper) == 0 {
			set = append(set, change.Item.To(f.ID, args.Item, f.Items[args.Item]-1))
			if err := note(tx, KindTrap, f.ID, "The trap springs in "+st.NameOf(f.ID)+"'s face!", Note{Fighter: f.ID, What: "backfired", Set: set}, o.Roll); err != nil {
				return err
			}
			k := trapKinds[kind]
			return strikeHome(tx, blow{To: f.ID, Source: label(k.Label), Die: k.Die, Rolled: true})
		}
		return note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" fails to set the trap.", Note{Fighter: f.ID, What: "failed", Set: set}, o.Roll)
	}
	k := trapKinds[kind]
	n := st.TrapCount + 1
	t := Trap{ID: trapID(n), Kind: kind, Setter: f.ID, Side: st.side(f.ID), X: x, Y: y, Die: k.Die, Holds: k.Holds,
		Discreet: f.Attributes[Discreet], Cunning: f.Attributes[Cunning]}
	set = append(set, change.Item.To(f.ID, args.Item, f.Items[args.Item]-1), change.TrapCount.To(n))
	where := "before " + st.sideName(t.Side) + "'s line"
	if st.Model == board.Grid {
		where = "at " + cellWords(Cell{x, y})
	}
	text := fmt.Sprintf("%s sets %s %s.", st.NameOf(f.ID), aOrAn(k.Label), where)
	return emit(tx, KindTrapSet, f.ID, text, struct {
		Note
		Trap *Trap `json:"trap"`
	}{Note{Fighter: f.ID, What: kind, Set: set}, &t}, nil, o.Roll)
}

// canSetTrap checks what trap f may set from its item, and returns its
// kind.
func (s *State) canSetTrap(f *Fighter, item string) (string, error) {
	kind := ""
	switch item {
	case ItemMechanicalTrap:
		kind = TrapMechanical
	case ItemAlchemicalMine:
		kind = TrapMine
		if f.Level(AbTrapper) == 0 && f.Level(AbPyrotechnics) == 0 {
			return "", fray.Errorf(fray.EILLEGAL, "an alchemical mine needs Trapper or Pyrotechnics")
		}
	default:
		return "", fray.Errorf(fray.EINVALID, "item %q must be %s or %s", item, ItemMechanicalTrap, ItemAlchemicalMine)
	}
	if f.Items[item] <= 0 {
		return "", fray.Errorf(fray.EILLEGAL, "%s has no %s left", s.NameOf(f.ID), label(item))
	}
	if !f.Combat {
		return "", fray.Errorf(fray.EILLEGAL, "%s has used the combat action this turn", s.NameOf(f.ID))
	}
	if f.Level(AbTrapper) == 0 && kit.Opt(&s.Base, OptUntrainedTraps) == TrapsTurn && f.Moves < 1 {
		return "", fray.Errorf(fray.EILLEGAL, "setting a trap untrained takes the whole turn")
	}
	if s.engaged(f.ID) || f.Holding != "" || f.HeldBy != "" {
		return "", fray.Errorf(fray.EILLEGAL, "%s is too busy fighting to set a trap", s.NameOf(f.ID))
	}
	return kind, nil
}

// trapCells are the squares f may set a trap on: its own and the free
// ones next to it, without a trap.
func (s *State) trapCells(f *Fighter) []Cell {
	var out []Cell
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			c := Cell{f.X + dx, f.Y + dy}
			if !s.Grid.inside(c.X, c.Y) || s.Grid.wall(c.X, c.Y) || s.anyTrapAt(c) || c != (Cell{f.X, f.Y}) && !s.step(Cell{f.X, f.Y}, c) {
				continue
			}
			if id := s.at(c.X, c.Y); id != "" && id != f.ID {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

func (s *State) anyTrapAt(c Cell) bool {
	return slices.ContainsFunc(s.Traps, func(t Trap) bool { return t.X == c.X && t.Y == c.Y })
}

// disarmableTraps are the traps f knows of and can reach to disarm: next
// to it for a trapper, two squares away with a Long weapon, in sight with
// a ranged weapon ready; on the ladder, any it knows.
func (s *State) disarmableTraps(f *Fighter) []*Trap {
	var out []*Trap
	side := s.side(f.ID)
	trained := f.Level(AbTrapper) > 0
	w := f.weapon()
	shoot := w.kind().Ranged && f.ready(w) == nil && s.ammoReady(f, w, false) == nil && !s.engaged(f.ID)
	for i := range s.Traps {
		t := &s.Traps[i]
		if !t.armed() || !t.known(side) || t.Side == side {
			continue
		}
		if s.Model == board.Ladder {
			if trained || w.kind().Long || shoot {
				out = append(out, t)
			}
			continue
		}
		d := chebyshev(f.X, f.Y, t.X, t.Y)
		switch {
		case trained && d <= 1, f.reach() && d <= 2, shoot && d >= 1:
			out = append(out, t)
		}
	}
	return out
}

// decideDisarmTrap disarms a known trap (a combat action).
func decideDisarmTrap(tx *Tx, cmd engine.Command) error {
	var args struct {
		Trap string `json:"trap"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	var t *Trap
	for _, x := range st.disarmableTraps(f) {
		if x.ID == args.Trap {
			t = x
		}
	}
	if t == nil {
		return fray.Errorf(fray.EILLEGAL, "%s knows of no trap %q within reach", st.NameOf(f.ID), args.Trap)
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	attr := Accurate
	if f.Level(AbTrapper) > 0 {
		attr = Cunning
	}
	o, ok := trapTest(tx, "Disarm the trap", f.ID, attr, t, Cunning, t.Cunning)
	if !ok {
		return note(tx, KindTrap, f.ID, st.NameOf(f.ID)+" fails to disarm the trap.", Note{Fighter: f.ID, What: "not disarmed", Set: set}, o.Roll)
	}
	set = append(set, change.TrapGone.To(t.ID, ""))
	return note(tx, KindTrap, f.ID, fmt.Sprintf("%s disarms the %s.", st.NameOf(f.ID), t.name()), Note{Fighter: f.ID, What: "disarmed", Set: set}, o.Roll)
}

// decidePlaceTrap is the GM hiding a trap (a GM decision of seed e).
func decidePlaceTrap(tx *Tx, cmd engine.Command) error {
	var args struct {
		Square   string `json:"square"` // "x,y" (grid)
		X        *int   `json:"x"`      // or x and y (grid)
		Y        *int   `json:"y"`
		Guards   string `json:"guards"` // the side whose line it lies before (distance categories)
		Trap     string `json:"trap"`   // mechanical, mine or improvised
		Die      int    `json:"die"`
		Holds    bool   `json:"holds"`
		Discreet int    `json:"discreet"`
		Cunning  int    `json:"cunning"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	k, ok := trapKinds[args.Trap]
	if !ok {
		return fray.Errorf(fray.EINVALID, "trap %q must be mechanical, mine or improvised", args.Trap)
	}
	if args.Die == 0 {
		args.Die = k.Die
	}
	if !slices.Contains([]int{4, 6, 8, 10, 12}, args.Die) {
		return fray.Errorf(fray.EINVALID, "die must be 4, 6, 8, 10 or 12")
	}
	if args.Discreet < 1 || args.Discreet > 20 || args.Cunning < 1 || args.Cunning > 20 {
		return fray.Errorf(fray.EINVALID, "discreet and cunning must be 1–20")
	}
	t := Trap{Kind: args.Trap, Die: args.Die, Holds: args.Holds, Discreet: args.Discreet, Cunning: args.Cunning}
	where := ""
	if st.Model == board.Grid {
		c, ok := parseCell(args.Square)
		if args.Square == "" && args.X != nil && args.Y != nil {
			c, ok = Cell{*args.X, *args.Y}, true
		}
		if !ok {
			return fray.Errorf(fray.EINVALID, "square %q must be a square of the grid as \"x,y\"", args.Square)
		}
		if !st.trapSquare(c) {
			return fray.Errorf(fray.EILLEGAL, "square %s must be inside the grid, open, empty and without a trap", cellWords(c))
		}
		t.X, t.Y = c.X, c.Y
		where = "at " + cellWords(c)
	} else {
		if st.Side(args.Guards) == nil {
			return fray.Errorf(fray.EINVALID, "guards %q must be a side: the trap lies before its line", args.Guards)
		}
		t.Side = args.Guards
		where = "before " + st.sideName(args.Guards) + "'s line"
	}
	n := st.TrapCount + 1
	t.ID = trapID(n)
	text := fmt.Sprintf("The GM hides %s %s.", aOrAn(k.Label), where)
	ev := engine.NewEvent(KindTrapSet, "", text, struct {
		Note
		Trap *Trap `json:"trap"`
	}{Note{What: args.Trap, Set: []Change{change.TrapCount.To(n)}}, &t})
	ev.Secret = true // players learn of it when someone finds it
	return tx.Emit(ev)
}

// aOrAn puts the indefinite article before a noun phrase: "an
// alchemical mine", "a mechanical trap".
func aOrAn(phrase string) string {
	if phrase != "" && strings.ContainsRune("aeiouAEIOU", rune(phrase[0])) {
		return "an " + phrase
	}
	return "a " + phrase
}

// trapSquare reports whether the GM may hide a trap on c: inside the
// grid, open, empty and without a trap.
func (s *State) trapSquare(c Cell) bool {
	return s.Grid.inside(c.X, c.Y) && !s.Grid.wall(c.X, c.Y) && !s.anyTrapAt(c) && s.at(c.X, c.Y) == ""
}

// trapWords are the traps as a select's options.
func (s *State) trapChoices(ts []*Trap) []engine.Choice {
	out := make([]engine.Choice, len(ts))
	for i, t := range ts {
		where := "before " + s.sideName(t.Side) + "'s line"
		if s.Model == board.Grid {
			where = "at " + cellWords(Cell{t.X, t.Y})
		}
		out[i] = engine.Choice{Value: t.ID, Label: fmt.Sprintf("The %s %s", t.name(), where)}
	}
	return out
}
