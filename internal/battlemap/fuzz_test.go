package battlemap

import (
	"context"
	"testing"

	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// FuzzParseAndPlan: whatever a map file holds, reading it and its zones
// refuses or succeeds — never panics — and every zone it makes lies on
// the map, holds squares, and every link joins two of its zones.
func FuzzParseAndPlan(f *testing.F) {
	for _, m := range uvtttest.All() {
		f.Add(m.JSON(), 6)
	}
	f.Add([]byte(`{"width":500,"height":300,"grid":100,"walls":[{"c":[0,100,500,100],"door":1}]}`), 3)
	f.Fuzz(func(t *testing.T, data []byte, span int) {
		m, err := uvtt.Parse(context.Background(), data)
		if err != nil {
			return
		}
		b, err := Plan(m, Options{ZoneSpan: span % 50})
		if err != nil {
			return
		}
		ids := map[string]bool{}
		for _, z := range b.Zones {
			if z.Cells <= 0 || z.X < 0 || z.Y < 0 || z.X+z.W > m.Width || z.Y+z.H > m.Height || ids[z.ID] {
				t.Fatalf("zone %+v on a %d × %d map", z, m.Width, m.Height)
			}
			ids[z.ID] = true
		}
		for _, l := range b.Links {
			if !ids[l.A] || !ids[l.B] || l.A == l.B {
				t.Fatalf("link %+v", l)
			}
		}
	})
}
