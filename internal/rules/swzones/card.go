package swzones

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
)

// card is a fighter's sheet as its token shows it: traits, weapons and
// powers. They never change once parseFighter has made them, yet every
// command's GM view shows them for every fighter; so a fighter's card is
// built the first time it is shown and kept (an engine.Memo) for every
// later view of it and of every later copy of the state.
//
// Views share the card's slices: nothing may change a token's Sheet in
// place.
type card struct {
	sheet []board.Section
}

// card returns f's card, building it the first time. Readers of one state
// may project it at once: the memo keeps the first card built, and two
// that build it together build the same.
func (f *Fighter) card() *card {
	if c := f.shown.Load(); c != nil {
		return c
	}
	return f.shown.Keep(&card{sheet: slices.Clip(sheetSections(f))}) // full: a view appending gets its own array
}

// sheetSections is the token's sheet: attributes in their usual order, skills by
// name, weapons and powers with their reach.
func sheetSections(f *Fighter) []board.Section {
	attrs := make([]board.Stat, 0, len(attributes))
	skills := make([]board.Stat, 0, len(f.Skills))
	for _, name := range attributes {
		if d, ok := f.Attributes[name]; ok {
			attrs = append(attrs, board.Stat{Label: traitLabel(name), Value: d.String()})
		}
	}
	for name, d := range f.Skills {
		skills = append(skills, board.Stat{Label: traitLabel(name), Value: d.String()})
	}
	slices.SortFunc(skills, func(a, b board.Stat) int { return strings.Compare(a.Label, b.Label) })
	out := make([]board.Section, 0, 4)
	out = append(out, board.Section{Title: "Attributes", Stats: attrs})
	if len(skills) > 0 {
		out = append(out, board.Section{Title: "Skills", Stats: skills})
	}
	if len(f.Weapons) > 0 {
		ws := make([]board.Stat, 0, len(f.Weapons))
		for _, w := range f.Weapons {
			note := "melee"
			if len(w.Range) == 3 {
				note = "range " + rangeString(w.Range)
			}
			if w.Template != "" {
				note += ", " + templateName(w.Template)
			}
			ws = append(ws, board.Stat{Label: w.Name, Value: w.Damage.String(), Note: note})
		}
		out = append(out, board.Section{Title: "Weapons", Stats: ws})
	}
	if len(f.Powers) > 0 {
		var ps []board.Stat
		for _, p := range f.Powers {
			value := p.Effect
			if p.Damage != nil {
				value = p.Damage.String()
			}
			note := fmt.Sprintf("%s, range %d", traitLabel(p.Skill), p.Reach)
			if p.Template != "" {
				note += ", " + templateName(p.Template)
			}
			ps = append(ps, board.Stat{Label: p.Name, Value: value, Note: note})
		}
		out = append(out, board.Section{Title: "Powers", Stats: ps})
	}
	return out
}
