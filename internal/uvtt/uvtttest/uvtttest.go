// Package uvtttest builds Universal VTT map files for tests: the maps the
// battlemap tests, the `server map` tests and the browser test import,
// drawn in code so that what each should become can be written by hand.
package uvtttest

import (
	"encoding/base64"
	"encoding/json"
	"math"
)

// P is a point in grid squares.
type P struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Portal is a door from A to B.
type Portal struct {
	A, B   P
	Closed bool
}

// Map is a map to write as a file.
type Map struct {
	W, H    int
	Walls   [][]P
	Objects [][]P
	Portals []Portal
	// Image is the picture's bytes, nil for none.
	Image []byte
}

// JSON writes m as a Universal VTT 0.3 document.
func (m Map) JSON() []byte {
	type portal struct {
		Position     P       `json:"position"`
		Bounds       []P     `json:"bounds"`
		Rotation     float64 `json:"rotation"`
		Closed       bool    `json:"closed"`
		Freestanding bool    `json:"freestanding"`
	}
	doc := map[string]any{
		"format": 0.3,
		"resolution": map[string]any{
			"map_origin":      P{0, 0},
			"map_size":        P{float64(m.W), float64(m.H)},
			"pixels_per_grid": 70,
		},
		"line_of_sight":         nonNil(m.Walls),
		"objects_line_of_sight": nonNil(m.Objects),
		"lights":                []any{},
		"environment":           map[string]any{"baked_lighting": true, "ambient_light": "ffffffff"},
		"software":              "fray tests",
	}
	ps := []portal{}
	for _, p := range m.Portals {
		ps = append(ps, portal{Position: P{(p.A.X + p.B.X) / 2, (p.A.Y + p.B.Y) / 2}, Bounds: []P{p.A, p.B}, Closed: p.Closed})
	}
	doc["portals"] = ps
	if m.Image != nil {
		doc["image"] = base64.StdEncoding.EncodeToString(m.Image)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

func nonNil(ls [][]P) [][]P {
	if ls == nil {
		return [][]P{}
	}
	return ls
}

// Rect is a closed rectangle from (x0, y0) to (x1, y1).
func Rect(x0, y0, x1, y1 float64) []P {
	return []P{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}
}

// House is 10 × 6 squares, walled round: a west room (5 × 6), and east
// of it a north room and a south room (5 × 3 each). A closed door joins
// west and north at (5, 1)–(5, 2), an open door north and south at
// (7, 3)–(8, 3).
func House() Map {
	return Map{W: 10, H: 6,
		Walls: [][]P{Rect(0, 0, 10, 6),
			{{5, 0}, {5, 1}}, {{5, 2}, {5, 6}},
			{{5, 3}, {7, 3}}, {{8, 3}, {10, 3}}},
		Portals: []Portal{{P{5, 1}, P{5, 2}, true}, {P{7, 3}, P{8, 3}, false}}}
}

// LRoom is an L-shaped room on an 8 × 8 map: the map's north-east 4 × 4
// quarter is outside it.
func LRoom() Map {
	return Map{W: 8, H: 8, Walls: [][]P{{{0, 0}, {4, 0}, {4, 4}, {8, 4}, {8, 8}, {0, 8}, {0, 0}}}}
}

// Hall is a 12 × 6 hall, walled round, with two square pillars: one on
// square (3, 2), one on (8, 3).
func Hall() Map {
	return Map{W: 12, H: 6, Walls: [][]P{Rect(0, 0, 12, 6)},
		Objects: [][]P{Rect(3, 2, 4, 3), Rect(8, 3, 9, 4)}}
}

// Cave is two 5 × 5 chambers joined by a passage one square wide, on a
// 12 × 5 map, its outline drawn as hundreds of separate short segments
// that wobble off the grid lines.
func Cave() Map {
	outline := []P{{0, 0}, {5, 0}, {5, 2}, {7, 2}, {7, 0}, {12, 0}, {12, 5}, {7, 5}, {7, 3}, {5, 3}, {5, 5}, {0, 5}, {0, 0}}
	var walls [][]P
	prev := outline[0]
	k := 0
	for i := 1; i < len(outline); i++ {
		a, b := outline[i-1], outline[i]
		n := int(math.Round(math.Hypot(b.X-a.X, b.Y-a.Y) * 4))
		for s := 1; s <= n; s++ {
			t := float64(s) / float64(n)
			p := P{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
			if s < n {
				// Wobble across the line, never as far as a square's centre.
				w := 0.12 * math.Sin(float64(k))
				k++
				if a.X == b.X {
					p.X += w
				} else {
					p.Y += w
				}
			}
			walls = append(walls, []P{prev, p})
			prev = p
		}
	}
	return Map{W: 12, H: 5, Walls: walls}
}

// Archway is two 5 × 5 rooms side by side on a 10 × 5 map, the wall
// between them open from (5, 2) to (5, 3): no door, a gap.
func Archway() Map {
	return Map{W: 10, H: 5, Walls: [][]P{Rect(0, 0, 10, 5), {{5, 0}, {5, 2}}, {{5, 3}, {5, 5}}}}
}

// Open is a 12 × 12 map with no walls at all.
func Open() Map { return Map{W: 12, H: 12} }

// All are the test maps by name.
func All() map[string]Map {
	return map[string]Map{"house": House(), "l-room": LRoom(), "hall": Hall(), "cave": Cave(), "archway": Archway(), "open": Open()}
}
