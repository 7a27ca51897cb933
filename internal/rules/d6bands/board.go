package d6bands

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The battlefield as the page and prep see it (engine.Boarder): a grid of
// 30 m squares whose distances are range bands, contact groups inside
// squares, and tokens off the map at Extreme range.

// cellFields are a square's properties in the battlefield editor (and in
// a setup's "cells" props).
var cellFields = []board.Field{
	{Name: "dash", Label: "Dash difficulty", Type: board.FieldSelect, Default: "0",
		Help:    "Dashing through needs an Acrobatics or Athletics check: roads and plains are easy; mud, light snow, sparse forest 3D; crowds, heavy snow, forest 4D; swamp, jungle, ruins, shallow water 5D.",
		Options: []board.Option{{Value: "0", Label: "Easy (no check)"}, {Value: "3", Label: "Difficult 3D"}, {Value: "4", Label: "Hard 4D"}, {Value: "5", Label: "Very hard 5D"}}},
	{Name: "impassable", Label: "Impassable", Type: board.FieldSelect, Default: "0",
		Help:    "Two actions per band and always a check: cliffs, deep water, barricades 4D; walls, icy cliffs, currents 5D; mountainsides, a stampede 6D.",
		Options: []board.Option{{Value: "0", Label: "Passable"}, {Value: "4", Label: "Hard 4D"}, {Value: "5", Label: "Very hard 5D"}, {Value: "6", Label: "Dramatic 6D"}}},
	{Name: "water", Label: "Water (Swimming)", Type: board.FieldBool, Help: "Impassable water is crossed with Swimming."},
	{Name: "cover", Label: "Cover", Type: board.FieldSelect, Default: "0",
		Help:    "Added to shots at anyone here who moved at most once and did not dash; none in close contact. For impassable terrain, the GM decides whether it gives cover.",
		Options: []board.Option{{Value: "0", Label: "None"}, {Value: "1", Label: "Light +1D"}, {Value: "2", Label: "Medium +2D"}, {Value: "3", Label: "Heavy +3D"}}},
	{Name: "blocks", Label: "Blocks line of sight", Type: board.FieldBool, Help: "No one sees through this square (a wall, a hill)."},
	{Name: "crowd", Label: "Crowd", Type: board.FieldBool, Help: "A shot here that misses by 6 or less hits a random body (or a bystander)."},
	{Name: "label", Label: "Label", Type: board.FieldText, Help: "What the square is: \"Ford\", \"Ruined chapel\"."},
}

// startFields are a combatant's start properties.
var startFields = []board.Field{
	{Name: "off", Label: "Off the map (Extreme range)", Type: board.FieldBool},
	{Name: "prone", Label: "Prone", Type: board.FieldBool},
}

// editor is the battlefield editor.
var editor = board.Editor{Model: board.Grid, Area: cellFields, Start: startFields,
	MaxWidth: MaxWidth, MaxHeight: MaxHeight, Scale: "30 m"}

// project is d6-bands' one projection, what v sees: the map, every
// combatant v may see with how hurt it is and what it knows; a combatant
// the GM keeps hidden appears nowhere for a player. The sheet and the
// turn's ledger are for the GM and the combatant's own player.
func project(st *State, v engine.Viewer) *board.Board {
	tokens := engine.Tokens(st, v)
	grid := &board.GridMap{Width: st.Width, Height: st.Height, Scale: "30 m", Bands: slices.Clone(bandNames[:BandExtreme]),
		Places: []board.Placed{}}
	for _, c := range st.Cells {
		shade := c.Cover
		switch {
		case c.Impassable > 0:
			shade = 3
		case c.Dash > 0:
			shade = max(shade, c.Dash-2)
		}
		grid.Cells = append(grid.Cells, board.Cell{X: c.X, Y: c.Y, Label: c.Label, Features: c.Features(), Blocks: c.Blocks, Shade: shade})
	}
	off := false
	for i := range tokens {
		f := st.Fighters[tokens[i].ID]
		if f == nil {
			continue
		}
		full := v.CanCommand(f.ID)
		tokens[i].Health = health(st, f)
		tokens[i].Conditions = conditions(st, v, f)
		if full {
			tokens[i].Stats = []board.Stat{
				{Label: "Actions", Value: fmt.Sprintf("%d of %d", f.Actions, kit.OptInt(&st.Base, OptActions))},
				{Label: "Defense Pool", Value: fmt.Sprintf("%d of %d", f.Pool, f.Defense)},
			}
			if p := woundPenalty(&st.Base, f); p > 0 {
				tokens[i].Stats = append(tokens[i].Stats, board.Stat{Label: "Wound penalty", Value: "−" + strconv.Itoa(p)})
			}
			if a := f.Adjust; a != nil {
				tokens[i].Stats = append(tokens[i].Stats, board.Stat{Label: "GM ruling", Value: adjustWords(*a), Note: a.Reason})
			}
			tokens[i].Sheet = sheetSections(f)
		}
		pl := board.Placed{Token: f.ID, X: f.X, Y: f.Y, Group: f.Group, Off: f.Off}
		if f.Off {
			pl.X, pl.Y, pl.Group = 0, 0, ""
			off = true
		}
		grid.Places = append(grid.Places, pl)
	}
	b := &board.Board{Model: board.Grid, Tokens: tokens, Grid: grid}
	if off {
		b.Notes = append(b.Notes, "Tokens off the map are at Extreme range: only Far and Very Far weapons reach them, through a duel.")
	}
	return b
}

