package d20duel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Two distances (seed "Advanced melee"): close combat is fought at
// Striking distance (one quick step and you touch your opponent) or at
// Grappling distance (close enough to hug, strangle or throw her). Each
// engaged pair has its own; close combat usually starts at Striking.
//
// A fighter may be engaged with several opponents, each pair at its own
// distance; fighters engaged with no one stand apart. Hidden combatants
// are never engaged: the GM reveals them first.

// Distance labels as the board and the setup write them.
var distanceLabels = map[string]string{Striking: "Striking", Grappling: "Grappling"}

// parseDistance reads a setup's distance: Striking (the default) or
// Grappling, in any case.
func parseDistance(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", Striking:
		return Striking, true
	case Grappling:
		return Grappling, true
	}
	return "", false
}

// Engagement is two fighters engaged at a distance. Shown holds the
// stances both revealed in the pair's last exchange, by fighter.
type Engagement struct {
	A        string            `json:"a"`
	B        string            `json:"b"`
	Distance string            `json:"distance"`
	Shown    map[string]string `json:"shown,omitempty"`
}

func (e Engagement) has(id string) bool { return e.A == id || e.B == id }

// other is id's opponent in the pair.
func (e Engagement) other(id string) string {
	if e.A == id {
		return e.B
	}
	return e.A
}

func (e Engagement) is(a, b string) bool { return (e.A == a && e.B == b) || (e.A == b && e.B == a) }

// engagement returns the pair of a and b, or nil.
func (s *State) engagement(a, b string) *Engagement {
	for i := range s.Engagements {
		if s.Engagements[i].is(a, b) {
			return &s.Engagements[i]
		}
	}
	return nil
}

// engaged reports whether id is engaged with anyone.
func (s *State) engaged(id string) bool {
	return slices.ContainsFunc(s.Engagements, func(e Engagement) bool { return e.has(id) })
}

// opponents are the fighters id is engaged with, in setup order.
func (s *State) opponents(id string) []string {
	var out []string
	for _, c := range s.Combatants {
		if s.engagement(id, c.ID) != nil {
			out = append(out, c.ID)
		}
	}
	return out
}

// canPair checks that a and b may be engaged: two fighters in the fight,
// visible, on different sides, not yet engaged together.
func (s *State) canPair(a, b string) error {
	ca, cb := s.Combatant(a), s.Combatant(b)
	switch {
	case ca == nil:
		return fray.Errorf(fray.ENOTFOUND, "no combatant %q", a)
	case cb == nil:
		return fray.Errorf(fray.ENOTFOUND, "no combatant %q", b)
	case a == b:
		return fray.Errorf(fray.EILLEGAL, "a fighter cannot engage itself")
	case ca.Side == cb.Side:
		return fray.Errorf(fray.EILLEGAL, "%s and %s are on the same side", ca.Name, cb.Name)
	case ca.Out || cb.Out:
		return fray.Errorf(fray.EILLEGAL, "%s is out of the fight", map[bool]string{true: ca.Name, false: cb.Name}[ca.Out])
	case ca.Hidden || cb.Hidden:
		return fray.Errorf(fray.EILLEGAL, "%s is hidden: reveal them before they engage", map[bool]string{true: ca.Name, false: cb.Name}[ca.Hidden])
	case s.engagement(a, b) != nil:
		return fray.Errorf(fray.EILLEGAL, "%s and %s are already engaged", ca.Name, cb.Name)
	}
	return nil
}

// Engaged is the data of KindEngaged: a new pair at Distance.
type Engaged struct {
	A        string `json:"a"`
	B        string `json:"b"`
	Distance string `json:"distance"`
}

func (s *State) applyEngaged(d Engaged) error {
	if s.engagement(d.A, d.B) != nil {
		return fmt.Errorf("d20-duel: %s and %s are already engaged", d.A, d.B)
	}
	s.Engagements = append(s.Engagements, Engagement{A: d.A, B: d.B, Distance: d.Distance})
	return nil
}

// Apart is the "distance" of a pair that separates.
const Apart = "apart"

// DistanceChanged is the data of KindDistance: the pair a–b goes from one
// distance to another, or apart. Reason says why ("both Reckless",
// "maneuver", "retreat", "gm").
type DistanceChanged struct {
	A      string `json:"a"`
	B      string `json:"b"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

func (s *State) applyDistance(d DistanceChanged) error {
	e := s.engagement(d.A, d.B)
	if e == nil {
		return fmt.Errorf("d20-duel: %s and %s are not engaged", d.A, d.B)
	}
	if d.To == Apart {
		s.Engagements = slices.DeleteFunc(s.Engagements, func(x Engagement) bool { return x.is(d.A, d.B) })
		return nil
	}
	e.Distance = d.To
	return nil
}

// changeDistance moves the pair a–b to distance to (or Apart), saying why.
func changeDistance(tx *Tx, a, b, to, reason, why string) error {
	st := tx.State
	e := st.engagement(a, b)
	if e == nil {
		return fmt.Errorf("d20-duel: %s and %s are not engaged", a, b)
	}
	var text string
	switch to {
	case Apart:
		text = fmt.Sprintf("%s and %s are no longer engaged", st.NameOf(a), st.NameOf(b))
	default:
		text = fmt.Sprintf("%s and %s are now at %s distance", st.NameOf(a), st.NameOf(b), distanceLabels[to])
	}
	if why != "" {
		text += ": " + why
	}
	ev := engine.NewEvent(KindDistance, "", text+".", DistanceChanged{A: e.A, B: e.B, From: e.Distance, To: to, Reason: reason})
	return tx.Emit(ev.With(e.A, e.B))
}

// components groups the engaged fighters who are in the fight into sets
// linked by engagements, each set in setup order; the sets come in the
// order of their first member. Every set chooses its stances together.
func (s *State) components() [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, c := range s.Combatants {
		if seen[c.ID] || !s.engaged(c.ID) || !s.fighting(c.ID) {
			continue
		}
		members := map[string]bool{c.ID: true}
		queue := []string{c.ID}
		for len(queue) > 0 {
			id := queue[0]
			queue = queue[1:]
			for _, o := range s.opponents(id) {
				if !members[o] && s.fighting(o) {
					members[o] = true
					queue = append(queue, o)
				}
			}
		}
		var group []string
		for _, x := range s.Combatants {
			if members[x.ID] {
				group = append(group, x.ID)
				seen[x.ID] = true
			}
		}
		if len(group) > 1 {
			out = append(out, group)
		}
	}
	return out
}

// pairsOf lists the engagements among members, in the state's order.
func (s *State) pairsOf(members []string) []Engagement {
	var out []Engagement
	for _, e := range s.Engagements {
		if slices.Contains(members, e.A) && slices.Contains(members, e.B) {
			out = append(out, e)
		}
	}
	return out
}
