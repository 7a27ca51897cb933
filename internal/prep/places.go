package prep

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// A battlefield with no zones (pairs, ladder) still has starting
// distances a map can measure: the map's rooms become places
// (board.Places), the GM puts each side (ladder) or combatant (pairs) in
// one, and the distance between two of them is the shortest walk between
// their rooms, named by the ruleset's Editor.Reaches. The derived
// distances are written into the battlefield (Distances, Pairs) each time
// a place changes, so the document stays what the ruleset reads.

// placesBySide says whose place a model keeps: the sides' (ladder) or the
// combatants' (pairs).
func placesBySide(model string) bool { return model == board.Ladder }

// applyPlaces makes the map's rooms the places of a pairs or ladder
// battlefield: the first side (or its combatants) in the first room, the
// others in the room farthest from it.
func applyPlaces(e board.Editor, s *engine.Setup, old board.Battlefield, m *uvtt.Map, o battlemap.Options) (MapReport, error) {
	model := ModelOf(e, old)
	if len(e.Reaches) == 0 {
		return MapReport{}, fray.Errorf(fray.EINVALID, "this ruleset's %s battlefield takes no distances from a map: use the map's picture as the scene instead", model)
	}
	plan, err := battlemap.Plan(m, o)
	if err != nil {
		return MapReport{}, fray.Errorf(fray.EINVALID, "%v", err)
	}
	if len(plan.Zones) == 0 {
		return MapReport{}, fray.Errorf(fray.EINVALID, "the map has no rooms to start in")
	}
	pl := &board.Places{Rooms: make([]board.Place, len(plan.Zones)), Paths: []board.Path{}, At: map[string]string{},
		Width: m.Width, Height: m.Height}
	for i, z := range plan.Zones {
		pl.Rooms[i] = board.Place{ID: z.ID, Name: z.Name, Description: z.Description, CX: round2(z.CX), CY: round2(z.CY)}
	}
	first, far, best := plan.Zones[0].ID, plan.Zones[0].ID, -1
	for _, r := range plan.Ranges {
		pl.Paths = append(pl.Paths, board.Path{A: r.A, B: r.B, Metres: math.Round(float64(r.Squares)*MapSquareMetres*10) / 10})
		if r.A == first && r.Squares > best {
			far, best = r.B, r.Squares
		}
	}
	firstSide := ""
	if len(s.Sides) > 0 {
		firstSide = s.Sides[0].ID
	}
	room := func(side string) string {
		if side == firstSide {
			return first
		}
		return far
	}
	if placesBySide(model) {
		for _, sd := range s.Sides {
			pl.At[sd.ID] = room(sd.ID)
		}
	} else {
		for _, c := range s.Combatants {
			if !c.Hidden { // a hidden fighter engages no one
				pl.At[c.ID] = room(c.Side)
			}
		}
	}
	bf := board.Battlefield{Model: old.Model, Places: pl}
	rows := DerivePlaces(e, model, *s, &bf)
	WriteBattlefield(s, bf)
	s.ZoneScenes = nil
	s.SceneFit = nil
	rep := MapReport{Places: len(pl.Rooms), Links: len(plan.Links), Notes: plan.Notes}
	for _, r := range rows {
		rep.Ranges = append(rep.Ranges, r.String())
	}
	return rep, nil
}

// PlaceRange is a starting distance derived from the places: between
// sides (ladder) or combatants (pairs) A and B, standing in rooms From
// and To, Metres apart; Distance is what that makes ("" when the pair
// starts not engaged), and NoPath is set when no walk joins the rooms
// (the distance set by hand stays).
type PlaceRange struct {
	A, B, From, To string
	Metres         float64
	Distance       string
	NoPath         bool
}

// String is the range as a line of the table shown before creating.
func (r PlaceRange) String() string {
	head := fmt.Sprintf("%s (%s) — %s (%s)", r.A, r.From, r.B, r.To)
	switch {
	case r.NoPath:
		return head + ": no way through; set by hand"
	case r.Distance == "":
		return fmt.Sprintf("%s: %.1f m, not engaged", head, r.Metres)
	}
	return fmt.Sprintf("%s: %.1f m, %s", head, r.Metres, r.Distance)
}

// reach names a walk of metres by the editor's reaches (see
// board.Editor.Reaches): "" for a pairs model's pair that starts not
// engaged.
func reach(e board.Editor, model string, metres float64) string {
	for _, r := range e.Reaches {
		if metres <= r.Metres+1e-9 {
			return r.Distance
		}
	}
	if model == board.Ladder && len(e.Distances) > 0 {
		return e.Distances[len(e.Distances)-1]
	}
	return ""
}