// health is a token's meter: blood lost against Blood.
func health(st *State, f *Fighter) *board.Meter {
	words := "Unhurt"
	switch f.WoundLevel() {
	case WoundLight:
		words = "Lightly wounded"
	case WoundSerious:
		words = "Seriously wounded"
	case WoundLethal:
		words = "Lethally wounded"
	}
	if f.Status != "" {
		words = capital(f.Status)
	}
	text := fmt.Sprintf("%s; blood lost %d of %d", words, f.BloodLoss, f.Blood)
	if n := bleeding(f); n > 0 {
		text += fmt.Sprintf(", bleeding %d a round", n)
	}
	return &board.Meter{Label: "Blood lost", Value: f.BloodLoss, Max: f.Blood, Text: text}
}

// conditions are a token's conditions as v may know them.
func conditions(st *State, v engine.Viewer, f *Fighter) []board.Condition {
	var out []board.Condition
	add := func(id, label, icon, text string) {
		out = append(out, board.Condition{ID: id, Label: label, Icon: icons[icon], Text: text})
	}
	if f.Status == "unconscious" {
		add("unconscious", "Unconscious", "unconscious", "Lost too much blood; still bleeding.")
	}
	if f.Prone {
		add("prone", "Prone", "prone", "Stands up with an action; easier to strike, harder to shoot.")
	}
	if f.Mounted && f.Mount != nil {
		add("mounted", "Mounted", "mounted", fmt.Sprintf("On a %s: a shot missing by 3 or less hits it.", strings.ToLower(f.Mount.Name)))
	}
	if n := len(f.Wounds); n > 0 {
		var parts []string
		for _, level := range []string{WoundLethal, WoundSerious, WoundLight} {
			if c := f.count(level); c > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", c, level))
			}
		}
		add("wounded", "Wounded", "wounded", strings.Join(parts, ", ")+fmt.Sprintf(" (−%d to skills)", woundPenalty(&st.Base, f)))
	}
	if n := bleeding(f); n > 0 {
		add("bleeding", "Bleeding", "bleeding", fmt.Sprintf("Loses %d blood each round.", n))
	}
	if f.Dashed {
		add("dashed", "Dashed", "running", "No cover and no Defense Pool until the next turn.")
	}
	if c, _ := st.cover(f, nil); c > 0 {
		add("cover", coverNames[c], "cover", fmt.Sprintf("+%dD to shots at them.", c))
	}
	var hiddenFrom, unaware []string
	for _, c := range st.Combatants {
		if n := f.Unseen[c.ID]; n > 0 && engine.Visible(st, v, c.ID) {
			if n >= 2 {
				unaware = append(unaware, c.Name)
			} else {
				hiddenFrom = append(hiddenFrom, c.Name)
			}
		}
	}
	if len(hiddenFrom)+len(unaware) > 0 {
		add("hidden", "Hidden", "hidden", "Hidden from "+strings.Join(append(slices.Clone(hiddenFrom), unaware...), ", ")+": only area fire hits them.")
	}
	if len(unaware) > 0 {
		add("unaware", "Unnoticed", "unaware", strings.Join(unaware, ", ")+" unaware of them: ambush, or slip away when all are.")
	}
	if a := f.Aim; a != nil && engine.Visible(st, v, a.Target) {
		add("aiming", "Aiming", "aiming", fmt.Sprintf("At %s, %s.", st.NameOf(a.Target), plural(a.Rounds, "1 round", strconv.Itoa(a.Rounds)+" rounds")))
	}
	if f.LostActions > 0 {
		add("terrified", "Terrified", "shaken", fmt.Sprintf("%s fewer next turn.", actionCount(f.LostActions)))
	}
	for _, w := range f.Weapons {
		if l := f.Loads[w.ID]; l != nil && (l.Jammed || l.Broken) {
			label, text := "Jammed", "The "+w.Name+" is jammed: a full reload clears it."
			if l.Broken {
				label, text = "Broken", "The "+w.Name+" is ruined."
			}
			add("jammed-"+w.ID, label, "jammed", text)
		}
	}
	return out
}

