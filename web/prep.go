package web

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/statblock"
)

// PrepProps is the preparation part of a campaign page: drafts, encounters
// grouped by lifecycle, bestiary and characters.
type PrepProps struct {
	CampaignID string
	IsGM       bool
	Rulesets   []engine.Choice
	// Foundry are the rulesets that read a Foundry system's actors.
	Foundry    []engine.Choice
	Drafts     []DraftSummary
	Ready      []EncounterSummary // status setup
	Running    []EncounterSummary // running or paused
	Finished   []EncounterSummary
	Bestiary   []StatSummary
	Characters []StatSummary
}

// DraftSummary is one draft in a list.
type DraftSummary struct{ ID, Name, Ruleset string }

// StatSummary is one bestiary entry or character in a list. Page is a
// character's page, when the viewer may open it.
type StatSummary struct{ ID, Name, Derived, Page string }

// DraftProps is the encounter editor's data.
type DraftProps struct {
	ID, CampaignID, Name, RulesetTitle string
	Options                            []OptionView
	Sides                              []engine.Side
	// Board is the battlefield editor; nil for a ruleset without a board.
	Board                *DraftBoard
	Combatants           []CombatantRow
	Characters, Bestiary []engine.Choice
	// Problem is why the draft cannot become an encounter yet ("" when
	// ready), in the GM's names; ProblemFix says how to fix it; ProblemAt
	// is the board element it is about (a zone, square or combatant id,
	// see prep.Problem), highlighted on the board.
	Problem, ProblemFix, ProblemAt string
	// InPlace is set when the page answers an edit made in place (Error
	// then shows inside the editor).
	InPlace       bool
	Notice, Error string
	// Undos and Redos are how many edits can be undone and redone.
	Undos, Redos int
	// Odds is the encounter odds section.
	Odds OddsProps
	// The stage: the campaign's pictures to choose from, the scene, the
	// handouts and the GM's note on the encounter.
	Pictures []Picture
	Scene    string
	Handouts []engine.Handout
	Note     string
	// SceneFit lays the scene under the board as a map (nil: it fills it).
	SceneFit *engine.SceneFit
}

// Picture is one of a campaign's uploaded pictures.
type Picture struct {
	URL, Thumb, Name string
	// Width and Height are the stored display size in pixels (0 unknown).
	Width, Height int
}

// DraftBoard is the draft's battlefield as its ruleset's editor describes
// it (board.Editor): the rows of its model, and a preview drawn like the
// table's board.
type DraftBoard struct {
	Editor board.Editor
	Model  string
	// Zones model.
	Zones  []ZoneRow
	Melees []MeleeRow
	// Grid model.
	Width, Height int
	Cells         []CellRow
	// Edges are the walls, doors and windows between squares.
	Edges []board.Edge
	// Pairs model.
	Pairs []PairRow
	// Ladder model: the distance between each two sides.
	Distances []DistanceRow
	// Preview is the battlefield drawn with the starts.
	Preview engine.View
	// Ranges are the paths between every two zones, nearest first; Scale
	// the squares of a map one column of the zone map stands for (0: the
	// zones did not come from a map).
	Ranges []RangeRow
	Scale  float64
	// Rooms are a map's places on a pairs or ladder battlefield, Placed
	// the sides (ladder) or combatants (pairs) to put in them, and
	// PlaceRanges the starting distances the rooms give.
	Rooms       []engine.Choice
	Placed      []PlacedRow
	PlaceRanges []PlaceRangeRow
	// PlaceMap names the rooms on the map's picture (nil: their places
	// on it are unknown).
	PlaceMap *PlaceMap
	// PlacesChanged is set when a starting distance or engagement was
	// changed by hand from what the rooms give.
	PlacesChanged bool
}

// PlaceMap is a map W × H squares with its rooms' names at their middles.
type PlaceMap struct {
	W, H  int
	Marks []PlaceMark
}

// PlaceMark is a room's name at (X, Y), in squares of the map.
type PlaceMark struct {
	Name string
	X, Y float64
}

// viewBox is the map's frame in squares, for its SVG.
func (m *PlaceMap) viewBox() string { return "0 0 " + strconv.Itoa(m.W) + " " + strconv.Itoa(m.H) }

