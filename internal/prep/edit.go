package prep

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
)

func bad(format string, args ...any) error { return fray.Errorf(fray.EINVALID, format, args...) }

// DraftEditor edits a draft's setup as the encounter editor's forms ask:
// settings, sides and combatants, and the battlefield as the ruleset's
// board editor describes it.
type DraftEditor struct {
	// Board describes the ruleset's battlefield; Boarded is false for a
	// ruleset that draws no board (its drafts have no battlefield).
	Board   board.Editor
	Boarded bool
	// Options are the ruleset's options (settings).
	Options []engine.OptionSpec
	// Block finds one of the campaign's stat blocks (add-bestiary,
	// add-character); kind is store.KindBestiary or store.KindCharacter.
	Block func(kind, id string) (store.StatBlock, error)
	// Schema is the ruleset's stat block editor (combatant-stats), nil
	// when it has none; Derive checks stats as the ruleset reads them.
	Schema *sheet.Schema
	Derive func(json.RawMessage) error
}

// EditorFor is the draft editor of ruleset rs, finding stat blocks with block.
func EditorFor(rs engine.Ruleset, block func(kind, id string) (store.StatBlock, error)) DraftEditor {
	e, ok := EditorOf(rs)
	ed := DraftEditor{Board: e, Boarded: ok, Options: rs.Options(), Block: block, Derive: func(json.RawMessage) error { return nil }}
	if sc, err := SchemaOf(rs); err == nil {
		ed.Schema = &sc
	}
	if d, ok := rs.(sheet.Deriver); ok {
		ed.Derive = func(stats json.RawMessage) error { _, err := d.Derive(stats); return err }
	}
	return ed
}

