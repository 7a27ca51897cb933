package prep

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// A draft's battlefield is a board.Battlefield under the position model
// the ruleset's Editor describes (engine.Boarder): prep edits zones and
// melees, a grid's size and cells, starting engagements or distances
// without knowing the ruleset, and the ruleset validates the result when
// the encounter is created.

// EditorOf is rs's battlefield editor; ok is false for a ruleset that
// draws no board, or draws one but whose editor names no position model
// (one fought in a single field): its drafts have no battlefield to edit.
func EditorOf(rs engine.Ruleset) (board.Editor, bool) {
	b, ok := rs.(engine.Boarder)
	if !ok {
		return board.Editor{}, false
	}
	e := b.Editor()
	return e, e.Model != ""
}

// ModelOf is the position model a draft's battlefield uses: the one it
// names, or the editor's default.
func ModelOf(e board.Editor, b board.Battlefield) string {
	if b.Model != "" {
		return b.Model
	}
	return e.Model
}

// NewDraftSetup is the setup a new draft starts from: two sides, no one,
// and an empty battlefield of the ruleset's model.
func NewDraftSetup(rs engine.Ruleset, name string) engine.Setup {
	s := engine.Setup{Name: name, Ruleset: rs.ID(), Options: map[string]string{},
		Sides:      []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}},
		Combatants: []engine.CombatantSetup{}}
	if e, ok := EditorOf(rs); ok {
		b := board.Battlefield{}
		if e.Model == board.Grid {
			b.Width, b.Height = min(max(e.MaxWidth, 1), 12), min(max(e.MaxHeight, 1), 8)
		}
		WriteBattlefield(&s, b)
	}
	return s
}

// Check validates a setup as creating an encounter would, storing nothing.
func Check(rules *engine.Registry, s engine.Setup) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = Prepare(rules, data)
	return err
}

// ReadBattlefield decodes a setup's battlefield (empty when absent).
func ReadBattlefield(s engine.Setup) (board.Battlefield, error) {
	b, err := board.Read(s.Battlefield)
	if err != nil {
		return b, fray.Errorf(fray.EINVALID, "%v", err)
	}
	return b, nil
}

// WriteBattlefield stores b in s.
func WriteBattlefield(s *engine.Setup, b board.Battlefield) {
	s.Battlefield, _ = json.Marshal(b)
}

// StartOf is a combatant's starting position (empty when unknown).
func StartOf(c engine.CombatantSetup) board.Start {
	st, _ := board.ReadStart(c.Start)
	return st
}

// SetStart places c at st; an empty start is none.
func SetStart(c *engine.CombatantSetup, st board.Start) {
	if st.Zone == "" && st.X == nil && st.Y == nil && st.Group == "" && len(st.Props) == 0 {
		c.Start = nil
		return
	}
	c.Start, _ = json.Marshal(st)
}

// Used returns the ids of the setup's combatants.
func Used(s engine.Setup) map[string]bool {
	m := map[string]bool{}
	for _, c := range s.Combatants {
		m[c.ID] = true
	}
	return m
}

// AddCopies adds n copies of a stat block with unique ids, all starting at
// start. Copies of one name are told apart by number wherever they show
// (turn order, board, targets, odds, log): n > 1, or a name already in the
// encounter, numbers the new ones "Name 1" … after the highest number
// there, and a namesake without a number (the first copy, added alone)
// takes one first — three drops of Outlaw make Outlaw 1, 2 and 3.
func AddCopies(s *engine.Setup, name string, stats json.RawMessage, n int, side string, start board.Start, hidden, pc bool, id string) error {
	if n < 1 || n > 50 {
		return fray.Errorf(fray.EINVALID, "add 1–50 copies")
	}
	used := Used(*s)
	if pc {
		if used[id] {
			return fray.Errorf(fray.ECONFLICT, "%s is already in this encounter", name)
		}
		c := engine.CombatantSetup{Combatant: engine.Combatant{ID: id, Name: name, Side: side, PC: true, Hidden: hidden}, Stats: stats}
		SetStart(&c, start)
		s.Combatants = append(s.Combatants, c)
		return nil
	}
	first, taken := 1, false
	for _, c := range s.Combatants {
		if c.Name == name {
			taken = true
		}
		if rest, ok := strings.CutPrefix(c.Name, name+" "); ok {
			if k, err := strconv.Atoi(rest); err == nil && k >= first {
				first, taken = k+1, true
			}
		}
	}
	numbered := n > 1 || taken
	if numbered {
		for i := range s.Combatants {
			if c := &s.Combatants[i]; c.Name == name && !c.PC {
				c.Name = fmt.Sprintf("%s %d", name, first)
				first++
			}
		}
	}
	for i := range n {
		cname := name
		if numbered {
			cname = fmt.Sprintf("%s %d", name, first+i)
		}
		cid := sheet.UniqueSlug(cname, used)
		used[cid] = true
		c := engine.CombatantSetup{Combatant: engine.Combatant{ID: cid, Name: cname, Side: side, Hidden: hidden}, Stats: stats}
		SetStart(&c, start)
		s.Combatants = append(s.Combatants, c)
	}
	return nil
}

