package prep

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// A battlemap (uvtt.Map) becomes a draft's battlefield here, whatever the
// ruleset: its editor's model says how.
//   - Zones: the rooms become zones (internal/battlemap, zones of at most
//     the editor's ZoneSpan squares across), placed on the page's
//     12-column map where they lie on the picture; the scene is fitted to
//     that map at the map's own scale. The ranges between zones, from the
//     shortest paths at the map's scale, become a GM note on the
//     encounter.
//   - Grid: the board is the map's squares at the editor's scale (a map
//     square is 5 ft; a 30 m band holds 20 of them), the scene fitted to
//     it.
//   - Pairs and ladder: the rooms become places the sides or combatants
//     start in, and the starting distances follow from the paths between
//     them (places.go); the picture is only the scene.
//
// Walls do not yet block squares on a grid: they make zones only.

// MapSquareMetres is the side of a battlemap's square: 5 ft.
const MapSquareMetres = 1.524

// MapReport says what ApplyMap made of a map.
type MapReport struct {
	Zones, Links int
	// Places are the rooms made places (pairs and ladder models).
	Places int
	// Width and Height are the grid made (grid model).
	Width, Height int
	// Ranges are the lines of the range table ("Room 1 → Room 3: 2 zones,
	// 9 squares"), nearest first (zones model), or of the starting
	// distances the places give (PlaceRange, pairs and ladder models).
	Ranges []string
	Notes  []string
}

// ApplyMap replaces the battlefield of s with the one m makes for rs (see
// above): the zones or the grid, and the scene's fit; every combatant's
// start is placed again (the first side in the first zone or the left
// column, the others in the zone farthest from it or the right column),
// starting melees are dropped. s.Scene is left to the caller (the picture
// is an upload). Nothing changes when it fails.
func ApplyMap(rs engine.Ruleset, s *engine.Setup, m *uvtt.Map, o battlemap.Options) (MapReport, error) {
	e, ok := EditorOf(rs)
	if !ok {
		return MapReport{}, fray.Errorf(fray.EINVALID, "%s draws no board: a map cannot become its battlefield", rs.ID())
	}
	old, err := ReadBattlefield(*s)
	if err != nil {
		return MapReport{}, err
	}
	switch ModelOf(e, old) {
	case board.Zones:
		return applyZones(e, s, m, o)
	case board.Grid:
		return applyGrid(e, s, old.Model, m, o)
	case board.Pairs, board.Ladder:
		return applyPlaces(e, s, old, m, o)
	}
	return MapReport{}, fray.Errorf(fray.EINVALID, "a %s battlefield has no places a map could give (it is %s): use the map's picture as the scene instead",
		rs.ID(), ModelOf(e, old))
}

