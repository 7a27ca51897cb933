package board

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Battlefield is a setup document's "battlefield": the layout under one
// position model. Only the fields of that model are used. Props carry the
// ruleset's own properties of an area or a cell (cover level, terrain
// difficulty), described by its Editor.
type Battlefield struct {
	// Model is set when a ruleset offers more than one (d20-under: a 2 m
	// grid or distance categories).
	Model string `json:"model,omitempty"`
	// Zones model.
	Zones  []ZoneSetup  `json:"zones,omitempty"`
	Melees []GroupSetup `json:"melees,omitempty"`
	// Scale is how many squares of a battlemap one column (and row) of
	// the zone map stands for, when the zones came from one: the ranges
	// between zones are measured at it.
	Scale float64 `json:"scale,omitempty"`
	// Grid model.
	Width  int         `json:"width,omitempty"`
	Height int         `json:"height,omitempty"`
	Cells  []CellSetup `json:"cells,omitempty"`
	// Edges are walls, doors and windows between squares (walls.go); the
	// engine keeps them, and opens and closes the doors.
	Edges []Edge `json:"edges,omitempty"`
	// Pairs model: the engagements the fight starts with.
	Pairs []PairSetup `json:"pairs,omitempty"`
	// Ladder model: the starting distance between pairs of sides.
	Distances []DistanceSetup `json:"distances,omitempty"`
	// Places are a battlemap's rooms on a battlefield without zones
	// (pairs, ladder), kept for prep: where the GM puts each side or
	// combatant, from which it derives Distances or Pairs. Rulesets read
	// none of it.
	Places *Places `json:"places,omitempty"`
}

// Places are the rooms a battlemap gave a pairs or ladder battlefield and
// who starts in which: a position model with no zones still has a map to
// measure the starting distances on (internal/prep derives them through
// the Editor's Reaches).
type Places struct {
	Rooms []Place `json:"rooms"`
	// Paths are the shortest walks between two rooms through the doors
	// and openings, from the middle of one to the middle of the other,
	// at the map's scale; two rooms with no path have none.
	Paths []Path `json:"paths"`
	// At is the room each side (ladder) or each combatant (pairs) starts
	// in, by id.
	At map[string]string `json:"at,omitempty"`
	// Width and Height are the map's size in squares, the frame of the
	// rooms' centres (0: unknown).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
}

// Place is one room of a map.
type Place struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// CX and CY are the middle of its floor, in squares of the map: where
	// the editor names it on the map's picture.
	CX float64 `json:"cx,omitempty"`
	CY float64 `json:"cy,omitempty"`
}

// Path is the shortest walk between rooms A and B, in metres.
type Path struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Metres float64 `json:"metres"`
}

// ZoneSetup is one zone.
type ZoneSetup struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Adjacent    []string `json:"adjacent"`
	Props       Props    `json:"props,omitempty"`
	// X and Y place the zone on the page's map (column and row from 0);
	// without them the page lays the zones out itself. W and H are the
	// columns and rows it spans there (0: one), as the GM drew it: the
	// page draws it in that box, over the scene where it lies.
	X *int `json:"x,omitempty"`
	Y *int `json:"y,omitempty"`
	W int  `json:"w,omitempty"`
	H int  `json:"h,omitempty"`
}

// GroupSetup is a starting melee: members in zone.
type GroupSetup struct {
	ID      string   `json:"id"`
	Zone    string   `json:"zone"`
	Members []string `json:"members"`
}

// CellSetup is one cell that is not open ground.
type CellSetup struct {
	X     int   `json:"x"`
	Y     int   `json:"y"`
	Props Props `json:"props,omitempty"`
}

// PairSetup is a starting engagement.
type PairSetup struct {
	A        string `json:"a"`
	B        string `json:"b"`
	Distance string `json:"distance,omitempty"`
}

// DistanceSetup is the starting distance category between two sides.
type DistanceSetup struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Rung string `json:"rung"`
}

// Start is a combatant's starting position, the setup's "start": a zone,
// or a cell (X, Y) with an optional contact group; Props hold the rest,
// as the ruleset's Editor declares them.
type Start struct {
	Zone  string `json:"zone,omitempty"`
	X     *int   `json:"x,omitempty"`
	Y     *int   `json:"y,omitempty"`
	Group string `json:"group,omitempty"`
	Props Props  `json:"props,omitempty"`
}

