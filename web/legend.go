package web

import (
	"slices"

	"github.com/fray-vtt/fray/internal/board"
)

// legend is the key to one board: only what it shows now.
type legend struct {
	Bands string // a grid's ranges, in squares
	Sides []legendSide
	Marks []legendMark
	Bars  []string
	Icons []legendIcon
}

type legendSide struct{ Name, Class string }

// legendMark is a mark the page draws: Mark names its sample's class
// (lg-<mark>), Glyph any text the sample shows.
type legendMark struct{ Mark, Glyph, Text string }

// legendIcon is an icon the tokens show, in the ruleset's words.
type legendIcon struct{ Glyph, Text, Tone string }

// legend collects the key of m's board: the sides on it, the marks it
// uses, what its bars count and every condition icon a token shows.
func (m *model) legend() legend {
	var l legend
	b := m.board
	sides := map[string]bool{}
	var acting, out, down, hidden, mine bool
	bars := map[string]bool{}
	for i := range b.Tokens {
		t := &b.Tokens[i]
		sides[t.Side] = true
		acting = acting || t.Acting
		out = out || t.Out
		down = down || t.Down && !t.Out
		hidden = hidden || t.Hidden
		mine = mine || m.controls(t.ID)
		if mt := t.Health; mt != nil && mt.Max > 0 && !bars[mt.Label] {
			bars[mt.Label] = true
			l.Bars = append(l.Bars, barMeaning(mt))
		}
	}
	// The icons are the ruleset's, with its words for them (board.Legend,
	// filled by the board's Finish).
	for _, ic := range b.Legend {
		l.Icons = append(l.Icons, legendIcon{Glyph: ic.Glyph, Text: ic.Legend, Tone: ic.Tone})
	}
	for i, s := range m.v.Sides {
		if sides[s.ID] {
			l.Sides = append(l.Sides, legendSide{Name: s.Name, Class: "side-" + itoa(i%6)})
		}
	}
	add := func(on bool, mark, glyph, text string) {
		if on {
			l.Marks = append(l.Marks, legendMark{Mark: mark, Glyph: glyph, Text: text})
		}
	}
	add(acting, "acting", "", "ringed: may act now")
	add(true, "target", "", "orange outline: your target (click a token; Esc clears)")
	add(mine, "mine", "", "(you): a character you play")
	add(hidden, "hidden", "", "dashed: hidden from the players")
	add(slices.ContainsFunc(b.Tokens, func(t board.Token) bool { return t.Pose != nil && t.Pose.Shape == board.Flat }), "flat", "", "flattened: lying on the ground")
	add(slices.ContainsFunc(b.Tokens, func(t board.Token) bool { return t.Pose != nil && t.Pose.Shape == board.Low }), "low", "", "smaller: stooping low")
	add(down, "down", "", "down: still in the fight, but incapacitated")
	add(out, "out", "", "grey, struck through: out of the fight")
	switch {
	case b.Model == board.Zones && b.Zones != nil:
		add(len(b.Zones.Links) > 0, "link", "", "dotted line: a border you can cross")
		add(len(b.Zones.Groups) > 0, "group", "", "red dashed frame: fighting in melee")
		add(slices.ContainsFunc(b.Zones.Areas, func(a board.Area) bool { return a.Shade > 0 }), "shade", "",
			"green ground: cover or rough ground, as the zone's badges say")
	case b.Model == board.Grid && b.Grid != nil:
		g := b.Grid
		l.Bands = bandsText(g.Bands) // "" without bands
		add(slices.ContainsFunc(g.Cells, func(c board.Cell) bool { return c.Shade > 0 && c.Shade < 3 && !c.Blocks }), "shade", "",
			"green square: cover or hard ground (hover it for what)")
		add(slices.ContainsFunc(g.Cells, func(c board.Cell) bool { return c.Shade >= 3 && !c.Blocks }), "dense", "",
			"dark square: heavy cover or very hard ground")
		add(slices.ContainsFunc(g.Cells, func(c board.Cell) bool { return c.Blocks }), "blocks", "", "black square: blocks the line of sight")
		edge := func(kind string, open bool) bool {
			return slices.ContainsFunc(g.Edges, func(e board.Edge) bool { return e.Kind == kind && (kind != board.EdgeDoor || e.Open == open) })
		}
		add(edge(board.EdgeWall, false), "wall", "", "thick line: a wall between squares, blocks movement and sight")
		add(edge(board.EdgeDoor, false), "door-closed", "", "brown bar: a closed door, blocks movement and sight")
		add(edge(board.EdgeDoor, true), "door-open", "", "brown leaf swung out: an open door")
		add(edge(board.EdgeWindow, false), "window", "", "blue dashes: a window, blocks movement but not sight")
		add(slices.ContainsFunc(g.Places, func(p board.Placed) bool { return p.Group != "" && !p.Off }), "group", "", "red dashed frame: in contact")
		add(slices.ContainsFunc(g.Places, func(p board.Placed) bool { return p.Off }), "off", "", "off the map: beyond the drawn squares")
	case b.Model == board.Pairs && b.Pairs != nil:
		var seen []string // each distance once
		for _, e := range b.Pairs.Engagements {
			add(!slices.Contains(seen, e.Distance), "dist", e.Distance, "engaged at "+e.Distance)
			seen = append(seen, e.Distance)
		}
	case b.Model == board.Ladder && b.Ladder != nil:
		add(len(b.Ladder.Gaps) > 0, "rung", "◀ ▶", "the distance between the two sides")
	}
	return l
}

// barMeaning says what a meter's bar shows: always what is left.
func barMeaning(mt *board.Meter) string {
	if mt.Low {
		return "bar: " + mt.Label + " left (full: unhurt)"
	}
	return "bar: shrinks as " + mt.Label + " grow (full: unhurt, empty: taken out)"
}
