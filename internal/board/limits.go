package board

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a battlefield, whatever the ruleset: a ruleset's Editor may be
// stricter (MaxWidth, MaxHeight). CheckBattlefield enforces them wherever
// a battlefield enters (internal/prep); Preview and the page's drawers
// clamp to them besides, so a board is bounded by construction even if a
// bad one was stored before these limits existed.
const (
	MaxGridSide  = 100  // squares across and down
	MaxZones     = 64   // areas of a zone map
	MaxZonePlace = 11   // a zone's X and Y on the page's map (12 × 12)
	MaxGroups    = 100  // starting melees
	MaxPairs     = 500  // starting engagements
	MaxDistances = 256  // starting distances between sides
	MaxProps     = 16   // properties of an area, a cell or a start
	MaxIDLen     = 64   // bytes of a zone, melee or group id
	MaxNameLen   = 80   // characters of a zone's name
	MaxTextLen   = 1000 // characters of a zone's description
	MaxMapSide   = 1000 // squares of a battlemap's side, for its places
)

// CheckText reports whether s is a text of at most max characters: valid
// UTF-8 without control characters.
func CheckText(s string, max int) bool {
	return utf8.ValidString(s) && utf8.RuneCountInString(s) <= max && !strings.ContainsFunc(s, unicode.IsControl)
}

// CheckBattlefield checks bf and the combatants' starts against the
// limits above and the editor's grid bounds: sizes, counts, lengths, cells
// and starts inside the grid, unique ids. Whether it makes a good fight is
// the ruleset's to say (it may also refuse a grid of 0 × 0, which a draft
// may hold for a while).
func CheckBattlefield(e Editor, bf Battlefield, starts map[string]Start) error {
	maxW, maxH := MaxGridSide, MaxGridSide
	if e.MaxWidth > 0 {
		maxW = min(maxW, e.MaxWidth)
	}
	if e.MaxHeight > 0 {
		maxH = min(maxH, e.MaxHeight)
	}
	if bf.Width < 0 || bf.Height < 0 || bf.Width > maxW || bf.Height > maxH {
		return fmt.Errorf("battlefield: the grid must be at most %d squares wide and %d high, not %d × %d", maxW, maxH, bf.Width, bf.Height)
	}
	if !(bf.Scale >= 0 && bf.Scale <= MaxGridSide) {
		return fmt.Errorf("battlefield: the map's scale is 0 to %d squares a column, not %g", MaxGridSide, bf.Scale)
	}
	if !CheckText(bf.Model, MaxIDLen) {
		return fmt.Errorf("battlefield: the model is not a short text")
	}
	if n := len(bf.Cells); n > max(bf.Width*bf.Height, 0) {
		return fmt.Errorf("battlefield: %d squares described on a %d × %d grid", n, bf.Width, bf.Height)
	}
	cells := make(map[[2]int]bool, len(bf.Cells))
	for _, c := range bf.Cells {
		if c.X < 0 || c.Y < 0 || c.X >= bf.Width || c.Y >= bf.Height {
			return fmt.Errorf("battlefield: square (%d, %d) is outside the %d × %d grid", c.X, c.Y, bf.Width, bf.Height)
		}
		if cells[[2]int{c.X, c.Y}] {
			return fmt.Errorf("battlefield: square %s is described twice", SquareName(c.X, c.Y))
		}
		cells[[2]int{c.X, c.Y}] = true
		if err := checkProps(c.Props, "square "+SquareName(c.X, c.Y)); err != nil {
			return err
		}
	}
	if len(bf.Zones) > MaxZones {
		return fmt.Errorf("battlefield: at most %d zones, not %d", MaxZones, len(bf.Zones))
	}
	zones := make(map[string]bool, len(bf.Zones))
	for _, z := range bf.Zones {
		if z.ID == "" || !CheckText(z.ID, MaxIDLen) || len(z.ID) > MaxIDLen {
			return fmt.Errorf("battlefield: a zone id must be 1–%d bytes of text", MaxIDLen)
		}
		if zones[z.ID] {
			return fmt.Errorf("battlefield: zone id %q is used twice", z.ID)
		}
		zones[z.ID] = true
		if !CheckText(z.Name, MaxNameLen) || !CheckText(z.Description, MaxTextLen) {
			return fmt.Errorf("battlefield: zone %q: a name is at most %d characters and a description %d, without control characters", z.ID, MaxNameLen, MaxTextLen)
		}
		if len(z.Adjacent) > MaxZones {
			return fmt.Errorf("battlefield: zone %q borders more than %d zones", z.ID, MaxZones)
		}
		for _, p := range []*int{z.X, z.Y} {
			if p != nil && (*p < 0 || *p > MaxZonePlace) {
				return fmt.Errorf("battlefield: zone %q: its place on the map is a column and a row from 0 to %d", z.ID, MaxZonePlace)
			}
		}
		if err := CheckSpan(z); err != nil {
			return fmt.Errorf("battlefield: %w", err)
		}
		if err := checkProps(z.Props, "zone "+z.ID); err != nil {
			return err
		}
	}
	for _, z := range bf.Zones {
		for _, a := range z.Adjacent {
			if len(a) > MaxIDLen {
				return fmt.Errorf("battlefield: zone %q borders an id longer than %d bytes", z.ID, MaxIDLen)
			}
		}
	}
	if len(bf.Melees) > MaxGroups {
		return fmt.Errorf("battlefield: at most %d starting melees, not %d", MaxGroups, len(bf.Melees))
	}
	for _, m := range bf.Melees {
		if len(m.ID) > MaxIDLen || len(m.Zone) > MaxIDLen || len(m.Members) > MaxGroups {
			return fmt.Errorf("battlefield: a melee's ids are at most %d bytes and it has at most %d members", MaxIDLen, MaxGroups)
		}
	}
	if len(bf.Pairs) > MaxPairs {
		return fmt.Errorf("battlefield: at most %d starting engagements, not %d", MaxPairs, len(bf.Pairs))
	}
	for _, p := range bf.Pairs {
		if len(p.A) > MaxIDLen || len(p.B) > MaxIDLen || !CheckText(p.Distance, MaxIDLen) {
			return fmt.Errorf("battlefield: an engagement names combatants and a distance of at most %d bytes", MaxIDLen)
		}
	}
	if len(bf.Distances) > MaxDistances {
		return fmt.Errorf("battlefield: at most %d starting distances, not %d", MaxDistances, len(bf.Distances))
	}
	for _, d := range bf.Distances {
		if len(d.A) > MaxIDLen || len(d.B) > MaxIDLen || !CheckText(d.Rung, MaxIDLen) {
			return fmt.Errorf("battlefield: a distance names sides and a rung of at most %d bytes", MaxIDLen)
		}
	}
	if err := checkPlaces(bf.Places); err != nil {
		return err
	}
	for id, st := range starts {
		if (st.X == nil) != (st.Y == nil) {
			return fmt.Errorf("%s: a start on the grid needs both x and y", id)
		}
		w, h := MaxGridSide, MaxGridSide
		if bf.Width > 0 && bf.Height > 0 {
			w, h = bf.Width, bf.Height
		}
		if st.X != nil && (*st.X < 0 || *st.Y < 0 || *st.X >= w || *st.Y >= h) {
			return fmt.Errorf("%s: the start (%d, %d) is outside the %d × %d grid", id, *st.X, *st.Y, w, h)
		}
		if len(st.Zone) > MaxIDLen || !CheckText(st.Group, 32) {
			return fmt.Errorf("%s: a start's zone is at most %d bytes and its group 32 characters", id, MaxIDLen)
		}
		if err := checkProps(st.Props, id); err != nil {
			return err
		}
	}
	return nil
}

