// Package uvtt reads battlemap files — the Universal VTT format that
// Dungeondraft, DungeonFog and Arkenforge export (.dd2vtt, .uvtt,
// .df2vtt, format 0.2–0.3) and a Foundry VTT scene export — into one
// neutral Map: the walls and doors in grid squares, the map's size and
// scale, and its picture still encoded. What a map becomes (zones, a grid
// with walls) is internal/battlemap's to say.
//
// A map file is a user's file like any other: its size is capped before
// it is read (MaxBytes), it is decoded under intake's gate, its walls and
// doors are capped in count, every coordinate must lie on the map (give
// or take Margin squares), and its picture is left encoded for
// images.Unembed and images.Process, the bounded path every picture
// takes. Every refusal is a fray error that says why.
package uvtt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Limits of a map file.
const (
	// MaxBytes bounds a map file: exports in the wild run to 30 MB, most
	// of it the picture (which images then bounds on its own).
	MaxBytes = 40 << 20
	// MaxSide bounds the map's width and height, in grid squares.
	MaxSide = 200
	// MaxWalls bounds the wall polylines (line_of_sight and
	// objects_line_of_sight together, or a Foundry scene's walls).
	MaxWalls = 20000
	// MaxPoints bounds the points of all the polylines together: a cave
	// drawn in many short segments runs to a few tens of thousands.
	MaxPoints = 200000
	// MaxLengthPerSquare bounds the walls' total length, in squares, by
	// the map's area: 4 is a wall along every edge of every square, far
	// more than any drawn map holds, and it bounds what reading the
	// zones costs (internal/battlemap walks the walls square by square).
	MaxLengthPerSquare = 4
	// MaxPortals bounds the doors and windows.
	MaxPortals = 2000
	// Margin is how far outside the map a coordinate may lie, in squares:
	// exporters draw the outer walls on or just past the edge.
	Margin = 2
	// maxDepth bounds nesting: a point in a polyline in a list is four
	// levels deep.
	maxDepth = 16
)

// Point is a place on the map in grid squares, (0, 0) its top-left
// corner.
type Point struct{ X, Y float64 }

// Wall is one polyline that blocks movement. Sight is false for a wall
// that blocks movement but not sight (a Foundry window).
type Wall struct {
	Points []Point
	Sight  bool
}

// Portal is a door across the gap between A and B. Closed says how the
// file left it.
type Portal struct {
	A, B   Point
	Closed bool
}

// Map is a battlemap read from a file.
type Map struct {
	// Source names the format read ("Universal VTT 0.3", "Foundry scene").
	Source string
	// Width and Height are the map's size in grid squares.
	Width, Height int
	// PixelsPerGrid is the picture's scale: pixels a square.
	PixelsPerGrid int
	Walls         []Wall
	Portals       []Portal
	// Image is the picture as the file carries it (base64 or a data:
	// URL), "" for none: see images.Unembed.
	Image string
	// Name is the scene's name when the file gives one.
	Name string
}

// Read reads a map file from r: its size capped at MaxBytes before it is
// read, then Parse.
func Read(ctx context.Context, r io.Reader) (*Map, error) {
	data, err := intake.Read(r, MaxBytes, "map file")
	if err != nil {
		return nil, err
	}
	return Parse(ctx, data)
}

// point is a file's point in whatever units it uses.
type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// uvttDoc is the part of a Universal VTT document Fray reads; other
// fields (lights, environment) are skipped.
type uvttDoc struct {
	Format     json.RawMessage `json:"format"`
	Resolution *struct {
		MapOrigin     point   `json:"map_origin"`
		MapSize       point   `json:"map_size"`
		PixelsPerGrid float64 `json:"pixels_per_grid"`
	} `json:"resolution"`
	LineOfSight        [][]point `json:"line_of_sight"`
	ObjectsLineOfSight [][]point `json:"objects_line_of_sight"`
	Portals            []struct {
		Position point   `json:"position"`
		Bounds   []point `json:"bounds"`
		Rotation float64 `json:"rotation"`
		Closed   bool    `json:"closed"`
	} `json:"portals"`
	Image string `json:"image"`
	// Foundry's scene export.
	Walls []struct {
		C     []float64 `json:"c"`
		Door  int       `json:"door"`
		DS    int       `json:"ds"`
		Move  *int      `json:"move"`
		Sense *int      `json:"sense"`
		Sight *int      `json:"sight"`
	} `json:"walls"`
	Name    string          `json:"name"`
	Width   float64         `json:"width"`
	Height  float64         `json:"height"`
	Grid    json.RawMessage `json:"grid"`
	Padding float64         `json:"padding"`
}

