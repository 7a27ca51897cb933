package web

import (
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/statblock"
)

// The stat editor's paste box: a stat block as the ruleset's book prints
// it is read into the editor's form (statblock.Parse), not saved; the
// page says what was filled from which line, highlights what was
// assumed, and lists what was not understood, so the GM checks and
// corrects before pressing Save.

func (p StatBlockProps) pasteAction() string { return p.action() + "/paste" }

// marks are the form's fields the paste assumed, with why.
func (p StatBlockProps) marks() map[string]string {
	if p.Paste == nil {
		return nil
	}
	m := map[string]string{}
	for _, n := range p.Paste.Assumed {
		m[n.Field] = n.Why
	}
	return m
}

// schemaLabel is a form field's label: a field's, or "Weapon 2 Name" for
// a list item's.
func schemaLabel(s sheet.Schema, name string) string {
	for _, f := range s.Fields {
		if f.Name == name {
			return f.Label
		}
		rest, ok := strings.CutPrefix(name, f.Name+".")
		if !ok || f.Type != sheet.FieldList {
			continue
		}
		i, item, _ := strings.Cut(rest, ".")
		n, err := strconv.Atoi(i)
		if err != nil {
			continue
		}
		for _, it := range f.Items {
			if it.Name == item {
				return f.Label + " " + strconv.Itoa(n+1) + " " + it.Label
			}
		}
	}
	return name
}

// lineRef is "line 3: " for a note from a line, "" otherwise.
func lineRef(n statblock.Note) string {
	if n.Line == 0 {
		return ""
	}
	return "line " + strconv.Itoa(n.Line) + ": "
}

// shown is a form value as the GM reads it ("on" is yes, "" no).
func shown(v string) string {
	switch v {
	case "on":
		return "yes"
	case "":
		return "no"
	}
	return v
}

func hasMark(marks map[string]string, name string) bool {
	_, ok := marks[name]
	return ok
}

// FoundryResultProps is a Foundry import's report.
type FoundryResultProps struct {
	CampaignID, Kind, Ruleset string
	Actors                    []FoundryActor
}

// FoundryActor is one actor as stored: its entry's id, how many fields
// were filled, what was assumed, what was not mapped, and what became of
// its portrait.
type FoundryActor struct {
	ID, Name string
	Filled   int
	Assumed  []statblock.Note
	Unmapped []string
	Portrait string
}

func (p FoundryResultProps) what() string {
	if p.Kind == "pcs" {
		return "characters"
	}
	return "bestiary entries"
}
