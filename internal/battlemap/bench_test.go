package battlemap

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// hostile is the worst map the reader lets through: the largest size,
// the most wall lines, each a loose segment (every end a gap to look
// for) — or, long, as many segments across the whole map as the walls'
// total length allows.
func hostile(long bool) uvtttest.Map {
	r := rand.New(rand.NewPCG(1, 2))
	m := uvtttest.Map{W: uvtt.MaxSide, H: uvtt.MaxSide}
	n := uvtt.MaxWalls
	if long {
		n = 550
	}
	for range n {
		a := uvtttest.P{X: r.Float64() * (uvtt.MaxSide - 3), Y: r.Float64() * (uvtt.MaxSide - 3)}
		b := uvtttest.P{X: a.X + r.Float64()*3, Y: a.Y + r.Float64()*3}
		if long {
			b = uvtttest.P{X: uvtt.MaxSide - a.X, Y: uvtt.MaxSide - a.Y}
		}
		m.Walls = append(m.Walls, []uvtttest.P{a, b})
	}
	return m
}

// BenchmarkPlanHostile: the time to read the zones of the worst maps
// (short loose segments everywhere; long ones across the map; either with
// one window, which lays the walls that block sight a second time).
func BenchmarkPlanHostile(b *testing.B) {
	for _, tc := range []struct {
		name         string
		long, window bool
	}{{"short", false, false}, {"long", true, false}, {"short-window", false, true}, {"long-window", true, true}} {
		m, err := uvtt.Parse(context.Background(), hostile(tc.long).JSON())
		if err != nil {
			b.Fatal(err)
		}
		m.Walls[0].Sight = !tc.window
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Plan(m, Options{ZoneSpan: 40}); err != nil {
					b.Log(err)
				}
			}
		})
	}
}

// TestPiledWalls: walls piled on one spot (every loose end near every
// other) are read in bounded time, saying that some openings were not
// looked for.
func TestPiledWalls(t *testing.T) {
	m := uvtttest.Map{W: uvtt.MaxSide, H: uvtt.MaxSide}
	r := rand.New(rand.NewPCG(3, 4))
	for range uvtt.MaxWalls {
		a := uvtttest.P{X: 50 + r.Float64()*2, Y: 50 + r.Float64()*2}
		m.Walls = append(m.Walls, []uvtttest.P{a, {X: a.X + 0.5, Y: a.Y + 0.3}})
	}
	um, err := uvtt.Parse(context.Background(), m.JSON())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Plan(um, Options{ZoneSpan: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Notes) == 0 || !strings.Contains(b.Notes[0], "too many to look for every gap") {
		t.Errorf("notes %q", b.Notes)
	}
}