// RemoveCombatant drops a combatant, its place in starting melees and its
// starting engagements.
func RemoveCombatant(s *engine.Setup, id string) {
	s.Combatants = slices.DeleteFunc(s.Combatants, func(c engine.CombatantSetup) bool { return c.ID == id })
	if b, err := ReadBattlefield(*s); err == nil && len(s.Battlefield) > 0 {
		LeaveGroups(&b, id)
		b.Pairs = slices.DeleteFunc(b.Pairs, func(p board.PairSetup) bool { return p.A == id || p.B == id })
		WriteBattlefield(s, b)
	}
}

// LeaveGroups takes id out of every starting melee; a melee left with
// fewer than two members goes.
func LeaveGroups(b *board.Battlefield, id string) {
	for i := range b.Melees {
		b.Melees[i].Members = slices.DeleteFunc(b.Melees[i].Members, func(m string) bool { return m == id })
	}
	b.Melees = slices.DeleteFunc(b.Melees, func(m board.GroupSetup) bool { return len(m.Members) < 2 })
}

// RemoveZone drops a zone, its borders, its melees, and the starts in it.
func RemoveZone(s *engine.Setup, b *board.Battlefield, id string) {
	b.Zones = slices.DeleteFunc(b.Zones, func(z board.ZoneSetup) bool { return z.ID == id })
	for i := range b.Zones {
		b.Zones[i].Adjacent = slices.DeleteFunc(b.Zones[i].Adjacent, func(a string) bool { return a == id })
	}
	b.Melees = slices.DeleteFunc(b.Melees, func(m board.GroupSetup) bool { return m.Zone == id })
	s.ZoneScenes = slices.DeleteFunc(s.ZoneScenes, func(z engine.ZoneScene) bool { return z.Zone == id })
	for i := range s.Combatants {
		if st := StartOf(s.Combatants[i]); st.Zone == id {
			st.Zone = ""
			SetStart(&s.Combatants[i], st)
		}
	}
}

// MergeZones merges zone b into zone a: a keeps its name and takes b's
// borders, the box both covered on the map, b's melees and the starts in
// b; b's picture and notes go.
func MergeZones(s *engine.Setup, bf *board.Battlefield, a, b string) {
	var za, zb *board.ZoneSetup
	for i := range bf.Zones {
		switch bf.Zones[i].ID {
		case a:
			za = &bf.Zones[i]
		case b:
			zb = &bf.Zones[i]
		}
	}
	if za == nil || zb == nil {
		return
	}
	if za.X != nil && zb.X != nil {
		x0, y0 := min(*za.X, *zb.X), min(*za.Y, *zb.Y)
		x1 := max(*za.X+max(za.W, 1), *zb.X+max(zb.W, 1))
		y1 := max(*za.Y+max(za.H, 1), *zb.Y+max(zb.H, 1))
		za.X, za.Y, za.W, za.H = &x0, &y0, x1-x0, y1-y0
	}
	// Descriptions that name b (an imported map's "A closed door leads
	// to Room 3.") name a now; a's no longer leads to itself.
	for i := range bf.Zones {
		bf.Zones[i].Description = RenameIn(bf.Zones[i].Description, zb.Name, za.Name)
	}
	za.Description = dropSelf(za.Description, za.Name)
	next := Adjacent(*bf, b)
	for i := range bf.Melees {
		if bf.Melees[i].Zone == b {
			bf.Melees[i].Zone = a
		}
	}
	for i := range s.Combatants {
		if st := StartOf(s.Combatants[i]); st.Zone == b {
			st.Zone = a
			SetStart(&s.Combatants[i], st)
		}
	}
	melees := bf.Melees
	bf.Melees = nil
	RemoveZone(s, bf, b)
	bf.Melees = melees
	for i := range bf.Zones {
		if bf.Zones[i].ID != a {
			continue
		}
		for _, n := range next {
			if n != a && !slices.Contains(Adjacent(*bf, a), n) {
				bf.Zones[i].Adjacent = append(bf.Zones[i].Adjacent, n)
			}
		}
	}
	s.Notes = slices.DeleteFunc(s.Notes, func(n engine.Note) bool { return n.Subject == "zone:"+b })
}

