package web

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
)

// CharacterProps is a campaign character's page: the sheet as it stands
// (its latest revision) and every revision, newest first. GMs and the
// player who owns the character see it.
type CharacterProps struct {
	CampaignID, CampaignName string
	ID, Name, Ruleset        string
	Revision                 int
	// Portrait is the character's picture's URL ("" for none).
	Portrait string
	// Owner is the name of the player who plays the character ("" none).
	Owner string
	// EditURL is the GM's stat editor ("" for players).
	EditURL string
	// PortraitURL is where the page posts a new portrait (an upload); ""
	// for no form.
	PortraitURL string
	Derived     []engine.Choice // label, value
	Problem     string          // why the stats are invalid, if they are
	// Condition are the values the ruleset carries from fight to fight.
	Condition []SheetValue
	Groups    []SheetGroup
	Revisions []RevisionRow
}

// SheetValue is one labelled value of a sheet.
type SheetValue struct {
	Path, Label, Value string
}

// SheetGroup is one group of a sheet's values, in schema order.
type SheetGroup struct {
	Name   string
	Values []SheetValue
	// List marks a group of list items (weapons …), shown one per line.
	List bool
}

// RevisionRow is one revision in a character's history.
type RevisionRow struct {
	Revision int
	Kind     string // created, edited, carried, imported
	// When is shown; WhenISO goes in <time datetime>.
	When, WhenISO string
	By            string
	// EncounterName is the encounter that made a carried revision;
	// EncounterURL its log, "" when the encounter is gone.
	EncounterName, EncounterURL string
	Changes                     []sheet.Change
}

// kindText says what made a revision.
func (r RevisionRow) kindText() string {
	switch r.Kind {
	case "created":
		if r.EncounterName != "" {
			return "Added to the campaign after"
		}
		return "Created"
	case "edited":
		return "Edited"
	case "carried":
		return "Carried over from"
	case "imported":
		return "Imported"
	}
	return r.Kind
}

// CharacterURL is a campaign character's page.
func CharacterURL(campaignID, id string) string {
	return campaignPath(campaignID, "characters", id)
}

// CarryProps is an encounter's carry-over page: for the GM, what the fight
// did to each player character and what their sheet becomes, to confirm,
// edit or skip.
type CarryProps struct {
	EncounterID, Name, CampaignID string
	Status                        engine.Status
	// Seq is the encounter's seq the page shows; the form posts it back so
	// a confirmation never applies to a state the GM did not see.
	Seq int64
	// Carries is false when the ruleset keeps nothing between encounters.
	Carries       bool
	Ruleset       string
	Notice, Error string
	Characters    []CarryRow
}

func (p CarryProps) finished() bool { return p.Status == engine.StatusFinished }

// decidable reports whether the page has a character to decide for.
func (p CarryProps) decidable() bool {
	return slices.ContainsFunc(p.Characters, func(c CarryRow) bool { return c.State != "blocked" })
}

// CarryRow is one player character on the carry-over page.
type CarryRow struct {
	ID, Name string
	// State is new, pending, changed, confirmed, skipped or blocked.
	State, Problem, Invalid string
	// PageURL is the character's page, when the campaign has the character.
	PageURL string
	// Decided describes the last decision ("" when none).
	Decided string
	Values  []CarryValueRow
	// Skip preselects "skip" (the last decision of this end was a skip).
	Skip bool
}

// CarryValueRow is one carried value of a character.
type CarryValueRow struct {
	Field sheet.CarryField
	// Start and End are the value at the start and end of the fight; Now
	// on the sheet; Input the proposal as the form holds it.
	Start, End, Now, Input string
	// Changed marks a proposal that differs from the sheet.
	Changed bool
}

func (c CarryRow) stateText() string {
	switch c.State {
	case "new":
		return "not in the campaign yet"
	case "pending":
		return "to decide"
	case "changed":
		return "result changed"
	case "confirmed":
		return "carried over"
	case "skipped":
		return "skipped"
	case "blocked":
		return "cannot be carried"
	}
	return c.State
}

func carryInputName(id, path string) string { return "value." + id + "." + path }

func carryInputID(id, path string) string { return "carry-" + slug(id) + "-" + slug(path) }

func carryBounds(f sheet.CarryField) templ.Attributes {
	attrs := templ.Attributes{}
	if f.Bounded() {
		attrs["min"] = strconv.Itoa(f.Min)
		attrs["max"] = strconv.Itoa(f.Max)
	}
	return attrs
}

// carryURL is an encounter's carry-over page.
func carryURL(id string) string { return "/encounters/" + url.PathEscape(id) + "/carry-over" }
