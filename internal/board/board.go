// Package board describes battlefields by position model — zones, grids,
// pairwise engagements, distance ladders — so that the encounter page, the
// prep editor and the history pages draw and edit any ruleset's battlefield
// without importing a ruleset.
//
// A ruleset projects its own state into a Board (what one viewer sees now)
// and describes its battlefield editor with an Editor; a setup document's
// "battlefield" is a Battlefield and each combatant's "start" a Start. The
// page knows the four models; a sixth ruleset with an existing position
// model needs no page code.
//
// Nothing here knows a ruleset's words: cover levels, terrain kinds,
// conditions and health come as labels the ruleset chose.
package board

import (
	"slices"
	"strconv"
	"strings"
)

// Position models.
const (
	// Zones: named areas joined by borders; combatants stand in an area,
	// alone or in a group (a melee) inside it.
	Zones = "zones"
	// Grid: square cells of a fixed scale (30 m, 2 m or 5 ft); combatants
	// stand in cells, possibly in contact groups.
	Grid = "grid"
	// Pairs: pairwise engagements, each at one of the ruleset's
	// distances; combatants not engaged stand apart.
	Pairs = "pairs"
	// Ladder: a distance category between each pair of sides (Close,
	// Short, Medium, Long, Extreme).
	Ladder = "ladder"
)

// Board is one viewer's picture of the battlefield: every combatant the
// viewer may see as a token, and where they are under the model.
type Board struct {
	Model  string     `json:"model"`
	Tokens []Token    `json:"tokens"`
	Zones  *ZoneMap   `json:"zones,omitempty"`
	Grid   *GridMap   `json:"grid,omitempty"`
	Pairs  *PairMap   `json:"pairs,omitempty"`
	Ladder *LadderMap `json:"ladder,omitempty"`
	// Notes are facts about the whole battlefield ("Heavy rain: −1D to
	// Perception").
	Notes []string `json:"notes,omitempty"`
	// Facts are numbers about the fight the page shows beside the turn
	// order ("Deck: 40 cards left", "Reserve: 3").
	Facts []Stat `json:"facts,omitempty"`
	// Legend is every icon the tokens show (their conditions and poses),
	// once each, in the order they first appear: what a page explains in a
	// key. Finish fills it from the tokens.
	Legend []Icon `json:"legend,omitempty"`
}

// Token is a combatant as the board shows it.
type Token struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Side   string `json:"side"`
	PC     bool   `json:"pc,omitempty"`
	Acting bool   `json:"acting,omitempty"` // may act now
	Out    bool   `json:"out,omitempty"`
	Down   bool   `json:"down,omitempty"`
	// Hidden is set for a combatant the players do not see (only the GM
	// and its controller get its token).
	Hidden bool `json:"hidden,omitempty"`
	// Portrait is the URL of the combatant's picture, "" for none (the
	// engine fills it in from the combatant; initials are the fallback).
	Portrait string `json:"portrait,omitempty"`
	// Tags are short words that say what the token is ("Veteran").
	Tags []string `json:"tags,omitempty"`
	// Initiative is what the turn order shows beside the name: a card
	// ("Q♠"), an initiative count ("17").
	Initiative string `json:"initiative,omitempty"`
	// Health is the one measure of harm the ruleset leads with (wounds,
	// hit points, wound level).
	Health *Meter `json:"health,omitempty"`
	// Pose is how the token stands, when the ruleset tracks it (lying,
	// stooping): drawn on the token itself.
	Pose *Pose `json:"pose,omitempty"`
	// Conditions are states worth an icon.
	Conditions []Condition `json:"conditions,omitempty"`
	// Stats are a few numbers a player checks at a glance (Defense 14,
	// Speed 6).
	Stats []Stat `json:"stats,omitempty"`
	// Sheet is the rest of the stat block, for the viewers who may read
	// it (the GM, the token's player): traits, weapons, powers.
	Sheet []Section `json:"sheet,omitempty"`
}

// Section is one titled part of a token's sheet.
type Section struct {
	Title string `json:"title"`
	Stats []Stat `json:"stats"`
}