// SplitZone cuts a zone placed on the map along a line: axis "col" cuts
// at column at (the second part starts there), "row" at row at. Both
// parts keep the zone's borders and border each other; the first keeps
// its id, melees and starts, the second is new ("… (east)", "… (south)").
// The doors a description names ("A closed door leads to Room 2.") stay
// with the part on the side the zone they lead to lies (both parts when
// it lies across the line, or has no place), and the other zones' doors
// lead to the parts on their side.
func SplitZone(s *engine.Setup, bf *board.Battlefield, id, axis string, at int) error {
	i := slices.IndexFunc(bf.Zones, func(z board.ZoneSetup) bool { return z.ID == id })
	if i < 0 {
		return fray.Errorf(fray.EINVALID, "no zone %q", id)
	}
	if len(bf.Zones) >= board.MaxZones {
		return fray.Errorf(fray.EINVALID, "a battlefield has at most %d zones", board.MaxZones)
	}
	z := bf.Zones[i]
	if z.X == nil || z.Y == nil {
		return fray.Errorf(fray.EINVALID, "%s has no place on the map: place it (or draw it) before splitting it along a line", z.Name)
	}
	first, second := z, z
	first.Adjacent, second.Adjacent = slices.Clone(z.Adjacent), slices.Clone(Adjacent(*bf, id))
	x, y, w, h := *z.X, *z.Y, max(z.W, 1), max(z.H, 1)
	var a, b string
	switch axis {
	case "col":
		if at <= x || at >= x+w {
			return fray.Errorf(fray.EINVALID, "a line at column %d does not cross %s (columns %d to %d)", at, z.Name, x, x+w-1)
		}
		x2 := at
		first.W, second.X, second.W = at-x, &x2, x+w-at
		a, b = "west", "east"
	case "row":
		if at <= y || at >= y+h {
			return fray.Errorf(fray.EINVALID, "a line at row %d does not cross %s (rows %d to %d)", at, z.Name, y, y+h-1)
		}
		y2 := at
		first.H, second.Y, second.H = at-y, &y2, y+h-at
		a, b = "north", "south"
	default:
		return fray.Errorf(fray.EINVALID, "a zone is split along a column (axis col) or a row (axis row), not %q", axis)
	}
	used := map[string]bool{}
	for _, o := range bf.Zones {
		used[o.ID] = true
	}
	second.ID = sheet.UniqueSlug(z.ID+"-"+b, used)
	first.Name, second.Name = clip(z.Name+" ("+a+")"), clip(z.Name+" ("+b+")")
	first.Adjacent = append(first.Adjacent, second.ID)
	second.Adjacent = slices.DeleteFunc(second.Adjacent, func(n string) bool { return n == id })
	second.Props = maps.Clone(z.Props)
	// sides says which parts a zone lies beside: the first when it
	// reaches before the line, the second when it reaches past it.
	sides := func(o board.ZoneSetup) (bool, bool) {
		if o.X == nil || o.Y == nil {
			return true, true
		}
		p, n := *o.X, max(o.W, 1)
		if axis == "row" {
			p, n = *o.Y, max(o.H, 1)
		}
		return p < at, p+n > at
	}
	byName := map[string]board.ZoneSetup{}
	for _, o := range bf.Zones {
		byName[o.Name] = o
	}
	first.Description = keepNames(z.Description, func(n string) bool { o, ok := byName[n]; f, _ := sides(o); return !ok || f })
	second.Description = keepNames(z.Description, func(n string) bool { o, ok := byName[n]; _, g := sides(o); return !ok || g })
	for j := range bf.Zones {
		if j == i {
			continue
		}
		var to []string
		f, g := sides(bf.Zones[j])
		if f {
			to = append(to, first.Name)
		}
		if g {
			to = append(to, second.Name)
		}
		bf.Zones[j].Description = RenameIn(bf.Zones[j].Description, z.Name, strings.Join(to, ", "))
	}
	bf.Zones[i] = first
	bf.Zones = slices.Insert(bf.Zones, i+1, second)
	for j := range bf.Zones {
		if j != i && j != i+1 && slices.Contains(bf.Zones[j].Adjacent, id) {
			bf.Zones[j].Adjacent = append(bf.Zones[j].Adjacent, second.ID)
		}
	}
	return nil
}

