package simulate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// Policy chooses the next command of a fight a simulation plays: an
// answer to a waiting decision or one of the actions offered.
type Policy interface {
	// Name says who chooses, for the result.
	Name() string
	// Next picks among o in st; ok false when o offers nothing it can
	// take.
	Next(st engine.State, o *engine.Offer) (engine.Command, bool)
}

// PolicyFor is the policy that plays rs: its own tactics when it is an
// engine.Tactician, with the generic policy for whatever they leave, or
// the generic policy alone.
func PolicyFor(rs engine.Ruleset) Policy {
	g := Generic{Ruleset: rs}
	if t, ok := rs.(engine.Tactician); ok {
		return tactics{t, g}
	}
	return g
}

// tactics asks a ruleset's Tactician first.
type tactics struct {
	t       engine.Tactician
	generic Generic
}

func (tactics) Name() string { return "the ruleset's tactics" }

func (p tactics) Next(st engine.State, o *engine.Offer) (engine.Command, bool) {
	if cmd, ok := p.t.Tactic(st, o); ok {
		return cmd, true
	}
	return p.generic.Next(st, o)
}

// Generic is the policy that knows no ruleset. It reads the offer, the
// combatants' sides and the board, and plays like this:
//
//   - A decision is answered with its default, or its first option when it
//     has none; its fields keep their defaults (a number its minimum).
//   - The combatant acting attacks when it can: the first of its actions
//     (main actions first) that offers a foe still standing as a target,
//     at the most threatening such foe — the one nearest to falling, by
//     the health its token shows, then the nearest on the board. It takes
//     the same action at most three times in one turn.
//   - Otherwise it moves: a place offered that brings it nearer to the
//     nearest foe still standing.
//   - Otherwise it takes a main action without fields it has not taken
//     this turn (ending the turn, usually), then any action it has not
//     taken this turn, then the GM's.
type Generic struct {
	Ruleset engine.Ruleset
}

// Name implements Policy.
func (Generic) Name() string { return "the generic policy" }

// sameActionPerTurn bounds how often the generic policy takes one action
// in a turn.
const sameActionPerTurn = 3

// Next implements Policy.
func (g Generic) Next(st engine.State, o *engine.Offer) (engine.Command, bool) {
	if len(o.Pending) > 0 {
		return DefaultAnswer(o.Pending[0]), true
	}
	b := st.Core()
	actor, mine := g.actorOf(b, o)
	if len(mine) == 0 {
		return engine.Command{}, false
	}
	times := func(a engine.Action) int {
		n := 0
		for _, c := range o.Taken {
			if c.Kind == a.Kind && c.Actor == a.Actor {
				n++
			}
		}
		return n
	}
	bd := lazyBoard{rs: g.Ruleset, st: st}
	if actor != "" {
		var best *engine.Action
		var target string
		for _, main := range []bool{true, false} {
			for i := range mine {
				a := &mine[i]
				if a.Main != main || times(*a) >= sameActionPerTurn {
					continue
				}
				if t := g.target(b, &bd, actor, *a); t != "" {
					best, target = a, t
					break
				}
			}
			if best != nil {
				break
			}
		}
		if best != nil {
			return Command(*best, map[string]string{targetField(*best): target}), true
		}
		if a, place, ok := g.approach(b, &bd, actor, mine, times); ok {
			return Command(a, map[string]string{placeField(a): place}), true
		}
	}
	for _, a := range mine {
		if a.Main && len(a.Fields) == 0 && times(a) == 0 {
			return Command(a, nil), true
		}
	}
	for _, a := range mine {
		if times(a) == 0 {
			return Command(a, nil), true
		}
	}
	return Command(mine[0], nil), true
}

// actorOf picks whose actions to take: the first combatant acting that is
// offered any, else any combatant offered some (an interruption), else
// the GM ("").
func (Generic) actorOf(b *engine.Base, o *engine.Offer) (string, []engine.Action) {
	of := func(id string) []engine.Action {
		var out []engine.Action
		for _, a := range o.Actions() {
			if a.Actor == id {
				out = append(out, a)
			}
		}
		return out
	}
	for _, id := range b.Acting {
		if mine := of(id); len(mine) > 0 {
			return id, mine
		}
	}
	for _, a := range o.Actions() {
		if a.Actor != "" {
			return a.Actor, of(a.Actor)
		}
	}
	return "", of("")
}