// checkPlaces bounds a map's places as zones are bounded: at most
// MaxZones rooms, a path for each two, and who stands where among the
// sides and combatants (MaxPairs); a path's length is a number of metres
// a map could hold.
func checkPlaces(pl *Places) error {
	if pl == nil {
		return nil
	}
	if len(pl.Rooms) > MaxZones || len(pl.Paths) > MaxZones*(MaxZones-1)/2 || len(pl.At) > MaxPairs {
		return fmt.Errorf("battlefield: at most %d places, a path between each two and %d starts in them", MaxZones, MaxPairs)
	}
	if pl.Width < 0 || pl.Height < 0 || pl.Width > MaxMapSide || pl.Height > MaxMapSide {
		return fmt.Errorf("battlefield: the places' map is 0 to %d squares a side", MaxMapSide)
	}
	for _, r := range pl.Rooms {
		if r.ID == "" || len(r.ID) > MaxIDLen || !CheckText(r.ID, MaxIDLen) || !CheckText(r.Name, MaxNameLen) || !CheckText(r.Description, MaxTextLen) {
			return fmt.Errorf("battlefield: a place has an id of 1–%d bytes, a name of at most %d characters and a description of %d", MaxIDLen, MaxNameLen, MaxTextLen)
		}
		if !(r.CX >= 0 && r.CY >= 0 && r.CX <= MaxMapSide && r.CY <= MaxMapSide) {
			return fmt.Errorf("battlefield: place %q: its middle is 0 to %d squares from the map's corner", r.ID, MaxMapSide)
		}
	}
	for _, p := range pl.Paths {
		if len(p.A) > MaxIDLen || len(p.B) > MaxIDLen || !(p.Metres >= 0 && p.Metres <= 1e5) {
			return fmt.Errorf("battlefield: a path joins two places' ids of at most %d bytes and is 0 to 100 km long", MaxIDLen)
		}
	}
	for k, v := range pl.At {
		if len(k) > MaxIDLen || len(v) > MaxIDLen {
			return fmt.Errorf("battlefield: a place's start names ids of at most %d bytes", MaxIDLen)
		}
	}
	return nil
}

// CheckSpan checks a zone's size on the page's map: W and H from 0 (one
// column or row) and, with its place, within the map's 12 columns and
// rows.
func CheckSpan(z ZoneSetup) error {
	side := MaxZonePlace + 1
	x, y := 0, 0
	if z.X != nil && z.Y != nil {
		x, y = *z.X, *z.Y
	}
	if z.W < 0 || z.H < 0 || x+max(z.W, 1) > side || y+max(z.H, 1) > side {
		return fmt.Errorf("zone %q: it spans %d × %d columns and rows from column %d, row %d: the map has %d of each", z.ID, max(z.W, 1), max(z.H, 1), x, y, side)
	}
	return nil
}

// checkProps bounds props: how many, and the length of a text value (their
// names and values are the ruleset's to check, see CheckProps).
func checkProps(p Props, what string) error {
	if len(p) > MaxProps {
		return fmt.Errorf("%s: at most %d properties, not %d", what, MaxProps, len(p))
	}
	for name, v := range p {
		if len(name) > MaxIDLen {
			return fmt.Errorf("%s: a property name is at most %d bytes", what, MaxIDLen)
		}
		if s, ok := v.(string); ok && !CheckText(s, 200) {
			return fmt.Errorf("%s: %s is longer than 200 characters or holds control characters", what, name)
		}
		if _, ok := v.(map[string]any); ok {
			return fmt.Errorf("%s: %s must be a text, a number or true/false", what, name)
		}
		if _, ok := v.([]any); ok {
			return fmt.Errorf("%s: %s must be a text, a number or true/false", what, name)
		}
	}
	return nil
}