func applyZones(e board.Editor, s *engine.Setup, m *uvtt.Map, o battlemap.Options) (MapReport, error) {
	if o.ZoneSpan == 0 {
		o.ZoneSpan = e.ZoneSpan
	}
	plan, err := battlemap.Plan(m, o)
	if err != nil {
		return MapReport{}, fray.Errorf(fray.EINVALID, "%v", err)
	}
	// Squares a column of the page's map: the map's longer side fills
	// the 12 columns (or rows).
	side := float64(board.MaxZonePlace + 1)
	per := math.Max(float64(m.Width), float64(m.Height)) / side
	at := func(v int) int { return min(int(math.Round(float64(v)/per)), board.MaxZonePlace+1) }
	bf := board.Battlefield{Zones: make([]board.ZoneSetup, len(plan.Zones)), Scale: round2(per)}
	names := map[string]string{}
	for i, z := range plan.Zones {
		x0, y0 := min(at(z.X), board.MaxZonePlace), min(at(z.Y), board.MaxZonePlace)
		x1, y1 := max(at(z.X+z.W), x0+1), max(at(z.Y+z.H), y0+1)
		bf.Zones[i] = board.ZoneSetup{ID: z.ID, Name: z.Name, Description: z.Description, Adjacent: []string{},
			X: &x0, Y: &y0, W: x1 - x0, H: y1 - y0}
		names[z.ID] = z.Name
	}
	for _, l := range plan.Links {
		for i := range bf.Zones {
			switch bf.Zones[i].ID {
			case l.A:
				bf.Zones[i].Adjacent = append(bf.Zones[i].Adjacent, l.B)
			case l.B:
				bf.Zones[i].Adjacent = append(bf.Zones[i].Adjacent, l.A)
			}
		}
	}
	if old, err := ReadBattlefield(*s); err == nil {
		bf.Model = old.Model
	}
	rep := MapReport{Zones: len(plan.Zones), Links: len(plan.Links), Notes: plan.Notes}
	for _, r := range plan.Ranges {
		rep.Ranges = append(rep.Ranges, fmt.Sprintf("%s → %s: %s, %s", names[r.A], names[r.B], count(r.Hops, "zone"), count(r.Squares, "square")))
	}
	// Starts: the first side in the first zone, the rest as far from it
	// as the map goes.
	first, far := "", ""
	if len(plan.Zones) > 0 {
		first, far = plan.Zones[0].ID, plan.Zones[0].ID
		best := -1
		for _, r := range plan.Ranges {
			if r.A == first && r.Squares > best {
				far, best = r.B, r.Squares
			}
		}
	}
	for i := range s.Combatants {
		c := &s.Combatants[i]
		st := StartOf(*c)
		st.Zone, st.X, st.Y, st.Group = far, nil, nil, ""
		if len(s.Sides) > 0 && c.Side == s.Sides[0].ID {
			st.Zone = first
		}
		SetStart(c, st)
	}
	WriteBattlefield(s, bf)
	s.ZoneScenes = nil
	s.SceneFit = &engine.SceneFit{W: round2(float64(m.Width) / per), H: round2(float64(m.Height) / per)}
	s.Notes = slices.DeleteFunc(s.Notes, func(n engine.Note) bool { return strings.HasPrefix(n.Subject, "zone:") || n.Text == "" })
	if len(rep.Ranges) > 0 {
		text := "Ranges from the map (shortest path through doors and openings):\n" + strings.Join(rep.Ranges, "\n")
		if len([]rune(text)) > engine.MaxNoteRunes {
			text = string([]rune(text)[:engine.MaxNoteRunes-1]) + "…"
		}
		s.Notes = setNote(s.Notes, engine.Note{Subject: "encounter", Text: text})
	}
	return rep, nil
}

// setNote replaces the encounter's note, or adds it.
func setNote(ns []engine.Note, n engine.Note) []engine.Note {
	for i := range ns {
		if ns[i].Subject == n.Subject {
			ns[i] = n
			return ns
		}
	}
	return append(ns, n)
}

var scaleText = regexp.MustCompile(`^\s*([0-9]+(?:\.[0-9]+)?)\s*(m|ft)\s*$`)

// squaresPerCell is how many of a map's 5-ft squares one square of the
// editor's scale spans ("5 ft": 1, "2 m": 1, "30 m": 20).
func squaresPerCell(scale string) int {
	mm := scaleText.FindStringSubmatch(scale)
	if mm == nil {
		return 1
	}
	v, _ := strconv.ParseFloat(mm[1], 64)
	if mm[2] == "ft" {
		v *= 0.3048
	}
	return max(1, int(math.Round(v/MapSquareMetres)))
}