// Parse reads a map file held in data (see Read): a Universal VTT
// document, or a Foundry scene when it has "walls" instead of
// "line_of_sight".
func Parse(ctx context.Context, data []byte) (*Map, error) {
	if len(data) > MaxBytes {
		return nil, fray.Errorf(fray.ETOOLARGE, "the map file is larger than %s, the most accepted", intake.Size(MaxBytes))
	}
	if !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("{")) {
		return nil, fray.Errorf(fray.EINVALID, "the map file is not a Universal VTT (.dd2vtt, .uvtt, .df2vtt) or Foundry scene JSON document: it does not start with {")
	}
	if err := strictjson.Check(data, maxDepth); err != nil {
		return nil, fray.Errorf(fray.EINVALID, "the map file: %s", fray.ErrorMessage(err))
	}
	var doc uvttDoc
	// Typed fields only: decoding holds the text and the picture's copy,
	// and points bounded by the text.
	err := intake.Run(ctx, intake.Job{What: "map file", Cost: 3 * int64(len(data))}, func(ctx context.Context) error {
		dec := json.NewDecoder(intake.NewReader(ctx, data))
		if err := dec.Decode(&doc); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fray.Errorf(fray.EINVALID, "the map file is not valid JSON of a map: %v", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if doc.Resolution == nil && doc.Walls != nil {
		return foundry(&doc)
	}
	return universal(&doc)
}

// universal checks and converts a Universal VTT document.
func universal(doc *uvttDoc) (*Map, error) {
	if len(doc.Format) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "the map file has no \"format\": it is not a Universal VTT document")
	}
	var format float64
	if err := json.Unmarshal(doc.Format, &format); err != nil {
		var s string
		if json.Unmarshal(doc.Format, &s) != nil {
			return nil, fray.Errorf(fray.EINVALID, "the map file's \"format\" is not a version number")
		}
		if format, err = strconv.ParseFloat(s, 64); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "the map file's \"format\" %q is not a version number", s)
		}
	}
	if format < 0.2 || format > 0.3+1e-9 {
		return nil, fray.Errorf(fray.EINVALID, "the map file is Universal VTT format %g: Fray reads formats 0.2 to 0.3", format)
	}
	if doc.Resolution == nil {
		return nil, fray.Errorf(fray.EINVALID, "the map file has no \"resolution\" (its size in squares and its scale)")
	}
	res := doc.Resolution
	m := &Map{Source: "Universal VTT " + strconv.FormatFloat(format, 'f', -1, 64), Image: doc.Image}
	var err error
	if m.Width, m.Height, err = side(res.MapSize.X, res.MapSize.Y); err != nil {
		return nil, err
	}
	if !finite(res.PixelsPerGrid) || res.PixelsPerGrid < 0 || res.PixelsPerGrid > 4096 {
		return nil, fray.Errorf(fray.EINVALID, "the map's pixels_per_grid %g is not a scale from 1 to 4096", res.PixelsPerGrid)
	}
	m.PixelsPerGrid = int(res.PixelsPerGrid)
	origin := Point{res.MapOrigin.X, res.MapOrigin.Y}
	if !finite(origin.X) || !finite(origin.Y) || math.Abs(origin.X) > MaxSide*4 || math.Abs(origin.Y) > MaxSide*4 {
		return nil, fray.Errorf(fray.EINVALID, "the map's map_origin is not a place near the map")
	}
	lines := len(doc.LineOfSight) + len(doc.ObjectsLineOfSight)
	if lines > MaxWalls {
		return nil, fray.Errorf(fray.ETOOLARGE, "the map has %d wall lines: Fray reads at most %d", lines, MaxWalls)
	}
	if len(doc.Portals) > MaxPortals {
		return nil, fray.Errorf(fray.ETOOLARGE, "the map has %d doors and windows: Fray reads at most %d", len(doc.Portals), MaxPortals)
	}
	points := 0
	for _, group := range [][][]point{doc.LineOfSight, doc.ObjectsLineOfSight} {
		for _, line := range group {
			if points += len(line); points > MaxPoints {
				return nil, fray.Errorf(fray.ETOOLARGE, "the map's walls have more than %d points: Fray reads at most that many", MaxPoints)
			}
		}
	}
	at := func(p point, what string) (Point, error) {
		q := Point{p.X - origin.X, p.Y - origin.Y}
		return q, m.onMap(q, what)
	}
	for gi, group := range [][][]point{doc.LineOfSight, doc.ObjectsLineOfSight} {
		what := [...]string{"line_of_sight", "objects_line_of_sight"}[gi]
		for i, line := range group {
			if len(line) < 2 {
				continue
			}
			w := Wall{Sight: true, Points: make([]Point, len(line))}
			for j, p := range line {
				if w.Points[j], err = at(p, fmt.Sprintf("%s %d", what, i+1)); err != nil {
					return nil, err
				}
			}
			m.Walls = append(m.Walls, w)
		}
	}
	for i, p := range doc.Portals {
		if len(p.Bounds) != 2 {
			return nil, fray.Errorf(fray.EINVALID, "portal %d has %d bounds: a door spans two points", i+1, len(p.Bounds))
		}
		what := fmt.Sprintf("portal %d", i+1)
		a, err := at(p.Bounds[0], what)
		if err != nil {
			return nil, err
		}
		b, err := at(p.Bounds[1], what)
		if err != nil {
			return nil, err
		}
		m.Portals = append(m.Portals, Portal{A: a, B: b, Closed: p.Closed})
	}
	return m, m.checkLength()
}