// Apply applies one edit (op, with the posted form f) to s. Edits keep
// the setup well formed (no duplicate ids, cells inside the grid, known
// sides and combatants); whether it makes a good fight is for the ruleset
// to say when the encounter is created.
//
// Ops and their fields:
//   - settings: name, option.* ; side-add: name ; side-rename: side, name ;
//     side-remove: side
//   - add-bestiary: entry ; add-character: character ; both with count,
//     side, hidden, start.* (see StartFromForm)
//   - combatant-update: combatant, side, hidden, start.* ;
//     combatant-stats: combatant, name and the stat schema's fields (this
//     encounter's copy of its stat block; the bestiary is not touched) ;
//     place: combatant, start.* (where it starts, as dropped on the
//     board; its other start properties stay) ; combatant-remove: combatant
//   - model: model (a choice of the editor's Models)
//   - zone-add: name, description, x, y (its place on the map, optional),
//     prop.* ; zone-update: zone and the same ; zone-remove: zone ;
//     connect, disconnect: a, b
//   - melee-add: members (several) ; melee-remove: melee
//   - grid-size: width, height ; cell-set: x, y or cells ("x,y", several:
//     painted), prop.* (no properties: open ground) ; cell-remove: the same
//   - pair-add: a, b, distance ; pair-remove: index
//   - distance-set: a, b, rung (sides)
//   - scene: scene (a picture's URL, "" for none) ; portrait: combatant,
//     portrait ; handout-add: title, text, image ; handout-remove:
//     handout ; note: subject ("encounter", "combatant:<id>",
//     "zone:<id>"), text ; zone-picture: zone, image (a picture's URL,
//     "" for none) ; scene-fit: x, y, w, h (the scene as a map covering
//     w × h squares or zone-map cells from x, y; all empty, or w and h 0,
//     for none)
func (ed DraftEditor) Apply(s *engine.Setup, op string, f url.Values) error {
	val := func(k string) string { return strings.TrimSpace(f.Get(k)) }
	if setupOps[op] {
		return ed.editSetup(s, op, f, val)
	}
	if !ed.Boarded {
		if battlefieldOps[op] {
			return bad("this ruleset has no battlefield to edit")
		}
		return bad("unknown edit %q", op)
	}
	b, err := ReadBattlefield(*s)
	if err != nil {
		return err
	}
	e, members := ed.Board, f["members"]
	model := ModelOf(e, b)
	zone := func(id string) (*board.ZoneSetup, error) {
		for i := range b.Zones {
			if b.Zones[i].ID == id {
				return &b.Zones[i], nil
			}
		}
		return nil, bad("no zone %q", id)
	}
	num := func(k, label string, lo, hi int) (int, error) {
		n, err := strconv.Atoi(val(k))
		if err != nil || n < lo || n > hi {
			return 0, bad("%s must be a whole number from %d to %d", label, lo, hi)
		}
		return n, nil
	}
	switch op {
	case "model":
		m := val("model")
		if !slices.ContainsFunc(e.Models, func(o board.Option) bool { return o.Value == m }) {
			return bad("this ruleset has no %q battlefield", m)
		}
		b = board.Battlefield{Model: m}
		s.ZoneScenes = nil // no zones left to picture
		if m == board.Grid {
			b.Width, b.Height = min(max(e.MaxWidth, 1), 12), min(max(e.MaxHeight, 1), 8)
		}
		for i := range s.Combatants {
			SetStart(&s.Combatants[i], board.Start{})
		}
	case "zone-add", "zone-update":
		if model != board.Zones {
			return bad("this battlefield has no zones")
		}
		name := val("name")
		if name == "" {
			return bad("a zone needs a name")
		}
		if len(name) > 80 || len(val("description")) > 1000 {
			return bad("a zone's name is at most 80 characters, its description 1000")
		}
		props, err := PropsFromForm(e.Area, f.Get, "prop.", "zone "+name)
		if err != nil {
			return err
		}
		// Where the zone sits on the page's map: both or neither.
		var x, y *int
		if val("x") != "" || val("y") != "" {
			cx, err := num("x", "The map column", 0, 11)
			if err != nil {
				return err
			}
			cy, err := num("y", "The map row", 0, 11)
			if err != nil {
				return err
			}
			x, y = &cx, &cy
		}
		// The columns and rows it spans there (a drawn rectangle's).
		w, h := 0, 0
		if val("w") != "" || val("h") != "" {
			if x == nil {
				return bad("a zone's size on the map needs its place (column and row)")
			}
			if w, err = num("w", "The columns a zone spans", 1, 12); err != nil {
				return err
			}
			if h, err = num("h", "The rows a zone spans", 1, 12); err != nil {
				return err
			}
			if *x+w > 12 || *y+h > 12 {
				return bad("a zone of %d × %d from column %d, row %d does not fit the map's 12 columns and rows", w, h, *x, *y)
			}
		}
		if op == "zone-add" {
			used := map[string]bool{}
			for _, z := range b.Zones {
				used[z.ID] = true
			}
			b.Zones = append(b.Zones, board.ZoneSetup{ID: sheet.UniqueSlug(name, used), Name: name, Description: val("description"),
				Adjacent: []string{}, Props: props, X: x, Y: y, W: w, H: h})
			break
		}
		z, err := zone(val("zone"))
		if err != nil {
			return err
		}
		if z.Name != name {
			for i := range b.Zones {
				if b.Zones[i].ID != z.ID {
					b.Zones[i].Description = RenameIn(b.Zones[i].Description, z.Name, name)
				}
			}
		}
		z.Name, z.Description, z.Props, z.X, z.Y, z.W, z.H = name, val("description"), props, x, y, w, h
	case "zone-remove":
		if _, err := zone(val("zone")); err != nil {
			return err
		}
		RemoveZone(s, &b, val("zone"))
	case "zone-merge":
		if model != board.Zones {
			return bad("this battlefield has no zones")
		}
		za, err := zone(val("a"))
		if err != nil {
			return err
		}
		zb, err := zone(val("b"))
		if err != nil {
			return err
		}
		if za.ID == zb.ID {
			return bad("choose two different zones to merge")
		}
		MergeZones(s, &b, za.ID, zb.ID)
	case "zone-split":
		if model != board.Zones {
			return bad("this battlefield has no zones")
		}
		z, err := zone(val("zone"))
		if err != nil {
			return err
		}
		at, err := num("at", "The line", 1, board.MaxZonePlace)
		if err != nil {
			return err
		}
		if err := SplitZone(s, &b, z.ID, val("axis"), at); err != nil {
			return err
		}
	case "connect", "disconnect":
		za, err := zone(val("a"))
		if err != nil {
			return err
		}
		zb, err := zone(val("b"))
		if err != nil {
			return err
		}
		if za.ID == zb.ID {
			return bad("a zone cannot border itself")
		}
		za.Adjacent = slices.DeleteFunc(za.Adjacent, func(a string) bool { return a == zb.ID })
		zb.Adjacent = slices.DeleteFunc(zb.Adjacent, func(a string) bool { return a == za.ID })
		if op == "connect" {
			za.Adjacent = append(za.Adjacent, zb.ID)
		}
	case "melee-add":
		if len(members) < 2 {
			return bad("a melee needs at least two members")
		}
		zones := map[string]bool{}
		for _, c := range s.Combatants {
			if slices.Contains(members, c.ID) {
				zones[StartOf(c).Zone] = true
			}
		}
		if len(zones) != 1 || zones[""] {
			return bad("the members of a melee must all start in the same zone")
		}
		used := map[string]bool{}
		for _, id := range members {
			LeaveGroups(&b, id)
		}
		for _, ml := range b.Melees {
			used[ml.ID] = true
		}
		var z string
		for k := range zones {
			z = k
		}
		b.Melees = append(b.Melees, board.GroupSetup{ID: sheet.UniqueSlug("m", used), Zone: z, Members: slices.Clone(members)})
	case "melee-remove":
		b.Melees = slices.DeleteFunc(b.Melees, func(ml board.GroupSetup) bool { return ml.ID == val("melee") })
	case "grid-size":
		if model != board.Grid {
			return bad("this battlefield is not a grid")
		}
		w, err := num("width", "The width", 1, max(e.MaxWidth, 1))
		if err != nil {
			return err
		}
		h, err := num("height", "The height", 1, max(e.MaxHeight, 1))
		if err != nil {
			return err
		}
		b.Width, b.Height = w, h
		b.Cells = slices.DeleteFunc(b.Cells, func(c board.CellSetup) bool { return c.X >= w || c.Y >= h })
		b.Edges = slices.DeleteFunc(b.Edges, func(e board.Edge) bool { _, err := board.NewWalls(w, h, []board.Edge{e}); return err != nil })
		for i := range s.Combatants {
			if st := StartOf(s.Combatants[i]); st.X != nil && (*st.X >= w || *st.Y >= h) {
				st.X, st.Y = nil, nil
				SetStart(&s.Combatants[i], st)
			}
		}
	case "cell-set", "cell-remove":
		if model != board.Grid {
			return bad("this battlefield is not a grid")
		}
		// One square (x, y), or several painted at once (cells: "x,y" each).
		var squares [][2]int
		if cells := f["cells"]; len(cells) > 0 {
			if len(cells) > b.Width*b.Height {
				return bad("more squares than the grid has")
			}
			for _, c := range cells {
				xs, ys, _ := strings.Cut(c, ",")
				x, errX := strconv.Atoi(xs)
				y, errY := strconv.Atoi(ys)
				if errX != nil || errY != nil || x < 0 || y < 0 || x >= b.Width || y >= b.Height {
					return bad("a painted square must be inside the %d×%d grid", b.Width, b.Height)
				}
				squares = append(squares, [2]int{x, y})
			}
		} else if name := val("square"); name != "" {
			x, y, problem := squareOf(name, b)
			if problem != "" {
				return bad("%s", problem)
			}
			squares = append(squares, [2]int{x, y})
		} else {
			x, err := num("x", "The column", 0, b.Width-1)
			if err != nil {
				return err
			}
			y, err := num("y", "The row", 0, b.Height-1)
			if err != nil {
				return err
			}
			squares = append(squares, [2]int{x, y})
		}
		for _, sq := range squares {
			x, y := sq[0], sq[1]
			b.Cells = slices.DeleteFunc(b.Cells, func(c board.CellSetup) bool { return c.X == x && c.Y == y })
			if op == "cell-remove" {
				continue
			}
			props, err := PropsFromForm(e.Area, f.Get, "prop.", "square "+board.SquareName(x, y))
			if err != nil {
				return err
			}
			if len(props) > 0 {
				b.Cells = append(b.Cells, board.CellSetup{X: x, Y: y, Props: props})
			}
		}
		slices.SortFunc(b.Cells, func(a, c board.CellSetup) int { return (a.Y-c.Y)*1000 + a.X - c.X })
	case "edge-set":
		// A wall, a door or a window along one side of a square, or none
		// (the side cleared): what an imported map's walls between squares
		// are, drawn by hand.
		if model != board.Grid {
			return bad("this battlefield is not a grid")
		}
		x, y, problem := squareOf(val("square"), b)
		if problem != "" {
			return bad("%s", problem)
		}
		kind := val("kind")
		if kind != "none" && kind != "wall" && kind != board.EdgeDoor && kind != board.EdgeWindow {
			return bad("a side of a square takes a wall, a door, a window or none, not %q", kind)
		}
		one, err := board.NewWalls(b.Width, b.Height, []board.Edge{{X: x, Y: y, Side: val("side")}})
		if err != nil {
			return bad("%s", err.Error())
		}
		all, err := board.NewWalls(b.Width, b.Height, b.Edges)
		if err != nil {
			return bad("%s", err.Error())
		}
		e := one.Edges[0]
		edges := slices.DeleteFunc(all.Edges, func(o board.Edge) bool { return o.ID() == e.ID() })
		if kind != "none" {
			e.Kind, e.Open = kind, kind == board.EdgeDoor && f.Get("open") != ""
			if e.Kind == "wall" {
				e.Kind = board.EdgeWall
			}
			if len(edges) >= board.MaxEdges {
				return bad("a grid has at most %d walls, doors and windows between squares", board.MaxEdges)
			}
			edges = append(edges, e)
		}
		b.Edges = edges
	case "pair-add":
		if model != board.Pairs {
			return bad("this battlefield has no engagements")
		}
		a, c := val("a"), val("b")
		used := Used(*s)
		if !used[a] || !used[c] || a == c {
			return bad("an engagement is between two different combatants")
		}
		d := val("distance")
		if d != "" && !slices.Contains(e.Distances, d) {
			return bad("no distance %q (one of %s)", d, strings.Join(e.Distances, ", "))
		}
		for _, p := range b.Pairs {
			if p.A == a && p.B == c || p.A == c && p.B == a {
				return bad("they are already engaged")
			}
		}
		b.Pairs = append(b.Pairs, board.PairSetup{A: a, B: c, Distance: d})
	case "pair-remove":
		i, err := num("index", "The engagement", 0, len(b.Pairs)-1)
		if err != nil {
			return err
		}
		b.Pairs = slices.Delete(b.Pairs, i, i+1)
	case "room-place":
		// Place writes the battlefield with the distances derived.
		_, err := Place(e, s, val("who"), val("room"))
		return err
	case "distance-set":
		if model != board.Ladder {
			return bad("this battlefield has no distances")
		}
		a, c, r := val("a"), val("b"), val("rung")
		sides := map[string]bool{}
		for _, sd := range s.Sides {
			sides[sd.ID] = true
		}
		if !sides[a] || !sides[c] || a == c {
			return bad("a distance is between two different sides")
		}
		if !slices.Contains(e.Distances, r) {
			return bad("no distance %q (one of %s)", r, strings.Join(e.Distances, ", "))
		}
		b.Distances = slices.DeleteFunc(b.Distances, func(d board.DistanceSetup) bool { return d.A == a && d.B == c || d.A == c && d.B == a })
		b.Distances = append(b.Distances, board.DistanceSetup{A: a, B: c, Rung: r})
	default:
		return bad("unknown edit %q", op)
	}
	WriteBattlefield(s, b)
	return nil
}

