package d6bands

import (
	"testing"
)

// Range bands: Chebyshev distance in squares, close contact in a group,
// Extreme off the map or five squares away (spec c1).
func TestBands(t *testing.T) {
	setup := newSetup(nil, grid(8, 8),
		spec{ID: "ana", Side: "heroes", X: 2, Y: 2, Group: "g1", Init: 30},
		spec{ID: "orc1", Side: "foes", X: 2, Y: 2, Group: "g1", Init: 1},
		spec{ID: "orc2", Side: "foes", X: 2, Y: 2, Init: 2},
		spec{ID: "orc3", Side: "foes", X: 3, Y: 3, Init: 3},
		spec{ID: "orc4", Side: "foes", X: 4, Y: 3, Init: 4},
		spec{ID: "orc5", Side: "foes", X: 5, Y: 0, Init: 5},
		spec{ID: "orc6", Side: "foes", X: 6, Y: 6, Init: 6},
		spec{ID: "orc7", Side: "foes", X: 7, Y: 2, Init: 7},
		spec{ID: "orc8", Side: "foes", Off: true, Init: 8},
	)
	st := newState(t, setup)
	ana := st.Fighters["ana"]
	for id, want := range map[string]string{
		"orc1": "Close Contact", "orc2": "Very Close", "orc3": "Close", "orc4": "Distant", "orc5": "Far",
		"orc6": "Very Far", "orc7": "Extreme", "orc8": "Extreme",
	} {
		eq(t, "band to "+id, BandName(st.Band(ana, st.Fighters[id])), want)
	}
	// The sum of the distances instead (band-metric: manhattan).
	setup.Options[OptBandMetric] = MetricManhattan
	st = newState(t, setup)
	eq(t, "manhattan band to orc3", BandName(st.Band(st.Fighters["ana"], st.Fighters["orc3"])), "Distant")
}

func TestParseBands(t *testing.T) {
	for in, want := range map[string]string{"close": "Close", "Close/Distant": "Close/Distant", "very far, far": "Far/Very Far", "very-close": "Very Close"} {
		got, err := parseBands(in)
		if err != nil || bandsText(got) != want {
			t.Errorf("parseBands(%q) = %v %v, want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "extreme", "near", "close/distant/far"} {
		if _, err := parseBands(in); err == nil {
			t.Errorf("parseBands(%q) accepted", in)
		}
	}
}

// Line of sight: a blocking square between, or two squares of heavy cover
// (the target's own included), block it (spec c6).
func TestLineOfSight(t *testing.T) {
	st := newState(t, newSetup(nil, grid(6, 3,
		cellAt{2, 0, map[string]any{"blocks": true}},
		cellAt{2, 1, map[string]any{"cover": "3"}},
		cellAt{4, 1, map[string]any{"cover": "3"}},
		cellAt{3, 2, map[string]any{"cover": "3"}},
	),
		spec{ID: "ana", Side: "heroes", X: 0, Y: 0, Init: 2},
		spec{ID: "orc", Side: "foes", X: 5, Y: 0, Init: 1},
	))
	tests := []struct {
		from, to point
		want     bool
	}{
		{point{0, 0}, point{4, 0}, false}, // the blocking square (2,0) is between
		{point{0, 0}, point{1, 0}, true},  // nothing between
		{point{0, 0}, point{2, 0}, true},  // the blocking square itself can be seen into
		{point{0, 1}, point{3, 1}, true},  // one square of heavy cover between
		{point{0, 1}, point{4, 1}, false}, // heavy (2,1) between and heavy (4,1) the target's: two
		{point{0, 1}, point{5, 1}, false}, // two heavy squares between
		{point{3, 2}, point{3, 2}, true},  // the same square
		{point{0, 2}, point{3, 2}, true},  // only the target's own heavy cover
	}
	for _, tc := range tests {
		eq(t, "sight "+tc.from.String()+" → "+tc.to.String(), st.sight(tc.from, tc.to), tc.want)
	}
	st.Options[OptHeavyLOS] = "0"
	eq(t, "heavy cover ignored", st.sight(point{0, 1}, point{5, 1}), true)
}