// RenameIn replaces the name old by new in a description, where it stands
// as a whole name ("Room 1" is not the start of "Room 10").
func RenameIn(desc, old, new string) string {
	if old == "" || old == new {
		return desc
	}
	var b strings.Builder
	for {
		i := strings.Index(desc, old)
		if i < 0 {
			b.WriteString(desc)
			return b.String()
		}
		end := i + len(old)
		whole := (i == 0 || !isNameRune(rune(desc[i-1]))) && (end == len(desc) || !isNameRune(rune(desc[end])))
		b.WriteString(desc[:i])
		if whole {
			b.WriteString(new)
		} else {
			b.WriteString(old)
		}
		desc = desc[end:]
	}
}

func isNameRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// dropSelf takes name out of the lists of the sentences "… leads to A,
// B." (and "… looks into …") of a description, and a sentence whose list
// it empties.
func dropSelf(desc, name string) string {
	return keepNames(desc, func(n string) bool { return n != name })
}

// keepNames keeps in the lists of the sentences "… leads to A, B." (a
// door or an opening) and "… looks into A, B." (a window) of a
// description the names keep says to (once each), and drops a sentence
// whose list it empties.
func keepNames(desc string, keep func(string) bool) string {
	var out []string
	for _, sentence := range strings.SplitAfter(desc, ". ") {
		verb := " leads to "
		if !strings.Contains(sentence, verb) {
			verb = " looks into "
		}
		head, list, ok := strings.Cut(sentence, verb)
		if !ok {
			out = append(out, sentence)
			continue
		}
		tail := ""
		if t := strings.TrimRight(list, " "); strings.HasSuffix(t, ".") {
			list, tail = strings.TrimSuffix(t, "."), ". "
		}
		var kept []string
		for _, n := range strings.Split(list, ", ") {
			if keep(n) && !slices.Contains(kept, n) {
				kept = append(kept, n)
			}
		}
		if len(kept) > 0 {
			out = append(out, head+verb+strings.Join(kept, ", ")+tail)
		}
	}
	return strings.TrimSpace(strings.Join(out, ""))
}

// clip keeps a zone's name within its limit.
func clip(s string) string {
	if r := []rune(s); len(r) > board.MaxNameLen {
		return string(r[:board.MaxNameLen])
	}
	return s
}

// Adjacent lists the zones bordering id, in either direction.
func Adjacent(b board.Battlefield, id string) []string {
	var out []string
	for _, z := range b.Zones {
		if z.ID == id {
			for _, a := range z.Adjacent {
				if !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		} else if slices.Contains(z.Adjacent, id) && !slices.Contains(out, z.ID) {
			out = append(out, z.ID)
		}
	}
	return out
}

// PropsFromForm reads an editor's fields from form values named
// prefix+field: empty values are left out, so the ruleset's default
// applies. The result is checked against the fields.
func PropsFromForm(fields []board.Field, get func(string) string, prefix, what string) (board.Props, error) {
	p := board.Props{}
	for _, f := range fields {
		raw := strings.TrimSpace(get(prefix + f.Name))
		switch f.Type {
		case board.FieldBool:
			if raw != "" && raw != "false" {
				p[f.Name] = true
			}
		case board.FieldInt:
			if raw == "" {
				continue
			}
			n, err := strconv.Atoi(raw)
			if err != nil {
				return nil, fray.Errorf(fray.EINVALID, "%s: %s must be a whole number, not %q", what, f.Label, raw)
			}
			if n != 0 || f.Min != 0 {
				p[f.Name] = float64(n)
			}
		default:
			if raw != "" {
				p[f.Name] = raw
			}
		}
	}
	if err := board.CheckProps(fields, p, what); err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%v", err)
	}
	if len(p) == 0 {
		return nil, nil
	}
	return p, nil
}