// setupOps are the edits of the settings, sides and combatants;
// battlefieldOps those of the battlefield.
var (
	setupOps = map[string]bool{"settings": true, "side-add": true, "side-rename": true, "side-remove": true,
		"add-bestiary": true, "add-character": true, "combatant-update": true, "place": true, "combatant-remove": true,
		"combatant-stats": true,
		"scene":           true, "portrait": true, "handout-add": true, "handout-remove": true, "note": true,
		"zone-picture": true, "scene-fit": true}
	battlefieldOps = map[string]bool{"model": true, "zone-add": true, "zone-update": true, "zone-remove": true, "zone-merge": true, "zone-split": true,
		"connect": true, "disconnect": true, "melee-add": true, "melee-remove": true, "grid-size": true,
		"cell-set": true, "cell-remove": true, "edge-set": true, "pair-add": true, "pair-remove": true, "distance-set": true, "room-place": true}
)

// editSetup applies an edit of the settings, sides or combatants.
func (ed DraftEditor) editSetup(s *engine.Setup, op string, f url.Values, val func(string) string) error {
	switch op {
	case "settings":
		if val("name") == "" {
			return bad("the encounter needs a name")
		}
		s.Name = val("name")
		opts := map[string]string{}
		for _, o := range ed.Options {
			if v := f.Get("option." + o.Name); v != "" && v != o.Default {
				opts[o.Name] = v
			}
		}
		s.Options = opts
	case "side-add":
		if val("name") == "" {
			return bad("a side needs a name")
		}
		ids := map[string]bool{}
		for _, sd := range s.Sides {
			ids[sd.ID] = true
		}
		s.Sides = append(s.Sides, engine.Side{ID: sheet.UniqueSlug(val("name"), ids), Name: val("name")})
	case "side-rename":
		for i := range s.Sides {
			if s.Sides[i].ID == val("side") && val("name") != "" {
				s.Sides[i].Name = val("name")
			}
		}
	case "side-remove":
		s.Sides = slices.DeleteFunc(s.Sides, func(sd engine.Side) bool { return sd.ID == val("side") })
	case "add-bestiary", "add-character":
		kind, key := store.KindBestiary, "entry"
		if op == "add-character" {
			kind, key = store.KindCharacter, "character"
		}
		blk, err := ed.Block(kind, val(key))
		if err != nil {
			return err
		}
		n := 1
		if c := val("count"); c != "" {
			if n, err = strconv.Atoi(c); err != nil {
				return bad("how many must be a number")
			}
		}
		bf, err := ReadBattlefield(*s)
		if err != nil {
			return err
		}
		start, err := StartFromForm(ed.Board, bf, f, "start.", blk.Name)
		if err != nil {
			return err
		}
		before := len(s.Combatants)
		if err := AddCopies(s, blk.Name, blk.Stats, n, val("side"), start, f.Get("hidden") != "", kind == store.KindCharacter, blk.ID); err != nil {
			return err
		}
		for i := before; i < len(s.Combatants); i++ { // each copy wears the entry's portrait
			s.Combatants[i].Portrait = blk.Portrait
		}
		return nil
	case "combatant-update":
		bf, err := ReadBattlefield(*s)
		if err != nil {
			return err
		}
		for i := range s.Combatants {
			c := &s.Combatants[i]
			if c.ID != val("combatant") {
				continue
			}
			c.Side, c.Hidden = val("side"), f.Get("hidden") != ""
			if !ed.Boarded {
				continue
			}
			start, err := StartFromForm(ed.Board, bf, f, "start.", c.Name)
			if err != nil {
				return err
			}
			if start.Zone != StartOf(*c).Zone {
				LeaveGroups(&bf, c.ID) // a melee is in one zone
				WriteBattlefield(s, bf)
			}
			SetStart(c, start)
		}
	case "place":
		if !ed.Boarded {
			return bad("this ruleset has no battlefield to place anyone on")
		}
		bf, err := ReadBattlefield(*s)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(s.Combatants, func(c engine.CombatantSetup) bool { return c.ID == val("combatant") })
		if i < 0 {
			return bad("no combatant %q", val("combatant"))
		}
		c := &s.Combatants[i]
		old := StartOf(*c)
		start, err := StartFromForm(ed.Board, bf, f, "start.", c.Name)
		if err != nil {
			return err
		}
		start.Props, start.Group = old.Props, old.Group
		same := start.Zone == old.Zone && (start.X == nil) == (old.X == nil) && (start.X == nil || *start.X == *old.X && *start.Y == *old.Y)
		if !same { // a melee or contact group is in one place
			LeaveGroups(&bf, c.ID)
			start.Group = ""
			WriteBattlefield(s, bf)
		}
		SetStart(c, start)
	case "combatant-remove":
		RemoveCombatant(s, val("combatant"))
	case "combatant-stats":
		return ed.editStats(s, f, val)
	default:
		return editStage(s, op, f, val)
	}
	return nil
}