func applyGrid(e board.Editor, s *engine.Setup, model string, m *uvtt.Map, o battlemap.Options) (MapReport, error) {
	per := squaresPerCell(e.Scale)
	w, h := ceilDiv(m.Width, per), ceilDiv(m.Height, per)
	maxW, maxH := board.MaxGridSide, board.MaxGridSide
	if e.MaxWidth > 0 {
		maxW = min(maxW, e.MaxWidth)
	}
	if e.MaxHeight > 0 {
		maxH = min(maxH, e.MaxHeight)
	}
	if w > maxW || h > maxH {
		return MapReport{}, fray.Errorf(fray.EINVALID, "the map is %d × %d squares of %s: this board holds at most %d × %d; crop the map in the program that drew it",
			w, h, e.Scale, maxW, maxH)
	}
	bf := board.Battlefield{Model: model, Width: w, Height: h}
	rep := MapReport{Width: w, Height: h}
	var solid []bool // the map's squares made walls (one map square a cell)
	if per > 1 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("Each square of %s holds %d × %d squares of the map.", e.Scale, per, per))
	}
	if per == 1 && len(e.Wall) > 0 && len(m.Walls) > 0 {
		// Squares with no floor (outside the walls, a pillar's inside)
		// become the ruleset's walls.
		solid = battlemap.Solid(m, o)
		for i, s := range solid {
			if s {
				bf.Cells = append(bf.Cells, board.CellSetup{X: i % m.Width, Y: i / m.Width, Props: maps.Clone(e.Wall)})
			}
		}
		if n := len(bf.Cells); n > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s outside the walls or inside pillars made walls.", count(n, "square")))
		}
	}
	if len(m.Walls) > 0 || len(m.Portals) > 0 {
		// The walls between squares, the doors (as the file left them) and
		// the windows: they block movement and sight on every grid.
		bf.Edges = battlemap.Edges(m, o, per)
		if note := edgesNote(bf.Edges); note != "" {
			rep.Notes = append(rep.Notes, note)
		}
		if per > 1 {
			rep.Notes = append(rep.Notes, "Walls and doors inside a square of "+e.Scale+" are left out; a side of one with an opening anywhere along it is open.")
		}
	}
	// Starts: the first side on the free squares from the left, column
	// by column, the others from the right, one a square (a board too
	// small: several a square).
	var free [][2]int
	for x := range w {
		for y := range h {
			if solid == nil || !solid[y*w+x] {
				free = append(free, [2]int{x, y})
			}
		}
	}
	if len(free) == 0 {
		return MapReport{}, fray.Errorf(fray.EINVALID, "the map has no floor: every square is outside its walls")
	}
	taken := [2]int{}
	for i := range s.Combatants {
		c := &s.Combatants[i]
		st := StartOf(*c)
		if st.X == nil && st.Zone == "" && len(st.Props) > 0 {
			continue // off the board by the ruleset's own property: still off
		}
		k := 1
		if len(s.Sides) > 0 && c.Side == s.Sides[0].ID {
			k = 0
		}
		n := taken[k] % len(free)
		if k == 1 {
			n = len(free) - 1 - n
		}
		taken[k]++
		x, y := free[n][0], free[n][1]
		st.X, st.Y, st.Zone, st.Group = &x, &y, "", ""
		SetStart(c, st)
	}
	WriteBattlefield(s, bf)
	s.ZoneScenes = nil
	s.SceneFit = &engine.SceneFit{W: round2(float64(m.Width) / float64(per)), H: round2(float64(m.Height) / float64(per))}
	return rep, nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// edgesNote says what walls between squares a map gave a grid.
