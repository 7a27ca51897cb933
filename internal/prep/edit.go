package prep

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Form is what a battlefield edit reads: a posted form's values.
type Form interface {
	Get(key string) string
}

func bad(format string, args ...any) error { return fray.Errorf(fray.EINVALID, format, args...) }

// EditBattlefield applies one battlefield edit of the encounter editor to
// s, as the ruleset's editor e describes the battlefield. It reports
// whether op was a battlefield edit at all. Edits keep the battlefield
// well formed (no duplicate ids, cells inside the grid, known sides and
// combatants); whether it makes a good fight is for the ruleset to say
// when the encounter is created.
//
// Ops and their fields:
//   - model: model (a choice of e.Models)
//   - zone-add: name, description, x, y (its place on the map, optional),
//     prop.* ; zone-update: zone and the same ; zone-remove: zone ;
//     connect, disconnect: a, b
//   - melee-add: members (several) ; melee-remove: melee
//   - grid-size: width, height ; cell-set: x, y, prop.* (no properties:
//     open ground) ; cell-remove: x, y
//   - pair-add: a, b, distance ; pair-remove: index
//   - distance-set: a, b, rung (sides)
func EditBattlefield(s *engine.Setup, e board.Editor, op string, f Form, members []string) (bool, error) {
	b, err := ReadBattlefield(*s)
	if err != nil {
		return true, err
	}
	val := func(k string) string { return strings.TrimSpace(f.Get(k)) }
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
			return true, bad("this ruleset has no %q battlefield", m)
		}
		b = board.Battlefield{Model: m}
		if m == board.Grid {
			b.Width, b.Height = min(max(e.MaxWidth, 1), 12), min(max(e.MaxHeight, 1), 8)
		}
		for i := range s.Combatants {
			SetStart(&s.Combatants[i], board.Start{})
		}
	case "zone-add", "zone-update":
		if model != board.Zones {
			return true, bad("this battlefield has no zones")
		}
		name := val("name")
		if name == "" {
			return true, bad("a zone needs a name")
		}
		if len(name) > 80 || len(val("description")) > 1000 {
			return true, bad("a zone's name is at most 80 characters, its description 1000")
		}
		props, err := PropsFromForm(e.Area, f.Get, "prop.", "zone "+name)
		if err != nil {
			return true, err
		}
		// Where the zone sits on the page's map: both or neither.
		var x, y *int
		if val("x") != "" || val("y") != "" {
			cx, err := num("x", "The map column", 0, 11)
			if err != nil {
				return true, err
			}
			cy, err := num("y", "The map row", 0, 11)
			if err != nil {
				return true, err
			}
			x, y = &cx, &cy
		}
		if op == "zone-add" {
			used := map[string]bool{}
			for _, z := range b.Zones {
				used[z.ID] = true
			}
			b.Zones = append(b.Zones, board.ZoneSetup{ID: sheet.UniqueSlug(name, used), Name: name, Description: val("description"),
				Adjacent: []string{}, Props: props, X: x, Y: y})
			break
		}
		z, err := zone(val("zone"))
		if err != nil {
			return true, err
		}
		z.Name, z.Description, z.Props, z.X, z.Y = name, val("description"), props, x, y
	case "zone-remove":
		if _, err := zone(val("zone")); err != nil {
			return true, err
		}
		RemoveZone(s, &b, val("zone"))
	case "connect", "disconnect":
		za, err := zone(val("a"))
		if err != nil {
			return true, err
		}
		zb, err := zone(val("b"))
		if err != nil {
			return true, err
		}
		if za.ID == zb.ID {
			return true, bad("a zone cannot border itself")
		}
		za.Adjacent = slices.DeleteFunc(za.Adjacent, func(a string) bool { return a == zb.ID })
		zb.Adjacent = slices.DeleteFunc(zb.Adjacent, func(a string) bool { return a == za.ID })
		if op == "connect" {
			za.Adjacent = append(za.Adjacent, zb.ID)
		}
	case "melee-add":
		if len(members) < 2 {
			return true, bad("a melee needs at least two members")
		}
		zones := map[string]bool{}
		for _, c := range s.Combatants {
			if slices.Contains(members, c.ID) {
				zones[StartOf(c).Zone] = true
			}
		}
		if len(zones) != 1 || zones[""] {
			return true, bad("the members of a melee must all start in the same zone")
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
			return true, bad("this battlefield is not a grid")
		}
		w, err := num("width", "The width", 1, max(e.MaxWidth, 1))
		if err != nil {
			return true, err
		}
		h, err := num("height", "The height", 1, max(e.MaxHeight, 1))
		if err != nil {
			return true, err
		}
		b.Width, b.Height = w, h
		b.Cells = slices.DeleteFunc(b.Cells, func(c board.CellSetup) bool { return c.X >= w || c.Y >= h })
		for i := range s.Combatants {
			if st := StartOf(s.Combatants[i]); st.X != nil && (*st.X >= w || *st.Y >= h) {
				st.X, st.Y = nil, nil
				SetStart(&s.Combatants[i], st)
			}
		}
	case "cell-set", "cell-remove":
		if model != board.Grid {
			return true, bad("this battlefield is not a grid")
		}
		x, err := num("x", "The column", 0, b.Width-1)
		if err != nil {
			return true, err
		}
		y, err := num("y", "The row", 0, b.Height-1)
		if err != nil {
			return true, err
		}
		b.Cells = slices.DeleteFunc(b.Cells, func(c board.CellSetup) bool { return c.X == x && c.Y == y })
		if op == "cell-remove" {
			break
		}
		props, err := PropsFromForm(e.Area, f.Get, "prop.", "cell "+board.SquareName(x, y))
		if err != nil {
			return true, err
		}
		if len(props) > 0 {
			b.Cells = append(b.Cells, board.CellSetup{X: x, Y: y, Props: props})
			slices.SortFunc(b.Cells, func(a, c board.CellSetup) int { return (a.Y-c.Y)*1000 + a.X - c.X })
		}
	case "pair-add":
		if model != board.Pairs {
			return true, bad("this battlefield has no engagements")
		}
		a, c := val("a"), val("b")
		used := Used(*s)
		if !used[a] || !used[c] || a == c {
			return true, bad("an engagement is between two different combatants")
		}
		d := val("distance")
		if d != "" && !slices.Contains(e.Distances, d) {
			return true, bad("no distance %q (one of %s)", d, strings.Join(e.Distances, ", "))
		}
		for _, p := range b.Pairs {
			if p.A == a && p.B == c || p.A == c && p.B == a {
				return true, bad("they are already engaged")
			}
		}
		b.Pairs = append(b.Pairs, board.PairSetup{A: a, B: c, Distance: d})
	case "pair-remove":
		i, err := num("index", "The engagement", 0, len(b.Pairs)-1)
		if err != nil {
			return true, err
		}
		b.Pairs = slices.Delete(b.Pairs, i, i+1)
	case "distance-set":
		if model != board.Ladder {
			return true, bad("this battlefield has no distances")
		}
		a, c, r := val("a"), val("b"), val("rung")
		sides := map[string]bool{}
		for _, sd := range s.Sides {
			sides[sd.ID] = true
		}
		if !sides[a] || !sides[c] || a == c {
			return true, bad("a distance is between two different sides")
		}
		if !slices.Contains(e.Distances, r) {
			return true, bad("no distance %q (one of %s)", r, strings.Join(e.Distances, ", "))
		}
		b.Distances = slices.DeleteFunc(b.Distances, func(d board.DistanceSetup) bool { return d.A == a && d.B == c || d.A == c && d.B == a })
		b.Distances = append(b.Distances, board.DistanceSetup{A: a, B: c, Rung: r})
	default:
		return false, nil
	}
	WriteBattlefield(s, b)
	return true, nil
}

// StartFromForm reads a combatant's start from the editor's form: a zone
// (zones), a cell and contact group with the editor's start properties
// (grid), nothing for pairs and ladders (positions are engagements or
// distances).
func StartFromForm(e board.Editor, b board.Battlefield, f Form, prefix, what string) (board.Start, error) {
	val := func(k string) string { return strings.TrimSpace(f.Get(prefix + k)) }
	var st board.Start
	switch ModelOf(e, b) {
	case board.Zones:
		st.Zone = val("zone")
		if st.Zone != "" && !slices.ContainsFunc(b.Zones, func(z board.ZoneSetup) bool { return z.ID == st.Zone }) {
			return st, bad("%s: no zone %q", what, st.Zone)
		}
	case board.Grid:
		xs, ys := val("x"), val("y")
		if xs == "" && ys == "" {
			break
		}
		x, errX := strconv.Atoi(xs)
		y, errY := strconv.Atoi(ys)
		if errX != nil || errY != nil || x < 0 || y < 0 || x >= b.Width || y >= b.Height {
			return st, bad("%s: the start must be a cell of the %d×%d grid", what, b.Width, b.Height)
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