// target is the most threatening foe of actor that action a offers as a
// target, or "".
func (g Generic) target(b *engine.Base, bd *lazyBoard, actor string, a engine.Action) string {
	name := targetField(a)
	if name == "" {
		return ""
	}
	i := slices.IndexFunc(a.Fields, func(f engine.Field) bool { return f.Name == name })
	var foes []string
	for _, c := range a.Fields[i].Options {
		if isFoe(b, actor, c.Value) {
			foes = append(foes, c.Value)
		}
	}
	if len(foes) == 0 {
		return ""
	}
	if len(foes) == 1 {
		return foes[0]
	}
	board := bd.get()
	return slices.MinFunc(foes, func(x, y string) int {
		if h := compareFloat(healthLeft(board, x), healthLeft(board, y)); h != 0 {
			return h
		}
		return distance(board, actor, x) - distance(board, actor, y)
	})
}

// approach finds the move that brings actor nearest to its nearest foe,
// when one brings it nearer than it stands.
func (g Generic) approach(b *engine.Base, bd *lazyBoard, actor string, mine []engine.Action, times func(engine.Action) int) (engine.Action, string, bool) {
	var moves []engine.Action
	for _, a := range mine {
		if placeField(a) != "" && times(a) < sameActionPerTurn {
			moves = append(moves, a)
		}
	}
	if len(moves) == 0 {
		return engine.Action{}, "", false
	}
	board := bd.get()
	if board == nil {
		return engine.Action{}, "", false
	}
	var foes []string
	for _, c := range b.Combatants {
		if isFoe(b, actor, c.ID) {
			foes = append(foes, c.ID)
		}
	}
	nearest := func(from func(foe string) int) int {
		d := unreachable
		for _, foe := range foes {
			d = min(d, from(foe))
		}
		return d
	}
	now := nearest(func(foe string) int { return distance(board, actor, foe) })
	var best engine.Action
	bestPlace, bestD := "", now
	for _, a := range moves {
		f := a.Fields[slices.IndexFunc(a.Fields, func(f engine.Field) bool { return f.Name == placeField(a) })]
		for _, c := range f.Options {
			if d := nearest(func(foe string) int { return placeDistance(board, c.Value, foe) }); d < bestD {
				best, bestPlace, bestD = a, c.Value, d
			}
		}
	}
	return best, bestPlace, bestPlace != ""
}

// isFoe reports whether id is a foe of actor still fighting.
func isFoe(b *engine.Base, actor, id string) bool {
	a, c := b.Combatant(actor), b.Combatant(id)
	return a != nil && c != nil && c.Side != a.Side && c.Fighting()
}

// targetField is the name of a's first field of combatants, or "".
func targetField(a engine.Action) string {
	for _, f := range a.Fields {
		if f.Target && f.Type == engine.FieldSelect {
			return f.Name
		}
	}
	return ""
}

// placeField is the name of a's first field of places, or "".
func placeField(a engine.Action) string {
	for _, f := range a.Fields {
		if f.Place && f.Type == engine.FieldSelect && len(f.Options) > 0 {
			return f.Name
		}
	}
	return ""
}

// Command is the command that takes action a with the values given and,
// for every other field, its default value (see FieldDefault).
func Command(a engine.Action, values map[string]string) engine.Command {
	args := map[string]any{}
	for _, f := range a.Fields {
		if v, ok := values[f.Name]; ok {
			args[f.Name] = fieldValue(f, v)
		} else {
			args[f.Name] = FieldDefault(f)
		}
	}
	return engine.NewCommand(a.Kind, a.Actor, args)
}

// DefaultAnswer answers d with its default, or its first option, every
// field at its default.
func DefaultAnswer(d engine.Decision) engine.Command {
	choice := d.Default
	if !d.HasOption(choice) {
		choice = d.Options[0].Value
	}
	return engine.Answer(d, choice, fieldDefaults(d.Fields))
}

func fieldDefaults(fields []engine.Field) map[string]any {
	if len(fields) == 0 {
		return nil
	}
	out := map[string]any{}
	for _, f := range fields {
		out[f.Name] = FieldDefault(f)
	}
	return out
}

// FieldDefault is the value a policy gives a field it has no opinion on:
// its default when offered, else a select's first option, a number's
// minimum, an unchecked box, an empty text.
func FieldDefault(f engine.Field) any {
	switch f.Type {
	case engine.FieldSelect:
		if len(f.Options) == 0 || slices.ContainsFunc(f.Options, func(c engine.Choice) bool { return c.Value == f.Default }) {
			return f.Default
		}
		return f.Options[0].Value
	case engine.FieldNumber:
		if n, err := strconv.Atoi(f.Default); err == nil {
			return n
		}
		return f.Min
	case engine.FieldCheckbox:
		return f.Default == "true"
	}
	return f.Default
}