func edgesNote(edges []board.Edge) string {
	walls, doors, windows := board.CountEdges(edges)
	if walls+doors+windows == 0 {
		return ""
	}
	parts := []string{count(walls, "wall")}
	if doors > 0 {
		parts = append(parts, count(doors, "door"))
	}
	if windows > 0 {
		parts = append(parts, count(windows, "window"))
	}
	return "Between squares: " + strings.Join(parts, ", ") + " (a square's side each); they block movement and sight, a window only movement, and the GM opens and closes the doors in play."
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// MapSetup makes a whole setup document from a map for ruleset rs: the
// fighters of the ruleset's first shipped example of the battlefield's
// model (model, "" for the ruleset's default; a starting point to
// change), on the battlefield the map makes (ApplyMap). It is what
// `server map` prints.
func MapSetup(rs engine.Ruleset, m *uvtt.Map, name, model string, o battlemap.Options) (engine.Setup, MapReport, error) {
	exs, err := Examples()
	if err != nil {
		return engine.Setup{}, MapReport{}, err
	}
	e, _ := EditorOf(rs)
	if model == "" {
		model = e.Model
	}
	if model != e.Model && !slices.ContainsFunc(e.Models, func(o board.Option) bool { return o.Value == model }) {
		return engine.Setup{}, MapReport{}, fray.Errorf(fray.EINVALID, "%s has no %q battlefield", rs.ID(), model)
	}
	var s *engine.Setup
	for _, ex := range exs {
		if ex.Ruleset != rs.ID() || ModelOf(e, board.Battlefield{Model: ex.Model}) != model {
			continue
		}
		var setup engine.Setup
		if err := strictjson.Decode(ex.Data, &setup); err != nil {
			return engine.Setup{}, MapReport{}, err
		}
		s = &setup
		break
	}
	if s == nil {
		blank := NewDraftSetup(rs, name)
		s = &blank
	}
	if name == "" {
		name = m.Name
	}
	if name == "" {
		name = "Imported map"
	}
	s.Name = name
	// The example's stage belonged to its own battlefield.
	s.Scene, s.Scenes, s.Handouts, s.Notes, s.ZoneScenes, s.SceneFit = "", nil, nil, nil, nil, nil
	bf, err := ReadBattlefield(*s)
	if err != nil {
		return engine.Setup{}, MapReport{}, err
	}
	if model != e.Model {
		bf.Model = model
	}
	WriteBattlefield(s, board.Battlefield{Model: bf.Model})
	rep, err := ApplyMap(rs, s, m, o)
	if err != nil {
		return engine.Setup{}, MapReport{}, err
	}
	// Round-trip: the document is what a file would hold.
	data, err := json.Marshal(s)
	if err != nil {
		return engine.Setup{}, MapReport{}, err
	}
	out, err := engine.DecodeSetup(data)
	return out, rep, err
}

// ZoneRanges are the ranges between a draft's zones as they stand (after
// the GM's fix-ups): the fewest borders crossed and, when the zones came
// from a map (bf.Scale) and all have their place, the squares of the map
// walked from the middle of one zone's box to the next's. Names are the
// zones'.
func ZoneRanges(bf board.Battlefield) []battlemap.Range {
	zones := make([]battlemap.Zone, len(bf.Zones))
	index := map[string]int{}
	scale := bf.Scale
	for i, z := range bf.Zones {
		index[z.ID] = i
		zones[i] = battlemap.Zone{ID: z.ID, Name: z.Name}
		if z.X == nil || z.Y == nil {
			scale = 0
			continue
		}
		zones[i].CX = (float64(*z.X) + float64(max(z.W, 1))/2) * bf.Scale
		zones[i].CY = (float64(*z.Y) + float64(max(z.H, 1))/2) * bf.Scale
	}
	var links []battlemap.Link
	for i, z := range bf.Zones {
		for _, n := range Adjacent(bf, z.ID) {
			j, ok := index[n]
			if !ok || j <= i {
				continue
			}
			a, b := zones[i], zones[j]
			links = append(links, battlemap.Link{A: a.ID, B: b.ID, At: uvtt.Point{X: (a.CX + b.CX) / 2, Y: (a.CY + b.CY) / 2}})
		}
	}
	rs := battlemap.Ranges(zones, links)
	for i := range rs {
		rs[i].A, rs[i].B = zones[index[rs[i].A]].Name, zones[index[rs[i].B]].Name
		if scale == 0 {
			rs[i].Squares = 0
		}
	}
	if scale == 0 {
		slices.SortStableFunc(rs, func(p, q battlemap.Range) int { return p.Hops - q.Hops })
	}
	return rs
}
