package web

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/board"
)

// drawing is the battlefield drawn under its board's position model: the
// picture, and its words (what the picture shows that the roster does not
// say: the zones and their borders, what a distance means). The page picks
// them by the board's model, so any ruleset that projects a board.Board is
// drawn without page code of its own; a board of an unknown model, or
// none, is drawn as a plain list. Every picture is for the eye and the
// pointer (aria-hidden, clickable tokens); the roster under it is the same
// table as a list, for keyboards and screen readers.
func (m *model) drawing() (picture, words templ.Component) {
	switch b := m.board; {
	case b.Model == board.Zones && b.Zones != nil:
		l := m.zoneLayout()
		return zonesBoard(m, l), zonesWords(m, l.Areas)
	case b.Model == board.Grid && b.Grid != nil:
		return gridBoard(m, newGridPic(m)), gridWords(m)
	case b.Model == board.Pairs && b.Pairs != nil:
		return pairsBoard(m), templ.NopComponent
	case b.Model == board.Ladder && b.Ladder != nil:
		return ladderBoard(m), ladderWords(m)
	}
	return listBoardView(m), templ.NopComponent
}

// zoneLayout lays the zone map out, the cells reaching as far as the
// scene laid under them.
func (m *model) zoneLayout() zoneLayout {
	l := layoutZones(m.board.Zones)
	if _, ok := m.sceneMap(); ok && l.Cols > 0 {
		fit := m.v.SceneFit
		l.Cols = min(max(l.Cols, int(math.Ceil(fit.X+fit.W))), board.MaxZonePlace+1)
		l.Rows = min(max(l.Rows, int(math.Ceil(fit.Y+fit.H))), board.MaxZonePlace+1)
	}
	return l
}

// ---- tokens -------------------------------------------------------------

// initials are up to two letters naming a token: "AV" for Ana Vega, "G2"
// for Goblin 2. A name that ends in a number keeps it whole, after its
// first letter ("D2" for Dock thug 2, "O12" for Outlaw 12), so numbered
// copies of one stat block are told apart on the board.
func initials(name string) string {
	words := strings.Fields(name)
	if n := len(words); n > 1 && isNumber(words[n-1]) && !isNumber(words[0]) {
		return string(unicode.ToUpper([]rune(words[0])[0])) + words[n-1]
	}
	var out []rune
	for _, w := range words {
		r := []rune(w)
		if unicode.IsDigit(r[0]) {
			out = append(out, r...)
		} else {
			out = append(out, unicode.ToUpper(r[0]))
		}
		if len(out) >= 2 {
			break
		}
	}
	return string(out[:min(len(out), 2)])
}

