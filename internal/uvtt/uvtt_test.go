package uvtt

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// TestParse reads a Universal VTT document and a Foundry scene into one
// Map: walls, doors, size, scale and picture.
func TestParse(t *testing.T) {
	ctx := context.Background()
	house := uvtttest.House()
	house.Image = []byte("not decoded here")
	m, err := Parse(ctx, house.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if m.Width != 10 || m.Height != 6 || m.PixelsPerGrid != 70 || len(m.Walls) != 5 || len(m.Portals) != 2 || !m.Portals[0].Closed || m.Portals[1].Closed {
		t.Fatalf("house: %+v", m)
	}
	if got, _ := base64.StdEncoding.DecodeString(m.Image); string(got) != "not decoded here" {
		t.Fatalf("image %q", m.Image)
	}
	// Format as a string, an origin that shifts every point.
	doc := `{"format":"0.2","resolution":{"map_origin":{"x":-2,"y":1},"map_size":{"x":4.5,"y":3},"pixels_per_grid":100},
		"line_of_sight":[[{"x":-2,"y":1},{"x":2,"y":1}]],"portals":[]}`
	if m, err = Parse(ctx, []byte(doc)); err != nil {
		t.Fatal(err)
	}
	if m.Width != 5 || m.Height != 3 || m.Walls[0].Points[0] != (Point{0, 0}) || m.Walls[0].Points[1] != (Point{4, 0}) {
		t.Fatalf("origin: %+v", m)
	}
	// Foundry: pixels, padding, doors, a wall that blocks sight only.
	scene := `{"name":"Inn","width":1000,"height":500,"grid":{"size":100},"padding":0.25,"background":{"src":"inn.webp"},
		"walls":[{"c":[300,200,1300,200],"door":0,"move":20,"sense":20},
		{"c":[300,300,400,300],"door":1,"ds":1,"move":20,"sense":20},
		{"c":[300,400,400,400],"door":2,"ds":0},
		{"c":[300,500,400,500],"door":0,"move":0,"sense":20},
		{"c":[300,600,400,600],"door":0,"move":20,"sense":0}]}`
	if m, err = Parse(ctx, []byte(scene)); err != nil {
		t.Fatal(err)
	}
	if m.Source != "Foundry scene" || m.Name != "Inn" || m.Width != 10 || m.Height != 5 || len(m.Walls) != 2 || len(m.Portals) != 2 {
		t.Fatalf("foundry: %+v", m)
	}
	if m.Walls[0].Points[0] != (Point{0, 0}) || m.Walls[0].Points[1] != (Point{10, 0}) || !m.Walls[0].Sight || m.Walls[1].Sight {
		t.Fatalf("foundry walls: %+v", m.Walls)
	}
	if m.Portals[0].Closed || !m.Portals[1].Closed {
		t.Fatalf("foundry doors: %+v", m.Portals)
	}
}

// TestParseRefuses: every hostile or broken file is refused with a
// message that says why.
func TestParseRefuses(t *testing.T) {
	ctx := context.Background()
	many := func(n int, s string) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }
	res := `"resolution":{"map_origin":{"x":0,"y":0},"map_size":{"x":10,"y":10},"pixels_per_grid":50}`
	for _, tc := range []struct {
		name, doc, code, says string
	}{
		{"not JSON", "PNG…", fray.EINVALID, "does not start with {"},
		{"no format", `{` + res + `}`, fray.EINVALID, `no "format"`},
		{"format 1.0", `{"format":1.0,` + res + `}`, fray.EINVALID, "formats 0.2 to 0.3"},
		{"no resolution", `{"format":0.3}`, fray.EINVALID, `no "resolution"`},
		{"huge map", `{"format":0.3,"resolution":{"map_size":{"x":5000,"y":10},"pixels_per_grid":50}}`, fray.EINVALID, "1 to 200 squares"},
		{"point far off", `{"format":0.3,` + res + `,"line_of_sight":[[{"x":0,"y":0},{"x":99,"y":0}]]}`, fray.EINVALID, "line_of_sight 1 has a point (99, 0) outside"},
		{"door of three points", `{"format":0.3,` + res + `,"portals":[{"bounds":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0}]}]}`, fray.EINVALID, "portal 1 has 3 bounds"},
		{"too many lines", `{"format":0.3,` + res + `,"line_of_sight":[` + many(MaxWalls+1, `[]`) + `]}`, fray.ETOOLARGE, "wall lines"},
		{"too many doors", `{"format":0.3,` + res + `,"portals":[` + many(MaxPortals+1, `{}`) + `]}`, fray.ETOOLARGE, "doors and windows"},
		{"too many points", `{"format":0.3,` + res + `,"line_of_sight":[[` + many(MaxPoints+1, `{"x":1,"y":1}`) + `]]}`, fray.ETOOLARGE, "more than 200000 points"},
		{"too deep", `{"format":0.3,"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, fray.EINVALID, "nested deeper"},
		{"walls not numbers", `{"format":0.3,` + res + `,"line_of_sight":[[{"x":"a","y":1}]]}`, fray.EINVALID, "not valid JSON of a map"},
		{"walls too long", `{"format":0.3,` + res + `,"line_of_sight":[` + many(300, `[{"x":0,"y":0},{"x":10,"y":10},{"x":0,"y":10},{"x":10,"y":0}]`) + `]}`, fray.ETOOLARGE, "squares long in all"},
		{"foundry wall of 3", `{"width":100,"height":100,"grid":50,"walls":[{"c":[1,2,3]}]}`, fray.EINVALID, "wall 1 has 3 coordinates"},
		{"foundry no grid", `{"width":100,"height":100,"walls":[]}`, fray.EINVALID, "grid size 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(ctx, []byte(tc.doc))
			if fray.ErrorCode(err) != tc.code || !strings.Contains(fray.ErrorMessage(err), tc.says) {
				t.Fatalf("got %v, want %s saying %q", err, tc.code, tc.says)
			}
		})
	}
	// Read caps the size before reading on.
	big := &endless{}
	if _, err := Read(ctx, big); fray.ErrorCode(err) != fray.ETOOLARGE || big.n > MaxBytes+64<<10 {
		t.Fatalf("endless file: %v after %d bytes", err, big.n)
	}
	if _, err := Read(ctx, bytes.NewReader(uvtttest.Hall().JSON())); err != nil {
		t.Fatal(err)
	}
}

// endless is a file that never ends.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += len(p)
	return len(p), nil
}