// editStage applies an edit of the stage: the scene, portraits, handouts
// and the GM's notes (engine.Stage).
func editStage(s *engine.Setup, op string, f url.Values, val func(string) string) error {
	switch op {
	case "scene":
		if err := engine.CheckAsset("the scene", val("scene")); err != nil {
			return err
		}
		s.Scene = val("scene")
	case "portrait":
		if err := engine.CheckAsset("a portrait", val("portrait")); err != nil {
			return err
		}
		i := slices.IndexFunc(s.Combatants, func(c engine.CombatantSetup) bool { return c.ID == val("combatant") })
		if i < 0 {
			return bad("no combatant %q", val("combatant"))
		}
		s.Combatants[i].Portrait = val("portrait")
	case "handout-add":
		if err := engine.CheckAsset("a handout's picture", val("image")); err != nil {
			return err
		}
		if val("title") == "" || val("text")+val("image") == "" {
			return bad("a handout needs a title, and a text or a picture")
		}
		ids := map[string]bool{}
		for _, h := range s.Handouts {
			ids[h.ID] = true
		}
		s.Handouts = append(s.Handouts, engine.Handout{ID: sheet.UniqueSlug(val("title"), ids), Title: val("title"),
			Text: strings.TrimSpace(f.Get("text")), Image: val("image")})
	case "handout-remove":
		s.Handouts = slices.DeleteFunc(s.Handouts, func(h engine.Handout) bool { return h.ID == val("handout") })
	case "zone-picture":
		b, err := ReadBattlefield(*s)
		if err != nil {
			return err
		}
		zone := val("zone")
		if !slices.ContainsFunc(b.Zones, func(z board.ZoneSetup) bool { return z.ID == zone }) {
			return bad("no zone %q", zone)
		}
		if err := engine.CheckAsset("a zone's picture", val("image")); err != nil {
			return err
		}
		s.ZoneScenes = slices.DeleteFunc(s.ZoneScenes, func(z engine.ZoneScene) bool { return z.Zone == zone })
		if val("image") != "" {
			s.ZoneScenes = append(s.ZoneScenes, engine.ZoneScene{Zone: zone, Image: val("image")})
		}
	case "scene-fit":
		fit, err := fitFromForm(val)
		if err != nil {
			return err
		}
		s.SceneFit = fit
	case "note":
		subject, text := val("subject"), strings.TrimSpace(f.Get("text"))
		if c, ok := strings.CutPrefix(subject, "combatant:"); ok {
			i := slices.IndexFunc(s.Combatants, func(x engine.CombatantSetup) bool { return x.ID == c })
			if i < 0 {
				return bad("no combatant %q", c)
			}
			s.Combatants[i].Notes = text
			return nil
		}
		if subject != "encounter" && !strings.HasPrefix(subject, "zone:") {
			return bad("a note is on the encounter, a combatant or a zone")
		}
		s.Notes = slices.DeleteFunc(s.Notes, func(n engine.Note) bool { return n.Subject == subject })
		if text != "" {
			s.Notes = append(s.Notes, engine.Note{Subject: subject, Text: text})
		}
	}
	return nil
}