func fieldValue(f engine.Field, v string) any {
	switch f.Type {
	case engine.FieldNumber:
		n, _ := strconv.Atoi(v)
		return n
	case engine.FieldCheckbox:
		return v == "true"
	}
	return v
}

// lazyBoard draws the GM's board the first time it is needed.
type lazyBoard struct {
	rs    engine.Ruleset
	st    engine.State
	b     *board.Board
	drawn bool
}

func (l *lazyBoard) get() *board.Board {
	if !l.drawn {
		l.drawn = true
		if bd, ok := l.rs.(engine.Boarder); ok {
			l.b = bd.Board(l.st, engine.GMViewer())
		}
	}
	return l.b
}

// healthLeft is the share of health a token has left, 0 to 1 (1 when the
// board shows none).
func healthLeft(b *board.Board, id string) float64 {
	if b == nil {
		return 1
	}
	i := slices.IndexFunc(b.Tokens, func(t board.Token) bool { return t.ID == id })
	if i < 0 || b.Tokens[i].Health == nil || b.Tokens[i].Health.Max <= 0 {
		return 1
	}
	h := b.Tokens[i].Health
	left := float64(h.Value) / float64(h.Max)
	if !h.Low {
		left = 1 - left
	}
	return min(max(left, 0), 1)
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// unreachable is the distance to what no path reaches.
const unreachable = 1 << 20

// distance is how far apart two tokens stand on the board, in the board's
// own steps: borders between zones, squares on a grid (diagonals count
// one), 0 or 1 for engaged or not, rungs between sides.
func distance(b *board.Board, x, y string) int {
	if b == nil {
		return 0
	}
	switch b.Model {
	case board.Zones:
		if b.Zones == nil {
			return 0
		}
		px, py := placedAt(b.Zones.Places, x), placedAt(b.Zones.Places, y)
		if px == nil || py == nil {
			return unreachable
		}
		return zoneDistance(b.Zones, px.Area, py.Area)
	case board.Grid:
		if b.Grid == nil {
			return 0
		}
		px, py := placedAt(b.Grid.Places, x), placedAt(b.Grid.Places, y)
		if px == nil || py == nil || px.Off || py.Off {
			return unreachable
		}
		return max(abs(px.X-py.X), abs(px.Y-py.Y))
	case board.Pairs:
		if b.Pairs == nil {
			return 0
		}
		for _, e := range b.Pairs.Engagements {
			if e.A == x && e.B == y || e.A == y && e.B == x {
				return 0
			}
		}
		return 1
	case board.Ladder:
		if b.Ladder == nil {
			return 0
		}
		sx, sy := tokenSide(b, x), tokenSide(b, y)
		for _, g := range b.Ladder.Gaps {
			if g.A == sx && g.B == sy || g.A == sy && g.B == sx {
				return g.Rung
			}
		}
	}
	return 0
}

// placeDistance is how far a place offered by a move (a zone's id, or a
// square "x,y") is from token y.
func placeDistance(b *board.Board, place, y string) int {
	switch {
	case b.Model == board.Zones && b.Zones != nil:
		py := placedAt(b.Zones.Places, y)
		if py == nil {
			return unreachable
		}
		return zoneDistance(b.Zones, place, py.Area)
	case b.Model == board.Grid && b.Grid != nil:
		xs, ys, ok := strings.Cut(place, ",")
		x, errX := strconv.Atoi(xs)
		yy, errY := strconv.Atoi(ys)
		py := placedAt(b.Grid.Places, y)
		if !ok || errX != nil || errY != nil || py == nil || py.Off {
			return unreachable
		}
		return max(abs(x-py.X), abs(yy-py.Y))
	}
	return unreachable
}

func placedAt(places []board.Placed, id string) *board.Placed {
	for i := range places {
		if places[i].Token == id {
			return &places[i]
		}
	}
	return nil
}

func tokenSide(b *board.Board, id string) string {
	for _, t := range b.Tokens {
		if t.ID == id {
			return t.Side
		}
	}
	return ""
}

// zoneDistance counts the borders between two areas (breadth first).
func zoneDistance(m *board.ZoneMap, from, to string) int {
	if from == to {
		return 0
	}
	dist := map[string]int{from: 0}
	queue := []string{from}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for _, l := range m.Links {
			next := ""
			switch at {
			case l.A:
				next = l.B
			case l.B:
				next = l.A
			}
			if _, seen := dist[next]; next == "" || seen {
				continue
			}
			dist[next] = dist[at] + 1
			if next == to {
				return dist[next]
			}
			queue = append(queue, next)
		}
	}
	return unreachable
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
