package prep

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Problem is why a draft cannot become an encounter yet, in the GM's
// words: Text names zones, sides and combatants as the GM named them, Fix
// says what to do about it, At is the zone id, square ("x,y") or
// combatant id it is about, for the board to point at ("" when it is
// about none).
type Problem struct{ Text, Fix, At string }

// Explain checks setup as creating its encounter would and says what is
// wrong, if anything. The common problems of a draft (nobody there, one
// side alone, someone placed nowhere, a zone cut off) are found here and
// told with a fix; anything else the ruleset refuses is its own message
// with the draft's ids put back into the GM's names. Only what the
// ruleset refuses is a problem: a start left open is fine where the
// ruleset allows it.
func Explain(rules *engine.Registry, e board.Editor, boarded bool, s engine.Setup) (Problem, bool) {
	err := Check(rules, s)
	if err == nil {
		return Problem{}, false
	}
	names := namesOf(s)
	if len(s.Combatants) == 0 {
		return Problem{Text: "Nobody is in this fight yet.", Fix: "Drag a bestiary entry or a character onto the board."}, true
	}
	sides := map[string]bool{}
	for _, c := range s.Combatants {
		sides[c.Side] = true
	}
	if len(sides) < 2 {
		return Problem{Text: "Everyone is on " + names.side(s.Combatants[0].Side) + ": there is nobody to fight.",
			Fix: "Pick another side under the board and drag someone onto it."}, true
	}
	if boarded {
		if b, err := ReadBattlefield(s); err == nil {
			if p, ok := explainBoard(ModelOf(e, b), b, s, names); ok {
				return p, true
			}
		}
	}
	return Problem{Text: names.words(fray.ErrorMessage(err)), Fix: "Change the draft as this says, or replace it from a file."}, true
}

// explainBoard finds the problems of the battlefield's model.
func explainBoard(model string, b board.Battlefield, s engine.Setup, n names) (Problem, bool) {
	switch model {
	case board.Zones:
		if len(b.Zones) == 0 {
			return Problem{Text: "The battlefield has no zones yet.", Fix: "Draw a rectangle on the board for each zone and name it."}, true
		}
		for _, c := range s.Combatants {
			if StartOf(c).Zone == "" {
				return Problem{Text: c.Name + " does not start in any zone.", Fix: "Drag " + c.Name + " onto a zone.", At: c.ID}, true
			}
		}
		// Every zone must be reachable from the first one.
		seen := map[string]bool{b.Zones[0].ID: true}
		queue := []string{b.Zones[0].ID}
		for len(queue) > 0 {
			id := queue[0]
			queue = queue[1:]
			for _, a := range Adjacent(b, id) {
				if !seen[a] {
					seen[a] = true
					queue = append(queue, a)
				}
			}
		}
		for _, z := range b.Zones {
			if !seen[z.ID] {
				from := b.Zones[0].Name
				return Problem{Text: "The " + z.Name + " cannot be reached from the " + from + ".",
					Fix: "Click the " + z.Name + ", then a zone next to it, to connect them.", At: z.ID}, true
			}
		}
	case board.Grid:
		for _, c := range s.Combatants {
			if st := StartOf(c); st.X == nil || st.Y == nil {
				return Problem{Text: c.Name + " does not start on any square.", Fix: "Drag " + c.Name + " onto a square.", At: c.ID}, true
			}
		}
	}
	return Problem{}, false
}

// names maps a setup's ids (zones, sides, combatants) to the GM's names.
type names map[string]string

func namesOf(s engine.Setup) names {
	n := names{}
	for _, sd := range s.Sides {
		n[sd.ID] = sd.Name
	}
	for _, c := range s.Combatants {
		n[c.ID] = c.Name
	}
	if b, err := ReadBattlefield(s); err == nil {
		for _, z := range b.Zones {
			n[z.ID] = z.Name
		}
		for _, m := range b.Melees {
			if _, taken := n[m.ID]; !taken {
				n[m.ID] = "the melee in " + n[m.Zone]
			}
		}
	}
	return n
}

func (n names) side(id string) string {
	if v, ok := n[id]; ok {
		return v
	}
	return id
}

var idLike = regexp.MustCompile(`["'“”‘’]?[\p{L}\p{N}_][\p{L}\p{N}_-]*["'“”‘’]?`)

// words puts the GM's names in place of the ids in a message.
func (n names) words(msg string) string {
	ids := make([]string, 0, len(n))
	for id := range n {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	return idLike.ReplaceAllStringFunc(msg, func(w string) string {
		bare := strings.Trim(w, `"'“”‘’`)
		if slices.Contains(ids, bare) && n[bare] != "" {
			return n[bare]
		}
		return w
	})
}