// sheetSections is a combatant's stat block: skills and attributes, the numbers
// of harm and defence, its mount and weapons with how they are loaded. All
// but how the weapons are loaded comes from the sheet, which never changes
// once ParseSheet has made it: that part is built the first time it is
// shown and kept (card, an engine.Memo) for every later view of the
// fighter and of every later copy of the state. Views share the card's
// sections: nothing may change a token's Sheet in place.
func sheetSections(f *Fighter) []board.Section {
	c := f.card()
	if len(c.weapons) == 0 {
		return c.fixed
	}
	ws := make([]board.Stat, len(c.weapons))
	for i, w := range c.weapons {
		ws[i] = w.stat
		if l := f.Loads[w.id]; l != nil {
			load := "not loaded"
			switch {
			case l.Broken:
				load = "broken"
			case l.Jammed:
				load = "jammed"
			case l.Loaded:
				load = "loaded"
			}
			if ws[i].Note != "" {
				load = ws[i].Note + ", " + load
			}
			ws[i].Note = load
		}
	}
	return append(c.fixed, board.Section{Title: "Weapons", Stats: ws}) // c.fixed is full: a new array
}

// card is what sheetSections shows of the sheet alone: every section but
// the weapons, and each weapon's line before its load.
type card struct {
	fixed   []board.Section
	weapons []cardWeapon
}

type cardWeapon struct {
	id   string
	stat board.Stat
}

// card returns f's card, building it the first time. Readers of one state
// may project it at once: the memo keeps the first card built, and two
// that build it together build the same.
func (f *Fighter) card() *card {
	if c := f.shown.Load(); c != nil {
		return c
	}
	return f.shown.Keep(newCard(&f.Sheet))
}

func newCard(s *Sheet) *card {
	skills := make([]board.Stat, 0, len(s.Skills))
	for _, name := range slices.Sorted(maps.Keys(s.Skills)) {
		skills = append(skills, board.Stat{Label: capital(name), Value: strconv.Itoa(s.Skills[name])})
	}
	out := []board.Section{{Title: "Skills", Stats: skills}}
	if len(s.Attributes) > 0 {
		attrs := make([]board.Stat, 0, len(s.Attributes))
		for _, name := range slices.Sorted(maps.Keys(s.Attributes)) {
			attrs = append(attrs, board.Stat{Label: capital(name), Value: strconv.Itoa(s.Attributes[name])})
		}
		out = append(out, board.Section{Title: "Attributes", Stats: attrs})
	}
	body := []board.Stat{
		{Label: "Toughness", Value: strconv.Itoa(s.Toughness)},
		{Label: "Armour", Value: strconv.Itoa(s.Armor)},
		{Label: "Blood", Value: strconv.Itoa(s.Blood)},
		{Label: "Defense Pool", Value: fmt.Sprintf("%dD", s.Defense)},
		{Label: "Initiative", Value: strconv.Itoa(s.Initiative)},
	}
	if s.Bulk > 0 {
		body = append(body, board.Stat{Label: "Bulk", Value: strconv.Itoa(s.Bulk)})
	}
	if m := s.Mount; m != nil {
		body = append(body, board.Stat{Label: "Mount", Value: m.Name, Note: fmt.Sprintf("Toughness %d, armour %d", m.Toughness, m.Armor)})
	}
	out = append(out, board.Section{Title: "Body", Stats: body})
	c := &card{fixed: slices.Clip(out)}
	for _, w := range s.Weapons {
		var notes []string
		if w.Ranged() {
			var bands []string
			for _, b := range w.Optimal {
				bands = append(bands, bandNames[b])
			}
			notes = append(notes, "optimal "+strings.Join(bands, ", "))
		} else if w.Long {
			notes = append(notes, "long")
		}
		if w.Area {
			notes = append(notes, "area fire")
		}
		c.weapons = append(c.weapons, cardWeapon{id: w.ID, stat: board.Stat{Label: w.Name,
			Value: fmt.Sprintf("%s %d, damage %s", capital(w.Skill), s.Skills[w.Skill], w.Damage), Note: strings.Join(notes, ", ")}})
	}
	return c
}