// editStats replaces one combatant's copy of its stat block (and its
// name) in this draft from the stat schema's form; the bestiary entry it
// came from stays as it is. A campaign character takes its sheet when
// the encounter is created, so its copy is not edited here.
func (ed DraftEditor) editStats(s *engine.Setup, f url.Values, val func(string) string) error {
	i := slices.IndexFunc(s.Combatants, func(c engine.CombatantSetup) bool { return c.ID == val("combatant") })
	if i < 0 {
		return bad("no combatant %q", val("combatant"))
	}
	c := &s.Combatants[i]
	if c.PC {
		return bad("%s is a player character: change the sheet on the character's page", c.Name)
	}
	if ed.Schema == nil {
		return bad("this ruleset has no stat block editor")
	}
	stats, err := ed.Schema.ParseForm(f)
	if err != nil {
		return err
	}
	if err := ed.Derive(stats); err != nil {
		return err
	}
	if err := CheckStatBlock(c.ID, val("name"), stats); err != nil {
		return err
	}
	c.Name, c.Stats = val("name"), stats
	return nil
}

// StartFromForm reads a combatant's start from the editor's form: a zone
// (zones), a cell and contact group with the editor's start properties
// (grid), nothing for pairs and ladders (positions are engagements or
// distances).
func StartFromForm(e board.Editor, b board.Battlefield, f url.Values, prefix, what string) (board.Start, error) {
	val := func(k string) string { return strings.TrimSpace(f.Get(prefix + k)) }
	var st board.Start
	switch ModelOf(e, b) {
	case board.Zones:
		st.Zone = val("zone")
		if st.Zone != "" && !slices.ContainsFunc(b.Zones, func(z board.ZoneSetup) bool { return z.ID == st.Zone }) {
			return st, bad("%s: no zone %q", what, st.Zone)
		}
	case board.Grid:
		xs, ys, name := val("x"), val("y"), val("square")
		if xs == "" && ys == "" && name == "" {
			break
		}
		var x, y int
		if name != "" { // the page's form names the square as the board does
			var problem string
			if x, y, problem = squareOf(name, b); problem != "" {
				return st, bad("%s: %s", what, problem)
			}
		} else { // a drop on the board, the API: x and y from 0
			var errX, errY error
			x, errX = strconv.Atoi(xs)
			y, errY = strconv.Atoi(ys)
			if errX != nil || errY != nil || x < 0 || y < 0 || x >= b.Width || y >= b.Height {
				return st, bad("%s: the start must be a cell of the %d×%d grid", what, b.Width, b.Height)
			}
		}
		st.X, st.Y = &x, &y
		st.Group = val("group")
		if len(st.Group) > 32 {
			return st, bad("%s: a contact group's name is at most 32 characters", what)
		}
	}
	props, err := PropsFromForm(e.Start, f.Get, prefix+"prop.", what)
	if err != nil {
		return st, err
	}
	st.Props = props
	return st, nil
}