// fontSize is the rooms' names' size in squares: a twenty-fifth of the
// map's longer side, never under half a square.
func (m *PlaceMap) fontSize() string {
	return f2(max(0.5, float64(max(m.W, m.H))/25))
}

// PlacedRow is a side or combatant and the room it starts in ("" none).
type PlacedRow struct {
	ID, Name, Room string
}

// PlaceRangeRow is a starting distance derived from the rooms: between A
// in room From and B in room To, Metres walked; Distance is what it
// makes ("" not engaged), NoPath that no walk joins the rooms.
type PlaceRangeRow struct {
	A, From, B, To string
	Metres         float64
	Distance       string
	NoPath         bool
}

// placeDistance says what a derived distance makes, in words.
func placeDistance(r PlaceRangeRow) string {
	switch {
	case r.NoPath:
		return "no way through: set it by hand"
	case r.Distance == "":
		return "not engaged"
	}
	return r.Distance
}

// placedWho says what a battlefield puts in a map's rooms.
func placedWho(model string) string {
	if model == board.Ladder {
		return "each side"
	}
	return "each combatant"
}

// placesWhat names what the rooms give a battlefield.
func placesWhat(model string) string {
	if model == board.Ladder {
		return "distances"
	}
	return "engagements"
}

// metres writes a walk's length ("12.2 m").
func metres(r PlaceRangeRow) string {
	if r.NoPath {
		return "–"
	}
	return strconv.FormatFloat(r.Metres, 'f', 1, 64) + "\u00a0m"
}

// RangeRow is the path from zone A to zone B: Hops borders crossed,
// Squares of the map walked (when Scale is known).
type RangeRow struct {
	A, B          string
	Hops, Squares int
}

// edgesHelp counts the walls between squares and says what they do.
func edgesHelp(edges []board.Edge) string {
	walls, doors, windows := board.CountEdges(edges)
	what := "None yet."
	if len(edges) > 0 {
		what = fmt.Sprintf("%d walls, %d doors and %d windows, drawn on the board.", walls, doors, windows)
	}
	return what + " A wall or a closed door blocks movement and sight between the two squares it separates, a window only movement; the GM opens and closes doors in play."
}

// rangesHelp says how the range table was made.
func rangesHelp(b *DraftBoard) string {
	if b.Scale > 0 {
		return "The shortest path through the borders, from the middle of one zone to the middle of the next, at the map's scale."
	}
	return "The fewest borders crossed from one zone to the other."
}

// zoneSpanHelp says where the default zone size comes from.
func zoneSpanHelp(span int) string {
	if span <= 0 {
		return ""
	}
	return " (this ruleset: " + strconv.Itoa(span) + ", a zone's worth of range)"
}

// OptionView is a ruleset option with the draft's value.
type OptionView struct {
	engine.OptionSpec
	Value string
}

// ZoneRow is one zone of the draft's battlefield.
type ZoneRow struct {
	ID, Name, Description string
	X, Y                  *int // its place on the map, when set
	W, H                  int  // the columns and rows it spans there (0: one)
	Props                 board.Props
	Features              []string
	Adjacent              []engine.Choice
	Image                 string // the picture inside the zone, "" for none
}

// MeleeRow is one starting melee.
type MeleeRow struct {
	ID, Zone string
	Members  []string
}

// CellRow is one grid cell that is not open ground.
type CellRow struct {
	X, Y     int
	Name     string // "C4"
	Features []string
}

// PairRow is one starting engagement.
type PairRow struct {
	Index          int
	A, B, Distance string
}

// DistanceRow is the starting distance between two sides.
type DistanceRow struct {
	A, B, AName, BName, Rung string
}

// CombatantRow is one combatant of a draft.
type CombatantRow struct {
	ID, Name, Side string
	PC, Hidden     bool
	Start          board.Start
	// Where says where it starts, in words ("Ford", "C4, group a").
	Where string
	// Portrait is its picture's URL.
	Portrait string
	// Stats is this encounter's copy of its stat block, opened for
	// editing (nil when closed, or for a player character).
	Stats *DraftStats
}

// DraftStats is a combatant's stat block in the draft, in the ruleset's
// stat schema form.
type DraftStats struct {
	Schema   sheet.Schema
	Values   map[string]string
	ListRows int
}