// Meter is a measure with an optional maximum: Value of Max, in words.
type Meter struct {
	Label string `json:"label"`
	Value int    `json:"value"`
	Max   int    `json:"max,omitempty"`
	Text  string `json:"text"`
	// Low means the value is bad when small (hit points), not when large
	// (wounds): the page fills the meter accordingly.
	Low bool `json:"low,omitempty"`
}

// Condition is a state a token shows as an icon with a text alternative.
// ID is the ruleset's; Label names it on this token ("Held by Ana"); Text
// says what it means ("−2 to all actions").
type Condition struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Icon  Icon   `json:"icon"`
	Text  string `json:"text,omitempty"`
}

// Icon is how a ruleset draws a condition or a pose: a glyph (a
// character every font has; a page draws the label's first letter when it
// is empty), what the glyph stands for on a legend, and its tone. The
// ruleset declares it; pages and boards know no condition.
type Icon struct {
	Glyph  string `json:"glyph,omitempty"`
	Legend string `json:"legend,omitempty"`
	Tone   string `json:"tone,omitempty"`
}

// Tones of an icon, for its colour: how it bodes for the token. None
// (the zero value) is a hindrance.
const (
	// Good is an advantage the token holds.
	Good = "good"
	// Bad puts the token's life or its part in the fight at stake.
	Bad = "bad"
)

// Pose is how a token stands, for a ruleset that tracks it: its icon
// and words like a condition's, and the Shape a drawing gives the token.
type Pose struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Icon  Icon   `json:"icon"`
	Text  string `json:"text,omitempty"`
	Shape string `json:"shape,omitempty"`
}

// Shapes of a token in a pose; none is upright.
const (
	// Flat: drawn as a flattened disc, the token lying on the ground.
	Flat = "flat"
	// Low: drawn smaller, the token stooping.
	Low = "low"
)

// Finish completes a board a ruleset built: its Legend, from the icons
// its tokens show.
func (b *Board) Finish() {
	b.Legend = nil
	add := func(ic Icon) {
		// A legend holds a few icons: a look through it is cheaper than a map.
		if ic.Glyph == "" || slices.Contains(b.Legend, ic) {
			return
		}
		b.Legend = append(b.Legend, ic)
	}
	for i := range b.Tokens {
		t := &b.Tokens[i]
		if t.Pose != nil {
			add(t.Pose.Icon)
		}
		for _, c := range t.Conditions {
			add(c.Icon)
		}
	}
}

// Stat is a label and a value, with an optional note ("range 12/24/48").
type Stat struct {
	Label string `json:"label"`
	Value string `json:"value"`
	Note  string `json:"note,omitempty"`
}

// ZoneMap is the zones model: areas, borders, groups inside areas.
type ZoneMap struct {
	Areas  []Area   `json:"areas"`
	Links  []Link   `json:"links"`
	Groups []Group  `json:"groups"`
	Places []Placed `json:"places"`
}

// Area is one zone. Features are what the ruleset says matters about it
// ("Light cover", "Cover Armour 4"); X and Y are an optional layout hint in
// grid units.
type Area struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Features    []string `json:"features,omitempty"`
	X           *int     `json:"x,omitempty"`
	Y           *int     `json:"y,omitempty"`
	// W and H are the columns and rows the area spans from X, Y (0: one).
	W int `json:"w,omitempty"`
	H int `json:"h,omitempty"`
	// Shade grades how sheltered or hard the area is, 0 (open) to 3, for
	// the page's fill, as Cell.Shade.
	Shade int `json:"shade,omitempty"`
	// Image is the URL of the picture the GM put inside the zone, "" for
	// none (the engine fills it in from its stage; rulesets leave it).
	Image string `json:"image,omitempty"`
}

// Link is a border between two areas.
type Link struct {
	A string `json:"a"`
	B string `json:"b"`
}

// Group is a melee (or any cluster) of tokens inside an area.
type Group struct {
	ID      string   `json:"id"`
	Area    string   `json:"area"`
	Members []string `json:"members"`
	Label   string   `json:"label,omitempty"`
}