// checkLength refuses walls longer in all than MaxLengthPerSquare squares
// for each square of the map (plus its rim).
func (m *Map) checkLength() error {
	total := 0.0
	for _, w := range m.Walls {
		for i := 1; i < len(w.Points); i++ {
			total += math.Hypot(w.Points[i].X-w.Points[i-1].X, w.Points[i].Y-w.Points[i-1].Y)
		}
	}
	for _, p := range m.Portals {
		total += math.Hypot(p.B.X-p.A.X, p.B.Y-p.A.Y)
	}
	limit := float64(MaxLengthPerSquare * (m.Width + 2*Margin) * (m.Height + 2*Margin))
	if total > limit {
		return fray.Errorf(fray.ETOOLARGE, "the map's walls and doors are %.0f squares long in all: a %d × %d map may hold at most %.0f", total, m.Width, m.Height, limit)
	}
	return nil
}

// foundry checks and converts a Foundry scene: walls in pixels, c is
// [x1, y1, x2, y2]; door 0 is a wall, 1 a door, 2 a secret door; ds 1 is
// open; move 0 does not block movement (an invisible wall of sight only).
// The scene's padding shifts the map inside Foundry's canvas.
func foundry(doc *uvttDoc) (*Map, error) {
	grid := 0.0
	if len(doc.Grid) > 0 {
		var g struct {
			Size float64 `json:"size"`
		}
		if json.Unmarshal(doc.Grid, &grid) != nil {
			if json.Unmarshal(doc.Grid, &g) != nil {
				return nil, fray.Errorf(fray.EINVALID, "the scene's grid is neither a size nor {\"size\": …}")
			}
			grid = g.Size
		}
	}
	if !finite(grid) || grid < 10 || grid > 4096 {
		return nil, fray.Errorf(fray.EINVALID, "the scene's grid size %g is not a square of 10 to 4096 pixels", grid)
	}
	m := &Map{Source: "Foundry scene", Name: doc.Name, PixelsPerGrid: int(grid)}
	var err error
	if m.Width, m.Height, err = side(doc.Width/grid, doc.Height/grid); err != nil {
		return nil, err
	}
	if !finite(doc.Padding) || doc.Padding < 0 || doc.Padding > 0.5 {
		return nil, fray.Errorf(fray.EINVALID, "the scene's padding %g is not between 0 and 0.5", doc.Padding)
	}
	// Foundry pads by whole squares around the picture.
	ox := math.Ceil(doc.Width*doc.Padding/grid) * grid
	oy := math.Ceil(doc.Height*doc.Padding/grid) * grid
	if len(doc.Walls) > MaxWalls {
		return nil, fray.Errorf(fray.ETOOLARGE, "the scene has %d walls: Fray reads at most %d", len(doc.Walls), MaxWalls)
	}
	doors := 0
	for i, w := range doc.Walls {
		if len(w.C) != 4 {
			return nil, fray.Errorf(fray.EINVALID, "wall %d has %d coordinates: a wall is [x1, y1, x2, y2]", i+1, len(w.C))
		}
		what := fmt.Sprintf("wall %d", i+1)
		a := Point{(w.C[0] - ox) / grid, (w.C[1] - oy) / grid}
		b := Point{(w.C[2] - ox) / grid, (w.C[3] - oy) / grid}
		if err := m.onMap(a, what); err != nil {
			return nil, err
		}
		if err := m.onMap(b, what); err != nil {
			return nil, err
		}
		switch {
		case w.Door > 0:
			if doors++; doors > MaxPortals {
				return nil, fray.Errorf(fray.ETOOLARGE, "the scene has more than %d doors: Fray reads at most that many", MaxPortals)
			}
			m.Portals = append(m.Portals, Portal{A: a, B: b, Closed: w.DS != 1})
		case w.Move != nil && *w.Move == 0:
			// Blocks sight only: no wall for movement.
		default:
			sight := (w.Sense == nil || *w.Sense != 0) && (w.Sight == nil || *w.Sight != 0)
			m.Walls = append(m.Walls, Wall{Points: []Point{a, b}, Sight: sight})
		}
	}
	return m, m.checkLength()
}

// side checks a map's size in squares, rounding a fraction up.
func side(w, h float64) (int, int, error) {
	if !finite(w) || !finite(h) || w < 1 || h < 1 || w > MaxSide || h > MaxSide {
		return 0, 0, fray.Errorf(fray.EINVALID, "the map is %g × %g squares: Fray reads maps of 1 to %d squares a side", w, h, MaxSide)
	}
	return int(math.Ceil(w - 1e-6)), int(math.Ceil(h - 1e-6)), nil
}

// onMap refuses a point farther than Margin squares outside the map.
func (m *Map) onMap(p Point, what string) error {
	if !finite(p.X) || !finite(p.Y) || p.X < -Margin || p.Y < -Margin || p.X > float64(m.Width+Margin) || p.Y > float64(m.Height+Margin) {
		return fray.Errorf(fray.EINVALID, "%s has a point (%g, %g) outside the %d × %d squares of the map", what, p.X, p.Y, m.Width, m.Height)
	}
	return nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