// isNumber reports whether w is all digits.
func isNumber(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// marks are what a token shows as icons: its pose, then its conditions.
func marks(t *board.Token) []board.Condition {
	if t.Pose == nil {
		return t.Conditions
	}
	s := t.Pose
	return append([]board.Condition{{ID: s.ID, Label: s.Label, Icon: s.Icon, Text: s.Text}}, t.Conditions...)
}

// glyph is the character the ruleset draws a condition with (the text
// alternative is always next to it), or its label's first letter.
func glyph(c board.Condition) string {
	if c.Icon.Glyph != "" {
		return c.Icon.Glyph
	}
	for _, r := range c.Label {
		return string(unicode.ToUpper(r))
	}
	return "•"
}

// toneClass colours an icon or a roll's result by the tone its ruleset
// gave it.
func toneClass(tone string) string {
	switch tone {
	case board.Good, board.Bad:
		return "tone-" + tone
	}
	return "tone-none"
}

func conditionTitle(c board.Condition) string {
	if c.Text == "" {
		return c.Label
	}
	return c.Label + ": " + c.Text
}

// fill is a meter's fill in tenths, for its width class. Every bar means
// one thing, whatever the ruleset counts: what is left. Hit points fill as
// they remain; harm that grows (wounds, a penalty) empties the bar as it
// grows. A full bar is an unhurt fighter.
func fill(mt *board.Meter) int {
	if mt == nil || mt.Max <= 0 {
		return 0
	}
	left := mt.Value
	if !mt.Low {
		left = mt.Max - mt.Value
	}
	f := float64(left) / float64(mt.Max)
	return max(0, min(10, int(math.Round(f*10))))
}

// meterClass names a meter's state by what is left: "bad" when little is.
// fillClass is a health bar's fill: "hp-fill fill-N".
func fillClass(mt *board.Meter) string { return "hp-fill fill-" + itoa(fill(mt)) }

func meterClass(mt *board.Meter) string {
	switch f := fill(mt); {
	case f <= 3:
		return "bad"
	case f <= 6:
		return "warn"
	}
	return "ok"
}

// tokenClasses are a token's classes on the drawing. The viewer's own
// tokens are marked "mine" by the page itself (app.js, from the encounter's
// data-controls), not here: the board's markup is the same for every viewer
// who sees the same tokens.
func (m *model) tokenClasses(t *board.Token) string {
	return classes("tok", m.sideClass(t.Side), when(t.Acting, "acting"), when(t.Out, "out"), when(t.Down, "down"),
		when(t.Hidden, "hidden"), when(t.PC, "pc"))
}

// controlsAttr is the data-controls attribute of a page that marks the
// viewer's own tokens (app.js): the ids of the combatants a player
// controls, as a JSON array; none for the GM or a spectator.
func (m *model) controlsAttr() attrs {
	if m.v.Viewer.GM || len(m.v.Viewer.Controls) == 0 {
		return nil
	}
	ids, _ := json.Marshal(m.v.Viewer.Controls) // a list of strings always encodes
	return attrs{"data-controls", string(ids)}
}

func (m *model) controls(id string) bool {
	return !m.v.Viewer.GM && slices.Contains(m.v.Viewer.Controls, id)
}

// tokenSummary is a token in one sentence for a screen reader:
// "Goblin 1, Goblins, Wounded, Stunned".
func (m *model) tokenSummary(t *board.Token) string {
	parts := []string{t.Name, m.sideName(t.Side)}
	if t.Acting {
		parts = append(parts, "acting")
	}
	if t.Health != nil {
		parts = append(parts, t.Health.Text)
	}
	for _, c := range marks(t) {
		parts = append(parts, c.Label)
	}
	if t.Down {
		parts = append(parts, "down")
	}
	if t.Out {
		parts = append(parts, "out of the fight")
	}
	return strings.Join(parts, ", ")
}

// place says where a token stands, in words, for the roster.
func (m *model) place(id string) string {
	b := m.board
	switch {
	case b.Zones != nil:
		for _, p := range b.Zones.Places {
			if p.Token != id {
				continue
			}
			s := m.areaName(p.Area)
			if g := m.group(p.Group); g != nil {
				others := slices.DeleteFunc(slices.Clone(g.Members), func(o string) bool { return o == id })
				s += ", in melee with " + commaList(m.nameEach(others))
			}
			return s
		}
	case b.Grid != nil:
		for _, p := range b.Grid.Places {
			if p.Token != id {
				continue
			}
			if p.Off {
				return "off the map"
			}
			s := board.SquareName(p.X, p.Y)
			if p.Group != "" {
				var others []string
				for _, o := range b.Grid.Places {
					if o.Group == p.Group && o.Token != id {
						others = append(others, m.name(o.Token))
					}
				}
				if len(others) > 0 {
					s += ", in contact with " + strings.Join(others, ", ")
				}
			}
			return s
		}
	case b.Pairs != nil:
		var with []string
		for _, e := range b.Pairs.Engagements {
			switch id {
			case e.A:
				with = append(with, e.Distance+" with "+m.name(e.B))
			case e.B:
				with = append(with, e.Distance+" with "+m.name(e.A))
			}
		}
		if len(with) == 0 {
			return "not engaged"
		}
		return strings.Join(with, "; ")
	case b.Ladder != nil:
		t := m.token(id)
		if t == nil {
			return ""
		}
		var at []string
		for _, g := range b.Ladder.Gaps {
			switch t.Side {
			case g.A:
				at = append(at, rungName(b.Ladder, g.Rung)+" from "+m.sideName(g.B))
			case g.B:
				at = append(at, rungName(b.Ladder, g.Rung)+" from "+m.sideName(g.A))
			}
		}
		return strings.Join(at, "; ")
	}
	return ""
}

func (m *model) areaName(id string) string {
	for _, a := range m.board.Zones.Areas {
		if a.ID == id {
			return a.Name
		}
	}
	return id
}

func (m *model) group(id string) *board.Group {
	if id == "" || m.board.Zones == nil {
		return nil
	}
	for i := range m.board.Zones.Groups {
		if m.board.Zones.Groups[i].ID == id {
			return &m.board.Zones.Groups[i]
		}
	}
	return nil
}

// ---- zones --------------------------------------------------------------

// zoneLayout places the areas of a zone map on a small grid of columns and
// rows: where the ruleset gave a hint (X, Y) there, otherwise close to
// the areas they border, so most borders are short lines.
type zoneLayout struct {
	Cols, Rows int
	// Placed is set when every area has its place: the map is the
	// editor's frame of 12 columns.
	Placed bool
	At     map[string][2]int // area id → column, row
	Areas  []zoneCell
	Lines  []zoneLine
}

type zoneCell struct {
	board.Area
	Col, Row int
	W, H     int      // columns and rows spanned, at least 1
	Next     []string // names of the areas it borders
}

type zoneLine struct{ X1, Y1, X2, Y2 string }

func layoutZones(zm *board.ZoneMap) zoneLayout {
	l := zoneLayout{At: map[string][2]int{}}
	n := len(zm.Areas)
	if n == 0 {
		return l
	}
	links := map[string][]string{}
	for _, k := range zm.Links {
		links[k.A] = append(links[k.A], k.B)
		links[k.B] = append(links[k.B], k.A)
	}
	hinted := true
	for _, a := range zm.Areas {
		hinted = hinted && a.X != nil && a.Y != nil
	}
	used := map[[2]int]bool{}
	if hinted {
		for _, a := range zm.Areas {
			p := [2]int{*a.X, *a.Y}
			for used[p] {
				p[0]++
			}
			used[p] = true
			l.At[a.ID] = p
		}
	} else {
		cols := int(math.Ceil(math.Sqrt(float64(n))))
		rows := (n+cols-1)/cols + 1
		// Breadth-first from the first area, so each area follows one it
		// borders.
		order := []string{zm.Areas[0].ID}
		seen := map[string]bool{zm.Areas[0].ID: true}
		for i := 0; i < len(order); i++ {
			for _, nb := range links[order[i]] {
				if !seen[nb] {
					seen[nb] = true
					order = append(order, nb)
				}
			}
			if i == len(order)-1 {
				for _, a := range zm.Areas {
					if !seen[a.ID] {
						seen[a.ID] = true
						order = append(order, a.ID)
						break
					}
				}
			}
		}
		for _, id := range order {
			best, bestCost := [2]int{}, math.MaxInt
			for r := 0; r < rows; r++ {
				for c := 0; c < cols; c++ {
					p := [2]int{c, r}
					if used[p] {
						continue
					}
					cost := 0
					for _, nb := range links[id] {
						if q, ok := l.At[nb]; ok {
							d := max(abs(q[0]-c), abs(q[1]-r))
							cost += d * d * 4
						}
					}
					cost += r*cols + c // reading order breaks ties
					if cost < bestCost {
						best, bestCost = p, cost
					}
				}
			}
			used[best] = true
			l.At[id] = best
		}
	}
	// A laid-out map is trimmed of empty rows and columns; a placed one
	// is drawn where the GM put it (over the scene where it lies).
	minC, minR := math.MaxInt, math.MaxInt
	for _, p := range l.At {
		minC, minR = min(minC, p[0]), min(minR, p[1])
	}
	if hinted {
		minC, minR = 0, 0
	}
	span := map[string][2]int{}
	for _, a := range zm.Areas {
		span[a.ID] = [2]int{max(a.W, 1), max(a.H, 1)}
	}
	for id, p := range l.At {
		p[0] -= minC
		p[1] -= minR
		l.At[id] = p
		l.Cols, l.Rows = max(l.Cols, p[0]+span[id][0]), max(l.Rows, p[1]+span[id][1])
	}
	if hinted {
		// The frame the GM drew in (the editor's): 12 columns, at least
		// 8 rows.
		l.Placed = true
		l.Cols, l.Rows = board.MaxZonePlace+1, max(l.Rows, 8)
	}
	l.Cols, l.Rows = min(l.Cols, board.MaxZonePlace+1), min(l.Rows, board.MaxZonePlace+1)
	names := map[string]string{}
	for _, a := range zm.Areas {
		names[a.ID] = a.Name
	}
	for _, a := range zm.Areas {
		c := zoneCell{Area: a, Col: l.At[a.ID][0], Row: l.At[a.ID][1], W: span[a.ID][0], H: span[a.ID][1]}
		for _, nb := range links[a.ID] {
			c.Next = append(c.Next, names[nb])
		}
		l.Areas = append(l.Areas, c)
	}
	for _, k := range zm.Links {
		a, b := l.At[k.A], l.At[k.B]
		sa, sb := span[k.A], span[k.B]
		l.Lines = append(l.Lines, zoneLine{mid(a[0], sa[0]), mid(a[1], sa[1]), mid(b[0], sb[0]), mid(b[1], sb[1])})
	}
	return l
}

// mid is the middle of n cells from the one at p.
func mid(p, n int) string { return strconv.FormatFloat(float64(p)+float64(max(n, 1))/2, 'f', -1, 64) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// gridClass places an area in the zone map's CSS grid: zc-<col> zr-<row>
// (columns and rows 1–12) and, for an area drawn larger than one cell,
// zw-<columns> zh-<rows> spanned.
func gridClass(c zoneCell) string {
	s := "zc-" + strconv.Itoa(min(c.Col, 11)+1) + " zr-" + strconv.Itoa(min(c.Row, 11)+1)
	if c.W > 1 {
		s += " zw-" + strconv.Itoa(min(c.W, 12-min(c.Col, 11)))
	}
	if c.H > 1 {
		s += " zh-" + strconv.Itoa(min(c.H, 12-min(c.Row, 11)))
	}
	return s
}

func (l zoneLayout) viewBox() string {
	return "0 0 " + strconv.Itoa(max(l.Cols, 1)) + " " + strconv.Itoa(max(l.Rows, 1))
}

func (l zoneLayout) colsClass() string {
	s := "zcols-" + strconv.Itoa(min(max(l.Cols, 1), 12)) + " zrows-" + strconv.Itoa(min(max(l.Rows, 1), 12))
	if l.Placed {
		s += " zplaced"
	}
	return s
}

// groupsIn returns the groups of area id; loose the tokens in it in none.
func (m *model) groupsIn(area string) (groups []board.Group, loose []string) {
	zm := m.board.Zones
	groups = slices.DeleteFunc(slices.Clone(zm.Groups), func(g board.Group) bool { return g.Area != area })
	for _, p := range zm.Places {
		if p.Area == area && (p.Group == "" || m.group(p.Group) == nil) {
			loose = append(loose, p.Token)
		}
	}
	return groups, loose
}

// ---- grid ---------------------------------------------------------------

// gridPic is a grid board as an SVG in cell units: tokens at their cell
// centres (several in a cell share it), contact groups outlined.
type gridPic struct {
	W, H int
	// PxW and PxH are the drawing's size where the page does not stretch
	// it to fit (a phone's board scrolls instead): large enough that the
	// smallest token is at least minTokenPx across.
	PxW, PxH int
	Cells    []board.Cell
	Tokens   []gridToken
	Groups   []gridGroup
	Off      []string // tokens off the map
	Cols     []gridLabel
	Rows     []gridLabel
	// Walls and Windows are the paths of the walls and windows between
	// squares (a door's jambs are wall); Doors the doors themselves.
	Walls, Windows string
	Doors          []gridDoor
}

// gridDoor is a door between two squares: a bar across the gap between
// its jambs while closed, a leaf swung open (a thin line at right angles
// to the wall) while open.
type gridDoor struct {
	X1, Y1, X2, Y2 string
	Open           bool
	Title          string
}

type gridToken struct {
	ID       string
	At       string  // the square, "x,y"
	X, Y     string  // its centre, in cell units
	R        float64 // its radius, in cell units, to a hundredth
	Initials string
	Shape    string // the token's pose's (board.Flat, board.Low) or none
}

type gridGroup struct{ X, Y, W, H string }

type gridLabel struct {
	At   string
	Text string
}

// minTokenPx is the smallest a token may be drawn where the page does not
// stretch the grid (a phone): a fingertip's target. minSquarePx is the
// smallest square.
const (
	minTokenPx  = 25
	minSquarePx = 32
)

// A token of a Flat pose is drawn as a flattened disc, a Low one smaller.
const (
	flatSquash = 0.7
	lowShrink  = 0.85
)

func f2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func newGridPic(m *model) gridPic {
	g := m.board.Grid
	// Bounded by construction: never more than board.MaxGridSide squares a
	// side, whatever the board says.
	p := gridPic{W: min(max(g.Width, 1), board.MaxGridSide), H: min(max(g.Height, 1), board.MaxGridSide), Cells: g.Cells}
	byCell := map[[2]int][]board.Placed{}
	var cells [][2]int
	for _, pl := range g.Places {
		if m.token(pl.Token) == nil {
			continue
		}
		if pl.Off {
			p.Off = append(p.Off, pl.Token)
			continue
		}
		k := [2]int{pl.X, pl.Y}
		if _, ok := byCell[k]; !ok {
			cells = append(cells, k)
		}
		byCell[k] = append(byCell[k], pl)
	}
	minR := 0.42
	for _, k := range cells {
		ps := byCell[k]
		n := len(ps)
		for i, pl := range ps {
			cx, cy, r := float64(k[0])+0.5, float64(k[1])+0.5, 0.42
			if n > 1 {
				// Share the cell: up to four quarters, then smaller.
				per := int(math.Ceil(math.Sqrt(float64(n))))
				r = 0.46 / float64(per)
				cx = float64(k[0]) + (float64(i%per)+0.5)/float64(per)
				cy = float64(k[1]) + (float64(i/per)+0.5)/float64(per)
			}
			gt := gridToken{ID: pl.Token, At: strconv.Itoa(k[0]) + "," + strconv.Itoa(k[1]), X: f2(cx), Y: f2(cy), R: math.Round(r*100) / 100,
				Initials: initials(m.name(pl.Token))}
			if s := m.token(pl.Token).Pose; s != nil {
				gt.Shape = s.Shape
			}
			switch gt.Shape {
			case board.Flat: // drawn as a flat ellipse
				minR = min(minR, r*flatSquash)
			case board.Low:
				minR = min(minR, r*lowShrink)
			default:
				minR = min(minR, r)
			}
			p.Tokens = append(p.Tokens, gt)
		}
	}
	// A square wide enough that the smallest token (flat and low ones are
	// drawn smaller) is minTokenPx across.
	sq := max(minSquarePx, int(math.Ceil(minTokenPx/(2*minR))))
	p.PxW, p.PxH = int(math.Ceil((float64(p.W)+0.7)*float64(sq))), int(math.Ceil((float64(p.H)+0.7)*float64(sq)))
	groups := map[string][4]int{}
	var order []string
	for _, pl := range g.Places {
		if pl.Group == "" || pl.Off {
			continue
		}
		b, ok := groups[pl.Group]
		if !ok {
			order = append(order, pl.Group)
			b = [4]int{pl.X, pl.Y, pl.X, pl.Y}
		}
		b = [4]int{min(b[0], pl.X), min(b[1], pl.Y), max(b[2], pl.X), max(b[3], pl.Y)}
		groups[pl.Group] = b
	}
	for _, id := range order {
		b := groups[id]
		p.Groups = append(p.Groups, gridGroup{X: f2(float64(b[0]) + 0.04), Y: f2(float64(b[1]) + 0.04),
			W: f2(float64(b[2]-b[0]+1) - 0.08), H: f2(float64(b[3]-b[1]+1) - 0.08)})
	}
	p.edges(g.Edges)
	if p.W <= 26 {
		for x := 0; x < p.W; x++ {
			p.Cols = append(p.Cols, gridLabel{At: f2(float64(x) + 0.5), Text: strings.TrimRight(board.SquareName(x, 0), "1")})
		}
	}
	for y := 0; y < p.H; y++ {
		p.Rows = append(p.Rows, gridLabel{At: f2(float64(y) + 0.5), Text: strconv.Itoa(y + 1)})
	}
	return p
}

// doorJamb is how much of a door's side is wall at each end.
const doorJamb = 0.15

// edges draws the walls, windows and doors between squares that lie on
// the drawing.
func (p *gridPic) edges(edges []board.Edge) {
	var walls, windows strings.Builder
	seg := func(b *strings.Builder, x1, y1, x2, y2 float64) {
		b.WriteString("M" + f2(x1) + " " + f2(y1) + "L" + f2(x2) + " " + f2(y2))
	}
	for _, e := range edges {
		// The side from (x1, y1) to (x1+dx, y1+dy), a square long.
		x1, y1, dx, dy := float64(e.X), float64(e.Y), 1.0, 0.0
		switch {
		case e.Side == board.West && e.X >= 0 && e.X <= p.W && e.Y >= 0 && e.Y < p.H:
			dx, dy = 0, 1
		case e.Side == board.North && e.X >= 0 && e.X < p.W && e.Y >= 0 && e.Y <= p.H:
		default:
			continue
		}
		switch e.Kind {
		case board.EdgeWindow:
			seg(&windows, x1, y1, x1+dx, y1+dy)
		case board.EdgeDoor:
			seg(&walls, x1, y1, x1+dx*doorJamb, y1+dy*doorJamb)
			seg(&walls, x1+dx*(1-doorJamb), y1+dy*(1-doorJamb), x1+dx, y1+dy)
			hx, hy := x1+dx*doorJamb, y1+dy*doorJamb // the hinge
			d := gridDoor{X1: f2(hx), Y1: f2(hy), X2: f2(x1 + dx*(1-doorJamb)), Y2: f2(y1 + dy*(1-doorJamb)), Open: e.Open,
				Title: "Door " + e.Name() + " — closed"}
			if e.Open {
				// The leaf swings into the square east or south of the side.
				d.X2, d.Y2, d.Title = f2(hx+dy*(1-2*doorJamb)), f2(hy+dx*(1-2*doorJamb)), "Door "+e.Name()+" — open"
			}
			p.Doors = append(p.Doors, d)
		default:
			seg(&walls, x1, y1, x1+dx, y1+dy)
		}
	}
	p.Walls, p.Windows = walls.String(), windows.String()
}

func (p gridPic) viewBox() string {
	return "-0.6 -0.6 " + f2(float64(p.W)+0.7) + " " + f2(float64(p.H)+0.7)
}

func (p gridPic) lines() string {
	var b strings.Builder
	for x := 0; x <= p.W; x++ {
		b.WriteString("M" + strconv.Itoa(x) + " 0V" + strconv.Itoa(p.H))
	}
	for y := 0; y <= p.H; y++ {
		b.WriteString("M0 " + strconv.Itoa(y) + "H" + strconv.Itoa(p.W))
	}
	return b.String()
}

func cellTitle(c board.Cell) string {
	parts := []string{board.SquareName(c.X, c.Y)}
	if c.Label != "" {
		parts = append(parts, c.Label)
	}
	parts = append(parts, c.Features...)
	if c.Blocks {
		parts = append(parts, "blocks line of sight")
	}
	return strings.Join(parts, " — ")
}

// ---- pairs and ladder -----------------------------------------------------

// sideTokens are the tokens of one side, in board order.
func (m *model) sideTokens(side string) []*board.Token {
	var out []*board.Token
	for i := range m.board.Tokens {
		if m.board.Tokens[i].Side == side {
			out = append(out, &m.board.Tokens[i])
		}
	}
	return out
}

// engagedIn are the ladder's engaged pairs between the two sides of gap
// (either way round); the first gap also takes any pair whose sides have
// no gap of their own, so that every pair is drawn.
func (m *model) engagedIn(gap board.SideGap, first bool) []board.Engagement {
	l := m.board.Ladder
	between := func(e board.Engagement, g board.SideGap) bool {
		a, b := m.token(e.A), m.token(e.B)
		if a == nil || b == nil {
			return false
		}
		return (a.Side == g.A && b.Side == g.B) || (a.Side == g.B && b.Side == g.A)
	}
	var out []board.Engagement
	for _, e := range l.Engaged {
		if between(e, gap) || (first && !slices.ContainsFunc(l.Gaps, func(g board.SideGap) bool { return between(e, g) })) {
			out = append(out, e)
		}
	}
	return out
}

// rungClass marks the rung a gap stands at.
func rungClass(gap board.SideGap, i int) string {
	if gap.Rung == i {
		return "rung at"
	}
	return "rung"
}

func rungName(l *board.LadderMap, i int) string {
	if i >= 0 && i < len(l.Rungs) {
		return l.Rungs[i].Name
	}
	return strconv.Itoa(i)
}

func groupLabel(g board.Group) string { return cmp.Or(g.Label, "Group") }

func bandsText(bands []string) string {
	parts := make([]string, len(bands))
	for i, b := range bands {
		parts[i] = strconv.Itoa(i) + " " + b
	}
	return strings.Join(parts, ", ")
}

// r is k times the token's radius, written for the drawing.
func (gt gridToken) r(k float64) string { return f2(gt.R * k) }

// nextText is an area's borders, shown beside its name on a phone.
func nextText(next []string) string {
	if len(next) == 0 {
		return ""
	}
	return " · next to " + strings.Join(next, ", ")
}

// modelWords names a position model for someone choosing an encounter.
func modelWords(model string) string {
	switch model {
	case board.Zones:
		return "zones and melees"
	case board.Grid:
		return "a grid of squares"
	case board.Pairs:
		return "pairwise engagements"
	case board.Ladder:
		return "distance categories between sides"
	}
	return ""
}

// orderEntry is all the turn order shows of a combatant: its element's
// id, its side's class, whether it may act now or is out, its name, and
// of its token its draw, portrait and health.
type orderEntry struct {
	ID, SideClass        string
	Current, Out         bool
	Name                 string
	Initiative, Portrait string
	Health               *board.Meter
}

func (m *model) orderEntry(id string) orderEntry {
	e := orderEntry{ID: m.uniqueID("turn-" + slug(id)), SideClass: m.sideClass(""),
		Current: slices.Contains(m.v.Acting, id), Name: m.name(id)}
	if c := m.byID[id]; c != nil {
		e.SideClass, e.Out = m.sideClass(c.Side), c.Out
	}
	if t := m.token(id); t != nil {
		e.Initiative, e.Portrait, e.Health = t.Initiative, t.Portrait, t.Health
	}
	return e
}