// Placed says where a token stands: an area (zones) or a cell (grid), and
// a group it belongs to.
type Placed struct {
	Token string `json:"token"`
	Area  string `json:"area,omitempty"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
	Group string `json:"group,omitempty"`
	// Off is set for tokens off the map (beyond its farthest distance).
	Off bool `json:"off,omitempty"`
}

// GridMap is the grid model: Width × Height cells of Scale each.
type GridMap struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Scale  string `json:"scale"` // "30 m", "2 m", "5 ft"
	Cells  []Cell `json:"cells,omitempty"`
	// Edges are the walls, doors and windows between squares (walls.go),
	// doors as they stand now.
	Edges  []Edge   `json:"edges,omitempty"`
	Places []Placed `json:"places"`
	// Bands names distances in cells, nearest first ("Very Close",
	// "Close", …), when the ruleset measures range in whole cells.
	Bands []string `json:"bands,omitempty"`
}

// Cell is a cell that is not plain open ground: its features in words
// (terrain, cover) and whether it blocks line of sight.
type Cell struct {
	X        int      `json:"x"`
	Y        int      `json:"y"`
	Label    string   `json:"label,omitempty"`
	Features []string `json:"features,omitempty"`
	Blocks   bool     `json:"blocks,omitempty"`
	// Shade grades how hard the cell is, 0 (open) to 3, for the page's fill.
	Shade int `json:"shade,omitempty"`
}

// PairMap is the pairwise model: who is engaged with whom, at what
// distance.
type PairMap struct {
	Engagements []Engagement `json:"engagements"`
	Apart       []string     `json:"apart"` // tokens engaged with no one
}

// Engagement is two combatants engaged at Distance ("Close"), with what
// each showed in the last exchange and any note.
type Engagement struct {
	A        string            `json:"a"`
	B        string            `json:"b"`
	Distance string            `json:"distance"`
	Shown    map[string]string `json:"shown,omitempty"`
	Note     string            `json:"note,omitempty"`
}

// LadderMap is the ladder model: a rung between each pair of sides.
type LadderMap struct {
	Rungs []Rung    `json:"rungs"`
	Gaps  []SideGap `json:"gaps"`
	// Engaged are pairs of tokens locked together whatever the rung of
	// their sides (a melee), drawn between the two camps on the ladder;
	// Distance names the engagement ("melee").
	Engaged []Engagement `json:"engaged,omitempty"`
}

// Rung is one distance category and what it means.
type Rung struct {
	Name string `json:"name"`
	Help string `json:"help,omitempty"` // "+2 to hit, +1d4 damage"
}

// SideGap is the distance between two sides, with a note ("2 moves to
// close").
type SideGap struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Rung int    `json:"rung"`
	Note string `json:"note,omitempty"`
}

// SquareName is how people name square (x, y) of a grid, the way the board
// labels it: a column letter (A–Z, then AA…) and a row number from 1 — "K9"
// for (10, 8). Rulesets use it in the words they show; values stay "x,y".
func SquareName(x, y int) string {
	col := ""
	for n := x; ; n = n/26 - 1 {
		col = string(rune('A'+n%26)) + col
		if n < 26 {
			break
		}
	}
	return col + strconv.Itoa(y+1)
}

// ParseSquareName reads a square's name as SquareName writes it ("K9",
// "k9", "AA12", spaces around it allowed) back into (x, y).
func ParseSquareName(name string) (x, y int, ok bool) {
	name = strings.ToUpper(strings.TrimSpace(name))
	i := strings.IndexFunc(name, func(r rune) bool { return r < 'A' || r > 'Z' })
	if i <= 0 || i > 3 {
		return 0, 0, false
	}
	col := 0
	for _, r := range name[:i] {
		col = col*26 + int(r-'A') + 1
	}
	row, err := strconv.Atoi(strings.TrimSpace(name[i:]))
	if err != nil || row < 1 || row > 1<<16 || strings.HasPrefix(strings.TrimSpace(name[i:]), "+") {
		return 0, 0, false
	}
	return col - 1, row - 1, true
}