// StatBlockProps is the page editing a bestiary entry or character.
type StatBlockProps struct {
	CampaignID, Kind, ID, Name, Ruleset string
	// Portrait is its picture's URL ("" for none).
	Portrait      string
	Schema        sheet.Schema
	Values        map[string]string
	ListRows      int
	Derived       []engine.Choice // label, value
	Problem       string
	Notice, Error string
	// CanPaste: the ruleset's book prints stat blocks Fray reads. Paste
	// is what reading PasteText gave (nil before a paste).
	CanPaste  bool
	PasteText string
	Paste     *statblock.Report
}

func (p StatBlockProps) title() string {
	what := "bestiary entry"
	if p.Kind == "pcs" {
		what = "character"
	}
	if p.ID == "" {
		return "New " + what
	}
	return p.Name
}

func (p StatBlockProps) action() string {
	if p.ID == "" {
		return campaignPath(p.CampaignID, p.Kind)
	}
	return campaignPath(p.CampaignID, p.Kind, p.ID)
}

func draftPath(id string, parts ...string) string {
	return "/drafts/" + strings.Join(append([]string{id}, parts...), "/")
}

func fieldID(name string) string { return "f-" + slug(name) }

func listName(list string, i int, item string) string {
	return list + "." + strconv.Itoa(i) + "." + item
}

// groupFields are the schema's fields of group, in order.
func groupFields(s sheet.Schema, group string) []sheet.Field {
	return slices.DeleteFunc(slices.Clone(s.Fields), func(f sheet.Field) bool { return f.Group != group })
}

func valueOr(values map[string]string, name, def string) string {
	if v, ok := values[name]; ok {
		return v
	}
	return def
}

// propValue is a property's form value.
func propValue(p board.Props, f board.Field) string {
	if f.Type == board.FieldBool {
		if p.Bool(f.Name) {
			return "on"
		}
		return ""
	}
	return p.String(f.Name)
}

// startSquare names a start's square as the board does, "" for none.
func startSquare(st board.Start) string {
	if st.X == nil || st.Y == nil {
		return ""
	}
	return board.SquareName(*st.X, *st.Y)
}

// lastSquare names the bottom-right square of b's grid.
func lastSquare(b *DraftBoard) string {
	return board.SquareName(max(b.Width-1, 0), max(b.Height-1, 0))
}

func (b *DraftBoard) hasModels() bool { return len(b.Editor.Models) > 1 }

func combatantName(rows []CombatantRow, id string) string {
	for _, c := range rows {
		if c.ID == id {
			return c.Name
		}
	}
	return id
}

func pictureLabel(p Picture) string {
	if p.Name != "" {
		return p.Name
	}
	id := strings.TrimPrefix(p.URL, engine.AssetPrefix)
	return "Picture " + id[:min(8, len(id))]
}

// htmxConfig keeps htmx within the pages' Content-Security-Policy (no
// inline styles, no eval) and lets an edit refused with 4xx swap in the
// editor that says why. The settle runs in the swap's own task (no delay):
// between the two, the new editor's forms are not yet boosted (a key
// pressed then would post them the old way, reloading the page) and the
// window has not yet gone back to where the GM was working.
const htmxConfig = `{"includeIndicatorStyles":false,"defaultSettleDelay":0,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true,` +
	`"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},{"code":"4..","swap":true,"error":false},{"code":"...","swap":false,"error":true}]}`

// boardHint says how to edit the board of a position model in place.
func boardHint(model string) string {
	switch model {
	case board.Zones:
		return "Draw a rectangle on the board to add a zone there. Click one zone, then another, to connect them. Drag a combatant or a bestiary entry onto a zone to start it there — or click it, then click the zone."
	case board.Grid:
		return "Drag a combatant or a bestiary entry onto a square to start it there — or click it, then click the square. To paint terrain, set it under “Paint squares” and drag over the board."
	case board.Pairs:
		return "Drag one combatant onto another to engage them at the distance picked under “Engage two combatants” — or click one, then the other. Bestiary entries can be dropped anywhere on the board."
	case board.Ladder:
		return "Click a rung between two sides to set how far apart they start. Bestiary entries can be dropped anywhere on the board."
	}
	return ""
}

// spanValue is a zone's span for a form: empty for the default of one.
func spanValue(n int) string {
	if n <= 1 {
		return ""
	}
	return strconv.Itoa(n)
}

func intp(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}