// squareOf reads a square named as the board names it ("C4") on battlefield
// b's grid, or says what is wrong with the name.
func squareOf(name string, b board.Battlefield) (x, y int, problem string) {
	x, y, ok := board.ParseSquareName(name)
	if !ok || x >= b.Width || y >= b.Height {
		return 0, 0, fmt.Sprintf("%q is not a square of this %d×%d grid: name one as the board does, from A1 to %s",
			name, b.Width, b.Height, board.SquareName(max(b.Width-1, 0), max(b.Height-1, 0)))
	}
	return x, y, ""
}

// fitFromForm reads a scene's fit (x, y, w, h; decimals with a point or a
// comma): nil when all are empty or the width and height are 0.
func fitFromForm(val func(string) string) (*engine.SceneFit, error) {
	if val("x")+val("y")+val("w")+val("h") == "" {
		return nil, nil
	}
	var f engine.SceneFit
	for _, n := range []struct {
		key, label string
		to         *float64
	}{{"x", "The map's left edge", &f.X}, {"y", "The map's top edge", &f.Y}, {"w", "The map's width", &f.W}, {"h", "The map's height", &f.H}} {
		v := strings.ReplaceAll(val(n.key), ",", ".")
		if v == "" {
			v = "0"
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, bad("%s must be a number", n.label)
		}
		*n.to = x
	}
	if f.W == 0 && f.H == 0 {
		return nil, nil
	}
	if err := engine.CheckFit(&f); err != nil {
		return nil, err
	}
	return &f, nil
}