// DerivePlaces writes into bf the starting distances its places give
// (nothing when it has none): for every two sides placed (ladder) its
// distance, for every two opposing combatants placed (pairs, neither
// hidden) their engagement or none; the others stay as set by hand. It
// returns the table of what it derived, by name.
func DerivePlaces(e board.Editor, model string, s engine.Setup, bf *board.Battlefield) []PlaceRange {
	pl := bf.Places
	if pl == nil || len(pl.At) == 0 {
		return nil
	}
	rooms := map[string]string{}
	for _, r := range pl.Rooms {
		rooms[r.ID] = r.Name
	}
	walk := func(a, b string) (float64, bool) {
		if a == b {
			return 0, true
		}
		for _, p := range pl.Paths {
			if p.A == a && p.B == b || p.A == b && p.B == a {
				return p.Metres, true
			}
		}
		return 0, false
	}
	type who struct{ id, name, side string }
	var placed []who
	if placesBySide(model) {
		for _, sd := range s.Sides {
			placed = append(placed, who{sd.ID, sd.Name, sd.ID})
		}
	} else {
		for _, c := range s.Combatants {
			if !c.Hidden {
				placed = append(placed, who{c.ID, c.Name, c.Side})
			}
		}
	}
	placed = slices.DeleteFunc(placed, func(w who) bool { return rooms[pl.At[w.id]] == "" })
	var out []PlaceRange
	for i, a := range placed {
		for _, b := range placed[i+1:] {
			if a.side == b.side {
				continue
			}
			ra, rb := pl.At[a.id], pl.At[b.id]
			row := PlaceRange{A: a.name, B: b.name, From: rooms[ra], To: rooms[rb]}
			metres, ok := walk(ra, rb)
			if !ok {
				row.NoPath = true
				out = append(out, row)
				continue
			}
			row.Metres, row.Distance = metres, reach(e, model, metres)
			out = append(out, row)
			same := func(x, y string) bool { return x == a.id && y == b.id || x == b.id && y == a.id }
			if placesBySide(model) {
				bf.Distances = slices.DeleteFunc(bf.Distances, func(d board.DistanceSetup) bool { return same(d.A, d.B) })
				bf.Distances = append(bf.Distances, board.DistanceSetup{A: a.id, B: b.id, Rung: row.Distance})
			} else {
				bf.Pairs = slices.DeleteFunc(bf.Pairs, func(p board.PairSetup) bool { return same(p.A, p.B) })
				if row.Distance != "" {
					bf.Pairs = append(bf.Pairs, board.PairSetup{A: a.id, B: b.id, Distance: row.Distance})
				}
			}
		}
	}
	return out
}

// Place puts a side (ladder) or a combatant (pairs) of s, by id or name,
// in a room of its battlefield's places, by id or name ("" takes it out
// of the rooms, its distances then set by hand), and derives the starting
// distances again. Nothing changes when it fails.
func Place(e board.Editor, s *engine.Setup, who, room string) ([]PlaceRange, error) {
	bf, err := ReadBattlefield(*s)
	if err != nil {
		return nil, err
	}
	model := ModelOf(e, bf)
	if bf.Places == nil || (model != board.Ladder && model != board.Pairs) {
		return nil, fray.Errorf(fray.EINVALID, "this battlefield has no rooms from a map to start in")
	}
	id := ""
	if placesBySide(model) {
		for _, sd := range s.Sides {
			if sd.ID == who || equalName(sd.Name, who) {
				id = sd.ID
				break
			}
		}
	} else {
		for _, c := range s.Combatants {
			if c.ID == who || equalName(c.Name, who) {
				if c.Hidden {
					return nil, fray.Errorf(fray.EINVALID, "%s is hidden: a hidden fighter starts engaged with no one; reveal them first", c.Name)
				}
				id = c.ID
				break
			}
		}
	}
	if id == "" {
		what := map[bool]string{true: "side", false: "combatant"}[placesBySide(model)]
		return nil, fray.Errorf(fray.EINVALID, "no %s %q to put in a room", what, who)
	}
	at := ""
	for _, r := range bf.Places.Rooms {
		if r.ID == room || equalName(r.Name, room) {
			at = r.ID
			break
		}
	}
	if at == "" && room != "" {
		return nil, fray.Errorf(fray.EINVALID, "the map has no room %q", room)
	}
	if bf.Places.At == nil {
		bf.Places.At = map[string]string{}
	}
	if at == "" {
		delete(bf.Places.At, id)
	} else {
		bf.Places.At[id] = at
	}
	rows := DerivePlaces(e, model, *s, &bf)
	WriteBattlefield(s, bf)
	return rows, nil
}

// equalName compares names as a GM types them: case and surrounding
// spaces aside.
func equalName(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// PlacesHold says whether bf's starting distances (ladder) or engagements
// (pairs) are those its places give, or a hand edit has changed one
// since; true when it has no places.
func PlacesHold(e board.Editor, model string, s engine.Setup, bf board.Battlefield) bool {
	derived := bf
	derived.Distances, derived.Pairs = slices.Clone(bf.Distances), slices.Clone(bf.Pairs)
	DerivePlaces(e, model, s, &derived)
	set := func(b board.Battlefield) map[string]bool {
		out := map[string]bool{}
		key := func(a, c, d string) string { return min(a, c) + "\x00" + max(a, c) + "\x00" + d }
		for _, d := range b.Distances {
			out[key(d.A, d.B, d.Rung)] = true
		}
		for _, p := range b.Pairs {
			out[key(p.A, p.B, p.Distance)] = true
		}
		return out
	}
	return maps.Equal(set(bf), set(derived))
}