// Props are a ruleset's properties of an area, a cell or a start, keyed by
// the names its Editor declares. Values are strings, numbers or booleans.
type Props map[string]any

// String returns a text or select property.
func (p Props) String(name string) string {
	switch v := p[name].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// Int returns a number property (0 when absent).
func (p Props) Int(name string) int {
	switch v := p[name].(type) {
	case float64:
		return int(v)
	case int:
		return v
	case string:
		n, _ := strconv.Atoi(v)
		return n
	}
	return 0
}

// Bool returns a checkbox property.
func (p Props) Bool(name string) bool {
	b, _ := p[name].(bool)
	return b
}

// Editor describes a ruleset's battlefield editor, as sheet.Schema
// describes its stat blocks: the model, and the properties an area, a cell
// and a start take.
type Editor struct {
	Model string `json:"model"`
	// Models lists the choices when the ruleset offers several; Model is
	// then the default.
	Models []Option `json:"models,omitempty"`
	// Area holds the properties of a zone (zones model) or of a cell
	// (grid model).
	Area []Field `json:"area,omitempty"`
	// Start holds the properties of a combatant's start; an option may
	// carry the pose the token is drawn in (Option.Pose).
	Start []Field `json:"start,omitempty"`
	// Grid bounds and scale (grid model).
	MaxWidth  int    `json:"maxWidth,omitempty"`
	MaxHeight int    `json:"maxHeight,omitempty"`
	Scale     string `json:"scale,omitempty"`
	// Distances are the pairs model's distances or the ladder's rungs, in
	// order, the first the default.
	Distances []string `json:"distances,omitempty"`
	// Wall is what a square of the grid takes to be solid wall (blocks
	// movement and sight) in the ruleset's own properties, for squares a
	// battlemap has no floor in (grid model; nil: none is made).
	Wall Props `json:"wall,omitempty"`
	// ZoneSpan is how many squares of a battlemap (5 ft each) one zone
	// stands for across (zones model): an imported map's rooms larger
	// than that are split into zones of at most this side
	// (internal/battlemap).
	ZoneSpan int `json:"zoneSpan,omitempty"`
	// Reaches map a walk on a battlemap onto Distances (pairs, ladder),
	// nearest first: a path of at most Metres starts at Distance, the
	// first reach that holds it; a longer path than every reach starts at
	// the last of Distances (ladder) or not engaged (pairs). None: a map
	// cannot give this ruleset's distances.
	Reaches []Reach `json:"reaches,omitempty"`
}

// Reach is how far one of an Editor's Distances goes, in metres.
type Reach struct {
	Distance string  `json:"distance"`
	Metres   float64 `json:"metres"`
}

// Field is one property in an Editor: a select of Options, a whole number
// between Min and Max (unless both are zero), a checkbox or a short text.
type Field struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"`
	Type    string   `json:"type"` // "select", "int", "bool" or "text"
	Options []Option `json:"options,omitempty"`
	Default string   `json:"default,omitempty"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
	Help    string   `json:"help,omitempty"`
}

// Field types.
const (
	FieldSelect = "select"
	FieldInt    = "int"
	FieldBool   = "bool"
	FieldText   = "text"
)

// Option is a value of a select and its label. Pose, on an option of a
// start's property, is the pose a token starting with it is drawn in.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Pose  *Pose  `json:"pose,omitempty"`
}

// Read decodes a setup's battlefield (empty when absent), rejecting
// unknown fields.
func Read(raw json.RawMessage) (Battlefield, error) {
	var b Battlefield
	if len(raw) == 0 || string(raw) == "null" {
		return b, nil
	}
	if err := strictJSON(raw, &b); err != nil {
		return b, fmt.Errorf("battlefield: %w", err)
	}
	return b, nil
}

// ReadStart decodes a combatant's start (empty when absent).
func ReadStart(raw json.RawMessage) (Start, error) {
	var s Start
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	if err := strictJSON(raw, &s); err != nil {
		return s, fmt.Errorf("start: %w", err)
	}
	return s, nil
}
